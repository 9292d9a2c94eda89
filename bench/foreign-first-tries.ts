/**
 * The first-tries set of issue 30 (`bench/data/foreign-lines.tsv`) through the real service: POST
 * /api/v1/contact, so that the service's country catalogue reads the countries written as names
 * (`Germania`, `Spagna`) as a customer's request would have them read — the Rust test
 * (`postal::tests::first_tries_at_foreign_one_liners`) hands the core the ISO code instead.
 *
 * A foreign row is right with its country, postcode and city; `given` rows carry the country field,
 * `detect` and `named` rows none (`foreign: detect`); an Italian row is right when it stays in Italy.
 * Run: npm run build:ts && node dist/bench/foreign-first-tries.js [--examples]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { addPack } from '../src/state/ledger.js';
import { call, startServer } from '../test/helpers/server.js';

interface Row {
  kind: string;
  want_country: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  want_postcode: string;
  want_city: string;
}

interface Answer {
  normalized: { postcode: string; city: string; country_code: string };
  foreign_address?: boolean;
  outcome: string[];
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');

export function rows(): Row[] {
  const text = readFileSync(path.join(PROJECT_ROOT, 'bench', 'data', 'foreign-lines.tsv'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const f = l.split('\t').map((x) => x.trim());
      const at = (i: number) => f[i] ?? '';
      return { kind: at(0), want_country: at(1), address: at(2), postcode: at(3), city: at(4), country: at(5), want_postcode: at(7), want_city: at(8) };
    });
}

export function right(row: Row, a: Answer): boolean {
  if (row.kind === 'italian') return a.normalized.country_code === 'IT' && a.foreign_address !== true;
  return a.normalized.country_code === row.want_country && fold(a.normalized.postcode) === fold(row.want_postcode) && fold(a.normalized.city) === fold(row.want_city);
}

async function main(): Promise<void> {
  const examples = process.argv.includes('--examples');
  const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
  await addPack(server.state, 'test', 'contact', 100_000);
  try {
    const all = rows();
    const items = all.map((r) => ({
      address: r.address,
      ...(r.postcode ? { postcode: r.postcode } : {}),
      ...(r.city ? { city: r.city } : {}),
      ...(r.country ? { country: r.country } : { foreign: 'detect' }),
    }));
    const res = await call(server, 'POST', '/api/v1/contact', { items, language: 'en' });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const answers = (res.body.results as { result: Answer }[]).map((x) => x.result);
    const table = new Map<string, { n: number; right: number }>();
    all.forEach((r, i) => {
      const a = answers[i] as Answer;
      const ok = right(r, a);
      for (const k of [r.kind, r.kind === 'italian' ? 'italian (stays IT)' : 'foreign (all)']) {
        const t = table.get(k) ?? { n: 0, right: 0 };
        t.n += 1;
        t.right += ok ? 1 : 0;
        table.set(k, t);
      }
      if (examples && !ok) {
        const n = a.normalized;
        console.log(`wrong ${r.kind} ${JSON.stringify([r.address, r.postcode, r.city, r.country])} → ${n.country_code} | ${n.postcode} | ${n.city} [${a.outcome.join(' ')}]`);
      }
    });
    console.log('kind                 n  right');
    for (const [k, t] of table) console.log(`${k.padEnd(18)} ${String(t.n).padStart(3)}  ${t.right} (${((100 * t.right) / t.n).toFixed(1)}%)`);
  } finally {
    await server.close();
  }
}

if (process.argv[1]?.endsWith('foreign-first-tries.js')) {
  await main();
}
