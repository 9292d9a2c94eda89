import test from 'ava';

import { addPack, consume, current, packsBought, retiredPackKey, setAutoTopup, subscribe, FREE_MONTHLY, refund } from '../src/state/ledger.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});
test.after.always(async () => server?.close());

const phones = (n: number) => Array.from({ length: n }, (_, i) => ({ phone: `02 ${String(1000000 + i)}` }));

/** A fresh account with its own token, so tests do not share counters. */
function account(name: string): Promise<string> {
  return server.newToken(name);
}

test('a call larger than the credit is refused with 402 and nothing is processed or charged', async (t) => {
  const token = await account('exhaust');
  await consume(server.state, 'exhaust', 'light', FREE_MONTHLY.light - 3);
  const before = await current(server.state, 'exhaust', 'light');
  const r = await call(server, 'POST', '/api/v1/phone', { items: phones(4) }, { token });
  t.is(r.status, 402);
  t.is(r.body.code, 'payment_required');
  t.is(r.body.details.needed, 4);
  t.is(r.body.details.available, 3);
  t.is(r.body.results, undefined);
  t.deepEqual(await current(server.state, 'exhaust', 'light'), before);
  // per NUMBER: one field with two numbers costs two operations
  const two = await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567 - 333 1234567' }, { token });
  t.is(two.status, 200);
  t.is(two.body.credit.charged, 2);
  t.is(two.headers.get('x-service-charged'), '2');
  t.is(two.headers.get('x-service-available'), '1');
});

test('consumption order: free, then subscription, then packs, then auto top-up under its cap', async (t) => {
  const db = server.state;
  await subscribe(db, 'order', 'light', 10);
  await addPack(db, 'order', 'light', 5);
  const a = (await consume(db, 'order', 'light', FREE_MONTHLY.light + 12)).charge;
  t.is(a.free.operations, FREE_MONTHLY.light);
  t.is(a.subscription.operations, 10);
  t.is(a.packs.operations, 2);
  t.is(a.available, 3);
  await t.throwsAsync(consume(db, 'order', 'light', 4), { message: 'payment_required' });
  await setAutoTopup(db, 'order', 'light', 1000, 2); // packs of 1000 light at €0.002 = €2: one fits a €2 cap
  const b = (await consume(db, 'order', 'light', 4)).charge;
  t.is(b.auto_topup, 1);
  t.is(b.packs.operations, 4);
  t.is(b.available, 999);
  t.truthy(b.note);
  await t.throwsAsync(consume(db, 'order', 'light', 1000), { message: 'payment_required' });
  const r = await current(db, 'order', 'light');
  t.is(r.auto_topup.spent_month_eur, 2);
  t.is(packsBought(r), 2);
  t.is(r.packs.length, 1, 'the spent pack left the record');
});

test('a refund gives back to the buckets the charge came from', async (t) => {
  const db = server.state;
  await addPack(db, 'refund', 'contact', 100);
  const { ticket } = await consume(db, 'refund', 'contact', FREE_MONTHLY.contact + 30);
  t.is((await current(db, 'refund', 'contact')).packs[0]?.left, 70);
  t.is(await refund(db, ticket, 40), 40);
  const r = await current(db, 'refund', 'contact');
  t.is(r.packs[0]?.left, 100);
  t.is(r.free_used, FREE_MONTHLY.contact - 10);
  t.is(r.used_total, FREE_MONTHLY.contact - 10);
});

test('spent packs leave the credit record, a refund to a retired pack brings it back, and bought counts them all', async (t) => {
  const db = server.state;
  const token = await account('retire');
  await consume(db, 'retire', 'contact', FREE_MONTHLY.contact);
  await addPack(db, 'retire', 'contact', 10);
  const first = await consume(db, 'retire', 'contact', 10);
  const firstPack = first.ticket.packs[0]?.id as string;
  // packs of 5 contact operations at €0.02 = €0.10, cap €100: every charge of 5 buys one and spends it
  await setAutoTopup(db, 'retire', 'contact', 5, 100);
  for (let i = 0; i < 20; i++) t.is((await consume(db, 'retire', 'contact', 5)).charge.auto_topup, 1);
  const r = await current(db, 'retire', 'contact');
  t.is(r.packs.length, 0, 'no spent pack stays in the record');
  t.is(r.packs_retired, 21);
  t.false(r.packs.some((p) => p.id === firstPack));
  t.is((await db.get<{ size: number; left: number }>('credit_packs', retiredPackKey('retire', 'contact', firstPack)))?.size, 10);
  const report = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(report.status, 200);
  t.is(report.body.counters.contact.packs.bought, 21);
  t.is(report.body.counters.contact.available, 0);
  // a job's refund long after its pack was spent and retired: the pack comes back, first in line again
  t.is(await refund(db, first.ticket, 10), 10);
  const back = await current(db, 'retire', 'contact');
  t.deepEqual(back.packs[0] && { id: back.packs[0].id, size: back.packs[0].size, left: back.packs[0].left }, { id: firstPack, size: 10, left: 10 });
  t.deepEqual(back.packs.map((p) => p.id), [firstPack]);
  t.is(back.packs_retired, 20);
  t.is(await db.get('credit_packs', retiredPackKey('retire', 'contact', firstPack)), undefined);
  t.is((await db.list('credit_packs', { prefix: 'retire/contact/' })).length, 20, 'the retired packs, and nothing else');
  const after = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(after.body.counters.contact.packs.bought, 21);
  t.is(after.body.counters.contact.available, 10);
  // the restored pack pays the next charge before a new top-up is bought
  const next = (await consume(db, 'retire', 'contact', 3)).charge;
  t.is(next.auto_topup, 0);
  t.is(next.packs.remaining, 7);
  // a refund to a pack still in the record leaves the retired ones as they are
  const again = await consume(db, 'retire', 'contact', 2);
  t.is(await refund(db, again.ticket, 2), 2);
  t.is((await current(db, 'retire', 'contact')).packs[0]?.left, 7);
  t.is((await db.list('credit_packs', { prefix: 'retire/contact/' })).length, 20);
  // PostgreSQL: the refunds looked for retired packs that are not there; their lock rows are gone with them
  if (db.pool) t.is((await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM state_docs WHERE doc IS NULL')).rows[0]?.n, 0);
});

test('two requests racing for the last unit: one succeeds, one gets 402, the counter ends at zero', async (t) => {
  const tokenA = await account('race');
  const tokenB = await server.newToken('race');
  await consume(server.state, 'race', 'light', FREE_MONTHLY.light - 1);
  const [a, b] = await Promise.all([
    call(server, 'POST', '/api/v1/phone', { phone: '0212345678' }, { token: tokenA }),
    call(server, 'POST', '/api/v1/phone', { phone: '0687654321' }, { token: tokenB }),
  ]);
  t.deepEqual([a.status, b.status].sort(), [200, 402]);
  const r = await current(server.state, 'race', 'light');
  t.is(r.free_used, FREE_MONTHLY.light);
  t.is(r.used_total, FREE_MONTHLY.light);
});

test('auto top-up acting is announced in X-Service-Auto-Topup and the credit object', async (t) => {
  const token = await account('topup');
  await consume(server.state, 'topup', 'light', FREE_MONTHLY.light);
  await setAutoTopup(server.state, 'topup', 'light', 100, 10);
  const r = await call(server, 'POST', '/api/v1/phone', { phone: '0212345678' }, { token });
  t.is(r.status, 200);
  t.is(r.headers.get('x-service-auto-topup'), '1');
  t.is(r.body.credit.auto_topup, 1);
  t.is(r.body.credit.available, 99);
});

test('the credit report: every counter, its state, needs_topup and the endpoint map, consuming nothing', async (t) => {
  const token = await account('report');
  const fresh = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(fresh.status, 200);
  t.is(fresh.body.counters.contact.state, 'never_used');
  t.is(fresh.body.counters.light.free.size, 500);
  t.is(fresh.body.counters.dedupe.available, 100);
  t.regex(fresh.body.counters.light.free.reset_on, /^\d{4}-\d{2}-01$/);
  t.is(fresh.body.endpoint.phone, 'light');
  t.deepEqual(fresh.body.needs_topup, []);
  await call(server, 'POST', '/api/v1/phone', { phone: '0212345678' }, { token });
  const after = await call(server, 'GET', '/api/v1/credito?lingua=it', undefined, { token });
  t.is(after.body.contatori.leggere.stato, 'gratuito');
  t.is(after.body.contatori.leggere.disponibile, 499);
  await consume(server.state, 'report', 'light', 499);
  const empty = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(empty.body.counters.light.state, 'free_used_up');
  t.deepEqual(empty.body.needs_topup, ['light']);
  await addPack(server.state, 'report', 'light', 10);
  const bought = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(bought.body.counters.light.state, 'active');
  t.is(bought.body.counters.light.packs.active_packs.length, 1);
  await consume(server.state, 'report', 'light', 10);
  t.is((await call(server, 'GET', '/api/v1/credit', undefined, { token })).body.counters.light.state, 'used_up');
});
