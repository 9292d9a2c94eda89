/**
 * Server CPU per answered request, thread by thread: the event loop's share is what caps single calls
 * (one core), the other threads' (LMDB's writer, the libuv pool, workers) run beside it on the second core.
 * Reads /proc/<pid>/task/<tid>/stat before and after an autocannon run at 32 connections (after 2 s of
 * warm-up), so the figure barely moves with other load on the machine, unlike req/s. A diagnostic, not
 * part of `npm run bench`:
 *
 *   node dist/bench/http-cpu.js phone|tax-code|email|contact|suggest|all [seconds]
 *
 * PROFILE_ENTRY=<another build's bin/recapito.js> measures that build (A/B in one sitting).
 */
import { readdirSync, readFileSync } from 'node:fs';

import { autocannon } from './autocannon.js';
import { SCENARIOS, scenarioServer } from './http-scenarios.js';

/** CPU ms (user + system) per thread of a process; the event loop is the thread whose id is the pid. */
function threadCpuMs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return out;
}

async function measure(which: string, seconds: number): Promise<Record<string, string | number>> {
  const server = await scenarioServer();
  const pid = server.child.pid!;
  try {
    await autocannon({ url: server.url, connections: 32, duration: 2, requests: server.requests(which) });
    const before = threadCpuMs(pid);
    const r = await autocannon({ url: server.url, connections: 32, duration: seconds, requests: server.requests(which) });
    const after = threadCpuMs(pid);
    const perRequest = (ms: number) => (ms * 1000) / Math.max(1, r.requests.total);
    let loop = 0;
    let others = 0;
    for (const [tid, ms] of after) {
      const used = ms - (before.get(tid) ?? 0);
      if (tid === String(pid)) loop += used;
      else others += used;
    }
    return {
      call: which,
      'req/s': Math.round(r.requests.average),
      'p99 ms': r.latency.p99,
      'non-2xx': r.non2xx,
      'event loop µs/req': perRequest(loop).toFixed(1),
      'event loop busy': `${Math.round((loop / (seconds * 1000)) * 100)}%`,
      'other threads µs/req': perRequest(others).toFixed(1),
    };
  } finally {
    await server.stop();
  }
}

const which = process.argv[2] ?? 'all';
const seconds = Number(process.argv[3] ?? 6);
const calls = which === 'all' ? Object.keys(SCENARIOS) : which.split(',');
const rows = [];
for (const call of calls) rows.push(await measure(call, seconds));
console.table(rows);
console.log('a single call reaches 40% of a bare endpoint at ~55k req/s when its event loop spends ≤ ~45 µs a request');
