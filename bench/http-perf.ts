/**
 * Where a single call's CPU goes below JavaScript too (issue 14: "perf on the Rust side"): starts the
 * scenario server with `--perf-basic-prof` (V8 writes /tmp/perf-<pid>.map, so JIT frames get names), drives
 * one endpoint at 32 connections, records `perf record -g` of the whole process meanwhile, and prints the top
 * symbols by self time, each thread apart. A diagnostic, not part of `npm run bench`:
 *
 *   node dist/bench/http-perf.js phone|tax-code|email|contact|suggest [seconds] [top]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { autocannon } from './autocannon.js';
import { scenarioServer } from './http-scenarios.js';

const which = process.argv[2] ?? 'contact';
const seconds = Number(process.argv[3] ?? 6);
const top = Number(process.argv[4] ?? 40);

const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-perf-'));
// V8's code log (which --perf-basic-prof turns on) goes to the scratch dir, not the working directory
const server = await scenarioServer(['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${path.join(dir, 'v8.log')}`]);
const pid = server.child.pid!;
// PERF_CALL_GRAPH=dwarf unwinds the Rust frames too (built without frame pointers); PERF_DATA=<file> keeps the recording (for `perf report -i <file> -G` on a symbol's callers)
const data = process.env.PERF_DATA ?? path.join(dir, 'perf.data');
try {
  await autocannon({ url: server.url, connections: 32, duration: 2, requests: server.requests(which) });
  const perf = spawn('perf', ['record', '-F', '1999', '--call-graph', process.env.PERF_CALL_GRAPH ?? 'fp', '-p', String(pid), '-o', data, '--', 'sleep', String(seconds)], { stdio: 'ignore' });
  const load = autocannon({ url: server.url, connections: 32, duration: seconds + 1, requests: server.requests(which) });
  await new Promise((resolve) => perf.once('exit', resolve));
  const run = await load;
  console.log(`${which}: ${Math.round(run.requests.average)} req/s at 32 connections while recorded`);
  // self time per symbol, split by thread name (the event loop is `node`)
  const report = (sort: string, limit: string) =>
    spawnSync('perf', ['report', '-i', data, '--no-children', '--sort', sort, '--stdio', '--percent-limit', limit, '-g', 'none'], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .stdout.split('\n')
      .filter((l) => /^\s+\d/.test(l))
      .map((l) => l.replace(/\s+-\s+-\s*$/, '').replace(/\s{2,}/g, '  ').slice(0, 170));
  console.log('by thread (pid: thread id), then by library, then by symbol (self time, share of all samples)');
  console.log(report('pid', '1').join('\n'));
  console.log(report('pid,dso', '1').join('\n'));
  console.log(report('pid,dso,symbol', '0.3').slice(0, top).join('\n'));
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  // a kept recording keeps the names of its JIT frames too
  if (!process.env.PERF_DATA) rmSync(`/tmp/perf-${pid}.map`, { force: true });
}
