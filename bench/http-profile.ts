/**
 * Where a single call spends its time: starts `recapito serve` under `node --cpu-prof`, drives one endpoint
 * with autocannon (32 connections), stops the server and prints the profile's top functions by self time
 * and the inclusive time of the request path's stages. Not part of `npm run bench` (a diagnostic):
 *
 *   node dist/bench/http-profile.js phone|tax-code|email|contact|suggest [seconds]
 *
 * PROFILE_ENTRY=.tmp/dist-before/src/cli/main.js profiles another build's server (A/B in one sitting).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { autocannon } from './autocannon.js';
import { scenarioServer } from './http-scenarios.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per function (ms) and inclusive time per function (ms, counted once per sample), from the
 * first sample that serves HTTP (start-up is not the request path), idle time left out of the shares.
 */
function summarise(profile: Profile): { self: [string, number][]; inclusive: [string, number][]; total: number; idle: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) => {
    const file = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '');
    return `${n.callFrame.functionName || '(anonymous)'} ${file ? `${file}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let serving = false;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    if (!serving) {
      for (let cur: number | undefined = id; cur !== undefined && !serving; cur = parent.get(cur)) serving = byId.get(cur)?.callFrame.functionName === 'parserOnHeadersComplete';
      if (!serving) return;
    }
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    total += dt;
    self.set(name(node), (self.get(name(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n) break;
      const k = name(n);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), inclusive: sorted(inclusive), total, idle };
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function serverCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'phone';
  const seconds = Number(process.argv[3] ?? 10);
  const profDir = mkdtempSync(path.join(os.tmpdir(), 'recapito-prof-'));
  const server = await scenarioServer(['--cpu-prof', '--cpu-prof-dir', profDir]);
  const { child, url } = server;
  const cpuBefore = serverCpuMs(child.pid);
  const r = await autocannon({ url, connections: 32, duration: seconds, requests: server.requests(which) });
  const cpuMs = serverCpuMs(child.pid) - cpuBefore;
  await server.stop();
  // the main thread's profile is the first of the process (worker threads write later sequence numbers)
  const file = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')).sort()[0];
  if (!file) throw new Error('no profile written');
  const { self, inclusive, total, idle } = summarise(JSON.parse(readFileSync(path.join(profDir, file), 'utf8')) as Profile);
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(1)}%`;
  // µs of main-thread time per answered request (inflated by the profiler's own cost)
  const us = (ms: number) => ((ms * 1000) / Math.max(1, r.requests.total)).toFixed(2);
  console.log(`${which}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; profile ${path.join(profDir, file)}`);
  // CPU the server process consumed (user + system) per answered request: unlike req/s, barely moved by other load
  console.log(`server CPU ${Math.round(cpuMs)} ms for ${r.requests.total} requests: ${((cpuMs * 1000) / Math.max(1, r.requests.total)).toFixed(0)} µs a request (with the profiler on)`);
  console.log(`busy ${Math.round(total)} ms, idle ${Math.round(idle)} ms while serving; shares below are of busy time`);
  console.log('\ntop self time');
  console.table(self.slice(0, 30).map(([f, ms]) => ({ function: f.slice(0, 110), share: pct(ms), 'µs/req': us(ms) })));
  console.log('\ninclusive time of the stages of the request path (ours and the stack)');
  const stages = /^(authenticate|negotiate|answer|chargedRun|chargedWork|processCharged|englishBody|post|charge|batchedWrite|lookup|countRequest|toEnglishInput|toItalianOutput|validate|finishResult|process|encode|decode|readItems|rateClass|onSend|serialize|parse|preHandler|onRequest|JSON|stringify|defaultJsonParser|processTicksAndRejections|executeTxnCallbacks|\(garbage collector\)|\(idle\)|\(program\))\b/;
  console.table(inclusive.filter(([f]) => stages.test(f)).slice(0, 40).map(([f, ms]) => ({ function: f.slice(0, 110), share: pct(ms), 'µs/req': us(ms) })));
}

await main();
