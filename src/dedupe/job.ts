import type { JobKind, JobService } from '../jobs/service.js';
import type { KeepOutput } from '../jobs/store.js';
import type { JobRecord } from '../state/db.js';
import type { StateStore } from '../state/store.js';
import { compareText, type CompareInput } from './service.js';
import { getRecords, savedOf, updateHead } from './store.js';

/**
 * An asynchronous dedupe is a job of the one job system (`src/jobs/`), kind `dedupe`: queued, charged at
 * queuing, resumed after a restart, cancelled with a refund, counted in the account's job slots. It is
 * ONE unit of work: the comparison of a whole list cannot be cut into chunks (any record may meet any
 * other). The job record is the one owner of its state and error (a read of the saved dedupe takes them
 * from it, `getSaved`); the saved dedupe of the same code holds what is the dedupe's own: its records
 * (the unit's input, read from the shared state store by whichever node runs it), its result, review
 * marks and growth. The unit's output, the core's answer as JSON text, is kept there (`keep`), written in
 * the very transaction that completes the job: no copy between the two, on no read.
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
 * JSON text, which the saved dedupe stores as it is (one copy back to the main thread, no objects decoded
 * and cloned just to be stored).
 */
export function runDedupeUnit(unit: DedupeUnit): Promise<string> {
  return compareText(JSON.parse(unit) as CompareInput);
}

/** The core's answer as the saved dedupe stores it: JSON text (an older process's unit output may be an object). */
export const resultText = (output: unknown): string => (typeof output === 'string' ? output : JSON.stringify(output));

/**
 * The dedupe kind's `keep`: the unit's output, the core's JSON text, becomes the saved dedupe's result in
 * the commit that completes the job (`tx`: the state store as seen from inside it).
 */
export const keepResult: KeepOutput = (tx, output, record) => updateHead(tx, record.job, () => resultText(output));

export function dedupeKind(state: StateStore, jobs: JobService): JobKind {
  return {
    async input(record: JobRecord, chunk: number): Promise<DedupeUnit> {
      // a job queued by an older process carries its input; otherwise the saved dedupe's records
      const carried = (await jobs.store.chunkInput(record.job, chunk)) as CompareInput | undefined;
      if (carried) return dedupeUnit(carried);
      const [saved, stored] = await Promise.all([savedOf(state, record.job), getRecords(state, record.job)]);
      if (!saved || !stored) throw new Error(`the records of dedupe ${record.job} are gone`);
      return dedupeUnit({ records: stored.records, reference: stored.reference, min_level: saved.min_level, foreign: saved.foreign });
    },
    // one unit is the whole list: done goes from 0 to every row at once
    tally: (_output, record) => ({ rows: record.rows, outcomes: {} }),
    keep: keepResult,
  };
}
