import { z } from 'zod';

/** Strings that callers also send as numbers (postcodes, phones); null is "not given". */
const text = z.union([z.string(), z.number()]).nullable().optional();

/** A phone or e-mail: a bare value or {type, value}. */
const detail = z.union([z.string(), z.number(), z.object({ type: z.string().nullable().optional(), value: z.union([z.string(), z.number()]) }).loose()]);

/** `phone` / `email`: a value, a list of values, or a list of {type, value}. */
const details = z.union([detail, z.array(detail)]).nullable().optional();

const address = z
  .object({
    type: z.string().nullable().optional(),
    address: text,
    house_number: text,
    postcode: text,
    city: text,
    province: text,
    country: text,
    country_code: text,
  })
  .loose();

/** One dedupe record (spec: Dedupe record). Unknown fields are ignored, not refused. */
export const dedupeRecord = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    last_name: text,
    first_name: text,
    address: text,
    postcode: text,
    city: text,
    province: text,
    gender: text,
    email: details,
    phone: details,
    country: text,
    country_code: text,
    tax_code: text,
    birth_date: text,
    addresses: z.array(address).optional(),
    phones: z.array(detail).optional(),
    emails: z.array(detail).optional(),
  })
  .loose();

export type DedupeRecord = z.infer<typeof dedupeRecord>;

export const minLevel = z.enum(['certain', 'probable', 'ambiguous']);
export type MinLevel = z.infer<typeof minLevel>;

/** The compare request (and, with `job`, the incremental one). Sizes are checked before this. */
export const compareRequest = z.object({
  records: z.array(dedupeRecord).min(1, 'records_at_least_one'),
  reference: z.array(dedupeRecord).min(1, 'records_at_least_one').optional(),
  min_level: minLevel.default('probable'),
  foreign: z.enum(['declared', 'detect']).default('declared'),
  save: z.boolean().default(true),
  async: z.boolean().default(false),
  job: z.string().trim().min(1).optional(),
  language: z.string().optional(),
});
export type CompareRequest = z.infer<typeof compareRequest>;

/** POST {job, group, processed: true}: a group marked reviewed. */
export const reviewRequest = z.object({
  job: z.string({ error: 'job_required' }).trim().min(1, 'job_required'),
  group: z.coerce.number({ error: 'the group number is required' }).int().positive(),
  processed: z.literal(true, { error: 'must be true' }),
  language: z.string().optional(),
});
export type ReviewRequest = z.infer<typeof reviewRequest>;
