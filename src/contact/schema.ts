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
    ctx.addIssue({ code: 'custom', message: 'type_boolean' });
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
  /** Adds `debug`: how the answer was reached (repairs, matching step, score, reason). */
  debug: flag,
});

export type ContactItem = z.infer<typeof contactItem>;

/** Options that apply to a whole batch when sent at its top level. */
export const CONTACT_BATCH_OPTIONS = ['foreign', 'postal_form', 'preserve_original', 'precision', 'debug'];

/**
 * The answer for one contact, for the OpenAPI document (the core builds it; this describes it).
 * `territory.cab` is absent on purpose: no open source maps Italian addresses to ABI/CAB bank
 * branch codes (docs/contact.md).
 */
export const contactResult = z.object({
  ok: z.boolean(),
  outcome: z.array(z.string()),
  outcome_label: z.enum(['ok', 'modified', 'warning', 'error']).optional(),
  message: z.string().optional(),
  normalized: z.object({ address: z.string(), postcode: z.string(), city: z.string(), province: z.string(), country: z.string(), country_code: z.string() }),
  normalized_postal: z.object({ address: z.string(), postcode: z.string(), city: z.string(), province: z.string(), country: z.string(), country_code: z.string() }).optional(),
  canonical_address: z.string().optional(),
  canonical_city: z.string().optional(),
  municipality: z.string().nullable(),
  hamlet: z.string().optional().describe('The frazione (or merged municipality) written as the city: Mestre of Venezia'),
  district: z.string().nullable(),
  address_key: z.string(),
  geo: z
    .object({ lat: z.number(), lon: z.number(), precision: z.enum(['house_number', 'interpolated', 'street', 'municipality']), source: z.enum(['anncsu', 'inspire', 'osm', 'wikidata']), dataset: z.enum(['anncsu', 'municipal', 'wikidata']) })
    .nullable(),
  territory: z.object({ istat_code: z.string(), cadastral_code: z.string(), street_id: z.string().optional() }).nullable(),
  city_type: z.object({ provincial_capital: z.boolean().nullable(), label: z.string().nullable() }).nullable(),
  postcode_check: z
    .object({
      source: z.enum(['municipal', 'anncsu', 'register']),
      precision: z.enum(['house_number', 'interpolated', 'street', 'locality', 'municipality']),
      house_numbers: z.number().int(),
      agreement: z.number(),
      confirmed: z.boolean(),
    })
    .nullable(),
  sub_address: z.array(z.object({ type: z.enum(['unit', 'staircase', 'floor', 'block', 'building', 'building_number', 'block_number']), value: z.string() })),
  sub_address_confirmed: z.literal(true).nullable(),
  care_of: z.string().optional(),
  foreign_address: z.boolean().optional(),
  tax_code: z.string().optional(),
  tax_code_outcome: z.array(z.string()).optional(),
  candidates: z
    .array(
      z.object({
        street: z.string().optional(),
        locality: z.string().optional(),
        street_id: z.string().optional(),
        municipality: z.string().optional(),
        province: z.string().optional(),
        postcodes: z.array(z.string()),
      }),
    )
    .optional()
    .describe('With STREET_AMBIGUOUS or STREET_TYPE_MISSING: the streets that fit as well; with CITY_AMBIGUOUS or CITY_NOT_FOUND: the municipalities the city may name (at most 5)'),
  debug: z
    .object({
      repairs: z.array(z.string()),
      city_match: z.enum(['same', 'form', 'changed']),
      street_step: z.string(),
      edits: z.number().int(),
      score: z.number(),
      reason: z.string(),
      house_number: z.enum(['found', 'interpolated', 'not_found', 'not_checked']),
    })
    .optional()
    .describe('With debug: true — the fields repaired, the street search step that answered, its score and reason'),
});
