import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';

import test from 'ava';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { lmdbStore } from '../src/state/lmdb.js';
import { openStore } from '../src/state/open.js';
import { SESSION_CALLS } from '../src/suggest/session.js';
import { startPostgres, postgresAvailable, type PgCluster } from './helpers/postgres.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';
import { freshDataDir } from './helpers/server.js';

/**
 * Autocomplete sessions outside one process's memory: on LMDB a session's calls are counted in memory and
 * written within a second (src/suggest/session.ts), so a graceful stop must write them; on PostgreSQL a
 * session typed on one node goes on, is selected and hits its quota on another.
 */
const rates = { RECAPITO_RATE_SINGLE: '100000', RECAPITO_RATE_BATCH: '100000', RECAPITO_RATE_AUTOCOMPLETE: '100000' };

async function stop(p: ServerProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await gone;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever came back
type Answer = { status: number; body: Record<string, any> };

async function suggest(server: ServerProcess, token: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${server.url}/api/v1/suggest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

test.serial('LMDB: calls counted in memory are written when the service stops, and count after a restart', async (t) => {
  const dataDir = await freshDataDir();
  // LMDB whatever the environment says (with-postgres.js sets RECAPITO_STATE_URL for the whole run)
  const state = lmdbStore(dataDir);
  await createAccount(state, 'restart');
  const token = (await createToken(state, 'restart')).token;
  await state.close();
  const session = randomUUID();
  const lmdb = { ...rates, RECAPITO_STATE_URL: '' };
  const first = await startServerProcess(dataDir, lmdb);
  try {
    // the same prefix again and again: nothing new is offered, so only the count changes
    for (let i = 0; i < 20; i++) t.is((await suggest(first, token, { session, q: 'via del fag', city: 'Bologna' })).status, 200, `call ${i + 1}`);
  } finally {
    await stop(first);
  }
  const second = await startServerProcess(dataDir, lmdb);
  try {
    for (let i = 20; i < SESSION_CALLS; i++) t.is((await suggest(second, token, { session, q: 'via del fag', city: 'Bologna' })).status, 200, `call ${i + 1}`);
    const over = await suggest(second, token, { session, q: 'via del fag', city: 'Bologna' });
    t.is(over.status, 429, 'the twenty calls before the restart count');
    t.is(over.body.code, 'session_quota');
  } finally {
    await stop(second);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.serial('PostgreSQL: a session typed on one node is selected, numbered and capped on another', async (t) => {
  if (!postgresAvailable()) return t.pass('PostgreSQL binaries not installed');
  let cluster: PgCluster | undefined;
  const nodes: ServerProcess[] = [];
  try {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    const state = await openStore('/nonexistent-lmdb-dir', url);
    await createAccount(state, 'nodes');
    await addPack(state, 'nodes', 'contact', 100);
    const token = (await createToken(state, 'nodes')).token;
    await state.close();
    for (let i = 0; i < 2; i++) nodes.push(await startServerProcess(await freshDataDir(), { ...rates, RECAPITO_STATE_URL: url }));
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const session = randomUUID();
    const found = await suggest(a, token, { session, q: 'via del faggiolo', city: 'Bologna' });
    const street = found.body.hints[0];
    t.is(street?.name, 'Via del Faggiolo');
    const selected = await suggest(b, token, { session, action: 'select', street_id: street.id, house_number: '5' });
    t.is(selected.status, 200, 'the street offered on node a is known on node b');
    t.is(selected.body.credit.charged, 1);
    const numbers = await suggest(a, token, { session, street_id: street.id, house_number: '1' });
    t.is(numbers.status, 200, 'the selection made on node b is known on node a');
    t.is(numbers.body.phase, 'house_numbers');
    const again = await suggest(a, token, { session, action: 'select', street_id: street.id, house_number: '7' });
    t.is(again.body.credit.charged, 0, 'charged once per session and street, whichever node');
    // four calls so far; the rest of the quota alternating between the nodes, then the cap
    for (let i = 4; i < SESSION_CALLS; i++) t.is((await suggest(i % 2 ? a : b, token, { session, q: 'via del fag', city: 'Bologna' })).status, 200, `call ${i + 1}`);
    const over = await Promise.all([a, b].map((n) => suggest(n, token, { session, q: 'via del fag', city: 'Bologna' })));
    t.deepEqual(
      over.map((r) => r.body.code),
      ['session_quota', 'session_quota'],
    );
  } finally {
    for (const n of nodes) await stop(n);
    await cluster?.stop();
  }
});
