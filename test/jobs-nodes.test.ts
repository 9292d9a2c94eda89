/**
 * Jobs across nodes (issue 17) on a real PostgreSQL (a throwaway cluster, test/helpers/postgres.ts): two
 * `recapito serve` processes share the job store and the pg-boss unit queue.
 */
import test from 'ava';
import pg from 'pg';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack, creditKey, current } from '../src/state/ledger.js';
import { openStore } from '../src/state/open.js';
import { doc, type StateStore } from '../src/state/store.js';
import { startPostgres, type PgCluster } from './helpers/postgres.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';
import { call, freshDataDir, type TestServer, waitFor } from './helpers/server.js';

let cluster: PgCluster;
test.before(async () => {
  cluster = await startPostgres();
});
test.after.always(async () => cluster?.stop());

const phones = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, phone: i % 3 === 0 ? `+41 44 ${String(1000000 + i)}` : `02 ${String(1000000 + i)}` }));

interface Nodes {
  db: StateStore;
  url: string;
  token: string;
  a: ServerProcess;
  b: ServerProcess;
  stop(): Promise<void>;
}

/** Two nodes, each with its own data dir (the register), on one database: accounts, credit and jobs. */
async function twoNodes(account: string): Promise<Nodes> {
  const url = await cluster.createDatabase();
  const db = await openStore(await freshDataDir(), url);
  await createAccount(db, account);
  await addPack(db, account, 'light', 100_000);
  const token = (await createToken(db, account)).token;
  // a short lease so that a dead node's unit is taken again within the test; one thread per node
  const env = { RECAPITO_STATE_URL: url, RECAPITO_JOB_LEASE_S: '3', RECAPITO_JOB_WORKERS: '1', RECAPITO_RATE_BATCH: '1000', RECAPITO_RATE_SINGLE: '100000' };
  const a = await startServerProcess(await freshDataDir(), env);
  const b = await startServerProcess(await freshDataDir(), env);
  return {
    db,
    url,
    token,
    a,
    b,
    stop: async () => {
      for (const p of [a, b]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      await Promise.all([a, b].map((p) => (p.child.exitCode === null && p.child.signalCode === null ? new Promise((r) => p.child.once('exit', r)) : undefined)));
      await db.close();
    },
  };
}

const node = (p: ServerProcess, token: string) => ({ url: p.url, token }) as TestServer;

/**
 * SIGKILLs node A while it holds a unit of the job whose result is not written yet. A is frozen (SIGSTOP)
 * while the queue is read: B runs one unit at a time (one worker), so two such units mean one is in A's
 * hands, and a frozen A cannot finish it before the kill. Otherwise A goes on and the look is taken again.
 * Killed at a random moment instead, A is now and then between two units, or has written its unit's
 * result and not yet told the queue: the job then completes without running anything of A's again.
 */
const HELD_NOT_COMMITTED = `SELECT count(*)::int AS n FROM pgboss.job j WHERE j.data->>'job' = $1 AND j.state = 'active'
  AND NOT EXISTS (SELECT 1 FROM recapito_job_results r WHERE r.job = j.data->>'job' AND r.chunk = (j.data->>'chunk')::int)`;

async function killHoldingUnit(nodes: Nodes, job: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: nodes.url });
  await client.connect();
  try {
    for (let look = 0; look < 2_000; look++) {
      nodes.a.child.kill('SIGSTOP');
      const active = await client.query(HELD_NOT_COMMITTED, [job]).catch((error: unknown) => {
        nodes.a.child.kill('SIGCONT');
        throw error;
      });
      if (active.rows[0].n >= 2) {
        nodes.a.child.kill('SIGKILL');
        await new Promise((r) => nodes.a.child.once('exit', r));
        return true;
      }
      nodes.a.child.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 5));
    }
    return false;
  } finally {
    await client.end();
  }
}

test.serial('a 20,000-row job submitted on node A completes on node B after A is SIGKILLed mid-job: every row once, charged once', async (t) => {
  const nodes = await twoNodes('kill');
  try {
    const rows = 20_000;
    const usedBefore = (await current(nodes.db, 'kill', 'light')).used_total;
    const a = node(nodes.a, nodes.token);
    const b = node(nodes.b, nodes.token);
    const queued = await call(a, 'POST', '/api/v1/phone', { async: true, items: phones(rows) });
    t.is(queued.status, 200);
    t.is(queued.body.credit.charged, rows);
    const job = queued.body.job as string;
    // both nodes take units; A dies with one in its hands
    const mid = await waitFor(() => call(b, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.done >= 2_000);
    t.true(await killHoldingUnit(nodes, job), 'A was killed holding a unit');
    t.true(mid.body.done < rows, `killed after ${mid.body.done} rows`);

    const done = await waitFor(() => call(b, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.state === 'completed', 180_000);
    t.is(done.body.state, 'completed');
    t.is(done.body.done, rows);
    const c = done.body.outcomes;
    t.is(c.ok + c.modified + c.to_check + c.unresolved, rows);
    const csv = String((await call(b, 'GET', `/api/v1/phone?job=${job}&format=csv`)).body).trim().split('\n').slice(1);
    const ids = csv.map((line) => line.split(',')[0]);
    t.is(ids.length, rows, 'every row once');
    t.is(new Set(ids).size, rows);
    t.is((await current(nodes.db, 'kill', 'light')).used_total - usedBefore, rows, 'charged once, nothing given back');
    t.is(done.body.refunded, 0);

    // the unit A held was taken again after its lease (pg-boss retried it), and counted once
    const client = new pg.Client({ connectionString: nodes.url });
    await client.connect();
    try {
      const retried = await client.query("SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'job' = $1 AND retry_count > 0", [job]);
      t.true(retried.rows[0].n >= 1, 'a unit of the dead node was run again');
      const results = await client.query('SELECT count(*)::int AS n FROM recapito_job_results WHERE job = $1', [job]);
      t.is(results.rows[0].n, Math.ceil(rows / 500), 'one result per chunk');
    } finally {
      await client.end();
    }
  } finally {
    await nodes.stop();
  }
});

test.serial('cancel from the other node: a refund that cannot be written stops nothing; then the job stops on both, exactly its unprocessed operations go back once', async (t) => {
  const nodes = await twoNodes('cancel');
  try {
    const rows = 20_000;
    const usedBefore = (await current(nodes.db, 'cancel', 'light')).used_total;
    const a = node(nodes.a, nodes.token);
    const b = node(nodes.b, nodes.token);
    const queued = await call(a, 'POST', '/api/v1/phone', { async: true, items: phones(rows) });
    const job = queued.body.job as string;
    await waitFor(() => call(a, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.done > 0);
    // the stop and its refund are one transaction: with the account's counter unwritable (its packs
    // unreadable) the cancel fails whole, and the job runs on with nothing recorded as given back
    const key = creditKey('cancel', 'light');
    const sound = await nodes.db.update([doc('credits', key)], ([d]) => ({ result: d, write: [{ ...doc('credits', key), doc: { ...(d as object), packs: 'unreadable' } }] })).durable;
    t.is((await call(b, 'DELETE', `/api/v1/phone?job=${job}`)).status, 500);
    const running = await call(a, 'GET', `/api/v1/phone?job=${job}`);
    t.true(running.body.state === 'running' || running.body.state === 'queued', running.body.state);
    t.is(running.body.refunded, 0);
    await nodes.db.update([doc('credits', key)], () => ({ result: undefined, write: [{ ...doc('credits', key), doc: sound }] })).durable;

    const cancelled = await call(b, 'DELETE', `/api/v1/phone?job=${job}`);
    t.is(cancelled.status, 200);
    t.is(cancelled.body.state, 'cancelled');
    t.true(cancelled.body.refunded > 0);
    // units still running when the cancel came are not committed after it: the numbers stay put
    await new Promise((r) => setTimeout(r, 1_500));
    const final = await call(a, 'GET', `/api/v1/phone?job=${job}`);
    t.is(final.body.state, 'cancelled');
    t.is(final.body.refunded, cancelled.body.refunded);
    t.true(final.body.done > 0 && final.body.done < rows);
    t.is(final.body.done, cancelled.body.done);
    t.is(rows - final.body.refunded, final.body.done, 'what was not processed went back');
    t.is((await current(nodes.db, 'cancel', 'light')).used_total - usedBefore, final.body.done);
    // a second cancel gives nothing more
    const again = await call(a, 'DELETE', `/api/v1/phone?job=${job}`);
    t.is(again.body.refunded, 0);
    t.is((await current(nodes.db, 'cancel', 'light')).used_total - usedBefore, final.body.done);
  } finally {
    await nodes.stop();
  }
});
