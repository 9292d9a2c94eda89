/**
 * National scale (issue 35): the whole country's house numbers on one machine. Builds a synthetic
 * national ANNCSU extract in the Agenzia delle Entrate's own format (`STRAD_ITA` + `INDIR_ITA`,
 * `;`-separated, decimal comma, the headers of `shared/data/it/anncsu_indirizzi`), from the ANNCSU
 * streets of all Italy (`it/anncsu_odonimi`: every street, its national id, DUG and DUF), with house
 * numbers drawn like the four cities the default register has numbers for (Alessandria, Bologna,
 * Milano, Lamezia Terme: each street takes the number list of a random street of theirs, empty ones
 * included, scaled to the count asked for) and points near the municipality's centre (Wikidata).
 * Then imports it with the operator's own `recapito import` (its progress lines go to stderr) into
 * a scratch data dir, and measures contact batches on it against the default register.
 *
 *   npm run build:ts && nice -n 10 node dist/bench/national-register.js [house numbers=25000000]
 *
 * The extract is kept under .tmp/national-register/<count>/source (re-used by a re-run); the data
 * dir beside it is rebuilt each time. A register left by a killed run is continued by the import.
 * Peak RSS is the import process's (`/usr/bin/time`), not this script's. Contact batches: 500
 * addresses drawn from the national register (a third written the ways customer files write
 * them), verified in a child process per register (warm: every municipality of the batch loaded
 * once first, as a running service has them), registers alternated ABABAB, the medians compared;
 * items per CPU second too, which the machine's other load barely moves; and autocomplete (a street
 * prefix in the municipality, then the house numbers of the first hit) per second.
 * The machine is shared: times are upper bounds.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';

import { parse } from 'csv-parse/sync';

import { PROJECT_ROOT, defaultSourceDir } from '../src/config.js';
import { openRegister, searchStreetsSync, streetHouseNumbers, verifyContacts, verifyContactsSync, type SampledAddress } from '../src/native.js';
import { sampleStreets } from './bench-doors.js';
import { contactBenchDataDir } from './contact-register.js';
import { DIRTY_KINDS, PERTURBATIONS, rng } from './contact-perturb.js';

const BIN = path.join(PROJECT_ROOT, 'bin', 'recapito.js');
const FOUR_CITIES = ['A182', 'A944', 'F205', 'M208'];
const BATCH = 500;

function csvRows(file: string, delimiter: string): Record<string, string>[] {
  const raw = file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file);
  return parse(raw, { columns: true, delimiter, bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as Record<string, string>[];
}

interface Street {
  id: string;
  cadastral: string;
  dug: string;
  duf: string;
  l1: string;
  l2: string;
}

/** Every ANNCSU street of Italy, region after region. */
function streets(source: string): Street[] {
  const dir = path.join(source, 'it', 'anncsu_odonimi');
  const out: Street[] = [];
  for (const f of readdirSync(dir).filter((f) => /^odonimi_\d\d\.csv\.gz$/.test(f)).sort()) {
    for (const r of csvRows(path.join(dir, f), ',')) {
      const cadastral = (r.codice_belfiore ?? '').trim();
      const duf = (r.DUF ?? '').trim();
      if (!cadastral || !duf) continue;
      out.push({ id: (r.Progressivo_nazionale ?? '').trim(), cadastral, dug: (r.DUG ?? '').trim(), duf, l1: (r.Denominazione_lingua1 ?? '').trim(), l2: (r.Denominazione_lingua2 ?? '').trim() });
    }
  }
  return out;
}

/** Cadastral code → ISTAT code and centre (lat, lon) of today's municipalities. */
function municipalities(source: string): Map<string, { istat: string; lat: number; lon: number }> {
  const centre = new Map<string, [number, number]>();
  for (const r of csvRows(path.join(source, 'it', 'comuni', 'wikidata_comuni_coord_cap_2021.csv.gz'), ',')) {
    const m = /Point\(([-\d.]+) ([-\d.]+)\)/.exec(r.coordinate ?? '');
    if (m && r.istat) centre.set(r.istat, [Number(m[2]), Number(m[1])]);
  }
  const out = new Map<string, { istat: string; lat: number; lon: number }>();
  for (const r of csvRows(path.join(source, 'it', 'comuni', 'anpr_archivio_comuni.csv.gz'), ',')) {
    const code = r.CODCATASTALE ?? '';
    const istat = r.CODISTAT ?? '';
    if (!code || (out.has(code) && r.STATO !== 'A')) continue;
    const [lat, lon] = centre.get(istat) ?? [42.5, 12.5];
    out.set(code, { istat, lat, lon });
  }
  return out;
}

type Numbers = { n: number; s: string }[];

/** The number list of every street of the four cities, empty ones included (the default register's). */
async function templates(odonimi: Street[]): Promise<Numbers[]> {
  const perCity = new Map<string, number>();
  for (const s of odonimi) if (FOUR_CITIES.includes(s.cadastral)) perCity.set(s.cadastral, (perCity.get(s.cadastral) ?? 0) + 1);
  const out: Numbers[] = [];
  for (const code of FOUR_CITIES) {
    // ANNCSU streets first, then the ones only the municipal lists add: read until a long empty stretch
    const known = perCity.get(code) ?? 0;
    let emptyRun = 0;
    for (let index = 0; emptyRun < 500 || index < known; index++) {
      const numbers = await streetHouseNumbers({ cadastral_code: code, index });
      if (numbers.length === 0) emptyRun++;
      else emptyRun = 0;
      if (index < known || numbers.length > 0) out.push(numbers.map((h) => ({ n: h.n, s: h.s ?? '' })));
    }
  }
  return out;
}

/** Box–Muller: a normal deviate from two uniform ones. */
function gauss(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function comma(x: number, digits: number): string {
  return x.toFixed(digits).replace('.', ',');
}

/** Writes STRAD_ITA and INDIR_ITA with `count` house numbers; returns the rows written. */
async function writeExtract(dir: string, odonimi: Street[], places: ReturnType<typeof municipalities>, lists: Numbers[], count: number): Promise<number> {
  const random = rng(35);
  const picks = odonimi.map(() => lists[Math.floor(random() * lists.length)] ?? []);
  const natural = picks.reduce((a, l) => a + l.length, 0);
  // more numbers than the four cities' lists give the whole country: every list stretched alike
  const stretch = Math.max(1, count / Math.max(1, natural));
  mkdirSync(dir, { recursive: true });
  const strad = createWriteStream(path.join(dir, 'STRAD_ITA_20260602.csv'));
  const indir = createWriteStream(path.join(dir, 'INDIR_ITA_20260602.csv'));
  strad.write("CODICE_COMUNE;CODICE_ISTAT;PROGRESSIVO_NAZIONALE;CODICE_COMUNALE;ODONIMO;LOCALITA';TOTALE_ACCESSI;DIZIONE_LINGUA1;DIZIONE_LINGUA2\n");
  indir.write("CODICE_COMUNE;CODICE_ISTAT;PROGRESSIVO_NAZIONALE;CODICE_COMUNALE;ODONIMO;LOCALITA';DIZIONE_LINGUA1;DIZIONE_LINGUA2;PROGRESSIVO_ACCESSO;CODICE_COMUNALE_ACCESSO;CIVICO;ESPONENTE;SPECIFICITA;METRICO;PROGRESSIVO_SNC;COORD_X_COMUNE;COORD_Y_COMUNE;QUOTA;METODO\n");
  let written = 0;
  let access = 3_000_000;
  let sBuf = '';
  let iBuf = '';
  const flush = async (force = false): Promise<void> => {
    if (sBuf.length > 1 << 20 || force) {
      if (!strad.write(sBuf)) await once(strad, 'drain');
      sBuf = '';
    }
    if (iBuf.length > 1 << 20 || force) {
      if (!indir.write(iBuf)) await once(indir, 'drain');
      iBuf = '';
    }
  };
  for (let i = 0; i < odonimi.length && written < count; i++) {
    const s = odonimi[i] as Street;
    const place = places.get(s.cadastral) ?? { istat: '', lat: 42.5, lon: 12.5 };
    const base = picks[i] as Numbers;
    const want = Math.min(count - written, Math.floor(base.length * stretch + random()));
    const numbers: Numbers = base.slice(0, want);
    let next = base.reduce((m, h) => Math.max(m, h.n), 0);
    while (numbers.length < want) numbers.push({ n: ++next, s: '' });
    const odonimo = `${s.dug} ${s.duf}`.trim().toUpperCase();
    sBuf += `${s.cadastral};${place.istat};${s.id};;${odonimo};;${numbers.length};${s.l1};${s.l2}\n`;
    // the street within ~1.5 km of the centre, its numbers within ~100 m of the street
    const lat = place.lat + 0.013 * gauss(random);
    const lon = place.lon + 0.018 * gauss(random);
    for (const h of numbers) {
      iBuf += `${s.cadastral};${place.istat};${s.id};;${odonimo};;${s.l1};${s.l2};${access++};;${h.n};${h.s};;;;${comma(lon + 0.0012 * gauss(random), 7)};${comma(lat + 0.0009 * gauss(random), 7)};0;4\n`;
    }
    written += numbers.length;
    await flush();
  }
  await flush(true);
  strad.end();
  indir.end();
  await Promise.all([once(strad, 'finish'), once(indir, 'finish')]);
  return written;
}

/** The default sources with `it/anncsu_indirizzi` replaced by the synthetic extract. */
function linkSource(into: string, extract: string): void {
  const shared = defaultSourceDir();
  mkdirSync(path.join(into, 'it'), { recursive: true });
  for (const e of readdirSync(shared)) if (e !== 'it' && !existsSync(path.join(into, e))) symlinkSync(path.join(shared, e), path.join(into, e));
  for (const e of readdirSync(path.join(shared, 'it'))) {
    const to = path.join(into, 'it', e);
    if (existsSync(to)) continue;
    if (e === 'anncsu_indirizzi') symlinkSync(extract, to);
    else symlinkSync(path.join(shared, 'it', e), to);
  }
}

/** `recapito import` as an operator runs it; its peak RSS from /usr/bin/time. */
async function runImport(source: string, dataDir: string): Promise<{ seconds: number; peakMiB: number }> {
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'peak-rss-kib %M', process.execPath, BIN, '--data-dir', dataDir, 'import', '--source', source], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RECAPITO_PROGRESS_SECONDS: process.env.RECAPITO_PROGRESS_SECONDS ?? '15' },
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    const text = c.toString();
    err += text;
    process.stderr.write(text);
  });
  child.stdout.on('data', (c: Buffer) => process.stderr.write(c));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`import failed (${code})`);
  const kib = Number(/peak-rss-kib (\d+)/.exec(err)?.[1] ?? 0);
  return { seconds: (performance.now() - t0) / 1000, peakMiB: Math.round(kib / 1024) };
}

interface ContactItem {
  address: string;
  postcode: string;
  city: string;
  province: string;
}

interface Probe {
  cadastral_code: string;
  query: string;
}

/** Child mode: verifies `items` on `dataDir` for `seconds`, warm, and prints items per second; then
 * autocomplete the same way (a street prefix in the municipality, then the house numbers of the first hit). */
async function measure(dataDir: string, itemsFile: string, seconds: number): Promise<void> {
  openRegister(dataDir, true);
  const { items, probes } = JSON.parse(readFileSync(itemsFile, 'utf8')) as { items: ContactItem[]; probes: Probe[] };
  const c0 = performance.now();
  verifyContactsSync({ items, options: {} });
  const cold = performance.now() - c0;
  let n = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  while (performance.now() - t0 < seconds * 1000) {
    await verifyContacts({ items, options: {} });
    n += items.length;
  }
  const cpu = process.cpuUsage(cpu0);
  const wall = (performance.now() - t0) / 1000;
  let q = 0;
  const s0 = performance.now();
  while (performance.now() - s0 < (seconds / 2) * 1000) {
    for (const p of probes) {
      const [hit] = searchStreetsSync({ cadastral_code: p.cadastral_code, query: p.query, limit: 10 });
      if (hit) await streetHouseNumbers({ cadastral_code: hit.cadastral_code, index: hit.index });
      q++;
    }
  }
  const suggest = q / ((performance.now() - s0) / 1000);
  // per CPU second too: what the machine's other load does not change
  console.log(JSON.stringify({ rate: n / wall, perCpu: n / ((cpu.user + cpu.system) / 1e6), coldMs: cold, suggest }));
}

interface Rate {
  rate: number;
  perCpu: number;
  coldMs: number;
  /** street prefix + house numbers of the first hit, per second */
  suggest: number;
}

function childRate(dataDir: string, itemsFile: string, seconds: number): Rate {
  const r = spawnSync(process.execPath, [process.argv[1] as string, '--measure', dataDir, itemsFile, String(seconds)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop() as string) as Rate;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--measure') return measure(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5]));
  const count = Number(process.argv[2] ?? 25_000_000);
  const root = path.join(PROJECT_ROOT, '.tmp', 'national-register', String(count));
  const extract = path.join(root, 'extract');
  const source = path.join(root, 'source');
  const dataDir = path.join(root, 'data');
  const defaultDir = await contactBenchDataDir();

  const marker = path.join(extract, 'rows');
  let rows = existsSync(marker) ? Number(readFileSync(marker, 'utf8')) : 0;
  if (!rows) {
    const t0 = performance.now();
    const odonimi = streets(defaultSourceDir());
    const lists = await templates(odonimi);
    rows = await writeExtract(extract, odonimi, municipalities(defaultSourceDir()), lists, count);
    writeFileSync(marker, String(rows));
    const mib = statSync(path.join(extract, 'INDIR_ITA_20260602.csv')).size / 2 ** 20;
    console.error(`extract: ${rows} house numbers on ${odonimi.length} streets (templates: ${lists.length} streets of the four cities), INDIR ${mib.toFixed(0)} MiB, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  linkSource(source, extract);
  if (!process.env.NATIONAL_RESUME) rmSync(dataDir, { recursive: true, force: true });
  const imported = await runImport(source, dataDir);
  const gib = statSync(path.join(dataDir, 'register', 'data.mdb')).size / 2 ** 30;

  openRegister(dataDir, true);
  const sampled: SampledAddress[] = await sampleStreets({ count: 2 * BATCH, seed: 35 });
  const random = rng(13);
  const items: ContactItem[] = sampled.slice(0, BATCH).map((s, i, all) => {
    const base = { address: `${s.street_type} ${s.name} ${s.number ?? '1'}`, postcode: s.postcode, city: s.city, province: s.province };
    if (i % 3 !== 1) return base;
    const kind = DIRTY_KINDS[Math.floor(i / 3) % DIRTY_KINDS.length] as string;
    return PERTURBATIONS[kind]?.(s, random, all[(i + 17) % all.length] as SampledAddress, i) ?? base;
  });
  const itemsFile = path.join(root, 'contact-items.json');
  // what a user types: the first 6 letters of the last word of the street's name (`Garib` for Giuseppe Garibaldi)
  const probes: Probe[] = sampled.slice(0, BATCH).map((s) => ({ cadastral_code: s.cadastral_code, query: s.name.split(' ').at(-1)!.slice(0, 6) }));
  writeFileSync(itemsFile, JSON.stringify({ items, probes }));
  const on: Record<'national' | 'default', Rate[]> = { national: [], default: [] };
  for (let round = 0; round < 3; round++) {
    on.default.push(childRate(defaultDir, itemsFile, 6));
    on.national.push(childRate(dataDir, itemsFile, 6));
  }
  const v = median(on.national.map((r) => r.rate));
  const w = median(on.default.map((r) => r.rate));
  console.table([
    {
      'house numbers': rows,
      'import s': +imported.seconds.toFixed(0),
      'import rows/s': Math.round(rows / imported.seconds),
      'peak RSS MiB (import process)': imported.peakMiB,
      'register GiB': +gib.toFixed(2),
      'contact/s national (warm)': Math.round(v),
      'contact/s default (warm)': Math.round(w),
      'suggest/s national / default': `${Math.round(median(on.national.map((r) => r.suggest)))} / ${Math.round(median(on.default.map((r) => r.suggest)))}`,
      'per CPU s national / default': `${Math.round(median(on.national.map((r) => r.perCpu)))} / ${Math.round(median(on.default.map((r) => r.perCpu)))}`,
      'first batch ms national / default (cold)': `${Math.round(median(on.national.map((r) => r.coldMs)))} / ${Math.round(median(on.default.map((r) => r.coldMs)))}`,
      'bars: ≥20M in ≤1800 s, ≤4096 MiB, ≤10 GiB, ≥80%': [rows >= 20e6 && imported.seconds <= 1800, imported.peakMiB <= 4096, gib <= 10, v >= 0.8 * w].map((b) => (b ? 'met' : 'NOT')).join(' '),
    },
  ]);
  console.log(`national register: ${rows} house numbers, import ${imported.seconds.toFixed(0)} s, peak RSS ${imported.peakMiB} MiB, register ${gib.toFixed(2)} GiB, contact batch ${Math.round(v)}/s against ${Math.round(w)}/s on the default register`);
}

await main();
