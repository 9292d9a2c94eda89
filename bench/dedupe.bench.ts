/**
 * Dedupe speed: 500 records synchronously (core and HTTP), and how the whole-list run grows from
 * 10,000 to 100,000 address-book records (bar for 100,000: ≤ 10 s on 2 cores, growth near-linear;
 * the CPU seconds of the process are printed too, since the machine is shared and wall time varies),
 * then 100,000 records as an asynchronous job on a real server process.
 * Records: bench/dedupe-data.ts (real names on real house numbers, ~30% dirty duplicates), turned
 * into address-book contacts (lists of typed addresses, phones and e-mails).
 * `--job-only` runs the server part alone (the 5,000-record answer's digest and the 100,000-record job),
 * for A/B runs of the HTTP path; RECAPITO_DEDUPE_TIMINGS=1 makes the server print its stages on stderr.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { Bench } from 'tinybench';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { dedupe, type GroupsResult } from '../src/native.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startServerProcess, type ServerProcess } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { addressBook, generate, loadSources } from './dedupe-data.js';
import { benchDataDir } from './dedupe-register.js';
import { taskStats } from './stats.js';

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}


/** CPU seconds a process has used (user + system, every thread): a figure the machine's other load disturbs less than wall time. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** POST of an asynchronous job, then GET every 250 ms until it is done: its code, end state and times. */
async function runJob(server: ServerProcess, headers: Record<string, string>, records: Record<string, unknown>[]): Promise<{ job: string; state: string; queuedMs: number; totalS: number; queuedCpuS: number; totalCpuS: number }> {
  const { url } = server;
  const c0 = cpuSeconds(server.child.pid);
  const t0 = performance.now();
  const q = (await (await fetch(`${url}/api/v1/dedupe`, { method: 'POST', headers, body: JSON.stringify({ async: true, records }) })).json()) as { job: string };
  const queuedMs = performance.now() - t0;
  const queuedCpuS = cpuSeconds(server.child.pid) - c0;
  let state = 'queued';
  while (state === 'queued' || state === 'running') {
    await new Promise((r) => setTimeout(r, 250));
    const res = await fetch(`${url}/api/v1/dedupe?job=${q.job}`, { headers });
    state = ((await res.json()) as { state: string }).state;
  }
  return { job: q.job, state, queuedMs, totalS: (performance.now() - t0) / 1000, queuedCpuS, totalCpuS: cpuSeconds(server.child.pid) - c0 };
}

async function main(): Promise<void> {
  await benchDataDir();
  const src = loadSources();
  const all = addressBook(generate(src, 70_000, 5).map((s) => s.record), src.places).slice(0, 100_000);
  console.log(`${all.length} address-book records generated`);

  const jobOnly = process.argv.includes('--job-only');
  const five = all.slice(0, 500);
  const bench = new Bench({ time: 3000, warmupTime: 300 });
  bench.add('dedupe.run, 500 records (core, off the JS thread)', async () => {
    await dedupe({ records: five });
  });
  if (!jobOnly) await bench.run();

  const rows: Record<string, string | number>[] = [];
  for (const n of jobOnly ? [] : [10_000, 25_000, 50_000, 100_000]) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = (await dedupe({ records: all.slice(0, n) })) as GroupsResult;
    const s = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    rows.push({ records: n, seconds: +s.toFixed(2), 'cpu s (process)': +cpu.toFixed(2), 'records/s': Math.round(n / s), 'µs/record': Math.round((s * 1e6) / n), 'cpu µs/record': Math.round((cpu * 1e6) / n), groups: r.groups.length, 'peak RSS MiB (bench process)': peakRssMiB() });
  }
  if (!jobOnly) {
    console.log('\nWhole-list run in the core (JSON in and out included), growth from 10k to 100k:');
    console.table(rows);
  }

  // HTTP: 500 records synchronous, and 100,000 as an async job, on a real server process.
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined); // LMDB: the single-node baseline
  await createAccount(db, 'bench');
  await addPack(db, 'bench', 'dedupe', 1_000_000);
  const token = (await createToken(db, 'bench')).token;
  const server = await startServerProcess(dataDir, { RECAPITO_RATE_SINGLE: '100000', RECAPITO_RATE_BATCH: '100000' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  try {
    const http = new Bench({ time: 3000, warmupTime: 300 });
    http.add('POST /api/v1/dedupe, 500 records, save', async () => {
      const res = await fetch(`${server.url}/api/v1/dedupe`, { method: 'POST', headers, body: JSON.stringify({ records: five }) });
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      await res.arrayBuffer();
    });
    if (!jobOnly) {
      await http.run();
      console.log('\n500 records, synchronous:');
      console.table(
        [...bench.tasks, ...http.tasks].map((t) => {
          const s = taskStats(t);
          return { task: t.name, 'mean ms': s.mean.toFixed(1), 'p50 ms': s.p50.toFixed(1), 'p99 ms': s.p99.toFixed(1), 'calls/s': s.hz.toFixed(1) };
        }),
      );
    }

    // The answer of a 5,000-record job, but for its code and dates: equal digests, equal answers.
    const small = await runJob(server, headers, all.slice(0, 5_000));
    const answer = await (await fetch(`${server.url}/api/v1/dedupe?job=${small.job}`, { headers })).json();
    const { job: _job, created: _created, expires: _expires, ...stable } = answer as Record<string, unknown>;
    const digest = createHash('sha256').update(JSON.stringify(stable)).digest('hex').slice(0, 16);
    console.log(`\n5,000-record job: state ${small.state}, GET answer digest ${digest} (${JSON.stringify(stable).length} bytes)`);

    const big = await runJob(server, headers, all);
    console.log('\n100,000 address-book records, asynchronous job on a server process (2 cores):');
    console.table([{ records: all.length, state: big.state, 'queue call ms': Math.round(big.queuedMs), 'queue call server cpu s': +big.queuedCpuS.toFixed(2), 'total s': +big.totalS.toFixed(1), 'total server cpu s': +big.totalCpuS.toFixed(1), 'records/s': Math.round(all.length / big.totalS), 'server peak RSS MiB': server.peakRssMiB() }]);

    // Extension: 500 new records (250 copies of saved people, 250 new people) against the saved job.
    const fresh = addressBook(generate(src, 400, 99).map((x) => x.record), src.places).slice(0, 250);
    const newRecords = [...all.slice(0, 250).map((x, i) => ({ ...x, id: `copy-${i}` })), ...fresh.map((x, i) => ({ ...x, id: `new-${i}` }))];
    const t1 = performance.now();
    const inc = await fetch(`${server.url}/api/v1/dedupe`, { method: 'POST', headers, body: JSON.stringify({ job: big.job, records: newRecords }) });
    const incBody = (await inc.json()) as { added?: { group: number | null }[] };
    const incMs = performance.now() - t1;
    console.log('\nIncremental matching (extension): 500 new records against the saved 100,000-record job:');
    console.table([{ 'new records': newRecords.length, status: inc.status, 'joined a group': incBody.added?.filter((a) => a.group !== null).length, 'call ms (incl. reading and rewriting the job)': Math.round(incMs) }]);
  } finally {
    server.child.kill('SIGTERM');
    await closeState(dataDir);
  }
}

await main();
