import { z } from 'zod';

/** A text field; numbers are read as text (a postcode typed as 118, a house number as 12). */
const text = (max: number) =>
  z
    .union([z.string().max(max), z.number()])
    .transform(String)
    .optional();

/** `true`, `false`, and the forms spreadsheets and query strings use (1/0, "true", "si"). */
const flag = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((v, ctx) => {
    if (typeof v === 'boolean') return v;
    const s = String(v).trim().toLowerCase();
    if (['1', 'true', 'yes', 'si', 'sì'].includes(s)) return true;
    if (['0', 'false', 'no', ''].includes(s)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be a boolean' });
    return z.NEVER;
  })
  .optional();

/**
 * One contact, English keys (Italian keys and the Italian option values dichiarati / rileva are
 * mapped before validation). Options sent at the top of a batch are copied into every item.
 */
export const contactItem = z.object({
  id: z.unknown().optional(),
  address: text(500),
  postcode: text(20),
  city: text(200),
  province: text(100),
  country_code: text(10),
  country: text(100),
  tax_code: text(100),
  last_name: text(200),
  first_name: text(200),
  gender: text(40),
  birth_date: text(40),
  foreign: z.enum(['declared', 'detect']).optional(),
  postal_form: flag,
  preserve_original: flag,
  precision: z.coerce.number().int().min(1).max(5).optional(),
});

export type ContactItem = z.infer<typeof contactItem>;

/** Options that apply to a whole batch when sent at its top level. */
export const CONTACT_BATCH_OPTIONS = ['foreign', 'postal_form', 'preserve_original', 'precision'];
