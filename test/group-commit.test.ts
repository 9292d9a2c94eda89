import test from 'ava';

import { createAccount } from '../src/state/tokens.js';
import { addPack, charge, current, FREE_MONTHLY, refundDurably, type ChargeTicket, type CreditCharge, type Payer } from '../src/state/ledger.js';
import type { Counter } from '../src/http/capability.js';
import { addRider } from '../src/state/commit.js';
import type { StateStore } from '../src/state/store.js';
import { processState } from './helpers/state-url.js';
import { freshDataDir } from './helpers/server.js';

/** A charge's two moments as promises: `decided` (or the 402), `durable`. */
function charged(state: StateStore, payer: Payer, counter: Counter, units: number) {
  let decided!: Promise<{ charge: CreditCharge; ticket: ChargeTicket }>;
  let durable!: Promise<void>;
  decided = new Promise((resolveDecided, rejectDecided) => {
    durable = new Promise((resolveDurable, rejectDurable) => {
      charge(state, payer, counter, units, {
        decided: resolveDecided,
        refused: rejectDecided,
        durable: (error) => (error === undefined ? resolveDurable() : rejectDurable(error)),
      });
    });
  });
  decided.catch(() => undefined);
  return { decided, durable };
}

/**
 * The group commit (src/state/commit.ts, LMDB): the charges of one event-loop turn are decided one after
 * the other in one transaction, each reading what the previous one wrote (the round keeps the documents
 * it wrote and puts each once at the end). Lost updates or a refusal that wrote would show here as a
 * wrong counter. Also run on PostgreSQL under `with-postgres` (one transaction per charge there).
 */
test('thirty-two charges of one account in one turn: each decided on the previous one, the counter exact', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'round');
  await addPack(state, 'round', 'light', 100);
  const pending = Array.from({ length: 32 }, () => charged(state, { account: 'round' }, 'light', 3));
  const decided = await Promise.all(pending.map((p) => p.decided));
  await Promise.all(pending.map((p) => p.durable));
  // every charge saw the ones before it: the remaining figures count down by 3, none repeated
  const available = decided.map((d) => d.charge.available).sort((a, b) => b - a);
  t.deepEqual(available, Array.from({ length: 32 }, (_, i) => FREE_MONTHLY.light + 100 - 3 * (i + 1)));
  t.is((await current(state, 'round', 'light')).used_total, 96);
  await state.close();
});

test('the last units raced in one turn: exactly as many charges as the credit covers, the refusals write nothing', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'last');
  // spend the free allowance, leaving 5 units of a pack
  const spend = charged(state, { account: 'last' }, 'light', FREE_MONTHLY.light);
  await spend.durable;
  await addPack(state, 'last', 'light', 5);
  const pending = Array.from({ length: 8 }, () => charged(state, { account: 'last' }, 'light', 1));
  const outcomes = await Promise.allSettled(pending.map((p) => p.decided));
  await Promise.allSettled(pending.map((p) => p.durable));
  const ok = outcomes.filter((o) => o.status === 'fulfilled');
  const refused = outcomes.filter((o) => o.status === 'rejected');
  t.is(ok.length, 5);
  t.is(refused.length, 3);
  for (const r of refused) t.is((r.reason as { code?: string }).code, 'payment_required');
  const after = await current(state, 'last', 'light');
  t.is(after.used_total, FREE_MONTHLY.light + 5);
  // the pack is spent: out of the record, counted as retired (ledger.ts, retireSpent)
  t.deepEqual(after.packs, []);
  t.is(after.packs_retired, 1);

  // a refund in the same turn as a new charge: both land, in order
  const first = ok[0];
  if (first?.status !== 'fulfilled') throw new Error('unreachable');
  const back = refundDurably(state, first.value.ticket, 1);
  const again = charged(state, { account: 'last' }, 'light', 1);
  t.is(await back, 1);
  t.is((await again.decided).charge.available, 0, 'the charge of the same turn took the unit the refund gave back');
  await again.durable;
  t.is((await current(state, 'last', 'light')).used_total, FREE_MONTHLY.light + 5);
  await state.close();
});

/**
 * One round at a time (src/state/commit.ts): a charge asked once a round's decisions have run is not
 * decided in a transaction queued behind it, but waits until that round is on disk and then opens the
 * next round with every charge asked meanwhile. On PostgreSQL every charge is its own transaction and
 * the order holds as well.
 */
test('charges asked while a round is on its way to disk wait for it, then share the next round', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'held');
  await addPack(state, 'held', 'light', 100);
  const events: string[] = [];
  let rounds = 0;
  if (state.lmdb) addRider(state.lmdb, () => void (rounds += 1));
  const first = charged(state, { account: 'held' }, 'light', 1);
  void first.durable.then(() => events.push('first durable'));
  const later = first.decided.then(() =>
    Array.from({ length: 5 }, (_, i) => {
      const c = charged(state, { account: 'held' }, 'light', 1);
      void c.decided.then(() => events.push(`later ${i} decided`));
      return c;
    }),
  );
  const laterCharges = await later;
  await Promise.all(laterCharges.map((c) => c.durable));
  await first.durable;
  t.is(events[0], 'first durable', events.join(', '));
  t.is(events.length, 6);
  if (state.lmdb) t.is(rounds, 2, 'the first charge alone, then the five held ones together');
  t.is((await current(state, 'held', 'light')).used_total, 6);
  await state.close();
});
