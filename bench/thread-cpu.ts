/**
 * Server CPU per answered request, thread by thread (bench/http-cpu.ts, bench/path-cpu.ts): reads
 * /proc/<pid>/task/<tid>/stat before and after an autocannon run at 32 connections (after 2 s of warm-up).
 * The event loop is the thread whose id is the pid; its figure barely moves with other load on the machine,
 * unlike req/s.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { autocannon, type AutocannonRequest, type AutocannonResult } from './autocannon.js';

/** CPU ms (user + system) per thread of a process. */
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

export interface ThreadCost {
  run: AutocannonResult;
  /** Event-loop CPU per answered request, µs. */
  loopUs: number;
  /** CPU of every other thread per answered request, µs. */
  othersUs: number;
  /** Event-loop CPU over wall time. */
  loopBusy: number;
}

/** Drives `url` with `requests` at 32 connections for `seconds` (after 2 s of warm-up) and reads the server's threads. */
export async function threadCost(pid: number, url: string, requests: () => AutocannonRequest[], seconds: number): Promise<ThreadCost> {
  await autocannon({ url, connections: 32, duration: 2, requests: requests() });
  const before = threadCpuMs(pid);
  const run = await autocannon({ url, connections: 32, duration: seconds, requests: requests() });
  const after = threadCpuMs(pid);
  let loop = 0;
  let others = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === String(pid)) loop += used;
    else others += used;
  }
  const perRequest = (ms: number) => (ms * 1000) / Math.max(1, run.requests.total);
  return { run, loopUs: perRequest(loop), othersUs: perRequest(others), loopBusy: loop / (seconds * 1000) };
}
