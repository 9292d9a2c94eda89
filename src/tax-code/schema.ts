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
      ctx.addIssue({ code: 'custom', message: 'must be generate, validate, extract or compare (genera, valida, estrai, confronta)' });
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
