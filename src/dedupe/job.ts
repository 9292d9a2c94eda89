import type { Services } from '../http/context.js';
import { isActive } from '../jobs/store.js';
import type { JobKind, JobService } from '../jobs/service.js';
import type { JobRecord } from '../state/db.js';
import type { DedupeRecord, MinLevel } from './schema.js';
import { compare, type CoreResult } from './service.js';
import { getRecords, savedOf, updateSaved, type SavedDedupe } from './store.js';

/**
 * An asynchronous dedupe is a job of the one job system (`src/jobs/`), kind `dedupe`: queued, charged at
 * queuing, resumed after a restart, cancelled with a refund, counted in the account's job slots. It is
 * ONE unit of work: the comparison of a whole list cannot be cut into chunks (any record may meet any
 * other). The unit's input is the saved dedupe's records and options, read from the shared state store
 * by whichever node runs it (the records are stored once, there, not again with the job); the unit's
 * output, the core result, is committed with the job's progress like any chunk, then copied into the
 * saved dedupe, which keeps serving GET, review and incremental matching on any node.
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
    async input(record: JobRecord, chunk: number): Promise<DedupeUnit> {
      // a job queued by an older process carries its input; otherwise the saved dedupe's records
      const carried = (await jobs.store.chunkInput(record.job, chunk)) as DedupeUnit | undefined;
      if (carried) return carried;
      const [saved, stored] = await Promise.all([savedOf(services.state, record.job), getRecords(services.state, record.job)]);
      if (!saved || !stored) throw new Error(`the records of dedupe ${record.job} are gone`);
      return { records: stored.records, reference: stored.reference, min_level: saved.min_level, foreign: saved.foreign };
    },
    // one unit is the whole list: done goes from 0 to every row at once
    tally: (_output, record) => ({ rows: record.rows, outcomes: {} }),
    async completed(record: JobRecord): Promise<void> {
      const saved = await savedOf(services.state, record.job);
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
    (await updateSaved(services.state, saved.job, (s) => {
      if (!isActive(s.state)) return;
      s.state = record.state;
      if (result) s.result = result;
      if (record.error) s.error = `${record.error}${given}`;
    })) ?? saved
  );
}
