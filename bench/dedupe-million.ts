/**
 * Scale: one whole-list dedupe of N address-book records (1,000,000 by default) in the core,
 * streamed both ways: the records are written once to an NDJSON file (by a child process, so
 * that the generator's memory is not counted), the core reads them a chunk at a time and writes
 * the groups and singles to an NDJSON file (`dedupeFiles`, crates/core/src/dedupe/stream.rs);
 * no whole-list JSON text on either side. Prints wall and CPU time, this process's peak RSS
 * (the core's and Node's own, not the generator's) and a digest of the groups, so that a run
 * is shown to find the same groups as another (docs/dedupe.md keeps the digests).
 * Bar (issue 35): 5,000,000 records in ≤ 10 minutes within 6 GiB on the 2-core machine.
 * Run in its own process, on the bench build of the addon (`dedupeFiles` is a bench door):
 *   npm run build:native:bench && npm run build:ts && node dist/bench/dedupe-million.js [records] [addon]
 * With `addon`, the core of that build of the addon (a copy of the build before a change: A/B).
 * With `--splink` (anywhere in the arguments), Splink 5 on DuckDB (bench/dedupe-million-splink.py,
 * `pip install splink`) runs on the same records after ours, and the table gets its row and the ratio.
 * With RECAPITO_DEDUPE_TIMINGS=1 the core prints each stage (prepared, scored, linked, written)
 * with its wall time, the process's CPU time, and the RSS then and at its peak.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { PROJECT_ROOT } from '../src/config.js';
import type { FilesInput, FilesResult, Json } from '../src/native.js';
import { generate, loadSources } from './dedupe-data.js';
import { benchDoors } from './bench-doors.js';
import { benchAddon } from './dedupe-register.js';

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

/**
 * The groups' digest: sha256 over the groups as sorted lists of record indexes (one line a group,
 * lines sorted), and a second one with each group's level: two runs with equal digests found the
 * same groups, whatever order or form they were written in.
 */
export function groupsDigest(groups: { member_index: number[]; level: string }[]): { members: string; levels: string } {
  const lines = groups.map((g) => [...g.member_index].sort((a, b) => a - b).join(','));
  const withLevels = groups.map((g, i) => `${lines[i]} ${g.level}`);
  const sha = (l: string[]) => createHash('sha256').update(l.sort().join('\n')).digest('hex');
  return { members: sha(lines), levels: sha(withLevels) };
}

/** The records of the bench (the same as the in-memory bench's for the same n), one a line. */
async function writeRecords(n: number, file: string): Promise<void> {
  const src = loadSources();
  // ~1.5 records per person: people enough for n records.
  const records = generate(src, Math.ceil(n / 1.45), 5).slice(0, n);
  const tmp = `${file}.part`;
  const out = createWriteStream(tmp);
  for (let i = 0; i < records.length; i += 10_000) {
    const text = records
      .slice(i, i + 10_000)
      .map((s) => JSON.stringify(s.record))
      .join('\n');
    if (!out.write(`${text}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  renameSync(tmp, file);
}

/** The groups read back from the answer file a line at a time (singles skipped unparsed). */
async function readGroups(file: string): Promise<{ member_index: number[]; level: string }[]> {
  const groups: { member_index: number[]; level: string }[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line.startsWith('{"group"')) continue;
    const g = JSON.parse(line) as { member_index: number[]; level: string };
    groups.push({ member_index: g.member_index, level: g.level });
  }
  return groups;
}

interface SplinkRun {
  records: number;
  seconds: number;
  cpu_seconds: number;
  peak_rss_mib: number;
  pairs: number;
  clusters: number;
}

/** Splink on DuckDB over the same file, in its own process (its peak RSS is its own). */
function splinkRun(input: string, scratch: string): SplinkRun {
  const script = path.join(PROJECT_ROOT, 'bench', 'dedupe-million-splink.py');
  const out = execFileSync('python3', [script, input, scratch], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  const last = out.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as SplinkRun;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--generate') {
    await writeRecords(Number(process.argv[3]), String(process.argv[4]));
    return;
  }
  const withSplink = process.argv.includes('--splink');
  const args = process.argv.slice(2).filter((a) => a !== '--splink');
  const n = Number(args[0] ?? 1_000_000);
  // the streaming door is a bench door: the bench build of the addon (`npm run build:native:bench`), checked first
  const doors = benchDoors(await benchAddon(args[1]));
  const dir = path.join(PROJECT_ROOT, '.tmp', 'dedupe-million');
  mkdirSync(dir, { recursive: true });
  const input = path.join(dir, `records-${n}.ndjson`);
  if (!existsSync(input)) {
    const g0 = performance.now();
    execFileSync(process.execPath, ['--max-old-space-size=16384', fileURLToPath(import.meta.url), '--generate', String(n), input], { stdio: 'inherit' });
    console.log(`${n} records written to ${input} in ${((performance.now() - g0) / 1000).toFixed(0)} s (child process)`);
  }
  const output = path.join(dir, `groups-${n}.ndjson`);
  console.log(`before the run: peak RSS ${peakRssMiB()} MiB`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const request: FilesInput = { input, output };
  const answer = await doors.dedupeFiles(Buffer.from(JSON.stringify(request)) as Json<FilesInput>);
  const r = JSON.parse(answer.toString('utf8')) as FilesResult;
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const peak = peakRssMiB();
  const groups = await readGroups(output);
  const d = groupsDigest(groups);
  console.log(`groups ${groups.length}, digest ${d.members}, with levels ${d.levels}`);
  const ours = {
    run: 'recapito dedupeFiles',
    records: r.records,
    seconds: +seconds.toFixed(1),
    // The machine may be shared: CPU seconds say what the run costs whatever else is running.
    'cpu s': +((c.user + c.system) / 1e6).toFixed(1),
    'µs/record': Math.round((seconds * 1e6) / r.records),
    groups: r.groups,
    'peak RSS MiB': peak,
  };
  const rows: Record<string, string | number>[] = [{ ...ours, 'bar: ≤ 600 s, ≤ 6144 MiB': seconds <= 600 && peak <= 6144 ? 'met' : 'NOT met' }];
  if (withSplink) {
    const peer = splinkRun(input, path.join(dir, 'splink-scratch'));
    rows.push({ run: 'Splink 5 on DuckDB', records: peer.records, seconds: peer.seconds, 'cpu s': peer.cpu_seconds, 'µs/record': Math.round((peer.seconds * 1e6) / peer.records), groups: peer.clusters, 'peak RSS MiB': peer.peak_rss_mib });
    rows.push({ run: 'ratio Splink / recapito', seconds: +(peer.seconds / ours.seconds).toFixed(2), 'cpu s': +(peer.cpu_seconds / ours['cpu s']).toFixed(2), 'peak RSS MiB': +(peer.peak_rss_mib / peak).toFixed(2) });
  }
  console.table(rows);
  console.log(`dedupe ${r.records} records: ${seconds.toFixed(1)} s, peak RSS ${peak} MiB`);
}

await main();
