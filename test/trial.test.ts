import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { findToken, regenerateToken } from '../src/state/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { DEFAULT_TRIAL, grantTrial, trialOf } from '../src/state/trial.js';
import { call, startServer, type TestServer } from './helpers/server.js';

const run = promisify(execFile);

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});
test.after.always(async () => server?.close());

const idOf = async (token: string): Promise<string> => (await findToken(server.state, token))?.[1].id ?? '';

test('a token without an account pays single and batch calls from its trial allowance (English)', async (t) => {
  const loose = await server.newToken(null);
  const one = await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose });
  t.is(one.status, 200);
  t.is(one.body.credit.counter, 'light');
  t.is(one.body.credit.charged, 1);
  t.deepEqual(one.body.credit.free, { operations: 1, remaining: DEFAULT_TRIAL.light - 1 });
  t.deepEqual(one.body.credit.packs, { operations: 0, remaining: 0 });
  t.is(one.body.credit.available, DEFAULT_TRIAL.light - 1);
  t.is(one.headers.get('x-service-charged'), '1');
  t.is(one.headers.get('x-service-available'), String(DEFAULT_TRIAL.light - 1));

  const batch = await call(server, 'POST', '/api/v1/email', { dns: false, items: [{ email: 'mario.rossi@gmail.com' }, { email: 'anna@libero.it' }] }, { token: loose });
  t.is(batch.status, 200);
  t.is(batch.body.count, 2);
  t.is(batch.body.credit.charged, 2);
  t.is(batch.body.credit.available, DEFAULT_TRIAL.light - 3);

  const contact = await call(server, 'POST', '/api/v1/contact', { address: 'Via del Faggiolo 7', postcode: '40132', city: 'Bologna' }, { token: loose });
  t.is(contact.status, 200);
  t.is(contact.body.credit.counter, 'contact');
  t.is(contact.body.credit.available, DEFAULT_TRIAL.contact - 1);
  t.is((await trialOf(server.state, (await idOf(loose)), 'light')).left, DEFAULT_TRIAL.light - 3);

  // jobs and the credit report stay for account tokens (spec, Security 4)
  const job = await call(server, 'POST', '/api/v1/phone', { async: true, items: [{ phone: '02 1234567' }] }, { token: loose });
  t.is(job.status, 403);
  t.is(job.body.code, 'account_required');
  const credit = await call(server, 'GET', '/api/v1/credit', undefined, { token: loose });
  t.is(credit.status, 403);
  t.is((await trialOf(server.state, (await idOf(loose)), 'light')).left, DEFAULT_TRIAL.light - 3, 'a refused job charges nothing');
});

test('past the trial: 402 with nothing charged, in Italian keys and codes on /telefono with lingua it', async (t) => {
  const loose = await server.newToken(null);
  await grantTrial(server.state, (await idOf(loose)), { light: 2 });
  const tooMany = await call(server, 'POST', '/api/v1/telefono', { lingua: 'it', elementi: [{ telefono: '02 1234567' }, { telefono: '06 7654321' }, { telefono: '011 223344' }] }, { token: loose });
  t.is(tooMany.status, 402);
  t.is(tooMany.body.code, 'payment_required');
  t.deepEqual(tooMany.body.details, { counter: 'light', needed: 3, available: 2 });
  t.regex(tooMany.body.message, /credito|operazioni|disponibil/i);
  t.is((await trialOf(server.state, (await idOf(loose)), 'light')).left, 2);

  const single = await call(server, 'POST', '/api/v1/telefono', { telefono: '02 1234567', lingua: 'it' }, { token: loose });
  t.is(single.status, 200);
  t.is(single.body.credito.contatore, 'leggere');
  t.is(single.body.credito.consumate, 1);
  t.deepEqual(single.body.credito.gratuite, { elaborazioni: 1, rimaste: 1 });
  t.is(single.body.credito.disponibile, 1);
  t.is(single.headers.get('x-service-available'), '1');
});

test('regenerating a token without an account keeps what its trial had left', async (t) => {
  const loose = await server.newToken(null);
  await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose });
  const { token: fresh } = await regenerateToken(server.state, loose);
  t.is((await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose })).body.code, 'token_revoked');
  const next = await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: fresh });
  t.is(next.status, 200);
  t.is(next.body.credit.available, DEFAULT_TRIAL.light - 2);
});

test('the operator sets the trial through the CLI, from another process, while the server runs', async (t) => {
  const cli = (...args: string[]) => run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', server.dataDir, ...args], { env: { ...process.env, ...server.env } });
  const created = await cli('token', 'create', '--trial', 'light=5,contact=0');
  t.regex(created.stdout, /no account.*trial contact=0,dedupe=0,light=5/);
  const loose = created.stdout.trim().split('\n').pop() ?? '';
  const first = await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose });
  t.is(first.body.credit.available, 4);
  const contact = await call(server, 'POST', '/api/v1/contact', { address: 'Via del Faggiolo 7', city: 'Bologna' }, { token: loose });
  t.is(contact.status, 402);
  t.deepEqual(contact.body.details, { counter: 'contact', needed: 1, available: 0 });

  await cli('token', 'trial', (await idOf(loose)), '--counter', 'light', '--size', '50');
  t.is((await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose })).body.credit.available, 49);
  const list = (await cli('token', 'list')).stdout;
  t.regex(list, new RegExp(`${(await idOf(loose))}.*light=49`));
  await t.throwsAsync(cli('token', 'trial', (await idOf(server.token)), '--counter', 'light', '--size', '5'), { message: /belongs to account/ });

  // a revocation in another process reaches the server's token cache at once
  await cli('token', 'revoke', loose);
  t.is((await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567' }, { token: loose })).body.code, 'token_revoked');
});
