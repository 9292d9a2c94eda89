import { z } from 'zod';

const ACTIONS = {
  generate: 'generate',
  genera: 'generate',
  validate: 'validate',
  valida: 'validate',
  extract: 'extract',
  estrai: 'extract',
  compare: 'compare',
  confronta: 'compare',
} as const;

export type TaxCodeAction = (typeof ACTIONS)[keyof typeof ACTIONS];

/** A text field; numbers are read as text (a date typed as 19800315, a code pasted as a number). */
const text = (max: number) =>
  z
    .union([z.string().max(max), z.number()])
    .transform(String)
    .optional();

/**
 * One tax-code item, English keys (Italian keys and values are mapped before validation; the Italian
 * action names are accepted here too). Which data an action needs is not enforced here: a missing
 * datum is an answer (`error` names it), not a bad request.
 */
export const taxCodeItem = z.object({
  id: z.unknown().optional(),
  action: z.string().transform((v, ctx) => {
    const action = ACTIONS[v.trim().toLowerCase() as keyof typeof ACTIONS];
    if (!action) {
      ctx.addIssue({ code: 'custom', message: 'tax_code_action' });
      return z.NEVER;
    }
    return action;
  }),
  tax_code: text(100),
  last_name: text(200),
  first_name: text(200),
  gender: text(40),
  birth_date: text(40),
  birth_place: text(200),
});

export type TaxCodeItem = z.infer<typeof taxCodeItem>;

const place = z.string();

/** One answer, as the OpenAPI document shows it (outcome, outcome_label and reason are common to every result). */
export const taxCodeResult = z.object({
  tax_code: z.string().optional(),
  error: z.string().optional().describe('short form of the first failed check, or the missing datum on generate; Italian with language it'),
  suggestion: z.string().optional(),
  homocode: z.boolean().optional(),
  decoded: z.string().optional(),
  birth_date: z.string().optional(),
  age: z.number().optional(),
  gender: z.string().optional(),
  ambiguous_year: z.boolean().optional(),
  place: place.optional().describe('municipality as named on the birth date, or foreign country'),
  province: z.string().optional().describe('province on the birth date, also for a place that was part of another municipality then'),
  cadastral_code: z.string().optional(),
  born_abroad: z.boolean().optional(),
  birth_country: z.string().optional(),
  iso3: z.string().optional(),
  country_code: z.string().optional(),
  current_name: z.string().optional().describe('name today, when the municipality was renamed since the birth date'),
  current_province: z.string().optional().describe('province today, when the place is named or placed otherwise than on the birth date'),
  differences: z.array(z.string()).optional(),
  options: z.array(z.object({ cadastral_code: z.string(), name: z.string(), province: z.string().nullable().optional() })).optional(),
  notes: z.array(z.string()).describe('what the service noticed about the code (homocode, ceased place, ambiguous year…), in the request language; empty when nothing'),
  comments: z
    .array(z.string())
    .describe('the place of birth then and today (not yet a municipality, part of another, its province then and now), in the request language; empty when nothing'),
});
