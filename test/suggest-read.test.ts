import test from 'ava';

import { ApiError } from '../src/http/errors.js';
import { validate } from '../src/http/validation.js';
import { readSuggestRequest, suggestRequest } from '../src/suggest/schema.js';

const SESSION = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';

/** Bodies as clients send them (already with English keys), plainly valid or not. */
const BODIES: Record<string, unknown>[] = [
  { session: SESSION, q: 'via del fag', city: 'Bologna' },
  { session: ` ${SESSION.toUpperCase()}\t`, q: 'via del faggiolo 7, 40132 bologna' },
  { session: SESSION, action: 'select', street_id: '4200', house_number: 7, postcode: 40132 },
  { session: SESSION, action: 'suggest', street_id: 4200, house_number: '12 b', country_code: 'it', country: 'Italia', province: 'BO' },
  { session: SESSION, q: 'rue de', city: 'Luxembourg', country_code: 'LU', language: 'fr', unknown: { deep: [1, 2] } },
  { session: SESSION, q: '' },
  { session: SESSION, q: 'x'.repeat(300) },
  { session: SESSION, house_number: 1.5 },
  { session: SESSION, q: -0 },
  // refused by the schema
  { session: SESSION, q: 'x'.repeat(301) },
  { session: SESSION, house_number: 'x'.repeat(21) },
  { session: SESSION, q: null },
  { session: SESSION, q: ['via'] },
  { session: SESSION, city: { name: 'Bologna' } },
  { session: SESSION, q: true },
  { session: SESSION, house_number: Infinity },
  { session: SESSION, action: 'seleziona' },
  { session: SESSION, action: null },
  { session: 'not-a-uuid', q: 'via' },
  { session: `${SESSION}0`, q: 'via' },
  { session: 12, q: 'via' },
  { q: 'via' },
  {},
];

/** What a handler sees of a reading: the fields set (in any order), or the refusal's status, code and details. */
function outcome(read: () => Record<string, unknown>): unknown {
  try {
    const value = read();
    return { ok: Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1))) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, params: error.params, details: error.details };
  }
}

test('a call is read as the schema reads it: the same values, the same 400 for what the schema refuses', (t) => {
  let direct = 0;
  for (const body of BODIES) {
    const expected = outcome(() => validate(suggestRequest, body));
    t.deepEqual(outcome(() => readSuggestRequest(body)), expected, JSON.stringify(body));
    if ((expected as { ok?: unknown }).ok) direct += 1;
  }
  t.is(direct, 9, 'the first nine bodies are valid, the others refused');
});
