import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { createAccount, createToken, hashToken } from '../src/state/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { addPack, availableOf, current, type CreditCharge } from '../src/state/ledger.js';
import { chargedWork } from '../src/http/billing.js';
import { isoNow } from '../src/state/clock.js';
import type { TokenRecord } from '../src/state/db.js';
import type { StateStore } from '../src/state/store.js';
import { freshDataDir } from './helpers/server.js';
import { processState } from './helpers/state-url.js';

/**
 * Charges made on the request path (the group commit, src/state/commit.ts) while another writer changes the
 * same documents: an exact write of this process in the same turn, and the operator's CLI in another process
 * between two bursts. Every charge stays exact, durable and answered once, the work runs once, and nothing
 * the other writer did is lost. (Written for issue 14's third pass, which decided charges from a copy in
 * memory and wrote them on condition — measured slower and not merged; the property holds for any design.)
 * Both back ends (`npm run test:pg`).
 */

const run = promisify(execFile);
const cli = (dataDir: string, env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, ...args], { env: { ...process.env, ...env } });

/** One synchronous call's charge through the request path's charged sequence; counts the runs of its work. */
function charged(state: StateStore, account: string, units: number, runs: { n: number }): Promise<CreditCharge> {
  return chargedWork(state, { payer: { account }, counter: 'light', units }, async () => {
    runs.n += 1;
    return null;
  }).then((done) => done.charge);
}

test("an exact write in the same turn as charges: each charge once, and the write is kept", async (t) => {
  const dataDir = await freshDataDir();
  const { state } = await processState(dataDir);
  await createAccount(state, 'turns');
  await addPack(state, 'turns', 'light', 10);
  const runs = { n: 0 };
  await charged(state, 'turns', 1, runs);

  // in one turn: a charge, the operator's pack written at once (its own transaction), another charge
  const first = charged(state, 'turns', 2, runs);
  const pack = addPack(state, 'turns', 'light', 100);
  const second = charged(state, 'turns', 3, runs);
  const [a, , b] = await Promise.all([first, pack, second]);

  const record = await current(state, 'turns', 'light');
  t.is(runs.n, 3, 'each call ran its work once');
  t.is(record.used_total, 6, 'every operation charged once');
  t.is(record.packs.length, 2, "the operator's pack is kept");
  t.deepEqual(
    record.packs.map((p) => p.size),
    [10, 100],
  );
  t.is(availableOf(record), 500 + 10 + 100 - 6);
  // one of the answers reports what is left
  t.is(Math.min(a.available, b.available), availableOf(record));
  t.is(a.charged + b.charged, 5);
  await state.close();
});

test('another process writes the counter between two bursts: every charge after it counts the pack, exactly', async (t) => {
  const dataDir = await freshDataDir();
  const { state, env } = await processState(dataDir);
  await createAccount(state, 'shop');
  await addPack(state, 'shop', 'light', 1000);
  const runs = { n: 0 };
  await Promise.all(Array.from({ length: 3 }, () => charged(state, 'shop', 1, runs)));

  // the operator, from another process
  await cli(dataDir, env, 'credit', 'add-pack', '--account', 'shop', '--counter', 'light', '--size', '100');

  const answers = await Promise.all(Array.from({ length: 5 }, () => charged(state, 'shop', 2, runs)));
  const record = await current(state, 'shop', 'light');
  t.is(runs.n, 8);
  t.is(record.used_total, 3 + 10);
  t.deepEqual(
    record.packs.map((p) => p.size),
    [1000, 100],
    'the pack added by the other process is kept',
  );
  t.is(availableOf(record), 500 + 1000 + 100 - 13);
  t.is(Math.min(...answers.map((c) => c.available)), availableOf(record));
  await state.close();
});

test('after a 402, a pack added by another process pays the next call', async (t) => {
  const dataDir = await freshDataDir();
  const { state, env } = await processState(dataDir);
  await createAccount(state, 'dry');
  const runs = { n: 0 };
  // the whole free allowance in one call: nothing is left
  await charged(state, 'dry', 500, runs);
  const refused = await t.throwsAsync(charged(state, 'dry', 1, runs));
  t.is((refused as { code?: string }).code, 'payment_required');

  await cli(dataDir, env, 'credit', 'add-pack', '--account', 'dry', '--counter', 'light', '--size', '10');

  const paid = await charged(state, 'dry', 1, runs);
  t.is(paid.charged, 1);
  t.is(paid.available, 9);
  t.is(runs.n, 2, 'the refused call ran no work');
  t.is((await current(state, 'dry', 'light')).used_total, 501);
  await state.close();
});

test('request counts after a revoke by another process: the revoke is kept and every count lands', async (t) => {
  const dataDir = await freshDataDir();
  const { state, env } = await processState(dataDir);
  await createAccount(state, 'counted');
  const { token, record } = await createToken(state, 'counted');
  const hash = hashToken(token);
  const count = async (n: number) => {
    const waits = Array.from({ length: n }, () => state.countRequest(hash, isoNow()));
    await Promise.all(waits.map((counted) => counted()));
  };
  await count(4);
  await cli(dataDir, env, 'token', 'revoke', record.id);
  await count(3);
  const stored = await state.get<TokenRecord>('tokens', hash);
  t.is(stored?.requests, 7);
  t.truthy(stored?.revoked, 'the revoke written by the other process is kept');
  await state.close();
});
