/**
 * Issue 14: what a charged single call pays the event loop to be charged and counted durably, without
 * HTTP around it. N concurrent "requests" loop on a real LMDB store (data dir on disk): each authenticates
 * its token (which counts the request), runs a no-op through `chargedWork` (charge in the group commit,
 * answer after its durable round) and then waits for its count as the server's onSend hook does. The
 * figure is the main thread's CPU time per call (/proc/self/task/<pid>/schedstat, nanoseconds): it barely
 * moves with other load on the machine, unlike calls per second. LMDB's writer thread (commit, fsync) is
 * reported apart.
 *
 *   node dist/bench/charge-cpu.js [calls=100000] [concurrency=32] [reps=3] [before=/work/main/dist]
 *
 * CHARGE_SPENT_PACKS=N first buys and spends N packs on the account, as months of auto top-ups do.
 *
 * Each repetition measures the build given as `before` (its dist directory, in a process of its own) and
 * this build, alternately, each in a fresh data dir after a warm-up of a tenth of the calls.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TOKENS = 50;

interface Sample {
  calls: number;
  loopNs: number;
  otherNs: number;
  wallMs: number;
  charged: number;
  counted: number;
}

/** CPU nanoseconds of each thread of this process; the main thread's id is the pid. */
function threadCpuNs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      out.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** One measurement, in this process, of the build whose dist directory is `dist`. */
async function measure(dist: string, calls: number, concurrency: number): Promise<Sample> {
  const load = (m: string) => import(path.join(dist, m));
  const { openStore } = await load('src/state/open.js');
  const { createAccount, createToken, authenticateNow, hashToken } = await load('src/state/tokens.js');
  const { addPack, consume, current } = await load('src/state/ledger.js');
  const { chargedWork } = await load('src/http/billing.js');

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'recapito-charge-'));
  const state = await openStore(dataDir, undefined);
  try {
    await createAccount(state, 'bench');
    const spentPacks = Number(process.env.CHARGE_SPENT_PACKS ?? 0);
    if (spentPacks > 0) await consume(state, 'bench', 'light', 500); // the free allowance first
    for (let i = 0; i < spentPacks; i++) {
      await addPack(state, 'bench', 'light', 1);
      await consume(state, 'bench', 'light', 1);
    }
    await addPack(state, 'bench', 'light', 100_000_000);
    const tokens: string[] = [];
    for (let i = 0; i < TOKENS; i++) tokens.push((await createToken(state, 'bench')).token);
    const headers = tokens.map((t) => `Bearer ${t}`);
    const requests = async () => {
      let n = 0;
      for (const t of tokens) n += (await state.get('tokens', hashToken(t))).requests;
      return n;
    };
    const work = async () => 0;

    // one request as the server runs it: authentication (counts it), the charged work, the count's wait
    let k = 0;
    const request = async () => {
      const caller = await authenticateNow(state, headers[k++ % TOKENS]);
      await chargedWork(state, { payer: caller.payer, counter: 'light', units: 1 }, work);
      await caller.counted();
    };
    const run = async (n: number) => {
      let next = 0;
      const loop = async () => {
        while (next < n) {
          next += 1;
          await request();
        }
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
    };

    await run(Math.ceil(calls / 10));
    const usedBefore = (await current(state, 'bench', 'light')).used_total;
    const countBefore = await requests();
    const before = threadCpuNs();
    const start = performance.now();
    await run(calls);
    const wallMs = performance.now() - start;
    const after = threadCpuNs();
    let loopNs = 0;
    let otherNs = 0;
    for (const [tid, ns] of after) {
      const used = ns - (before.get(tid) ?? 0);
      if (tid === String(process.pid)) loopNs += used;
      else otherNs += used;
    }
    const charged = (await current(state, 'bench', 'light')).used_total - usedBefore;
    const counted = (await requests()) - countBefore;
    return { calls, loopNs, otherNs, wallMs, charged, counted };
  } finally {
    await state.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `measure` in a child process (one build per process: two lmdb-js copies never share one). */
function child(dist: string, calls: number, concurrency: number): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', dist, String(calls), String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Sample) : reject(new Error(`child exited ${code}`))));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

if (process.argv[2] === '--child') {
  const [dist, calls, concurrency] = process.argv.slice(3);
  process.stdout.write(JSON.stringify(await measure(dist!, Number(calls), Number(concurrency))));
} else {
  const calls = Number(process.argv[2] ?? 100_000);
  const concurrency = Number(process.argv[3] ?? 32);
  const reps = Number(process.argv[4] ?? 3);
  const beforeDist = process.argv[5] ?? '/work/main/dist';
  const thisDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const builds = [
    { build: `before (${beforeDist})`, dist: beforeDist, samples: [] as Sample[] },
    { build: 'this build', dist: thisDist, samples: [] as Sample[] },
  ];
  for (let r = 0; r < reps; r++) for (const b of builds) b.samples.push(await child(b.dist, calls, concurrency));
  const rows = builds.map((b) => ({
    build: b.build,
    'event loop µs/call': Number(median(b.samples.map((s) => s.loopNs / s.calls / 1000)).toFixed(2)),
    // the least disturbed repetition: other processes on the machine only ever add to a thread's CPU time
    'event loop µs/call, min': Number(Math.min(...b.samples.map((s) => s.loopNs / s.calls / 1000)).toFixed(2)),
    'other threads µs/call': Number(median(b.samples.map((s) => s.otherNs / s.calls / 1000)).toFixed(2)),
    'calls/s': Math.round(median(b.samples.map((s) => (s.calls / s.wallMs) * 1000))),
    // exactness: every call charged once and counted once
    'charged/calls': b.samples.every((s) => s.charged === s.calls) ? 'exact' : b.samples.map((s) => `${s.charged}/${s.calls}`).join(' '),
    'counted/calls': b.samples.every((s) => s.counted === s.calls) ? 'exact' : b.samples.map((s) => `${s.counted}/${s.calls}`).join(' '),
  }));
  console.table(rows);
  const [a, b] = rows;
  console.log(`${concurrency} concurrent, ${calls} calls × ${reps} reps (medians; min: the least disturbed repetition); event loop this/before: ${((b!['event loop µs/call'] / a!['event loop µs/call']) * 100).toFixed(0)} %; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
