import type { Services } from '../http/context.js';
import { isActive } from '../jobs/store.js';
import type { JobKind, JobService } from '../jobs/service.js';
import type { JobRecord } from '../state/db.js';
import type { DedupeRecord, MinLevel } from './schema.js';
import { compare, type CoreResult } from './service.js';
import { savedOf, updateSaved, type SavedDedupe } from './store.js';

/**
 * An asynchronous dedupe is a job of the one job system (`src/jobs/`), kind `dedupe`: queued, charged at
 * queuing, resumed after a restart, cancelled with a refund, counted in the account's job slots. It is
 * ONE unit of work: the comparison of a whole list cannot be cut into chunks (any record may meet any
 * other). The unit's input (records, reference, options) is stored with the job like any chunk, so that
 * any node can run it (with jobs in PostgreSQL, not only the node that saved the dedupe); the unit's
 * output, the core result, is committed with the job's progress like any chunk, then copied into the
 * saved dedupe, which keeps serving GET, review and incremental matching as before.
 */
export const DEDUPE_KIND = 'dedupe';

/** What the pool worker gets for a dedupe unit. */
export interface DedupeUnit {
  records: DedupeRecord[];
  reference: DedupeRecord[] | null;
  min_level: MinLevel;
  foreign: 'declared' | 'detect';
}

/** Runs in a piscina worker: the whole comparison, in the Rust core. */
export function runDedupeUnit(unit: DedupeUnit): Promise<CoreResult> {
  return compare(unit);
}

export function dedupeKind(services: Services, jobs: JobService): JobKind {
  return {
    // one unit is the whole list: done goes from 0 to every row at once
    tally: (_output, record) => ({ rows: record.rows, outcomes: {} }),
    async completed(record: JobRecord): Promise<void> {
      const saved = savedOf(services.db, record.job);
      if (saved) await settled(services, jobs, saved);
    },
  };
}

/**
 * A saved dedupe as it stands: an asynchronous one that the saved record still shows queued or running
 * takes its job's state, and once the job completed its result is copied in (idempotent: whichever
 * node reads first, or the node that ran it, settles it).
 */
export async function settled(services: Services, jobs: JobService, saved: SavedDedupe): Promise<SavedDedupe> {
  if (!isActive(saved.state)) return saved;
  const record = await jobs.store.get(saved.job);
  if (!record) return saved;
  if (isActive(record.state)) return { ...saved, state: record.state };
  const result = record.state === 'completed' ? ((await jobs.store.chunkOutput(saved.job, 0)) as CoreResult | undefined) : undefined;
  const given = record.refunded ? `; ${record.refunded} operations returned` : '';
  return (
    updateSaved(services.db, saved.job, (s) => {
      if (!isActive(s.state)) return;
      s.state = record.state;
      if (result) s.result = result;
      if (record.error) s.error = `${record.error}${given}`;
    }) ?? saved
  );
}
