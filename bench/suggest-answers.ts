/**
 * The answers of real keystroke sessions, written to a file: run before and after a change of the suggest
 * path and compare the two files (`cmp`), so that a speed-up is known to change no answer. Not a bench of
 * speed and not a test (the answers are the register's, kept only between two runs of the same data):
 *
 *   node dist/bench/suggest-answers.js out.json
 *
 * Sessions: Bologna streets of the city's own house-number list (as bench/http.bench.ts builds them), typed
 * letter by letter with the city field, a typo, the whole address in one field, select of the first street,
 * the house-number phase, a second street selected, and the refusals (another country, past 30 calls);
 * every other session with Italian keys on /suggerisci. Plus the province alone, the municipality alone, a
 * later word of the name, a register country (Luxembourg) and a country not in service.
 */
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';

import { parse } from 'csv-parse';

import { addPack } from '../src/state/ledger.js';
import { call, SOURCE, startServer } from '../test/helpers/server.js';

const out = process.argv[2];
if (!out) throw new Error('usage: suggest-answers.js <out.json>');

/** Distinct Bologna streets with one of their real numbers and postcodes. */
async function bolognaStreets(n: number): Promise<{ street: string; number: string; postcode: string }[]> {
  const seen = new Map<string, { street: string; number: string; postcode: string }>();
  const rows = createReadStream(path.join(SOURCE, 'it/civici/bologna/civici_2012.csv.gz')).pipe(createGunzip()).pipe(parse({ columns: true }));
  let i = 0;
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    if (i++ % 37 !== 0 || !row.DENOMINAZI || row.CAP === '0' || seen.has(row.DENOMINAZI)) continue;
    seen.set(row.DENOMINAZI, { street: row.DENOMINAZI, number: row.NCIVSUB ?? '1', postcode: row.CAP ?? '' });
    if (seen.size >= n) break;
  }
  return [...seen.values()];
}

const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
await addPack(server.state, 'test', 'contact', 1_000_000);
const answers: unknown[] = [];
let sessions = 0;
let token = server.token;
/** Deterministic session UUIDs, so that two runs send the same bodies. */
function nextSession(): string {
  sessions += 1;
  return `00000000-0000-4000-8000-${String(sessions).padStart(12, '0')}`;
}

async function send(italian: boolean, body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const path = italian ? '/api/v1/suggerisci' : '/api/v1/suggest';
  const res = await call(server, 'POST', path, italian ? { ...body, lingua: 'it' } : body, { token });
  answers.push({ path, request: body, status: res.status, body: res.body });
  return { status: res.status, body: res.body as Record<string, unknown> };
}

/** English keys to the Italian ones of the request (docs: sessione, azione, via_id, civico...). */
function keys(italian: boolean, body: Record<string, unknown>): Record<string, unknown> {
  if (!italian) return body;
  const names: Record<string, string> = { session: 'sessione', action: 'azione', street_id: 'via_id', house_number: 'civico', city: 'localita', postcode: 'cap', province: 'provincia' };
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [names[k] ?? k, k === 'action' && v === 'select' ? 'seleziona' : v]));
}

const hintsOf = (b: Record<string, unknown>): { id: string; type: string }[] => (b.hints ?? b.suggerimenti ?? []) as { id: string; type: string }[];

const streets = await bolognaStreets(60);
for (const [i, s] of streets.entries()) {
  const italian = i % 2 === 1;
  const session = nextSession();
  const typed = s.street.toLowerCase();
  let last: Record<string, unknown> = {};
  for (let len = 3; len <= typed.length; len += 2) last = (await send(italian, keys(italian, { session, q: typed.slice(0, len), city: 'Bologna' }))).body;
  last = (await send(italian, keys(italian, { session, q: typed, city: 'Bologna' }))).body;
  // a typo: two letters swapped in the middle of the name
  const k = Math.floor(typed.length / 2);
  await send(italian, keys(italian, { session, q: typed.slice(0, k) + (typed[k + 1] ?? '') + (typed[k] ?? '') + typed.slice(k + 2), city: 'Bologna' }));
  await send(italian, keys(italian, { session, q: `${s.street} ${s.number}, ${s.postcode} Bologna` }));
  const first = hintsOf(last).find((h) => h.type === 'street');
  if (!first) continue;
  await send(italian, keys(italian, { session, street_id: first.id, house_number: '1' }));
  await send(italian, keys(italian, { session, action: 'select', street_id: first.id, house_number: s.number }));
  for (const n of [s.number.slice(0, 1), s.number, '9999']) await send(italian, keys(italian, { session, street_id: first.id, house_number: n }));
  await send(italian, keys(italian, { session, action: 'select', street_id: first.id, house_number: s.number }));
  if (i % 5 === 0) await send(italian, keys(italian, { session, q: 'rue de rivoli', city: 'Paris', country_code: 'FR' }));
  if (i % 7 === 0) while ((await send(italian, keys(italian, { session, q: typed.slice(0, 4), city: 'Bologna' }))).status === 200);
  if (i % 20 === 19) token = await server.newToken('test');
}
for (const italian of [false, true]) {
  const session = nextSession();
  for (const q of ['via del faggiol', 'via del fagiolo', 'via rizz']) await send(italian, keys(italian, { session, q, province: 'BO' }));
  const alone = nextSession();
  for (const q of ['Bol', 'Bologna', 'Milano', 'corso garibaldi']) await send(italian, keys(italian, { session: alone, q }));
  const later = nextSession();
  for (const q of ['corso garibaldi', 'garibaldi', 'indipendenza', 'viamarconi', 'marconni']) await send(italian, keys(italian, { session: later, q, city: q === 'corso garibaldi' ? 'Milano' : 'Bologna' }));
  const lu = nextSession();
  const found = await send(italian, keys(italian, { session: lu, q: 'rue de', city: 'Luxembourg', country_code: 'LU' }));
  const street = hintsOf(found.body)[0];
  if (street) {
    await send(italian, keys(italian, { session: lu, action: 'select', street_id: street.id, house_number: '1', country_code: 'LU' }));
    await send(italian, keys(italian, { session: lu, street_id: street.id, house_number: '1', country_code: 'LU' }));
  }
  await send(italian, keys(italian, { session: nextSession(), q: 'rue de rivoli, Paris', country_code: 'FR' }));
}
await server.close();
await writeFile(out, JSON.stringify(answers, null, 1));
console.log(`${answers.length} answers of ${sessions} sessions written to ${out}`);
