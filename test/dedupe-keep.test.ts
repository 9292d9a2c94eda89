/**
 * An asynchronous dedupe is one job record with its result (issue 31): the job record owns the state and
 * error, the result is written into the saved dedupe by the commit that completes the job, nothing is
 * copied between the two, and a read writes nothing. On the state store the tests run on (LMDB, or
 * PostgreSQL under `with-postgres`), with the job store of that back end and no unit runner of its own.
 */
import { rmSync } from 'node:fs';

import test from 'ava';

import { keepResult } from '../src/dedupe/job.js';
import { migrateDedupes } from '../src/dedupe/migrate.js';
import { createSaved, getSaved } from '../src/dedupe/store.js';
import { openPgJobs } from '../src/jobs/pg.js';
import { KEPT_BY_KIND, LmdbJobStore, newJobCode, type JobStore } from '../src/jobs/store.js';
import { closeState, openState } from '../src/state/db.js';
import type { ChargeTicket } from '../src/state/ledger.js';
import { doc, type StateStore } from '../src/state/store.js';
import { compareText } from '../src/dedupe/service.js';
import { openRegister } from '../src/native.js';
import { freshDataDir } from './helpers/server.js';
import { processState } from './helpers/state-url.js';

const people = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));

const ticket = (account: string): ChargeTicket => ({ account, counter: 'dedupe', month: new Date().toISOString().slice(0, 7), free: 0, subscription: 0, packs: [] });

interface Setup {
  state: StateStore;
  jobs: JobStore;
  db: ReturnType<typeof openState>;
  close(): Promise<void>;
}

/** The state and the job store of one back end, with no node taking units (the test commits them). */
async function setup(): Promise<Setup> {
  const dataDir = await freshDataDir();
  openRegister(dataDir);
  const { state } = await processState(dataDir);
  const db = openState(dataDir);
  const pg = state.pool ? await openPgJobs({ pool: state.pool, leaseSeconds: 30, workers: 1 }, state) : undefined;
  return {
    state,
    db,
    jobs: pg ? pg.store : new LmdbJobStore(db, state),
    close: async () => {
      await pg?.units.close(false);
      await state.close();
      await closeState(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A dedupe queued as the route queues it: saved (records, no state), then its job of one unit (charged nothing here). */
async function queued(s: Setup, records: unknown[], savedState?: 'queued'): Promise<string> {
  const job = newJobCode();
  const spec = { account: 'acme', min_level: 'probable' as const, foreign: 'declared' as const, language: 'en', italian: false, charged: records.length, result: null };
  await createSaved(s.state, savedState ? { ...spec, state: savedState } : spec, { records: records as never, reference: null }, job);
  await s.jobs.create({ job, kind: 'dedupe', account: 'acme', language: 'en', italian: false, counter: 'dedupe', chunks: [{ rows: records.length, units: 0 }] }, ticket('acme'));
  return job;
}

test.serial('the result is kept in the saved dedupe by the commit that completes the job, or nothing is committed', async (t) => {
  const s = await setup();
  try {
    const records = people(20);
    const job = await queued(s, records);
    const output = await compareText({ records: records as never, min_level: 'probable', foreign: 'declared' });
    const tally = { rows: records.length, outcomes: {} };

    // a keep whose write fails: the unit is not committed, the job not completed
    const unwritable = (tx: StateStore) =>
      tx.update([doc('dedupe', job)], () => {
        throw new Error('unwritable');
      }).durable;
    await t.throwsAsync(s.jobs.commitChunk(job, 0, output, tally, unwritable), { message: 'unwritable' });
    t.is((await s.jobs.get(job))?.state, 'queued');
    t.is(await s.jobs.chunkOutput(job, 0), undefined);
    const before = await getSaved(s.state, s.jobs, job, 'acme');
    t.is(before?.state, 'queued', 'the state is the job\'s');
    t.is(before?.result, null);

    // the dedupe kind's keep: one transaction completes the job and writes the result
    t.true(await s.jobs.commitChunk(job, 0, output, tally, keepResult));
    t.is((await s.jobs.get(job))?.state, 'completed');
    t.deepEqual(await s.jobs.chunkOutput(job, 0), KEPT_BY_KIND, 'the job\'s results hold no second copy');
    const stored = await s.state.get<Record<string, unknown>>('dedupe', job);
    t.is(stored?.result, output, 'the core\'s JSON text, as it came');
    t.is(stored?.state, undefined, 'no state stored: the job record owns it');
    const saved = await getSaved(s.state, s.jobs, job, 'acme');
    t.is(saved?.state, 'completed');
    t.deepEqual(saved?.result, JSON.parse(output));
    // a read writes nothing
    t.deepEqual(await s.state.get('dedupe', job), stored);
    // committed once: a second commit of the unit changes nothing
    t.false(await s.jobs.commitChunk(job, 0, output, tally, keepResult));

    // a cancelled job: its state and error are read from the job record, the saved dedupe untouched
    const other = await queued(s, people(4));
    const untouched = await s.state.get('dedupe', other);
    t.is(await s.jobs.stop(other, 'failed', 'unit_failed', async () => 0), 0);
    const failed = await getSaved(s.state, s.jobs, other, 'acme');
    t.deepEqual([failed?.state, failed?.error, failed?.result], ['failed', 'unit_failed', null]);
    t.deepEqual(await s.state.get('dedupe', other), untouched);
  } finally {
    await s.close();
  }
});

test.serial('`recapito migrate` puts into the saved dedupe the result a job completed by the previous version held alone', async (t) => {
  const s = await setup();
  try {
    const records = people(12);
    // the previous version: saved `queued`, the unit's output committed into the job's results, the copy
    // into the saved dedupe left to a hook after the commit (its node stopped before it) or to a read
    const job = await queued(s, records, 'queued');
    const output = await compareText({ records: records as never, min_level: 'probable', foreign: 'declared' });
    t.true(await s.jobs.commitChunk(job, 0, output, { rows: records.length, outcomes: {} }));
    t.is((await getSaved(s.state, s.jobs, job, 'acme'))?.result, null, 'before the migration: no result');
    // and one completed by this version, which the migration leaves as it is
    const current = await queued(s, people(6));
    t.true(await s.jobs.commitChunk(current, 0, await compareText({ records: people(6) as never, min_level: 'probable', foreign: 'declared' }), { rows: 6, outcomes: {} }, keepResult));
    const currentDoc = await s.state.get('dedupe', current);

    t.deepEqual(await migrateDedupes(s.db, s.state, s.jobs), { queued: [], kept: [job] });
    const saved = await getSaved(s.state, s.jobs, job, 'acme');
    t.is(saved?.state, 'completed');
    t.deepEqual(saved?.result, JSON.parse(output));
    t.deepEqual(await s.state.get('dedupe', current), currentDoc);
    t.deepEqual(await migrateDedupes(s.db, s.state, s.jobs), { queued: [], kept: [] }, 'run again, it changes nothing');
  } finally {
    await s.close();
  }
});
