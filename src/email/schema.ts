import { z } from 'zod';

/** Booleans as clients send them in JSON or from a CSV/form: true/false, 1/0, "si"/"no". */
export const looseBoolean = z.union([
  z.boolean(),
  z.number().transform((n) => n !== 0),
  z.string().transform((s, ctx) => {
    const v = s.trim().toLowerCase();
    if (['true', '1', 'yes', 'si', 'sì', 'y'].includes(v)) return true;
    if (['false', '0', 'no', 'n'].includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: 'type_boolean' });
    return z.NEVER;
  }),
]);

/** One email to verify. */
export const emailItem = z.object({
  id: z.unknown().optional(),
  email: z.string().max(1000).optional(),
  dns: looseBoolean.optional(),
});

export type EmailItem = z.infer<typeof emailItem>;
