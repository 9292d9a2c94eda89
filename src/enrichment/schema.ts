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
