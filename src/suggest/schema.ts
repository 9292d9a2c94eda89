import { z } from 'zod';

import { validate } from '../http/validation.js';

/** A text field; numbers are read as text (a postcode typed as 40132, a house number as 12). */
const text = (max: number) =>
  z
    .union([z.string().max(max), z.number()])
    .transform(String)
    .optional();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The text fields of a call and their longest accepted length. */
const TEXT_LIMITS = { q: 300, city: 200, postcode: 20, province: 100, country_code: 10, country: 100, street_id: 60, house_number: 20 } as const;
type TextField = keyof typeof TEXT_LIMITS;
const TEXT_FIELDS = Object.keys(TEXT_LIMITS) as TextField[];

/**
 * One autocomplete call, English keys (sessione, azione: seleziona, via_id, civico... are mapped
 * before validation). `session` is the client's UUID (any version, canonical 8-4-4-4-12 form).
 */
export const suggestRequest = z.object({
  session: z.string().trim().regex(UUID, 'must be a UUID (8-4-4-4-12 hexadecimal)'),
  q: text(TEXT_LIMITS.q),
  action: z.enum(['suggest', 'select']).default('suggest'),
  city: text(TEXT_LIMITS.city),
  postcode: text(TEXT_LIMITS.postcode),
  province: text(TEXT_LIMITS.province),
  country_code: text(TEXT_LIMITS.country_code),
  country: text(TEXT_LIMITS.country),
  street_id: text(TEXT_LIMITS.street_id),
  house_number: text(TEXT_LIMITS.house_number),
});

export type SuggestRequest = z.infer<typeof suggestRequest>;

/**
 * `suggestRequest` read from an English body. A keystroke's call is read directly when it is plainly valid
 * (a UUID session, a known action, text fields as strings within their limits or finite numbers), giving what the
 * schema gives (trimmed session, default action, numbers as text, other keys left out) without the
 * schema's walk (~3 µs of a call that costs ~50); anything else goes through the schema, which answers the
 * 400s.
 */
export function readSuggestRequest(body: Record<string, unknown>): SuggestRequest {
  const { session, action } = body;
  if (typeof session !== 'string' || !(action === undefined || action === 'suggest' || action === 'select')) return validate(suggestRequest, body);
  const trimmed = session.trim();
  if (!UUID.test(trimmed)) return validate(suggestRequest, body);
  const out: SuggestRequest = { session: trimmed, action: action ?? 'suggest' };
  for (const field of TEXT_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value === 'string' && value.length <= TEXT_LIMITS[field]) out[field] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) out[field] = String(value);
    else return validate(suggestRequest, body);
  }
  return out;
}

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
