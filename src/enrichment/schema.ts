import { z } from 'zod';

const text = z.union([z.string().max(300), z.number()]).transform(String).optional();

/** One name to enrich. Italian keys (cognome, nome, sesso, qualifica, titolo_studio) are mapped before validation. */
export const enrichmentItem = z.object({
  id: z.unknown().optional(),
  last_name: text,
  first_name: text,
  gender: text,
  profession: text,
  education: text,
  title: text,
});

export type EnrichmentItem = z.infer<typeof enrichmentItem>;

/** One answer, as the OpenAPI document shows it. */
export const enrichmentResult = z.object({
  gender: z.string().nullable().optional(),
  gender_source: z.enum(['written', 'title', 'married_name', 'first_name', 'legal_form']).optional(),
  subject_type: z.string().optional(),
  title: z.string().nullable().optional(),
  formal_salutation: z.string().nullable().optional(),
  informal_salutation: z.string().nullable().optional(),
  detail: z.record(z.string(), z.string()).optional(),
  comments: z.array(z.string()).describe('in the request language; empty when there is nothing to say'),
});
