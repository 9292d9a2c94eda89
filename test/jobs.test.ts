import test from 'ava';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack, creditKey, current } from '../src/state/ledger.js';
import { doc } from '../src/state/store.js';
import { processState } from './helpers/state-url.js';
import { startServerProcess } from './helpers/process.js';
import { call, freshDataDir, startServer, type TestServer, waitFor } from './helpers/server.js';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});
test.after.always(async () => server?.close());

const phones = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, phone: i % 3 === 0 ? `+41 44 ${String(1000000 + i)}` : `02 ${String(1000000 + i)}` }));

test('a job goes queued → completed; results inline, CSV with Italian headers, outcome counts', async (t) => {
  const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(30) });
  t.is(queued.status, 200);
  t.is(queued.body.state, 'queued');
  t.is(queued.body.rows, 30);
  t.is(queued.body.credit.charged, 30);
  const job = queued.body.job as string;
  const done = await waitFor(() => call(server, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.state === 'completed');
  t.is(done.body.done, 30);
  t.is(done.body.results.length, 30);
  t.deepEqual(done.body.results.map((r: { id: string }) => r.id), phones(30).map((p) => p.id));
  const counts = done.body.outcomes;
  t.is(counts.ok + counts.modified + counts.to_check + counts.unresolved, 30);
  t.is(counts.to_check, 10); // the Swiss numbers are PHONE_FOREIGN
  const csv = await call(server, 'GET', `/api/v1/telefono?lavoro=${job}&formato=csv&lingua=it`);
  t.is(csv.status, 200);
  t.regex(csv.headers.get('content-type') ?? '', /text\/csv/);
  const lines = String(csv.body).trim().split('\n');
  t.is(lines.length, 31);
  t.regex(lines[0] ?? '', /^id,telefono,/);
  t.regex(lines[0] ?? '', /esito/);
  t.true(lines.some((l) => l.includes('TELEFONO_ESTERO') || l.includes('ESTERO')));
});

test('job reads: 400 without a code, 404 for an unknown one and for another account’s job', async (t) => {
  const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(2) });
  t.is((await call(server, 'GET', '/api/v1/phone')).status, 400);
  const unknown = await call(server, 'GET', '/api/v1/phone?job=NOSUCHJOB');
  t.is(unknown.status, 404);
  t.is(unknown.body.code, 'job_not_found');
  const other = await call(server, 'GET', `/api/v1/phone?job=${queued.body.job}`, undefined, { token: await server.newToken('someone-else') });
  t.is(other.status, 404);
  const loose = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(2) }, { token: await server.newToken(null) });
  t.is(loose.status, 403);
});

test('cancelling a job gives back exactly the operations it did not process', async (t) => {
  const token = await server.newToken('cancel');
  await addPack(server.state, 'cancel', 'light', 100_000);
  const before = (await current(server.state, 'cancel', 'light')).used_total;
  const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(20_000) }, { token });
  t.is(queued.status, 200);
  // let a few chunks through first, so that the refund is a part and not the whole
  await waitFor(() => call(server, 'GET', `/api/v1/phone?job=${queued.body.job}`, undefined, { token }), (r) => r.body.done > 0);
  const cancelled = await call(server, 'DELETE', `/api/v1/phone?job=${queued.body.job}`, undefined, { token });
  t.is(cancelled.body.state, 'cancelled');
  const final = await waitFor(() => call(server, 'GET', `/api/v1/phone?job=${queued.body.job}`, undefined, { token }), (r) => r.body.state === 'cancelled');
  const charged = queued.body.credit.charged as number;
  t.is(charged, 20_000);
  t.true(final.body.refunded > 0);
  const processedUnits = charged - final.body.refunded;
  t.is((await current(server.state, 'cancel', 'light')).used_total - before, processedUnits);
  t.is(processedUnits, final.body.done);
  t.true(final.body.done > 0 && final.body.done < 20_000);
});

test('a cancel whose refund cannot be written stops nothing; the next cancel stops the job and refunds exactly once', async (t) => {
  const token = await server.newToken('atomic');
  await addPack(server.state, 'atomic', 'light', 100_000);
  const key = creditKey('atomic', 'light');
  const before = (await current(server.state, 'atomic', 'light')).used_total;
  const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(20_000) }, { token });
  const job = queued.body.job as string;
  await waitFor(() => call(server, 'GET', `/api/v1/phone?job=${job}`, undefined, { token }), (r) => r.body.done > 0);
  // a counter document the refund cannot be applied to (its packs unreadable): the refund fails inside the stop
  const sound = await server.state.update([doc('credits', key)], ([d]) => ({ result: d, write: [{ ...doc('credits', key), doc: { ...(d as object), packs: 'unreadable' } }] })).durable;
  const failed = await call(server, 'DELETE', `/api/v1/phone?job=${job}`, undefined, { token });
  t.is(failed.status, 500);
  const after = await call(server, 'GET', `/api/v1/phone?job=${job}`, undefined, { token });
  t.true(after.body.state === 'running' || after.body.state === 'queued', `the job was not stopped without its refund (${after.body.state})`);
  t.is(after.body.refunded, 0);
  await server.state.update([doc('credits', key)], () => ({ result: undefined, write: [{ ...doc('credits', key), doc: sound }] })).durable;

  const cancelled = await call(server, 'DELETE', `/api/v1/phone?job=${job}`, undefined, { token });
  t.is(cancelled.status, 200);
  t.is(cancelled.body.state, 'cancelled');
  const final = await call(server, 'GET', `/api/v1/phone?job=${job}`, undefined, { token });
  t.is(final.body.refunded, cancelled.body.refunded);
  t.true(final.body.done > 0 && final.body.done < 20_000);
  t.is(final.body.refunded, 20_000 - final.body.done, 'exactly what was not processed');
  t.is((await current(server.state, 'atomic', 'light')).used_total - before, final.body.done, 'given back once');
  t.is((await call(server, 'DELETE', `/api/v1/phone?job=${job}`, undefined, { token })).body.refunded, 0);
  t.is((await current(server.state, 'atomic', 'light')).used_total - before, final.body.done);
});

test('a server killed with SIGKILL mid-job resumes it: no row lost, none twice, nothing charged twice', async (t) => {
  const dataDir = await freshDataDir();
  const { state: db, env } = await processState(dataDir);
  await createAccount(db, 'kill');
  await addPack(db, 'kill', 'light', 100_000);
  const token = (await createToken(db, 'kill')).token;
  const rows = 6_000;
  const units = phones(rows).length;
  const usedBefore = (await current(db, 'kill', 'light')).used_total;

  const first = await startServerProcess(dataDir, { RECAPITO_RATE_BATCH: '1000', RECAPITO_RATE_SINGLE: '100000', ...env });
  const fake = { url: first.url, token } as TestServer;
  const queued = await call(fake, 'POST', '/api/v1/phone', { async: true, items: phones(rows) });
  t.is(queued.status, 200);
  const job = queued.body.job as string;
  const mid = await waitFor(() => call(fake, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.done > 0);
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  t.true(mid.body.done < rows, `killed after ${mid.body.done} rows`);

  const second = await startServerProcess(dataDir, { RECAPITO_RATE_BATCH: '1000', RECAPITO_RATE_SINGLE: '100000', ...env });
  try {
    const again = { url: second.url, token } as TestServer;
    const done = await waitFor(() => call(again, 'GET', `/api/v1/phone?job=${job}`), (r) => r.body.state === 'completed', 120_000);
    t.is(done.body.state, 'completed');
    t.is(done.body.done, rows);
    const c = done.body.outcomes;
    t.is(c.ok + c.modified + c.to_check + c.unresolved, rows);
    const csv = String((await call(again, 'GET', `/api/v1/phone?job=${job}&format=csv`)).body).trim().split('\n').slice(1);
    const ids = csv.map((line) => line.split(',')[0]);
    t.is(ids.length, rows);
    t.is(new Set(ids).size, rows);
    t.is((await current(db, 'kill', 'light')).used_total - usedBefore, units);
  } finally {
    second.child.kill('SIGTERM');
    await db.close();
  }
});
