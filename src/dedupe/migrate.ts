import type { JobStore } from '../jobs/store.js';
import type { StateDb } from '../state/db.js';
import type { ChargeTicket } from '../state/ledger.js';
import type { StateStore } from '../state/store.js';
import { DEDUPE_KIND } from './job.js';
import { adoptLocalSaved } from './store.js';

/** What `recapito migrate` did to the dedupes an older version left. */
export interface DedupeMigration {
  /** Dedupes queued or running without a job, now queued as jobs. */
  queued: string[];
}

/**
 * Dedupes saved by an older version in the node's LMDB: onto the shared state (src/dedupe/store.ts), and
 * those it left queued or running without a job (before dedupes ran on src/jobs) stored as queued jobs, on
 * the charge that version took at queuing (its ticket in the node's `kv`), so that they run at the next start
 * of a node and a cancel gives back to the right buckets. `recapito migrate` (src/cli/main.ts), with the nodes
 * stopped; run again, it changes nothing.
 */
export async function migrateDedupes(db: StateDb, state: StateStore, jobs: JobStore): Promise<DedupeMigration> {
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
  return { queued };
}
