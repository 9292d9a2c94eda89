import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { createAccount, createToken } from '../src/account/tokens.js';
import { addPack, consume, current, FREE_MONTHLY } from '../src/credit/ledger.js';
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
  // enough tokens that no token reaches its per-minute limit: only credit decides
  const tokens = await Promise.all(Array.from({ length: 12 }, async () => (await createToken(state, 'race')).token));
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
