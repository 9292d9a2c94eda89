import test from 'ava';

import { createAccount } from '../src/state/tokens.js';
import { addPack, current, FREE_MONTHLY } from '../src/state/ledger.js';
import { chargedWork } from '../src/http/billing.js';
import { processState } from './helpers/state-url.js';
import { freshDataDir } from './helpers/server.js';

/**
 * `chargedWork` (src/http/billing.ts), the one door from a request to the credit ledger, on a real store
 * (LMDB, or PostgreSQL under `with-postgres`): the work runs only on a charge taken, its answer comes with
 * the charge on disk, a refusal writes nothing and runs no work, failed work gives its operations back.
 */
test('charged work: the value and the charge; a 402 runs no work and writes nothing; failed work is refunded and undone', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'door');
  await addPack(state, 'door', 'light', 10);
  const payer = { account: 'door' };
  const start = FREE_MONTHLY.light + 10;

  const ok = await chargedWork(state, { payer, counter: 'light', units: 4 }, async () => 'done');
  t.is(ok.value, 'done');
  t.is(ok.charge.charged, 4);
  t.is(ok.charge.available, start - 4);
  t.is((await current(state, 'door', 'light')).used_total, 4);

  // more than is left: refused before the work, the caller's step undone, nothing written
  let ran = false;
  let undone = 0;
  const before = await current(state, 'door', 'light');
  const refused = await t.throwsAsync(
    chargedWork(
      state,
      { payer, counter: 'light', units: start },
      async () => {
        ran = true;
      },
      () => {
        undone += 1;
      },
    ),
  );
  t.is((refused as { code?: string }).code, 'payment_required');
  t.false(ran);
  t.is(undone, 1);
  t.deepEqual(await current(state, 'door', 'light'), before);

  // the work fails after the charge: its operations back on disk, then undone, then its error
  const failed = await t.throwsAsync(
    chargedWork(
      state,
      { payer, counter: 'light', units: 3 },
      async () => {
        throw new Error('work failed');
      },
      () => {
        undone += 1;
      },
    ),
  );
  t.is(failed?.message, 'work failed');
  t.is(undone, 2);
  // every bucket as before the failed call (its `last_used` stays: the call was made)
  t.deepEqual({ ...(await current(state, 'door', 'light')), last_used: before.last_used }, before);
  await state.close();
});

test('charged work of one turn racing for the last units: exactly as many runs as the credit covers', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'race');
  await addPack(state, 'race', 'light', 1);
  // spend the free allowance: one unit of a pack is left
  await chargedWork(state, { payer: { account: 'race' }, counter: 'light', units: FREE_MONTHLY.light }, async () => undefined);
  let runs = 0;
  const outcomes = await Promise.allSettled(
    Array.from({ length: 2 }, () =>
      chargedWork(state, { payer: { account: 'race' }, counter: 'light', units: 1 }, async () => {
        runs += 1;
      }),
    ),
  );
  t.is(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
  const refusals = outcomes.filter((o) => o.status === 'rejected');
  t.is(refusals.length, 1);
  t.is(((refusals[0] as PromiseRejectedResult).reason as { code?: string }).code, 'payment_required');
  t.is(runs, 1);
  const after = await current(state, 'race', 'light');
  t.is(after.used_total, FREE_MONTHLY.light + 1);
  // the pack is spent: out of the record, counted as retired (ledger.ts, retireSpent)
  t.deepEqual(after.packs, []);
  t.is(after.packs_retired, 1);
  await state.close();
});
