import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';
import pg from 'pg';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack, consume, current, FREE_MONTHLY } from '../src/state/ledger.js';
import { PROJECT_ROOT } from '../src/config.js';
import { openStore } from '../src/state/open.js';
import { adoptRegister } from '../src/state/register-version.js';
import type { StateStore } from '../src/state/store.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';
import { startPostgres, type PgCluster } from './helpers/postgres.js';
import { freshDataDir } from './helpers/server.js';

/**
 * Two `recapito serve` processes on one PostgreSQL database (a throwaway cluster this file starts): the
 * counters, revocations, rate limits and the register check hold across nodes, not per node.
 */
const run = promisify(execFile);
const RATE_SINGLE = 20;

let cluster: PgCluster;
let url: string;
let state: StateStore;
let a: ServerProcess;
let b: ServerProcess;

async function node(): Promise<ServerProcess> {
  return startServerProcess(await freshDataDir(), { RECAPITO_STATE_URL: url, RECAPITO_RATE_SINGLE: String(RATE_SINGLE), RECAPITO_RATE_BATCH: '1000' });
}

async function stopNode(p: ServerProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await gone;
}

async function phone(server: ServerProcess, token: string, number: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api/v1/phone`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ phone: number }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

let dataDirOfCli = '';
const bin = path.join(PROJECT_ROOT, 'bin', 'recapito.js');
const cli = (...args: string[]) => run(process.execPath, [bin, '--data-dir', dataDirOfCli, ...args], { env: { ...process.env, RECAPITO_STATE_URL: url } });

test.before(async () => {
  cluster = await startPostgres();
  url = await cluster.createDatabase();
  state = await openStore('/nonexistent-lmdb-dir', url);
  a = await node();
  b = await node();
  dataDirOfCli = await freshDataDir();
});

test.after.always(async () => {
  await stopNode(a);
  await stopNode(b);
  await state?.close();
  await cluster?.stop();
});

test.serial('both nodes are ready on PostgreSQL and serve one register build', async (t) => {
  for (const server of [a, b]) {
    const base = server.url;
    t.is((await fetch(`${base}/health`)).status, 200);
    const ready = await fetch(`${base}/ready`);
    t.is(ready.status, 200);
    const body = (await ready.json()) as { state: string; register: string };
    t.is(body.state, 'postgres');
    t.regex(body.register, /^[0-9a-f]{16}$/);
  }
});

test.serial('credit raced from both nodes ends exact: as many 200s as units, the rest 402, the counter at zero', async (t) => {
  await createAccount(state, 'race');
  const units = 37;
  // leave exactly `units` of the free monthly allowance
  await consume(state, 'race', 'light', FREE_MONTHLY.light - units);
  // enough tokens that no token reaches its per-minute limit (12 calls each): only credit decides; one after
  // another and no more than an account may hold (RECAPITO_MAX_TOKENS_PER_ACCOUNT, 10)
  const tokens: string[] = [];
  for (let i = 0; i < 10; i++) tokens.push((await createToken(state, 'race')).token);
  const calls = Array.from({ length: 120 }, (_, i) => phone(i % 2 ? a : b, tokens[i % tokens.length] as string, `02 ${1_000_000 + i}`));
  const answers = await Promise.all(calls);
  const ok = answers.filter((r) => r.status === 200).length;
  const refused = answers.filter((r) => r.status === 402).length;
  t.is(ok, units, 'one success per unit, whichever node took it');
  t.is(refused, answers.length - units);
  t.true(answers.filter((r, i) => r.status === 200 && i % 2).length > 0 && answers.filter((r, i) => r.status === 200 && !(i % 2)).length > 0, 'both nodes charged');
  const r = await current(state, 'race', 'light');
  t.is(r.free_used, FREE_MONTHLY.light);
  t.is(r.used_total, FREE_MONTHLY.light);
});

test.serial('the last unit raced by both nodes, twenty times: exactly one success each time', async (t) => {
  await createAccount(state, 'last');
  const [ta, tb] = [(await createToken(state, 'last')).token, (await createToken(state, 'last')).token];
  await consume(state, 'last', 'light', FREE_MONTHLY.light);
  for (let round = 0; round < 20; round++) {
    await addPack(state, 'last', 'light', 1);
    const answers = await Promise.all([phone(a, ta, '02 1234567'), phone(b, tb, '02 7654321')]);
    t.deepEqual(answers.map((x) => x.status).sort(), [200, 402], `round ${round}`);
  }
  const r = await current(state, 'last', 'light');
  t.is(r.packs.reduce((s, p) => s + p.left, 0), 0);
  t.is(r.used_total, FREE_MONTHLY.light + 20);
});

test.serial('a token revoked through the CLI is refused by both nodes at once, though both had it cached', async (t) => {
  await cli('account', 'create', 'revoking');
  await cli('credit', 'add-pack', '--account', 'revoking', '--counter', 'light', '--size', '100');
  for (let round = 0; round < 3; round++) {
    const token = ((await cli('token', 'create', '--account', 'revoking')).stdout.trim().split('\n').pop() ?? '').trim();
    t.is((await phone(a, token, '02 1234567')).status, 200);
    t.is((await phone(b, token, '02 1234567')).status, 200);
    await cli('token', 'revoke', token);
    const [onA, onB] = await Promise.all([phone(a, token, '02 1234567'), phone(b, token, '02 1234567')]);
    t.is(onA.body.code, 'token_revoked');
    t.is(onB.body.code, 'token_revoked');
  }
  // what the CLI added is what both nodes report
  const shown = JSON.parse((await cli('credit', 'show', '--account', 'revoking')).stdout) as { counters: { light: { available: number; usage: { total: number } } } };
  t.is(shown.counters.light.usage.total, 6);
  t.is(shown.counters.light.available, FREE_MONTHLY.light + 100 - 6);
});

test.serial('rate limits count a token across nodes: the minute allows RATE_SINGLE calls in all', async (t) => {
  await createAccount(state, 'limited');
  await addPack(state, 'limited', 'light', 1000);
  const token = (await createToken(state, 'limited')).token;
  const answers = await Promise.all(Array.from({ length: 2 * RATE_SINGLE }, (_, i) => phone(i % 2 ? a : b, token, `02 ${2_000_000 + i}`)));
  t.is(answers.filter((r) => r.status === 200).length, RATE_SINGLE);
  t.is(answers.filter((r) => r.status === 429).length, RATE_SINGLE);
  t.is((await current(state, 'limited', 'light')).used_total, RATE_SINGLE, 'refused calls charged nothing');
});

/** Pairs of one person written two ways (real Bologna street), so that a dedupe finds groups. */
const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever came back
async function dedupe(server: ServerProcess, token: string, method: string, query: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/v1/dedupe${query}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test.serial('a dedupe saved on node A is read, reviewed, extended and cancelled on node B; its records are stored once', async (t) => {
  await createAccount(state, 'dd');
  await addPack(state, 'dd', 'dedupe', 10_000);
  const token = (await createToken(state, 'dd')).token;
  // the polling has a token of its own: these nodes allow RATE_SINGLE calls a minute per token, and on a
  // loaded machine the job takes more polls than that (the cancel below was once answered 429)
  const poller = (await createToken(state, 'dd')).token;
  const queued = await dedupe(a, token, 'POST', '', { async: true, records: people(40) });
  t.is(queued.status, 200);
  const job = queued.body.job as string;
  let done = await dedupe(b, poller, 'GET', `?job=${job}`);
  for (let i = 0; i < 600 && done.body.state !== 'completed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    done = await dedupe(b, poller, 'GET', `?job=${job}`);
  }
  t.is(done.body.state, 'completed');
  t.is(done.body.groups.length, 20);

  // the records once: in the saved dedupe of the shared state, not again as the job's input
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    t.is((await client.query('SELECT count(*)::int AS n FROM recapito_job_chunks WHERE job = $1', [job])).rows[0].n, 0);
    t.is((await client.query("SELECT jsonb_array_length(doc->'records') AS n FROM state_docs WHERE ns = 'dedupe_records' AND key = $1", [job])).rows[0].n, 40);
  } finally {
    await client.end();
  }

  // reviewed on B, seen on A; the first mark stands whichever node is asked again
  const marked = await dedupe(b, token, 'POST', '', { job, group: 1, processed: true });
  t.true(marked.body.processed);
  const onA = await dedupe(a, token, 'GET', `?job=${job}`);
  t.true(onA.body.groups[0].processed);
  t.is(onA.body.groups[0].processed_at, marked.body.processed_at);
  t.is((await dedupe(a, token, 'POST', '', { job, group: 1, processed: true })).body.processed_at, marked.body.processed_at);
  // extended on A, read on B with the new record
  const more = await dedupe(a, token, 'POST', '', { job, records: [{ id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' }] });
  t.deepEqual(more.body.added, [{ id: 'n', group: 1 }]);
  const extended = await dedupe(b, token, 'GET', `?job=${job}`);
  t.is(extended.body.rows, 41);
  t.false(extended.body.groups[0].processed, 'a group that grew is to be reviewed again');

  // extended on both nodes at once, five times: a node's match is saved only on the job as that node read
  // it (the other node's write in between makes it match again), so no new record is lost from the groups
  const verdi = { id: 'a', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' };
  const beppe = { id: 'b', first_name: 'Beppe', last_name: 'Verdi', address: 'V. S. Vitale, 12', city: 'bologna' };
  const anna = { id: 'c', first_name: 'Anna', last_name: 'Verdi', address: 'Via San Vitale 12', city: 'Bologna' };
  const giuseppe = { id: 'd', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via S. Vitale 12', city: 'Bologna', phone: '3479876543' };
  const peppe = { id: 'f', first_name: 'Peppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' };
  const ugo = { id: 'e', first_name: 'Ugo', last_name: 'Bassi', address: 'Via Ugo Bassi 1', city: 'Bologna' };
  for (let round = 0; round < 5; round++) {
    const saved = await dedupe(a, token, 'POST', '', { records: [verdi, beppe, anna], save: true });
    const raced = await Promise.all([dedupe(a, token, 'POST', '', { job: saved.body.job, records: [giuseppe] }), dedupe(b, token, 'POST', '', { job: saved.body.job, records: [peppe, ugo] })]);
    t.deepEqual(raced.map((r) => r.status), [200, 200]);
    const grown = await dedupe(b, token, 'GET', `?job=${saved.body.job}`);
    t.is(grown.body.rows, 6);
    t.deepEqual(grown.body.groups.map((g: { members: string[] }) => [...g.members].sort()), [['a', 'b', 'd', 'f']], `round ${round}`);
    t.deepEqual(grown.body.singles.map((x: { id: string }) => x.id).sort(), ['c', 'e']);
  }

  // a result saved by a synchronous call on B is read on A
  const sync = await dedupe(b, token, 'POST', '', { records: people(6), save: true });
  t.true(sync.body.groups.length > 0);
  t.deepEqual((await dedupe(a, token, 'GET', `?job=${sync.body.job}`)).body.groups, sync.body.groups);

  // an asynchronous one queued on A, cancelled on B: whatever it had not done goes back, once
  const usedBefore = (await current(state, 'dd', 'dedupe')).used_total;
  const second = await dedupe(a, token, 'POST', '', { async: true, records: people(400) });
  const cancelled = await dedupe(b, token, 'DELETE', `?job=${second.body.job}`);
  t.is(cancelled.status, 200, JSON.stringify(cancelled.body).slice(0, 300));
  const used = (await current(state, 'dd', 'dedupe')).used_total - usedBefore;
  if (cancelled.body.state === 'cancelled') t.is(used, 400 - cancelled.body.refunded);
  else t.is(used, 400, `${cancelled.body.state}: nothing given back`);
  t.is(cancelled.body.refunded, cancelled.body.state === 'cancelled' ? 400 : 0, 'a dedupe is one unit: all or nothing');
  const again = await dedupe(a, token, 'DELETE', `?job=${second.body.job}`);
  t.is(again.body.refunded, 0);
  t.is((await current(state, 'dd', 'dedupe')).used_total - usedBefore, used);
  const afterCancel = await dedupe(a, token, 'GET', `?job=${second.body.job}`);
  t.is(afterCancel.body.state, cancelled.body.state, `${afterCancel.status} ${JSON.stringify(afterCancel.body).slice(0, 300)}`);
});

test.serial('a node with another register build refuses to start; running nodes stop reporting ready', async (t) => {
  const before = (await (await fetch(`${a.url}/ready`)).json()) as { register: string };
  await adoptRegister(state, 'ffffffffffffffff');
  try {
    const refused = await run(process.execPath, [bin, '--data-dir', await freshDataDir(), 'serve', '--port', '0'], { env: { ...process.env, RECAPITO_STATE_URL: url } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    t.is(refused.code, 1, 'the node exits instead of serving');
    t.regex(refused.stderr, /register \(build [0-9a-f]{16}\) is not the one the other nodes serve \(build ffffffffffffffff\)/);
    const ready = await fetch(`${a.url}/ready`);
    t.is(ready.status, 503);
    t.regex(((await ready.json()) as { reason: string }).reason, /register build/);
  } finally {
    await adoptRegister(state, before.register);
  }
  t.is((await fetch(`${a.url}/ready`)).status, 200);
});

test.serial('graceful shutdown: /ready turns 503 at once, requests are still answered while the node drains, then it exits', async (t) => {
  await createAccount(state, 'drain');
  const token = (await createToken(state, 'drain')).token;
  const c = await startServerProcess(await freshDataDir(), { RECAPITO_STATE_URL: url, RECAPITO_DRAIN_MS: '3000' });
  const exited = new Promise<number | null>((resolve) => c.child.once('exit', (code) => resolve(code)));
  t.is((await fetch(`${c.url}/ready`)).status, 200);
  c.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  const ready = await fetch(`${c.url}/ready`);
  t.is(ready.status, 503);
  t.is(((await ready.json()) as { reason: string }).reason, 'shutting down');
  t.is((await fetch(`${c.url}/health`)).status, 200, 'alive while draining');
  t.is((await phone(c, token, '02 1234567')).status, 200, 'still answering while the balancer notices');
  t.is(await exited, 0);
});
