/**
 * First tries across Italy (`places-first-tries.json`, written by hand for issue 29 from the ISTAT and
 * postcode lists, not from the engine's answers): city names as people write them (`Reggio Emilia`,
 * `S. Lazzaro di Savena`, `Bozen`), short names that need their province (`Montecatini` PT) and the same
 * without it (an abstention naming the candidates is the right answer), municipalities merged away
 * (`Rossano`, `Porretta Terme`), hamlets written as the city (`Mestre`, `Fregene`), one-line input
 * (`Strada Maggiore 20 40125 BO`) and current postcodes that must stay (`Segrate 20054`) or stale ones
 * that must be replaced (`Segrate 20090`).
 *
 * Judged on the municipality only (the street is another step): right = the expected municipality and
 * province (and hamlet where one is expected; the postcode kept or replaced as expected); abstained = a
 * CITY_* or INCOMPLETE_DATA condition with no municipality; wrong = any other municipality, a hamlet lost,
 * a current postcode replaced, or an answer where several municipalities fit.
 * Run: npm run build:ts && node dist/bench/places-eval.js [--examples]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { verifyContacts, type ContactResult } from '../src/native.js';
import { contactBenchDataDir } from './contact-register.js';

interface Case {
  kind: string;
  address: string;
  postcode?: string;
  city?: string;
  province?: string;
  municipality?: string;
  municipality_province?: string;
  hamlet?: string;
  expect?: 'ambiguous' | 'postcode_kept' | 'postcode_replaced';
}

type Verdict = 'right' | 'abstained' | 'wrong';

const CITY_CONDITIONS = new Set(['CITY_NOT_FOUND', 'CITY_AMBIGUOUS', 'INCOMPLETE_DATA']);

export function judge(c: Case, r: ContactResult): Verdict {
  const found = r.territory != null && r.municipality != null;
  if (c.expect === 'ambiguous') {
    if (!found && r.outcome.some((o) => CITY_CONDITIONS.has(o))) return 'right';
    return 'wrong';
  }
  if (!found) return 'abstained';
  if (r.municipality !== c.municipality || r.normalized.province !== c.municipality_province) return 'wrong';
  if (c.hamlet && r.hamlet !== c.hamlet) return 'wrong';
  if (c.expect === 'postcode_kept' && r.normalized.postcode !== c.postcode) return 'wrong';
  if (c.expect === 'postcode_replaced' && r.normalized.postcode === c.postcode) return 'wrong';
  return 'right';
}

async function main(): Promise<void> {
  const examples = process.argv.includes('--examples');
  const cases = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'bench', 'places-first-tries.json'), 'utf8')) as Case[];
  await contactBenchDataDir();
  const results = await verifyContacts({
    items: cases.map((c) => ({ address: c.address, postcode: c.postcode, city: c.city, province: c.province })),
    options: {},
  });
  const table = new Map<string, Record<Verdict, number>>();
  const row = (k: string) => table.get(k) ?? table.set(k, { right: 0, abstained: 0, wrong: 0 }).get(k)!;
  cases.forEach((c, i) => {
    const r = results[i] as ContactResult;
    const v = judge(c, r);
    row(c.kind)[v] += 1;
    row('all')[v] += 1;
    if (examples && v !== 'right') {
      const got = `${r.municipality ?? '-'} (${r.normalized.province}) hamlet=${r.hamlet ?? '-'} pc=${r.normalized.postcode} [${r.outcome.join(' ')}]`;
      const cands = (r.candidates ?? []).map((x) => `${x.municipality ?? x.street} ${x.province ?? ''}`).join('; ');
      console.log(`${v.padEnd(9)} ${c.kind.padEnd(9)} ${JSON.stringify([c.address, c.postcode ?? '', c.city ?? '', c.province ?? ''])} → ${got}${cands ? ` candidates: ${cands}` : ''}`);
    }
  });
  console.log('kind       n   right  abstained  wrong');
  for (const [k, v] of [...table.entries()].sort((a, b) => (a[0] === 'all' ? 1 : b[0] === 'all' ? -1 : a[0].localeCompare(b[0])))) {
    const n = v.right + v.abstained + v.wrong;
    console.log(`${k.padEnd(9)} ${String(n).padStart(3)}  ${((100 * v.right) / n).toFixed(1).padStart(5)}%  ${String(v.abstained).padStart(9)}  ${String(v.wrong).padStart(5)}`);
  }
}

if (process.argv[1]?.endsWith('places-eval.js')) {
  await main();
}
