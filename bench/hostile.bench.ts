/**
 * The hostile campaign (issue 15): at least 10,000 seeded hostile requests (test/helpers/hostile.ts) against
 * a real `recapito serve` process with its default limits, 8 at a time, plus a few bodies at and above the
 * 64 MiB body limit. Bar: 0 answers >= 500, 0 dropped connections other than the early 413 of a body
 * announced over the limit, the server alive, its RSS bounded (printed), the ledger equal to what the
 * answers said they charged.
 *
 * Peer row: the same requests against a bare Fastify 5 server with its defaults whose one route walks the
 * body recursively, as the key mapping did before this issue: what the campaign finds without the limits.
 */
import { readFileSync } from 'node:fs';

import Fastify from 'fastify';
import fc from 'fast-check';

import { createAccount, createToken, revokeToken } from '../src/state/tokens.js';
import { addPack, COUNTERS, current } from '../src/state/ledger.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startDnsResponder } from '../test/helpers/dns-server.js';
import { answerProblem, closeSockets, endpointsOf, hostileRequest, send, type Answer, type HostileRequest } from '../test/helpers/hostile.js';
import { startServerProcess } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';

const REQUESTS = Number(process.env.HOSTILE_REQUESTS ?? 10_000);
const SEED = Number(process.env.HOSTILE_SEED ?? 1515);
const CONCURRENCY = 8;
const LEGACY_HOST = 'legacy.recapito.test';
const MiB = 2 ** 20;

interface Tally {
  sent: number;
  statuses: Map<number, number>;
  over499: number;
  dropped: number;
  earlyRefusals: number;
  problems: Map<string, number>;
  charged: number;
  /** The slowest answers: where the time goes on hostile input. */
  slowest: { ms: number; what: string }[];
}

function newTally(): Tally {
  return { sent: 0, statuses: new Map(), over499: 0, dropped: 0, earlyRefusals: 0, problems: new Map(), charged: 0, slowest: [] };
}

function record(t: Tally, r: HostileRequest, a: Answer, ms: number): void {
  t.sent++;
  if (t.slowest.length < 8 || ms > t.slowest[t.slowest.length - 1]!.ms) {
    const body = r.body && r.body.length < 100_000 ? r.body.toString('utf8') : `${r.body?.length ?? 0} bytes`;
    t.slowest.push({ ms, what: `${a.status} ${r.method} ${r.path.slice(0, 40)} ${r.kind}: ${JSON.stringify(body.slice(0, 160))} (${r.body?.length ?? 0} B)` });
    t.slowest.sort((x, y) => y.ms - x.ms);
    t.slowest.length = Math.min(t.slowest.length, 8);
  }
  t.statuses.set(a.status, (t.statuses.get(a.status) ?? 0) + 1);
  if (a.status >= 500) t.over499++;
  if (a.dropped) {
    if ((r.body?.length ?? 0) > 64 * MiB) t.earlyRefusals++;
    else t.dropped++;
  }
  if (a.status >= 200 && a.status < 300) t.charged += Number(a.headers['x-service-charged'] ?? 0);
  const problem = answerProblem(r, a);
  if (problem) {
    const key = `${problem.slice(0, 60)} (${r.kind})`;
    t.problems.set(key, (t.problems.get(key) ?? 0) + 1);
  }
}

/** Bodies at the limit: parsed in full and refused (async must be a boolean); and over it: refused unread. */
function bigRequests(token: string): HostileRequest[] {
  const item = JSON.stringify({ tax_code: 'RSSMRA85T10A562S', note: 'x'.repeat(600) });
  const near = Math.floor((63 * MiB) / (item.length + 1));
  const nearBody = Buffer.from(`{"async":"yes","items":[${Array.from({ length: near }, () => item).join(',')}]}`);
  const overBody = Buffer.alloc(65 * MiB, 0x20);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return [
    ...[1, 2, 3].map(() => ({ method: 'POST', path: '/api/v1/tax-code', headers, body: nearBody, kind: 'near-limit' })),
    ...[1, 2, 3].map(() => ({ method: 'POST', path: '/api/v1/phone', headers, body: overBody, kind: 'over-limit' })),
  ];
}

async function campaign(base: string, requests: () => Iterable<HostileRequest>, tally: Tally): Promise<void> {
  const it = requests()[Symbol.iterator]();
  const worker = async () => {
    for (let next = it.next(); !next.done; next = it.next()) {
      const start = performance.now();
      const answer = await send(base, next.value, 120_000);
      record(tally, next.value, answer, performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The seeded requests, generated in slices so that 1 MB strings are not all held at once. */
function* seeded(arb: fc.Arbitrary<HostileRequest>, n: number): Iterable<HostileRequest> {
  const slice = 100;
  for (let i = 0; i < n; i += slice) yield* fc.sample(arb, { seed: SEED + i, numRuns: Math.min(slice, n - i) });
}

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

function row(name: string, t: Tally): Record<string, string | number> {
  return {
    server: name,
    requests: t.sent,
    'status >= 500': t.over499,
    'dropped connections': t.dropped,
    'early 413 (documented)': t.earlyRefusals,
    'undocumented answers': [...t.problems.values()].reduce((s, n) => s + n, 0),
    statuses: [...t.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' '),
  };
}

async function main(): Promise<void> {
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined); // LMDB: the single-node baseline
  await createAccount(db, 'hostile');
  for (const counter of COUNTERS) await addPack(db, 'hostile', counter, 50_000_000);
  const token = (await createToken(db, 'hostile')).token;
  const revoked = (await createToken(db, 'hostile')).token;
  await revokeToken(db, revoked);
  const dns = await startDnsResponder(new Map());
  const server = await startServerProcess(dataDir, {
    RECAPITO_RATE_SINGLE: '100000000',
    RECAPITO_RATE_BATCH: '100000000',
    RECAPITO_RATE_AUTOCOMPLETE: '100000000',
    RECAPITO_LEGACY_HOSTS: LEGACY_HOST,
    RECAPITO_DNS_SERVER: dns.server,
  });
  const pid = server.child.pid ?? 0;
  try {
    const index = (await (await fetch(`${server.url}/api/v1/`)).json()) as Parameters<typeof endpointsOf>[0];
    const arb = hostileRequest({ endpoints: endpointsOf(index), token, badTokens: [revoked, 'rk_unknownunknownunknownunknownun'], legacyHost: LEGACY_HOST });
    const rssStart = rssMiB(pid);
    const ours = newTally();
    const started = Date.now();
    await campaign(server.url, () => seeded(arb, REQUESTS), ours);
    await campaign(server.url, () => bigRequests(token), ours);
    const seconds = (Date.now() - started) / 1000;
    // a client told 503 waits Retry-After seconds and asks again, as the service asks it to
    let alive: Response;
    for (let attempt = 1; ; attempt++) {
      alive = await fetch(`${server.url}/api/v1/tax-code`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'validate', tax_code: 'RSSMRA85T10A562S' }),
      });
      if (alive.status !== 503 || attempt === 3) break;
      await new Promise((r) => setTimeout(r, Number(alive.headers.get('retry-after') ?? 5) * 1000));
    }
    ours.charged += Number(alive.headers.get('x-service-charged') ?? 0);
    let ledger = 0;
    for (const c of COUNTERS) ledger += (await current(db, 'hostile', c)).used_total;

    // the peer: the same seeded requests (without the 64 MiB bodies) against bare Fastify
    const peer = Fastify();
    const walk = (v: unknown): unknown => (Array.isArray(v) ? v.map(walk) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase(), walk(x)])) : v);
    peer.all('/*', async (req) => ({ ok: true, keys: Object.keys((walk(req.body) as object | null) ?? {}).length }));
    const peerUrl = await peer.listen({ port: 0, host: '127.0.0.1' });
    const theirs = newTally();
    await campaign(peerUrl, () => seeded(arb, REQUESTS), theirs);
    await peer.close();

    console.log(`hostile campaign: seed ${SEED}, ${ours.sent} requests, ${CONCURRENCY} at a time, ${seconds.toFixed(0)} s`);
    console.table([row('recapito', ours), row('bare Fastify 5 + recursive walk (peer)', theirs)]);
    const ratio = theirs.over499 === 0 ? 'n/a' : `${ours.over499}/${theirs.over499}`;
    console.log(`answers >= 500, ours/peer: ${ratio}`);
    for (const [problem, n] of ours.problems) console.log(`  ours: ${n} x ${problem}`);
    console.log('slowest answers (ours):');
    for (const s of ours.slowest) console.log(`  ${s.ms.toFixed(0)} ms  ${s.what}`);
    console.log(`server alive after the campaign: ${alive.status === 200 ? 'yes' : `NO (${alive.status})`}`);
    console.log(`server RSS: ${rssStart} MiB at start, ${rssMiB(pid)} MiB at the end, peak ${server.peakRssMiB()} MiB`);
    console.log(`ledger: ${ledger} operations used; answers said ${ours.charged}: ${ledger === ours.charged ? 'equal' : 'DIFFERENT'}`);
    if (ours.over499 > 0 || ours.dropped > 0 || alive.status !== 200 || ledger !== ours.charged) process.exitCode = 1;
  } finally {
    closeSockets();
    server.child.kill('SIGTERM');
    await dns.close();
    await closeState(dataDir);
  }
}

await main();
