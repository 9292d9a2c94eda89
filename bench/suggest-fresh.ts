/**
 * Suggest calls that the streets-phase memo mostly cannot answer: the http-scenarios suggest body types one
 * Bologna prefix over and over (every call after the first is a memo hit), real traffic types distinct
 * streets in distinct cities. Here 200 municipalities drawn from the register (`sampleStreetsSync`), a few
 * thousand of their real streets typed letter by letter (`via r`, `via ru`, ... with the city field), the
 * streets in turn over the cities, so that the first few thousand calls (the diagnostics' warm-up) have
 * asked every city once (a city's streets are loaded by its first search). Short prefixes of a city still
 * repeat across its streets (`via`, `via d`): real typing does that too. Sessions of 30 calls, as in the
 * other scenario (the sessions' quota and the tokens' day budget are not what is measured).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { openRegister } from '../src/native.js';
import { sampleStreetsSync } from './bench-doors.js';

const CITIES = 200;
const STREETS = 6_000;
/** Prefixes typed per street: from three letters to the whole name, at most this many. */
const MAX_TYPED = 24;

let bodies: { q: string; city: string }[] | undefined;
const sessions = new Map<number, string>();

/**
 * Draws the streets and their keystrokes (about a second, once per process): before the load starts, so that
 * no request waits for it. Reads the test register the scenario server was started on (`.tmp/test-register`).
 */
export function prepareFreshSuggest(): void {
  if (bodies) return;
  openRegister(path.join(PROJECT_ROOT, '.tmp', 'test-register'));
  const codes = [...new Set(sampleStreetsSync({ count: 2 * CITIES, seed: 11 }).map((s) => s.cadastral_code))].slice(0, CITIES);
  const byCity = new Map<string, { name: string; city: string }[]>();
  const seen = new Set<string>();
  for (const s of sampleStreetsSync({ cadastral_codes: codes, count: STREETS, seed: 12 })) {
    const name = `${s.street_type} ${s.name}`.toLowerCase();
    if (seen.has(`${s.cadastral_code}/${name}`)) continue;
    seen.add(`${s.cadastral_code}/${name}`);
    const list = byCity.get(s.cadastral_code) ?? [];
    list.push({ name, city: s.city });
    byCity.set(s.cadastral_code, list);
  }
  const out: { q: string; city: string }[] = [];
  const lists = [...byCity.values()];
  for (let round = 0; lists.some((l) => round < l.length); round++) {
    for (const list of lists) {
      const street = list[round];
      if (!street) continue;
      for (let len = 3; len <= Math.min(street.name.length, 3 + MAX_TYPED - 1); len++) out.push({ q: street.name.slice(0, len), city: street.city });
    }
  }
  bodies = out;
  const distinct = new Set(out.map((b) => `${b.city}/${b.q}`)).size;
  console.error(`suggest-fresh: ${out.length} calls over ${seen.size} streets of ${byCity.size} municipalities, ${distinct} distinct (text, city)`);
}

/** The n-th call's body (prepareFreshSuggest first). */
export function freshSuggestBody(n: number): string {
  if (!bodies) prepareFreshSuggest();
  const all = bodies as { q: string; city: string }[];
  const b = all[n % all.length] as { q: string; city: string };
  const i = Math.floor(n / 30);
  let session = sessions.get(i);
  if (!session) sessions.set(i, (session = randomUUID()));
  return JSON.stringify({ session, q: b.q, city: b.city });
}
