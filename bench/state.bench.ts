/**
 * Issue 17: single-call throughput of the service on its two state back ends, in one run, with a real
 * client (autocannon) against real `recapito serve` processes on loopback:
 * - one node on LMDB (the embedded default, the baseline row);
 * - one node on PostgreSQL;
 * - two nodes on the same PostgreSQL database, the load split across them (what a load balancer does).
 * PostgreSQL runs durable (fsync and synchronous commit on), as LMDB's answers are. Every call is
 * authenticated, rate-limited, charged and counted in the state store: the work the back end changes.
 * Also measured: the round trip of the per-request auth generation read on PostgreSQL.
 */

import pg from 'pg';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack, current } from '../src/state/ledger.js';
import { openStore } from '../src/state/open.js';
import type { StateStore } from '../src/state/store.js';
import { startServerProcess, type ServerProcess } from '../test/helpers/process.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { freshDataDir } from '../test/helpers/server.js';
import { autocannon } from './autocannon.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const UNLIMITED = { RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000' };

async function prepare(state: StateStore): Promise<string[]> {
  await createAccount(state, 'bench');
  await addPack(state, 'bench', 'light', 100_000_000);
  return Promise.all(Array.from({ length: 8 }, async () => (await createToken(state, 'bench')).token));
}

/** Load on each node at once (connections split evenly); requests/s summed, latency of the worst node. */
async function load(nodes: ServerProcess[], tokens: string[]): Promise<{ rps: number; p50: number; p99: number; failed: number; ok: number }> {
  let n = 0;
  const runs = nodes.map((node, k) =>
    autocannon({
      url: node.url,
      connections: CONNECTIONS / nodes.length,
      duration: DURATION,
      requests: [
        {
          method: 'POST',
          path: '/api/v1/phone',
          headers: { authorization: `Bearer ${tokens[k % tokens.length]}`, 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone: `02 ${1_000_000 + (n++ % 8_000_000)}` }) }),
        },
      ],
    }),
  );
  const results = await Promise.all(runs);
  return {
    rps: Math.round(results.reduce((s, r) => s + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failed: results.reduce((s, r) => s + r.non2xx + r.errors, 0),
    ok: results.reduce((s, r) => s + r['2xx'], 0),
  };
}

async function stop(p: ServerProcess): Promise<void> {
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await gone;
}

async function main(): Promise<void> {
  const rows: { setup: string; rps: number; p50: number; p99: number; failed: number; ok: number; charged: number }[] = [];

  // one node on LMDB
  const lmdbDir = await freshDataDir();
  const lmdb = await openStore(lmdbDir, undefined);
  const lmdbTokens = await prepare(lmdb);
  const before = (await current(lmdb, 'bench', 'light')).used_total;
  const single = await startServerProcess(lmdbDir, UNLIMITED);
  const l = await load([single], lmdbTokens);
  await stop(single);
  lmdb.lmdb?.root.resetReadTxn();
  rows.push({ setup: '1 node, LMDB', ...l, charged: (await current(lmdb, 'bench', 'light')).used_total - before });
  await lmdb.close();

  // PostgreSQL, durable
  const cluster = await startPostgres({ durable: true });
  try {
    for (const count of [1, 2]) {
      const url = await cluster.createDatabase();
      const state = await openStore(await freshDataDir(), url);
      const tokens = await prepare(state);
      const nodes = await Promise.all(Array.from({ length: count }, async () => startServerProcess(await freshDataDir(), { ...UNLIMITED, RECAPITO_STATE_URL: url })));
      const r = await load(nodes, tokens);
      await Promise.all(nodes.map(stop));
      rows.push({ setup: `${count} node${count > 1 ? 's' : ''}, PostgreSQL`, ...r, charged: (await current(state, 'bench', 'light')).used_total });
      await state.close();
    }

    // the per-request auth generation read, alone
    const client = new pg.Client({ connectionString: await cluster.createDatabase() });
    await client.connect();
    await client.query('CREATE TABLE g (ns text, key text, doc jsonb, PRIMARY KEY (ns, key))');
    await client.query(`INSERT INTO g VALUES ('kv', 'auth/generation', '1')`);
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = performance.now();
      await client.query('SELECT doc FROM g WHERE ns = $1 AND key = $2', ['kv', 'auth/generation']);
      times.push(performance.now() - t);
    }
    await client.end();
    times.sort((a, b) => a - b);
    console.log(`auth generation read on PostgreSQL (one round trip, loopback): p50 ${(times[1000]! * 1000).toFixed(0)} µs, p99 ${(times[1980]! * 1000).toFixed(0)} µs`);
  } finally {
    await cluster.stop();
  }

  const base = rows[0]!.rps;
  console.log(`\nsingle calls (POST /api/v1/phone, ${CONNECTIONS} connections, ${DURATION} s; every call authenticated, rate-limited, charged, counted; ok = 200s received, charged = operations the ledger holds after)`);
  console.table(rows.map((r) => ({ ...r, 'vs 1 node LMDB': (r.rps / base).toFixed(2) })));
}

await main();
