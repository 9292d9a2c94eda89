import { z } from 'zod';

/** A text field; numbers are read as text (a postcode typed as 40132, a house number as 12). */
const text = (max: number) =>
  z
    .union([z.string().max(max), z.number()])
    .transform(String)
    .optional();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One autocomplete call, English keys (sessione, azione: seleziona, via_id, civico... are mapped
 * before validation). `session` is the client's UUID (any version, canonical 8-4-4-4-12 form).
 */
export const suggestRequest = z.object({
  session: z.string().trim().regex(UUID, 'uuid_form'),
  q: text(300),
  action: z.enum(['suggest', 'select']).default('suggest'),
  city: text(200),
  postcode: text(20),
  province: text(100),
  country_code: text(10),
  country: text(100),
  street_id: text(60),
  house_number: text(20),
});

export type SuggestRequest = z.infer<typeof suggestRequest>;

export type Phase = 'streets' | 'house_numbers';

/** One proposal. Never a postcode or a house number in the streets phase. */
export interface Hint {
  type: 'street' | 'municipality' | 'house_number';
  id: string;
  name: string;
  municipality: string;
  /** Locality or district where the register has one; province otherwise (for streets). */
  area: string | null;
  /** registry, or osm where the national register does not publish */
  source: 'registry' | 'osm';
}

export interface Parsed {
  street: string | null;
  house_number: string | null;
  postcode: string | null;
}
