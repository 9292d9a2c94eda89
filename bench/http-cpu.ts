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
import { SCENARIOS, scenarioServer } from './http-scenarios.js';
import { threadCost } from './thread-cpu.js';

async function measure(which: string, seconds: number): Promise<Record<string, string | number>> {
  const server = await scenarioServer();
  const pid = server.child.pid!;
  try {
    const { run: r, loopUs, othersUs, loopBusy } = await threadCost(pid, server.url, () => server.requests(which), seconds);
    return {
      call: which,
      'req/s': Math.round(r.requests.average),
      'p99 ms': r.latency.p99,
      'non-2xx': r.non2xx,
      'event loop µs/req': loopUs.toFixed(1),
      'event loop busy': `${Math.round(loopBusy * 100)}%`,
      'other threads µs/req': othersUs.toFixed(1),
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
