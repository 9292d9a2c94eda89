/**
 * Issue 17, in one run: one node on LMDB (the embedded default, the reference row), then one and two
 * nodes on PostgreSQL (a throwaway durable cluster) sharing the state, the job store and the pg-boss queue:
 * - single calls/s (autocannon, POST /api/v1/phone, the load split across the nodes as a balancer does),
 *   once with every token of ONE account (every charge on one counter row: the hot account) and once
 *   with one account per token (charges spread over rows): their ratio is what the hot row costs;
 * - job rows/s (a phone and a contact job, queued on the first node, read round the nodes).
 * Each node runs RECAPITO_JOB_WORKERS threads (default 1 here, so that two nodes are two executors).
 */

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { openStore } from '../src/state/open.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { bolognaContacts } from './bologna-contacts.js';
import { autocannon } from './autocannon.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const WORKERS = process.env.BENCH_JOB_WORKERS ?? '1';

/** Seconds of each single-call run (two runs per kind of load, after a warm-up). */
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = 4;
const CONNECTIONS = 32;
const TOKENS = 8;

type Calls = { rps: number; p50: number; p99: number; failed: number };

function mean(runs: Calls[]): Calls {
  const avg = (f: (c: Calls) => number) => Math.round(runs.reduce((s, r) => s + f(r), 0) / runs.length);
  return { rps: avg((r) => r.rps), p50: avg((r) => r.p50), p99: avg((r) => r.p99), failed: runs.reduce((s, r) => s + r.failed, 0) };
}

/** Single calls on every node at once, connections split evenly: requests/s summed, the worst node's latency. */
async function singleCalls(nodes: ServerProcess[], tokens: string[], duration = DURATION): Promise<Calls> {
  let n = 0;
  const results = await Promise.all(
    nodes.map((node, k) =>
      autocannon({
        url: node.url,
        connections: CONNECTIONS / nodes.length,
        duration,
        requests: tokens
          .filter((_, i) => i % nodes.length === k)
          .map((token) => ({
            method: 'POST',
            path: '/api/v1/phone',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            setupRequest: (req: { body?: string }) => ({ ...req, body: JSON.stringify({ phone: `02 ${1_000_000 + (n++ % 8_000_000)}` }) }),
          })),
      }),
    ),
  );
  return {
    rps: Math.round(results.reduce((s, r) => s + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
  };
}

const phones = Array.from({ length: ROWS }, (_, i) => ({ id: i, phone: i % 4 === 0 ? `333 ${String(1000000 + i)}` : `02 ${String(1000000 + (i % 8999999))}` }));

interface Setup {
  label: string;
  nodes: number;
  stateUrl?: () => Promise<string>;
}

/** Queues a job on the first node and polls it until done: rows/s from the POST to completion. */
async function drain(servers: ServerProcess[], token: string, endpoint: string, items: unknown[]): Promise<{ seconds: number; state: string }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const t0 = performance.now();
  const queued = (await (await fetch(`${servers[0]?.url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify({ async: true, items }) })).json()) as { job: string };
  let state = 'queued';
  for (let i = 0; state !== 'completed' && state !== 'failed'; i++) {
    // reads go round the nodes, as behind a load balancer
    const r = (await (await fetch(`${servers[i % servers.length]?.url}${endpoint}?job=${queued.job}`, { headers })).json()) as { state: string };
    state = r.state;
    await new Promise((r2) => setTimeout(r2, 100));
  }
  return { seconds: (performance.now() - t0) / 1000, state };
}

async function main(): Promise<void> {
  // durable, as LMDB's answers are: a charge is on disk before its answer leaves
  const cluster = await startPostgres({ durable: true });
  const addresses = await bolognaContacts(ROWS);
  const setups: Setup[] = [
    { label: 'LMDB', nodes: 1 },
    { label: 'PostgreSQL', nodes: 1, stateUrl: () => cluster.createDatabase() },
    { label: 'PostgreSQL', nodes: 2, stateUrl: () => cluster.createDatabase() },
  ];
  const table: Record<string, string | number>[] = [];
  const calls: Record<string, string | number>[] = [];
  const reference = new Map<string, number>();
  try {
    for (const setup of setups) {
      const dataDir = await freshDataDir();
      const url = setup.stateUrl ? await setup.stateUrl() : undefined;
      const db = await openStore(dataDir, url);
      await createAccount(db, 'bench');
      await addPack(db, 'bench', 'light', ROWS * 2);
      await addPack(db, 'bench', 'contact', ROWS * 2);
      const token = (await createToken(db, 'bench')).token;
      // single calls: TOKENS tokens of the one account (hot), or one account each (spread)
      const hot = await Promise.all(Array.from({ length: TOKENS }, async () => (await createToken(db, 'bench')).token));
      const spread = await Promise.all(
        Array.from({ length: TOKENS }, async (_, i) => {
          await createAccount(db, `spread${i}`);
          await addPack(db, `spread${i}`, 'light', 10_000_000);
          return (await createToken(db, `spread${i}`)).token;
        }),
      );
      await addPack(db, 'bench', 'light', 10_000_000);
      const env: Record<string, string> = { RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000', RECAPITO_JOB_WORKERS: WORKERS };
      if (url) env.RECAPITO_STATE_URL = url;
      // on LMDB the one node uses the data dir the account was made in; on PostgreSQL each node has its own
      const servers: ServerProcess[] = [];
      if (!url) await db.close();
      for (let i = 0; i < setup.nodes; i++) servers.push(await startServerProcess(url && i > 0 ? await freshDataDir() : dataDir, env));
      try {
        // warmed up first, then hot and spread in turns (A/B/A/B): neither gets the warmer half of the run
        await singleCalls(servers, spread, WARMUP);
        const rounds = [];
        for (let i = 0; i < 2; i++) rounds.push({ hot: await singleCalls(servers, hot), spread: await singleCalls(servers, spread) });
        const byAccount = { hot: mean(rounds.map((r) => r.hot)), spread: mean(rounds.map((r) => r.spread)) };
        for (const [accounts, r] of Object.entries(byAccount)) {
          const key = `single ${accounts}`;
          if (!setup.stateUrl) reference.set(key, r.rps);
          calls.push({
            'back end': setup.label,
            nodes: setup.nodes,
            accounts: accounts === 'hot' ? `1 (hot row)` : `${TOKENS}`,
            'req/s': r.rps,
            'p50 ms': r.p50,
            'p99 ms': r.p99,
            failed: r.failed,
            'vs LMDB 1 node': (r.rps / (reference.get(key) ?? r.rps)).toFixed(2),
            'hot / spread': accounts === 'hot' ? (r.rps / byAccount.spread.rps).toFixed(2) : '',
          });
        }
        for (const [endpoint, items] of [
          ['/api/v1/phone', phones],
          ['/api/v1/contact', addresses],
        ] as const) {
          const { seconds, state } = await drain(servers, token, endpoint, items);
          const rate = ROWS / seconds;
          if (!setup.stateUrl) reference.set(endpoint, rate);
          table.push({
            'back end': setup.label,
            nodes: setup.nodes,
            endpoint: `${endpoint} (async)`,
            rows: ROWS,
            state,
            'total s': seconds.toFixed(1),
            'rows/s': Math.round(rate),
            'vs LMDB 1 node': (rate / (reference.get(endpoint) ?? rate)).toFixed(2),
          });
        }
      } finally {
        for (const s of servers) s.child.kill('SIGTERM');
        await Promise.all(servers.map((s) => new Promise((r) => s.child.once('exit', r))));
        await db.close();
      }
    }
    console.log(`single calls: POST /api/v1/phone, ${CONNECTIONS} connections split over the nodes, mean of 2 runs of ${DURATION} s each in turns after a ${WARMUP} s warm-up; ${TOKENS} tokens; PostgreSQL durable; failed = non-2xx + errors`);
    console.table(calls);
    console.log(`job throughput, ${ROWS} rows per job, ${WORKERS} job thread(s) per node, ${process.env.RECAPITO_JOB_LEASE_S ?? 30} s lease`);
    console.table(table);
  } finally {
    await cluster.stop();
  }
}

await main();
