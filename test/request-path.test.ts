import test from 'ava';

import { findToken } from '../src/state/tokens.js';
import { usageKey } from '../src/console/store.js';
import { call, startServer, waitFor } from './helpers/server.js';

/**
 * The request path every call pays (issue 14): the service's own rate limiter with the headers
 * @fastify/rate-limit used to send, the request counts that answer without waiting when the charge's commit
 * already carried them, and the console's usage per day written through the shared commit. Both back ends
 * (run again under with-postgres).
 */

test('rate limit: X-RateLimit headers count down per token and class; the call past the limit is a 429 with Retry-After, not charged', async (t) => {
  const server = await startServer({ rateLimits: { single: 3, batch: 2, autocomplete: 10 } });
  try {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call(server, 'POST', '/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501U' });
      t.is(r.status, 200);
      t.is(r.headers.get('x-ratelimit-limit'), '3');
      const reset = Number(r.headers.get('x-ratelimit-reset'));
      t.true(reset >= 1 && reset <= 60, `reset ${reset}`);
      remaining.push(r.headers.get('x-ratelimit-remaining') ?? '');
    }
    t.deepEqual(remaining, ['2', '1', '0']);
    const over = await call(server, 'POST', '/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501U' });
    t.is(over.status, 429);
    t.is(over.body.code, 'rate_limited');
    t.is(over.body.details.class, 'single');
    t.is(over.body.details.max, 3);
    t.is(over.headers.get('x-ratelimit-remaining'), '0');
    t.is(over.headers.get('retry-after'), String(over.body.retry_after));
    t.is(over.headers.get('x-service-charged'), null, 'a refused call is not charged');
    // the batch class has its own window; its headers say its own limit
    const batch = await call(server, 'POST', '/api/v1/tax-code', { items: [{ action: 'validate', tax_code: 'RSSMRA80A01H501U' }] });
    t.is(batch.status, 200);
    t.is(batch.headers.get('x-ratelimit-limit'), '2');
    t.is(batch.headers.get('x-ratelimit-remaining'), '1');
    // a request without a token is refused by authentication, never counted against anyone
    const anonymous = await call(server, 'POST', '/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501U' }, { token: null });
    t.is(anonymous.status, 401);
    t.is(anonymous.headers.get('x-ratelimit-limit'), null);
  } finally {
    await server.close();
  }
});

test('every answered call is counted on the token before it leaves, and charged once in the usage per day', async (t) => {
  const server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  try {
    const token = await server.newToken('counted');
    const calls = 40;
    // concurrent, so that counts and charges share commits; one call refused by validation is still counted
    const answers = await Promise.all([
      ...Array.from({ length: calls }, (_, i) => call(server, 'POST', '/api/v1/email', { email: `mario.rossi${i}@gmail.com`, dns: false }, { token })),
      call(server, 'POST', '/api/v1/email', { email: 12 }, { token }),
    ]);
    t.is(answers.filter((a) => a.status === 200).length, calls);
    t.is(answers.filter((a) => a.status === 400).length, 1);
    const found = await findToken(server.state, token);
    t.is(found?.[1].requests, calls + 1, 'each answer, a 400 too, counted on disk before it left');
    t.truthy(found?.[1].last_used);
    // the console's chart: what was charged today, written by its periodic flush (every 2 s) through the shared commit
    const today = new Date().toISOString().slice(0, 10);
    const charted = await waitFor(
      () => server.state.get<number>('console', usageKey('counted', today, 'light')),
      (v) => v === calls,
      20_000,
    );
    t.is(charted, calls);
  } finally {
    await server.close();
  }
});

test('a single call answers what the same item answers in a batch, with its credit last, field for field and in the same order (English and Italian)', async (t) => {
  const server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  try {
    const calls: [string, Record<string, unknown>][] = [
      ['/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501U' }],
      ['/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501X' }],
      ['/api/v1/phone', { phone: '02 12345678' }],
      ['/api/v1/email', { email: 'mario.rossi@gmial.com', dns: false }],
      ['/api/v1/contact', { address: 'Via Irnerio 1', postcode: '40126', city: 'Bologna' }],
      ['/api/v1/codicefiscale', { azione: 'valida', codice_fiscale: 'RSSMRA80A01H501U', lingua: 'it' }],
    ];
    for (const [path, item] of calls) {
      const single = await call(server, 'POST', path, item);
      const { lingua: _lingua, ...inItem } = item;
      const batch = await call(server, 'POST', path, 'lingua' in item ? { elementi: [inItem], lingua: item.lingua } : { items: [item] });
      t.is(single.status, 200, path);
      t.is(batch.status, 200, path);
      const italian = 'lingua' in item;
      // the envelope's results and result have no Italian names
      const credit = italian ? 'credito' : 'credit';
      const alone = { ...single.body };
      t.truthy(alone[credit], `${path}: the credit object`);
      t.is(Object.keys(alone).at(-1), credit, `${path}: credit comes last`);
      delete alone[credit];
      const inBatch = batch.body.results[0].result;
      t.deepEqual(alone, inBatch, `${path}: the single answer is the batch's result`);
      t.deepEqual(Object.keys(alone), Object.keys(inBatch), `${path}: in the same order`);
      t.truthy(alone[italian ? 'esito_label' : 'outcome_label'], `${path}: the outcome label is filled`);
    }
  } finally {
    await server.close();
  }
});
