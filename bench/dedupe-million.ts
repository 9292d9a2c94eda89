/**
 * Scale: one whole-list dedupe run of 1,000,000 address-book records in the core (the size an
 * operator allows with RECAPITO_DEDUPE_ASYNC_CAP), printing wall time and this process's peak RSS.
 * Bar (issue 13): ≤ 3 minutes within 4 GiB on the 2-core machine. Run in its own process:
 *   npm run build:ts && node --max-old-space-size=3072 dist/bench/dedupe-million.js [records] [addon]
 * With `addon`, the core of that build of the addon (a copy of the build before a change: A/B).
 * With RECAPITO_DEDUPE_TIMINGS=1 the core prints each stage (parsed, prepared, scored, clustered,
 * serialised) with its wall time, the process's CPU time, and the RSS then and at its peak.
 */
import { readFileSync } from 'node:fs';

import type { GroupsResult, Json, RunInput } from '../src/native.js';
import { generate, loadSources } from './dedupe-data.js';
import { benchAddon } from './dedupe-register.js';

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 1_000_000);
  const native = await benchAddon(process.argv[3]);
  const src = loadSources();
  // ~1.5 records per person: people enough for n records.
  const records = generate(src, Math.ceil(n / 1.45), 5)
    .slice(0, n)
    .map((s) => s.record);
  console.log(`${records.length} records generated; peak RSS so far ${peakRssMiB()} MiB`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const answer = await native.dedupe(Buffer.from(JSON.stringify({ records } satisfies RunInput)) as Json<RunInput>);
  const r = JSON.parse(answer.toString('utf8')) as GroupsResult;
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  console.table([
    {
      records: records.length,
      seconds: +seconds.toFixed(1),
      // The machine is shared: CPU seconds say what the run costs whatever else is running.
      'cpu s (process)': +((c.user + c.system) / 1e6).toFixed(1),
      'µs/record': Math.round((seconds * 1e6) / records.length),
      groups: r.groups.length,
      'peak RSS MiB (whole process: generator, JSON and core)': peakRssMiB(),
      'bar: ≤ 180 s, ≤ 4096 MiB': seconds <= 180 && peakRssMiB() <= 4096 ? 'met' : 'NOT met',
    },
  ]);
}

await main();
