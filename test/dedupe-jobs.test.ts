/** Dedupe jobs on the one job system (issue 10): job slots, cancel with refund, CSV, after completion. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack, consume, current } from '../src/state/ledger.js';
import { newJobCode } from '../src/jobs/store.js';
import { openState } from '../src/state/db.js';
import type { SavedDedupe, SavedRecords } from '../src/dedupe/store.js';
import { startServerProcess } from './helpers/process.js';
import { processState } from './helpers/state-url.js';
import { call, freshDataDir, startServer, type TestServer, waitFor } from './helpers/server.js';

const run = promisify(execFile);

let server: TestServer;
test.before(async () => {
  // one job at a time per node, two per account: a long phone job keeps a dedupe job queued behind it
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 }, jobWorkers: 1, maxActiveJobsPerAccount: 2 });
});
test.after.always(async () => server?.close());

const phones = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, phone: `02 ${String(1000000 + i)}` }));
/** Pairs of one person written two ways (real Bologna street), so that the job finds groups. */
const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));

test.serial('a dedupe job takes a job slot, is cancelled with its whole charge back while queued, and a refused one leaves nothing', async (t) => {
  const token = await server.newToken('slots');
  await addPack(server.state, 'slots', 'light', 100_000);
  await addPack(server.state, 'slots', 'dedupe', 10_000);
  const usedBefore = (await current(server.state, 'slots', 'dedupe')).used_total;
  const long = await call(server, 'POST', '/api/v1/phone', { async: true, items: phones(40_000) }, { token });
  t.is(long.status, 200);
  const q = await call(server, 'POST', '/api/v1/dedupe', { async: true, records: people(200) }, { token });
  t.is(q.status, 200);
  t.is(q.body.state, 'queued');
  t.is((await current(server.state, 'slots', 'dedupe')).used_total - usedBefore, 200, 'charged at queuing');

  // two jobs active: a third (dedupe or not) is refused before any charge
  const refused = await call(server, 'POST', '/api/v1/dedupe', { async: true, records: people(10) }, { token });
  t.is(refused.status, 429);
  t.is(refused.body.code, 'too_many_jobs');
  t.is((await current(server.state, 'slots', 'dedupe')).used_total - usedBefore, 200, 'the refused job charged nothing');

  const cancelled = await call(server, 'DELETE', `/api/v1/deduplica?lavoro=${q.body.job}`, undefined, { token });
  t.is(cancelled.status, 200);
  t.is(cancelled.body.state, 'cancelled');
  t.is(cancelled.body.refunded, 200);
  t.is((await current(server.state, 'slots', 'dedupe')).used_total - usedBefore, 0, 'the whole charge went back');
  // the state is the job record's: read through it, never copied into the saved dedupe (a read writes nothing)
  const stored = await server.state.get<Record<string, unknown>>('dedupe', q.body.job);
  t.is(stored?.state, undefined);
  const read = await call(server, 'GET', `/api/v1/dedupe?job=${q.body.job}`, undefined, { token });
  t.is(read.status, 200);
  t.is(read.body.state, 'cancelled');
  t.is(read.body.groups, undefined);
  t.deepEqual(await server.state.get('dedupe', q.body.job), stored, 'the read wrote nothing');
  // a slot is free again
  t.is((await call(server, 'POST', '/api/v1/dedupe', { async: true, records: people(10) }, { token })).status, 200);
  await call(server, 'DELETE', `/api/v1/phone?job=${long.body.job}`, undefined, { token });
  t.is((await call(server, 'DELETE', '/api/v1/dedupe?job=NOSUCHJOB', undefined, { token })).status, 404);
});

test.serial('a completed dedupe job: CSV one row per record (Italian headers), cancel gives nothing back, review and incremental work on it', async (t) => {
  const q = await call(server, 'POST', '/api/v1/dedupe', { async: true, records: people(40) });
  t.is(q.status, 200);
  const job = q.body.job as string;
  const started = Date.now();
  const done = await waitFor(() => call(server, 'GET', `/api/v1/dedupe?job=${job}`), (r) => ['completed', 'failed', 'cancelled'].includes(r.body.state));
  // the job's whole answer when it did not complete: a failure says why, a job still queued shows what it waited on
  t.is(done.body.state, 'completed', JSON.stringify(done.body));
  if (Date.now() - started > 10_000) t.log(`the job of 40 records took ${Date.now() - started} ms to complete`);
  t.is(done.body.groups.length, 20);

  const csv = await call(server, 'GET', `/api/v1/deduplica?lavoro=${job}&formato=csv&lingua=it`);
  t.is(csv.status, 200);
  t.regex(csv.headers.get('content-type') ?? '', /text\/csv/);
  const lines = String(csv.body).trim().split('\n');
  t.is(lines[0], 'id,gruppo,livello,principale,motivi,lavorato,esito');
  t.is(lines.length, 41, 'a header and one row per record');
  t.is(new Set(lines.slice(1).map((l) => l.split(',')[0])).size, 40);
  t.is(lines.slice(1).filter((l) => l.split(',')[3] === 'sì').length, 20, 'one main record per group (Italian: sì)');

  const cancel = await call(server, 'DELETE', `/api/v1/dedupe?job=${job}`);
  t.is(cancel.body.state, 'completed');
  t.is(cancel.body.refunded, 0);

  t.true((await call(server, 'POST', '/api/v1/dedupe', { job, group: 1, processed: true })).body.processed);
  const more = await call(server, 'POST', '/api/v1/dedupe', { job, records: [{ id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' }] });
  t.is(more.status, 200);
  t.deepEqual(more.body.added, [{ id: 'n', group: 1 }]);
  t.is((await call(server, 'GET', `/api/v1/dedupe?job=${job}`)).body.rows, 41);
});

test.serial('a dedupe an older process left queued (saved in the node, no job) runs after `recapito migrate`, charged once, and is read from the shared state', async (t) => {
  const dataDir = await freshDataDir();
  // the state the node will use: the data dir's LMDB, or a PostgreSQL database under `npm run test:pg`
  const { state, env } = await processState(dataDir);
  await createAccount(state, 'older');
  await addPack(state, 'older', 'dedupe', 1_000);
  const token = (await createToken(state, 'older')).token;
  const records = people(40);
  // what the older process did on POST async: charged at queuing, then saved the dedupe queued with its
  // records and its ticket in the node's LMDB, and ran it in memory (it died before)
  const { ticket } = await consume(state, 'older', 'dedupe', records.length);
  const used = (await current(state, 'older', 'dedupe')).used_total;
  const job = newJobCode();
  const now = new Date();
  const saved: SavedDedupe = {
    job,
    account: 'older',
    state: 'queued',
    created: now.toISOString(),
    updated: now.toISOString(),
    expires: new Date(now.getTime() + 86_400_000).toISOString(),
    min_level: 'probable',
    foreign: 'declared',
    language: 'en',
    italian: false,
    rows: records.length,
    result: null,
    processed: {},
    charged: records.length,
    error: null,
  };
  const local = openState(dataDir);
  await local.root.openDB<SavedRecords, string>({ name: 'dedupe_records' }).put(job, { records, reference: null });
  await local.root.openDB<SavedDedupe, string>({ name: 'dedupe' }).put(job, saved);
  await local.kv.put(`dedupe-ticket/${job}`, ticket);

  // the migration is the operator's command, not a side effect of a node's start: run twice, it queues the job once
  const migrate = () => run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, 'migrate'], { env: { ...process.env, ...env } });
  t.is((await migrate()).stdout.trim(), `dedupes queued as jobs: ${job}`);
  t.is((await migrate()).stdout.trim(), 'nothing to migrate');

  const node = await startServerProcess(dataDir, { RECAPITO_RATE_SINGLE: '100000', ...env });
  try {
    const server = { url: node.url, token } as TestServer;
    const done = await waitFor(() => call(server, 'GET', `/api/v1/dedupe?job=${job}`), (r) => r.body.state === 'completed', 120_000);
    t.is(done.body.state, 'completed', JSON.stringify(done.body));
    t.is(done.body.groups.length, 20);
    t.is((await current(state, 'older', 'dedupe')).used_total, used, 'nothing charged again');
    // it is a job now: a cancel finds it done and gives nothing back
    const cancel = await call(server, 'DELETE', `/api/v1/dedupe?job=${job}`);
    t.is(cancel.body.state, 'completed');
    t.is(cancel.body.refunded, 0);
    // and a saved dedupe of the shared state (on PostgreSQL: copied there from the node), its result kept
    // there by the job's completion
    t.is(typeof (await state.get<Record<string, unknown>>('dedupe', job))?.result, 'string');
    t.is((await state.get<SavedRecords>('dedupe_records', job))?.records.length, 40);
  } finally {
    const gone = new Promise((r) => node.child.once('exit', r));
    node.child.kill('SIGTERM');
    await gone;
    await state.close();
  }
});

test.serial('an asynchronous dedupe answers what the synchronous one answers for the same list; a result an older process stored as an object reads the same', async (t) => {
  await addPack(server.state, 'test', 'dedupe', 1_000);
  const records = people(60);
  const sync = await call(server, 'POST', '/api/v1/dedupe', { records });
  t.is(sync.status, 200);
  const q = await call(server, 'POST', '/api/v1/dedupe', { async: true, records });
  const done = await waitFor(() => call(server, 'GET', `/api/v1/dedupe?job=${q.body.job}`), (r) => r.body.state === 'completed');
  t.is(done.body.groups.length, 30);
  t.deepEqual(done.body.groups, sync.body.groups);
  t.deepEqual(done.body.singles, sync.body.singles);
  t.deepEqual(done.body.count, sync.body.count);

  // the saved dedupe as a process before the result was stored as JSON text wrote it: an object
  const job = sync.body.job as string;
  const stored = (await server.state.get<Record<string, unknown>>('dedupe', job)) ?? {};
  t.is(typeof stored.result, 'string', 'stored as the core\'s JSON text');
  const older = { ...stored, result: JSON.parse(String(stored.result)) as unknown };
  await server.state.update([{ ns: 'dedupe', key: job }], () => ({ result: undefined, write: [{ ns: 'dedupe', key: job, doc: older }] })).durable;
  const read = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.deepEqual(read.body.groups, sync.body.groups);
  // a review changes it without its result, which reads the same after it; an incremental call grows it
  t.true((await call(server, 'POST', '/api/v1/dedupe', { job, group: 2, processed: true })).body.processed);
  const reviewed = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.true(reviewed.body.groups[1].processed);
  t.deepEqual(
    reviewed.body.groups.map((g: { members: unknown[] }) => g.members),
    sync.body.groups.map((g: { members: unknown[] }) => g.members),
  );
  const more = await call(server, 'POST', '/api/v1/dedupe', { job, records: [{ id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' }] });
  t.deepEqual(more.body.added, [{ id: 'n', group: 1 }]);
  const after = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.is(after.body.rows, 61);
  t.is(after.body.count.records, 61);
  t.true(after.body.groups[0].members.includes('n'));
});
