import { z } from 'zod';

const FORMATS: Record<string, 'national' | 'international'> = {
  national: 'national',
  nazionale: 'national',
  international: 'international',
  internazionale: 'international',
};

/** One phone field to verify. Italian option values (nazionale, internazionale) are read as English. */
export const phoneItem = z.object({
  id: z.unknown().optional(),
  phone: z.union([z.string().max(500), z.number()]).transform(String).optional(),
  format: z
    .string()
    .transform((v, ctx) => {
      const f = FORMATS[v.trim().toLowerCase()];
      if (!f) {
        ctx.addIssue({ code: 'custom', message: 'must be national or international (nazionale, internazionale)' });
        return z.NEVER;
      }
      return f;
    })
    .optional(),
  country_code: z.string().max(3).optional(),
  country: z.string().max(100).optional(),
});

export type PhoneItem = z.infer<typeof phoneItem>;
