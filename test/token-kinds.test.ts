import { randomUUID } from 'node:crypto';

import test from 'ava';

import { createToken, revokeToken, takeDailySelect, TokenLimitError, type Caller } from '../src/state/tokens.js';
import { addPack, current } from '../src/state/ledger.js';
import { call, startServer, type TestServer } from './helpers/server.js';

/**
 * Issue 33, finding 6: a widget proxy's token. A suggest token answers autocomplete only, and its daily cap
 * on charged selects bounds what anonymous visitors can spend through the proxy. Finding 7: a limit on live
 * tokens per account (RECAPITO_MAX_TOKENS_PER_ACCOUNT, here 6).
 */
process.env.RECAPITO_MAX_TOKENS_PER_ACCOUNT = '6';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  await addPack(server.state, 'test', 'contact', 1_000);
});
test.after.always(async () => server?.close());

const suggest = (body: Record<string, unknown>, token: string) => call(server, 'POST', '/api/v1/suggest', body, { token });

/** A new autocomplete session in Bologna and the id of Via del Faggiolo among its hints. */
async function faggiolo(token: string): Promise<{ session: string; street: string }> {
  const session = randomUUID();
  const res = await suggest({ session, q: 'via del fag', city: 'Bologna' }, token);
  const hit = (res.body.hints as { id: string; name: string }[] | undefined)?.find((h) => h.name === 'Via del Faggiolo');
  if (!hit) throw new Error(`no Via del Faggiolo: ${res.status} ${JSON.stringify(res.body)}`);
  return { session, street: hit.id };
}

test('a suggest token answers autocomplete (English and Italian paths) and nothing else: 403 token_scope in the error body', async (t) => {
  const { token } = await createToken(server.state, 'test', { kind: 'suggest' });
  t.is((await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token)).status, 200);
  t.is((await call(server, 'POST', '/api/v1/suggerisci', { sessione: randomUUID(), q: 'via del fag', citta: 'Bologna' }, { token })).status, 200);
  for (const [method, path, body] of [
    ['GET', '/api/v1/countries?q=IT', undefined],
    ['POST', '/api/v1/phone', { phone: '02 4851 2345' }],
    ['POST', '/api/v1/contact', { address: 'Via del Faggiolo 5', city: 'Bologna' }],
    ['GET', '/api/v1/credit', undefined],
    ['POST', '/api/v1/dedupe', { records: [{ id: 'a', last_name: 'Verdi' }] }],
  ] as const) {
    const res = await call(server, method, path, body, { token });
    t.is(res.status, 403, `${method} ${path}`);
    t.is(res.body.ok, false);
    t.is(res.body.code, 'token_scope');
    t.regex(res.body.message, /autocomplete/);
  }
  // the full token of the same account is not touched
  t.is((await call(server, 'GET', '/api/v1/countries?q=IT')).status, 200);
});

test('the daily cap counts charged selects: refined repeats are free, the next street is 429 select_cap and charges nothing', async (t) => {
  const { token } = await createToken(server.state, 'test', { kind: 'suggest', dailySelects: 2 });
  const first = await faggiolo(token);
  const one = await suggest({ session: first.session, action: 'select', street_id: first.street, house_number: '5' }, token);
  t.is(one.status, 200, JSON.stringify(one.body));
  t.is(one.body.credit.charged, 1);
  const refined = await suggest({ session: first.session, action: 'select', street_id: first.street, house_number: '7' }, token);
  t.is(refined.body.credit.charged, 0);
  const second = await faggiolo(token);
  t.is((await suggest({ session: second.session, action: 'select', street_id: second.street, house_number: '5' }, token)).body.credit.charged, 1);

  const used = (await current(server.state, 'test', 'contact')).used_total;
  const third = await faggiolo(token);
  const capped = await suggest({ session: third.session, action: 'select', street_id: third.street, house_number: '5' }, token);
  t.is(capped.status, 429);
  t.is(capped.body.code, 'select_cap');
  t.regex(capped.body.message, /2 charged selects/);
  t.true(capped.body.retry_after > 0 && capped.body.retry_after <= 86_400);
  t.is(capped.headers.get('retry-after'), String(capped.body.retry_after));
  t.is((await current(server.state, 'test', 'contact')).used_total, used, 'nothing charged');
  // the street was given back: its house numbers need a select first
  const numbers = await suggest({ session: third.session, street_id: third.street, house_number: '1' }, token);
  t.is(numbers.body.code, 'selection_required');
  // keystrokes still work; another token of the account has its own day
  t.is((await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token)).status, 200);
  const other = await faggiolo(server.token);
  t.is((await suggest({ session: other.session, action: 'select', street_id: other.street, house_number: '5' }, server.token)).status, 200);
});

test('the cap starts again on the next UTC day; a select given back is not counted', async (t) => {
  const { record } = await createToken(server.state, 'test', { kind: 'suggest', dailySelects: 1 });
  const caller = { tokenId: record.id, dailySelects: 1 } as Caller;
  const evening = new Date('2026-03-01T23:59:30Z');
  const giveBack = await takeDailySelect(server.state, caller, evening);
  await giveBack?.();
  await takeDailySelect(server.state, caller, evening);
  const refused = await t.throwsAsync(takeDailySelect(server.state, caller, evening));
  t.is((refused as { code?: string }).code, 'select_cap');
  t.is((refused as { extra?: { retry_after?: number } }).extra?.retry_after, 30);
  t.truthy(await takeDailySelect(server.state, caller, new Date('2026-03-02T00:00:01Z')));
  await revokeToken(server.state, record.id);
});

test('tokens asked for at the same moment stay within the limit: the count is decided inside the update', async (t) => {
  await server.newToken('burst');
  const asked = await Promise.allSettled(Array.from({ length: 10 }, () => createToken(server.state, 'burst')));
  t.is(asked.filter((a) => a.status === 'fulfilled').length, 5, 'the first token plus five: six live tokens');
  t.true(asked.every((a) => a.status === 'fulfilled' || a.reason instanceof TokenLimitError));
  const kept = asked.flatMap((a) => (a.status === 'fulfilled' ? [a.value.record.id] : []));
  await revokeToken(server.state, kept[0] ?? '');
  const again = await Promise.allSettled([createToken(server.state, 'burst'), createToken(server.state, 'burst')]);
  t.is(again.filter((a) => a.status === 'fulfilled').length, 1, 'a revoked token makes room for one');
});

test('an account holds at most RECAPITO_MAX_TOKENS_PER_ACCOUNT live tokens; a revoked one makes room', async (t) => {
  await server.newToken('many');
  const made = [];
  for (let i = 0; i < 5; i++) made.push(await createToken(server.state, 'many'));
  const refused = await t.throwsAsync(createToken(server.state, 'many'));
  t.true(refused instanceof TokenLimitError);
  // the console's own token for the account (src/console/client.ts) is outside the limit
  t.truthy(await createToken(server.state, 'many', { internal: true }));
  t.regex(refused?.message ?? '', /6 live tokens/);
  await revokeToken(server.state, made[0]?.record.id ?? '');
  t.truthy(await createToken(server.state, 'many'));
  // a suggest token needs the same room; expired tokens take none
  await t.throwsAsync(createToken(server.state, 'many', { kind: 'suggest' }), { instanceOf: TokenLimitError });
  await server.newToken('expired');
  for (let i = 0; i < 6; i++) await createToken(server.state, 'expired', { expiry: '2020-01-01T00:00:00Z' });
  t.truthy(await createToken(server.state, 'expired'));
});
