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
        ctx.addIssue({ code: 'custom', message: 'phone_format' });
        return z.NEVER;
      }
      return f;
    })
    .optional(),
  country_code: z.string().max(3).optional(),
  country: z.string().max(100).optional(),
});

export type PhoneItem = z.infer<typeof phoneItem>;

const onePhone = {
  phone: z.string(),
  class: z.enum(['mobile', 'landline', 'special', 'foreign']).optional(),
  type: z.enum(['toll-free', 'premium rate', 'shared cost', 'public utility']).optional(),
  district: z.string().optional(),
  operator: z.string().optional().describe('original assignee of the mobile block'),
  e164: z.string().optional(),
  country_code: z.string().optional(),
  country_prefix: z.string().optional(),
  national_number: z.string().optional().describe("national significant number of a number of the record's own country (libphonenumber's definition: no trunk prefix; Italy keeps its leading 0)"),
};

/** One answer, as the OpenAPI document shows it. */
export const phoneResult = z.object({
  ...onePhone,
  phone2: z.string().optional(),
  phone3: z.string().optional(),
  extension: z.string().optional(),
  note: z.string().optional().describe('text the field held beside the numbers, as written'),
  numbers: z.array(z.object({ ...onePhone, outcome: z.array(z.string()) })).optional(),
  comments: z.array(z.string()).optional().describe('in the request language'),
});
