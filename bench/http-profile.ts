/**
 * Where a single call spends its time: starts `recapito serve` under `node --cpu-prof`, drives one endpoint
 * with autocannon (32 connections), stops the server and prints the profile's top functions by self time
 * and the inclusive time of the request path's stages. Not part of `npm run bench` (a diagnostic):
 *
 *   node dist/bench/http-profile.js phone|tax-code|email|contact|suggest [seconds]
 *
 * PROFILE_ENTRY=.tmp/dist-before/src/cli/main.js profiles another build's server (A/B in one sitting).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createAccount, createToken } from '../src/account/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { addPack } from '../src/credit/ledger.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startListening } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { autocannon } from './autocannon.js';

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

const BODIES: Record<string, { path: string; body: (n: number) => string }> = {
  phone: { path: '/api/v1/phone', body: (n) => JSON.stringify({ phone: `02 ${1000000 + (n % 8999999)}` }) },
  'tax-code': { path: '/api/v1/tax-code', body: () => JSON.stringify({ action: 'validate', tax_code: 'RSSMRA80A01H501U' }) },
  email: { path: '/api/v1/email', body: (n) => JSON.stringify({ email: `mario.rossi${n % 1000}@gmail.com`, dns: false }) },
  contact: { path: '/api/v1/contact', body: () => JSON.stringify({ address: 'Via del Faggiolo 7', postcode: '40132', city: 'Bologna' }) },
  suggest: { path: '/api/v1/suggest', body: (n) => JSON.stringify({ session: sessionOf(Math.floor(n / 30)), q: 'via del fag', city: 'Bologna' }) },
};
const sessions = new Map<number, string>();
function sessionOf(i: number): string {
  let s = sessions.get(i);
  if (!s) sessions.set(i, (s = randomUUID()));
  return s;
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
  const scenario = BODIES[which];
  if (!scenario) throw new Error(`one of ${Object.keys(BODIES).join(', ')}`);
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined); // LMDB: the single-node baseline
  await createAccount(db, 'profile');
  await addPack(db, 'profile', 'contact', 10_000_000);
  await addPack(db, 'profile', 'light', 10_000_000);
  const tokens = await Promise.all(Array.from({ length: 50 }, async () => (await createToken(db, 'profile')).token));
  const profDir = mkdtempSync(path.join(os.tmpdir(), 'recapito-prof-'));
  // PROFILE_ENTRY: another build's CLI (e.g. a copy of dist before a change), for an A/B in the same conditions
  const entry = process.env.PROFILE_ENTRY ? path.resolve(process.env.PROFILE_ENTRY) : path.join(PROJECT_ROOT, 'bin', 'recapito.js');
  const { child, url } = await startListening(['--cpu-prof', '--cpu-prof-dir', profDir, entry, '--data-dir', dataDir, 'serve', '--port', '0'], {
    RECAPITO_RATE_SINGLE: '1000000000',
    RECAPITO_RATE_AUTOCOMPLETE: '1000000000',
  });
  const cpuBefore = serverCpuMs(child.pid);
  let n = 0;
  const headers = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
  const r = await autocannon({
    url,
    connections: 32,
    duration: seconds,
    requests: [{ method: 'POST', path: scenario.path, setupRequest: (req: object) => ({ ...req, body: scenario.body(n), headers: headers(tokens[Math.floor(n++ / 6000) % tokens.length]!) }) }],
  });
  const cpuMs = serverCpuMs(child.pid) - cpuBefore;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await closeState(dataDir);
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const { self, inclusive, total, idle } = summarise(JSON.parse(readFileSync(path.join(profDir, file), 'utf8')) as Profile);
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(1)}%`;
  console.log(`${which}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; profile ${path.join(profDir, file)}`);
  // CPU the server process consumed (user + system) per answered request: unlike req/s, barely moved by other load
  console.log(`server CPU ${Math.round(cpuMs)} ms for ${r.requests.total} requests: ${((cpuMs * 1000) / Math.max(1, r.requests.total)).toFixed(0)} µs a request (with the profiler on)`);
  console.log(`busy ${Math.round(total)} ms, idle ${Math.round(idle)} ms while serving; shares below are of busy time`);
  console.log('\ntop self time');
  console.table(self.slice(0, 30).map(([f, ms]) => ({ function: f.slice(0, 110), share: pct(ms) })));
  console.log('\ninclusive time of the stages of the request path (ours and the stack)');
  const stages = /^(authenticate|negotiate|answer|chargedRun|chargedWork|processCharged|englishBody|post|charge|batchedWrite|lookup|countRequest|toEnglishInput|toItalianOutput|validate|finishResult|process|encode|decode|readItems|rateClass|onSend|serialize|parse|preHandler|onRequest|JSON|stringify|defaultJsonParser|processTicksAndRejections|executeTxnCallbacks|\(garbage collector\)|\(idle\)|\(program\))\b/;
  console.table(inclusive.filter(([f]) => stages.test(f)).slice(0, 40).map(([f, ms]) => ({ function: f.slice(0, 110), share: pct(ms) })));
}

await main();
