/**
 * A/B of two builds of the core on the speed bench's 100,000 address-book records (or `records`):
 * one process per run, so that each peak RSS is its own. The addon is loaded from the path given
 * (a copy of the build before a change, then the current one), alternately when run as
 *   for i in 1 2; do for a in .tmp/before.node recapito.linux-x64-gnu.node; do
 *     node dist/bench/dedupe-ab.js $a [records]; done; done
 * Prints wall time, process CPU time and peak RSS of the dedupe call; the machine is shared, so
 * only runs side by side compare (print `uptime` with them).
 */
import { readFileSync } from 'node:fs';

import type { Json, RunInput } from '../src/native.js';
import { addressBook, generate, loadSources } from './dedupe-data.js';
import { benchAddon } from './dedupe-register.js';

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

async function main(): Promise<void> {
  const addon = process.argv[2];
  if (!addon) throw new Error('usage: node dist/bench/dedupe-ab.js <addon.node> [records]');
  const n = Number(process.argv[3] ?? 100_000);
  const native = await benchAddon(addon);
  const src = loadSources();
  const records = addressBook(generate(src, Math.ceil(n / 1.43), 5).map((s) => s.record), src.places).slice(0, n);
  const request = Buffer.from(JSON.stringify({ records } satisfies RunInput)) as Json<RunInput>;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await native.dedupe(request);
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  console.log(
    JSON.stringify({ addon, records: n, seconds: +seconds.toFixed(2), cpu: +((c.user + c.system) / 1e6).toFixed(2), peakRssMiB: peakRssMiB(), answerBytes: out.length }),
  );
}

await main();
