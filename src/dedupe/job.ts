import type { Services } from '../http/context.js';
import { isActive } from '../jobs/store.js';
import type { JobKind, JobService } from '../jobs/service.js';
import type { JobRecord } from '../state/db.js';
import { compareText, type CompareInput } from './service.js';
import { getRecords, savedOf, updateHead, type SavedDedupe } from './store.js';

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
 * JSON text, which the job and the saved dedupe store as it is (one copy back to the main thread, no
 * objects decoded and cloned just to be stored).
 */
export function runDedupeUnit(unit: DedupeUnit): Promise<string> {
  return compareText(JSON.parse(unit) as CompareInput);
}

/**
 * The input of the dedupe this process queued last, held until its unit starts here: read back from the
 * state store, its 100,000 records would be decoded again on the main thread. One job at most (a queue of
 * large jobs must not keep all their records in memory); every other unit (another job's, one run after a
 * restart or on another node) reads the saved records. Held objects are the ones saved, never changed.
 */
export class Handoff {
  private held: { job: string; input: CompareInput } | undefined;

  give(job: string, input: CompareInput): void {
    this.held = { job, input };
  }

  /** The held input of `job`, once; undefined for any other job. */
  take(job: string): CompareInput | undefined {
    if (this.held?.job !== job) return undefined;
    const { input } = this.held;
    this.held = undefined;
    return input;
  }
}

export function dedupeKind(services: Services, jobs: JobService, handoff: Handoff): JobKind {
  return {
    async input(record: JobRecord, chunk: number): Promise<DedupeUnit> {
      const held = handoff.take(record.job);
      if (held) return dedupeUnit(held);
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
      await settle(jobs, services, record);
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
  await settle(jobs, services, record);
  return (await savedOf(services.state, saved.job)) ?? saved;
}

/**
 * The saved dedupe of a job that stopped takes its end state, error and (completed) result: the unit's
 * output, the core's JSON text, stored as it is, never decoded here. Only a saved dedupe still active
 * changes: one settled already (and maybe grown by incremental calls since) keeps its result.
 */
async function settle(jobs: JobService, services: Services, record: JobRecord): Promise<void> {
  const output = record.state === 'completed' ? await jobs.store.chunkOutput(record.job, 0) : undefined;
  const text = output === undefined || typeof output === 'string' ? output : JSON.stringify(output);
  await updateHead(services.state, record.job, (s) => {
    if (!isActive(s.state)) return;
    s.state = record.state;
    // the job's key: its read writes it in the reader's language (jobErrorText), the give-back said there
    if (record.error) s.error = record.error;
    return text;
  });
}
