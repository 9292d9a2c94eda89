import { isKeptByKind, type JobStore } from '../jobs/store.js';
import type { StateDb } from '../state/db.js';
import type { ChargeTicket } from '../state/ledger.js';
import type { StateStore } from '../state/store.js';
import { DEDUPE_KIND, resultText } from './job.js';
import { adoptLocalSaved, updateHead, type SavedHead } from './store.js';

/** What `recapito migrate` did to the dedupes an older version left. */
export interface DedupeMigration {
  /** Dedupes queued or running without a job, now queued as jobs. */
  queued: string[];
  /** Dedupes whose completed job held the result apart, now in the saved dedupe. */
  kept: string[];
}

/**
 * Dedupes an older version left, into the current shape. `recapito migrate` (src/cli/main.ts), with the
 * nodes stopped; run again, it changes nothing.
 *
 * 1. Saved in the node's LMDB: onto the shared state (src/dedupe/store.ts), and those left queued or
 *    running without a job (before dedupes ran on src/jobs) stored as queued jobs, on the charge that
 *    version took at queuing (its ticket in the node's `kv`), so that they run at the next start of a
 *    node and a cancel gives back to the right buckets.
 * 2. Completed as jobs before the result was kept in the saved dedupe by the commit that completes the
 *    job (src/dedupe/job.ts `keep`): the job's results held it, and the saved dedupe got a copy later
 *    (on the node that ran it, or at the first read); one whose copy never came gets it now.
 */
export async function migrateDedupes(db: StateDb, state: StateStore, jobs: JobStore): Promise<DedupeMigration> {
  return { queued: await queueUnfinished(db, state, jobs), kept: await keepResults(state, jobs) };
}

async function queueUnfinished(db: StateDb, state: StateStore, jobs: JobStore): Promise<string[]> {
  const queued: string[] = [];
  for (const saved of await adoptLocalSaved(db, state)) {
    if (await jobs.get(saved.job)) continue;
    const ticket: ChargeTicket = (db.kv.get(`dedupe-ticket/${saved.job}`) as ChargeTicket | undefined) ?? {
      // no ticket kept: nothing can be given back, the job still runs
      account: saved.account,
      counter: 'dedupe',
      month: saved.created.slice(0, 7),
      free: 0,
      subscription: 0,
      packs: [],
    };
    const spec = { job: saved.job, kind: DEDUPE_KIND, account: saved.account, language: saved.language, italian: saved.italian, counter: 'dedupe', chunks: [{ rows: saved.rows, units: saved.charged }] };
    await jobs.create(spec, ticket).catch(async (error: unknown) => {
      // another migrate stored it first (PostgreSQL: the job code is taken)
      if (!(await jobs.get(saved.job))) throw error;
    });
    queued.push(saved.job);
  }
  return queued;
}

async function keepResults(state: StateStore, jobs: JobStore): Promise<string[]> {
  const kept: string[] = [];
  for (const { key, value } of await state.list<SavedHead & { result: unknown }>('dedupe')) {
    // a saved dedupe that has its result (copied, maybe grown since) keeps it
    if (value.result != null) continue;
    const record = await jobs.get(key);
    if (record?.kind !== DEDUPE_KIND || record.state !== 'completed') continue;
    const output = await jobs.chunkOutput(key, 0);
    if (output === undefined || isKeptByKind(output)) continue;
    if (await updateHead(state, key, () => resultText(output))) kept.push(key);
  }
  return kept;
}
