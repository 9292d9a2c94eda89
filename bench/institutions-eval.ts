/**
 * The 5,831 Italian addresses written by institutions (`../shared/benchmarks/address/it_institutions_sample.csv`:
 * Regione Lombardia pharmacies, hospitals and schools, the Ministry of Education's private schools) through
 * POST /api/v1/contact in batches of 500 with debug, as `shared/benchmarks/scripts/contact_it_institutions.py`
 * sends them, with the two figures of issue 29 beside the script's:
 *   - street resolved: a street_id in the answer;
 *   - current CAPs replaced: the publisher's CAP changed although today's postcode list
 *     (`it/comuni/gi_cap_<date>.csv`, the newest) gives it to the municipality answered — the count that must be 0;
 *     the other replaced CAPs (pre-reform, generic x100, another municipality's) are listed with `--examples`
 *     for reading: the publishers are sometimes wrong. Each current CAP replaced is classed by the answer's
 *     own evidence: "register right (publisher stale)" when the CAP answered is the house number's own in a
 *     municipal file (`postcode_check.precision` = house_number: Bologna's and Milano's municipi 5 and 9
 *     carry one per number), "ours wrong" otherwise (a neighbours' guess, the street's or the locality's
 *     postcode against a written one of the municipality) — the bar is 0 of ours wrong.
 * `--modified` lists the answers whose street was changed (MODIFIED with STREET), for reading whether each change
 * is right (the engine must never be confidently wrong).
 * Run: npm run build:ts && node dist/bench/institutions-eval.js [--examples] [--modified]
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';

import { defaultSourceDir, PROJECT_ROOT } from '../src/config.js';
import { addPack } from '../src/state/ledger.js';
import { call, startServer } from '../test/helpers/server.js';

interface Row {
  source: string;
  address: string;
  postcode: string;
  city: string;
  province: string;
}

interface Answer {
  outcome: string[];
  normalized: { address: string; postcode: string; city: string };
  territory: { istat_code: string; street_id?: string } | null;
  municipality: string | null;
  candidates?: { street?: string; municipality?: string }[];
  postcode_check?: { precision: string; source: string; house_numbers: number };
}

/** Why a current CAP was replaced: the house number's own postcode in a municipal file, or something weaker. */
function replacementClass(a: Answer): { ours: boolean; reason: string } {
  const check = a.postcode_check;
  if (check?.precision === 'house_number') return { ours: false, reason: `register right (publisher stale): the number's own CAP in the ${check.source} file` };
  return { ours: true, reason: `ours wrong: ${check ? `${check.precision} postcode (${check.source}, ${check.house_numbers} numbers)` : 'no postcode check'} over a current CAP written` };
}

function currentCaps(): Map<string, Set<string>> {
  const dir = path.join(defaultSourceDir(), 'it', 'comuni');
  const newest = readdirSync(dir)
    .filter((f) => /^gi_cap_.*\.csv$/.test(f))
    .sort()
    .pop();
  const out = new Map<string, Set<string>>();
  if (!newest) return out;
  for (const line of readFileSync(path.join(dir, newest), 'utf8').split('\n').slice(1)) {
    const [istat, cap] = line.trim().split(';');
    if (!istat || !cap) continue;
    const set = out.get(istat) ?? new Set<string>();
    set.add(cap);
    out.set(istat, set);
  }
  return out;
}

async function main(): Promise<void> {
  const examples = process.argv.includes('--examples');
  const modified = process.argv.includes('--modified');
  const file = path.join(PROJECT_ROOT, '..', 'shared', 'benchmarks', 'address', 'it_institutions_sample.csv');
  const rows = parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true }) as Row[];
  const caps = currentCaps();
  const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
  await addPack(server.state, 'test', 'contact', 1_000_000);
  const answers: Answer[] = [];
  try {
    const items = rows.map((r) => Object.fromEntries(Object.entries({ address: r.address, postcode: r.postcode, city: r.city, province: r.province }).filter(([, v]) => v)));
    for (let i = 0; i < items.length; i += 500) {
      const res = await call(server, 'POST', '/api/v1/contact', { items: items.slice(i, i + 500), debug: true, language: 'en' });
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      for (const x of res.body.results as { result: Answer }[]) answers.push(x.result);
    }
  } finally {
    await server.close();
  }
  const groups = new Map<string, { n: number; street: number; currentReplaced: number; oursWrong: number; otherReplaced: number; streetModified: number }>();
  const lines: string[] = [];
  rows.forEach((r, i) => {
    const a = answers[i] as Answer;
    const written = r.postcode.trim();
    const given = a.normalized.postcode;
    const istat = a.territory?.istat_code ?? '';
    const replaced = written !== '' && given !== '' && given !== written;
    const current = replaced && (caps.get(istat)?.has(written) ?? false);
    for (const k of ['ALL', r.source]) {
      const g = groups.get(k) ?? { n: 0, street: 0, currentReplaced: 0, oursWrong: 0, otherReplaced: 0, streetModified: 0 };
      g.n += 1;
      if (a.territory?.street_id) g.street += 1;
      if (current) g.currentReplaced += 1;
      if (current && replacementClass(a).ours) g.oursWrong += 1;
      else if (replaced) g.otherReplaced += 1;
      if (a.outcome.includes('MODIFIED') && a.outcome.includes('STREET')) g.streetModified += 1;
      groups.set(k, g);
    }
    if (modified && a.outcome.includes('MODIFIED') && a.outcome.includes('STREET')) {
      lines.push(`street_modified\t${r.source}\t${JSON.stringify([r.address, r.postcode, r.city, r.province])}\t→ ${a.normalized.address} | ${given} | ${a.municipality ?? '-'} [${a.outcome.join(' ')}]`);
    }
    if (examples && (replaced || !a.territory?.street_id)) {
      const tag = current ? 'CURRENT_CAP_REPLACED' : replaced ? 'cap_replaced' : 'no_street';
      const cands = (a.candidates ?? []).map((c) => c.street ?? c.municipality).join('; ');
      const why = current ? `\t(${replacementClass(a).reason})` : '';
      lines.push(`${tag}\t${r.source}\t${JSON.stringify([r.address, r.postcode, r.city, r.province])}\t→ ${a.normalized.address} | ${given} | ${a.municipality ?? '-'} [${a.outcome.join(' ')}]${cands ? ` {${cands}}` : ''}${why}`);
    }
  });
  for (const l of lines.sort()) console.log(l);
  console.log('source                 n  street resolved  current CAPs replaced (ours wrong)  other CAPs replaced  MODIFIED STREET');
  for (const [k, g] of [...groups].sort((a, b) => (a[0] === 'ALL' ? 1 : b[0] === 'ALL' ? -1 : a[0].localeCompare(b[0])))) {
    console.log(`${k.padEnd(20)} ${String(g.n).padStart(5)}  ${((100 * g.street) / g.n).toFixed(1).padStart(14)}%  ${String(g.currentReplaced).padStart(21)} ${`(${g.oursWrong})`.padStart(12)}  ${String(g.otherReplaced).padStart(19)}  ${String(g.streetModified).padStart(15)}`);
  }
}

if (process.argv[1]?.endsWith('institutions-eval.js')) {
  await main();
}
