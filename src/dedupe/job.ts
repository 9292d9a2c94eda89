import type { Services } from '../http/context.js';
import { isActive } from '../jobs/store.js';
import type { JobKind, JobService } from '../jobs/service.js';
import type { JobRecord } from '../state/db.js';
import { compareText, type CompareInput, type CoreResult } from './service.js';
import { getRecords, savedOf, updateSaved, type SavedDedupe } from './store.js';

/**
 * An asynchronous dedupe is a job of the one job system (`src/jobs/`), kind `dedupe`: queued, charged at
 * queuing, resumed after a restart, cancelled with a refund, counted in the account's job slots. It is
 * ONE unit of work: the comparison of a whole list cannot be cut into chunks (any record may meet any
 * other). The unit's input is the saved dedupe's records and options, read from the shared state store
 * by whichever node runs it (the records are stored once, there, not again with the job); the unit's
 * output, the core's answer as JSON text, is committed with the job's progress like any chunk, then
 * decoded once into the saved dedupe, which keeps serving GET, review and incremental matching on any node.
 */
export const DEDUPE_KIND = 'dedupe';

/**
 * What the pool worker gets for a dedupe unit: the records and options as ONE JSON text. Handing
 * 100,000 record objects to a worker thread costs a structured clone at both ends (the reading end
 * alone took longer than parsing their JSON); a string crosses as one copy and is parsed in the worker.
 */
export type DedupeUnit = string;

/** The records and options of one comparison as a unit's input. */
export function dedupeUnit(input: CompareInput): DedupeUnit {
  return JSON.stringify({ records: input.records, reference: input.reference ?? null, min_level: input.min_level, foreign: input.foreign });
}

/**
 * Runs in a piscina worker: the whole comparison, in the Rust core. Its output is the core's answer as
 * JSON text, which the job stores as it is (one copy back to the main thread, no objects decoded and
 * cloned just to be stored); `resultOf` decodes it where the result is used.
 */
export function runDedupeUnit(unit: DedupeUnit): Promise<string> {
  return compareText(JSON.parse(unit) as CompareInput);
}

/** A dedupe unit's stored output as a result: JSON text, or the object an older process stored. */
export function resultOf(output: unknown): CoreResult | undefined {
  return typeof output === 'string' ? (JSON.parse(output) as CoreResult) : (output as CoreResult | undefined);
}

export function dedupeKind(services: Services, jobs: JobService): JobKind {
  return {
    async input(record: JobRecord, chunk: number): Promise<DedupeUnit> {
      // a job queued by an older process carries its input; otherwise the saved dedupe's records
      const carried = (await jobs.store.chunkInput(record.job, chunk)) as CompareInput | undefined;
      if (carried) return dedupeUnit(carried);
      const [saved, stored] = await Promise.all([savedOf(services.state, record.job), getRecords(services.state, record.job)]);
      if (!saved || !stored) throw new Error(`the records of dedupe ${record.job} are gone`);
      return dedupeUnit({ records: stored.records, reference: stored.reference, min_level: saved.min_level, foreign: saved.foreign });
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
  const result = record.state === 'completed' ? resultOf(await jobs.store.chunkOutput(saved.job, 0)) : undefined;
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
