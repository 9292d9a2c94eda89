import { randomBytes } from 'node:crypto';

import type { ChargeTicket, CreditCharge } from '../state/ledger.js';
import type { ItemResult } from '../http/capability.js';
import type { JobRecord, StateDb } from '../state/db.js';
import type { Decision, DocKey, StateStore } from '../state/store.js';

/** Rows per chunk: the unit of work a worker commits at once (results and progress together). */
export const CHUNK_SIZE = 500;

export interface StoredItem {
  id: unknown;
  item: unknown;
}

export interface StoredResult {
  id: unknown;
  result: ItemResult;
}

export type Charged = { charge: CreditCharge; ticket: ChargeTicket };
/** Units a stopped job owes back, and the ticket of the charge they go back to. */
export type Refund = { ticket: ChargeTicket; units: number };
/**
 * Gives what a stopped job owes back to the ticket's buckets through `state`, the state store as seen
 * from inside the stop's own transaction (src/state/ledger.ts `refund`); resolves to the units given.
 */
export type GiveBack = (state: StateStore, owed: Refund) => Promise<number>;
/**
 * Writes a unit's output into the documents of the kind that keeps it (a dedupe: its saved dedupe, which
 * later calls grow) through `state`, the state store as seen from inside the unit's commit: the output,
 * the job's progress and its completion (`record`, as committed) land in one transaction or not at all.
 */
export type KeepOutput = (state: StateStore, output: unknown, record: JobRecord) => Promise<unknown>;
/** What the job's results hold for a unit whose output its kind keeps (`KeepOutput`): that it is done, not a second copy. */
export const KEPT_BY_KIND = { kept_by: 'kind' } as const;
export const isKeptByKind = (output: unknown): boolean => typeof output === 'object' && output !== null && (output as { kept_by?: unknown }).kept_by === KEPT_BY_KIND.kept_by;
export type JobState = JobRecord['state'];
export type Outcomes = JobRecord['outcomes'];

/** What one committed unit adds to its job's progress. */
export interface Tally {
  rows: number;
  outcomes: Partial<Outcomes>;
}

export const isActive = (state: JobState): boolean => state === 'queued' || state === 'running';

export function newJobCode(): string {
  // 16 base32 characters: unguessable, short enough to read over the phone
  return randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').slice(0, 16).toUpperCase();
}

/**
 * A job to store. Its input is cut into units of work (`chunks`): a capability job in chunks of
 * CHUNK_SIZE items; a job whose input lives elsewhere (a dedupe job: its records are the saved
 * dedupe's) passes `chunks` without inputs, one entry per unit with its rows and units.
 */
export interface NewJob {
  /** A code chosen by the caller (a saved dedupe and its job share one); a fresh one otherwise. */
  job?: string;
  kind: string;
  account: string;
  language: string;
  italian: boolean;
  counter: string;
  chunks: { rows: number; units: number; input?: unknown }[];
}

/** Cuts items into chunk inputs of CHUNK_SIZE, with the units each chunk was charged. */
export function itemChunks(items: StoredItem[], units: number[]): NewJob['chunks'] {
  const chunks: NewJob['chunks'] = [];
  for (let start = 0; start < items.length; start += CHUNK_SIZE) {
    const input = items.slice(start, start + CHUNK_SIZE);
    chunks.push({ rows: input.length, units: units.slice(start, start + CHUNK_SIZE).reduce((s, u) => s + u, 0), input });
  }
  return chunks;
}

export function jobRecord(code: string, spec: NewJob, now = new Date().toISOString()): JobRecord {
  const chunk_units = spec.chunks.map((c) => c.units);
  return {
    job: code,
    kind: spec.kind,
    account: spec.account,
    language: spec.language,
    italian: spec.italian,
    state: 'queued',
    rows: spec.chunks.reduce((s, c) => s + c.rows, 0),
    done: 0,
    chunks: spec.chunks.length,
    chunks_done: 0,
    chunk_size: spec.chunks[0]?.rows ?? CHUNK_SIZE,
    created: now,
    updated: now,
    counter: spec.counter,
    charged: chunk_units.reduce((s, u) => s + u, 0),
    refunded: 0,
    outcomes: { ok: 0, modified: 0, to_check: 0, unresolved: 0 },
    error: null,
    chunk_units,
  };
}

/**
 * The record after one unit committed: progress added; completed with its last unit (in the same
 * write, so that no node can die between the last result and the job's completion).
 */
export function withTally(record: JobRecord, tally: Tally): JobRecord {
  const outcomes = { ...record.outcomes };
  for (const [k, n] of Object.entries(tally.outcomes) as [keyof Outcomes, number][]) outcomes[k] += n;
  const chunks_done = record.chunks_done + 1;
  const state = chunks_done >= record.chunks ? 'completed' : 'running';
  return { ...record, state, done: record.done + tally.rows, chunks_done, outcomes, updated: new Date().toISOString() };
}

/**
 * Where jobs live: input chunks, results, progress and charge tickets. LMDB in one process by default
 * (`LmdbJobStore`), PostgreSQL shared by every node when RECAPITO_STATE_URL is set (`PgJobStore`).
 * Both keep the two promises the job system rests on: a unit's result and the progress it adds are
 * committed together and at most once; a job that stops gives back its unprocessed units at most once.
 */
export interface JobStore {
  /** Stores the job whole (record, input chunks, the ticket of its charge, its queued units) or not at all. */
  create(spec: NewJob, ticket: ChargeTicket): Promise<JobRecord>;
  get(code: string): Promise<JobRecord | undefined>;
  /** Jobs queued or running, of one account or of all. */
  active(account?: string): Promise<JobRecord[]>;
  /** A queued job whose first unit starts: running (a no-op in any other state). */
  markRunning(code: string): Promise<void>;
  chunkInput(code: string, chunk: number): Promise<unknown>;
  /** A unit's committed output, undefined while it has none. */
  chunkOutput(code: string, chunk: number): Promise<unknown>;
  /** Units without an output, in order. */
  pendingChunks(code: string): Promise<number[]>;
  /**
   * Commits a unit's output and its progress together (the job completes with its last unit); false,
   * nothing written, when that unit is already in or the job stopped. With `keep`, the output goes to the
   * kind's own documents in the same transaction (a failure of `keep` commits nothing) and the job's
   * results hold `KEPT_BY_KIND` for the unit.
   */
  commitChunk(code: string, chunk: number, output: unknown, tally: Tally, keep?: KeepOutput): Promise<boolean>;
  /**
   * Stops an active job (cancelled or failed), records as refunded the units of its unprocessed chunks
   * and gives them back (`giveBack`, on the credit documents) in ONE transaction: a crash before its
   * commit leaves the job active and the credit untouched, after it both are done; a job stops once, so
   * its units go back once. Returns the units given back, 0 for a job already stopped.
   */
  stop(code: string, state: 'cancelled' | 'failed', error: string | null, giveBack: GiveBack): Promise<number>;
  close(): Promise<void>;
}

const chunkKey = (job: string, i: number): string => `${job}/${String(i).padStart(6, '0')}`;

// --- LMDB: the embedded default. Synchronous functions, one transaction each. ---

export function getJob(db: StateDb, job: string): JobRecord | undefined {
  return db.jobs.get(job);
}

export function listJobs(db: StateDb): JobRecord[] {
  return [...db.jobs.getRange()].map((e) => e.value);
}

export function ticketOf(db: StateDb, job: string): ChargeTicket | undefined {
  return db.kv.get(`ticket/${job}`) as ChargeTicket | undefined;
}

function chunkOutput(db: StateDb, job: string, i: number): unknown {
  return db.jobResults.get(chunkKey(job, i));
}

/** Units of the chunks that have no results: what a job that stops gives back. */
function unprocessedUnits(db: StateDb, record: JobRecord): number {
  let units = 0;
  for (let i = 0; i < record.chunks; i++) if (chunkOutput(db, record.job, i) === undefined) units += record.chunk_units[i] ?? 0;
  return units;
}

export class LmdbJobStore implements JobStore {
  constructor(
    private readonly db: StateDb,
    private readonly state: StateStore,
  ) {}

  async create(spec: NewJob, ticket: ChargeTicket): Promise<JobRecord> {
    const { db } = this;
    const record = jobRecord(spec.job ?? newJobCode(), spec);
    db.root.transactionSync(() => {
      db.jobs.put(record.job, record);
      db.kv.put(`ticket/${record.job}`, ticket);
      spec.chunks.forEach((c, i) => {
        if (c.input !== undefined) db.jobChunks.put(chunkKey(record.job, i), c.input as unknown[]);
      });
    });
    return record;
  }

  async get(code: string): Promise<JobRecord | undefined> {
    return getJob(this.db, code);
  }

  async active(account?: string): Promise<JobRecord[]> {
    return listJobs(this.db).filter((j) => isActive(j.state) && (account === undefined || j.account === account));
  }

  async markRunning(code: string): Promise<void> {
    const { db } = this;
    db.root.transactionSync(() => {
      const record = db.jobs.get(code);
      if (record?.state === 'queued') db.jobs.put(code, { ...record, state: 'running', updated: new Date().toISOString() });
    });
  }

  async chunkInput(code: string, chunk: number): Promise<unknown> {
    return this.db.jobChunks.get(chunkKey(code, chunk));
  }

  async chunkOutput(code: string, chunk: number): Promise<unknown> {
    return chunkOutput(this.db, code, chunk);
  }

  async pendingChunks(code: string): Promise<number[]> {
    const record = getJob(this.db, code);
    const pending: number[] = [];
    for (let i = 0; i < (record?.chunks ?? 0); i++) if (chunkOutput(this.db, code, i) === undefined) pending.push(i);
    return pending;
  }

  async commitChunk(code: string, chunk: number, output: unknown, tally: Tally, keep?: KeepOutput): Promise<boolean> {
    const { db } = this;
    return db.root.transactionSync(() => {
      const record = db.jobs.get(code);
      if (!record || !isActive(record.state) || chunkOutput(db, code, chunk) !== undefined) return false;
      const next = withTally(record, tally);
      if (keep) {
        const tx = new LmdbTransactionState(db, this.state);
        // its failure is thrown by check() below, which aborts the commit
        keep(tx.view, output, next).catch(() => undefined);
        tx.check('the unit\'s output was not kept inside its commit');
      }
      db.jobResults.put(chunkKey(code, chunk), (keep ? KEPT_BY_KIND : output) as unknown[]);
      db.jobs.put(code, next);
      return true;
    });
  }

  async stop(code: string, state: 'cancelled' | 'failed', error: string | null, giveBack: GiveBack): Promise<number> {
    const { db } = this;
    let given: Promise<number> = Promise.resolve(0);
    db.root.transactionSync(() => {
      const record = db.jobs.get(code);
      const ticket = ticketOf(db, code);
      if (!record || !isActive(record.state)) return;
      const units = Math.max(0, unprocessedUnits(db, record) - record.refunded);
      db.jobs.put(code, { ...record, state, error: error ?? record.error, refunded: record.refunded + units, updated: new Date().toISOString() });
      if (!ticket || units === 0) return;
      const tx = new LmdbTransactionState(db, this.state);
      given = giveBack(tx.view, { ticket, units });
      // its failure is thrown by check() below, which aborts the stop
      given.catch(() => undefined);
      // the give-back's update ran in this transaction, or this throws and nothing of the stop is written
      tx.check('the refund did not run inside the job\'s stop');
    });
    return given;
  }

  async close(): Promise<void> {
    // the LMDB environment belongs to the service's state and is closed with it
  }
}

/**
 * The state store seen from inside an open LMDB write transaction of the same environment (a job's
 * stop, a unit's commit whose kind keeps its output): `update` decides and writes at once in that transaction, with no commit of its own, and keeps
 * the outcome so that `check` (still inside it) throws, aborting the whole, when an update failed or the
 * caller's work did not update synchronously (it would otherwise land after the commit, apart). Every
 * other member is the store's own.
 */
class LmdbTransactionState {
  private updates = 0;
  private failure: unknown;
  readonly view: StateStore;

  constructor(db: StateDb, state: StateStore) {
    const updateNow = state.updateNow;
    if (state.lmdb?.root !== db.root || !updateNow) throw new Error('the job store and the state store are not one LMDB environment');
    this.view = { ...state, update: (keys, decide) => this.update(updateNow, keys, decide) };
  }

  private update<R>(updateNow: NonNullable<StateStore['updateNow']>, keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): { decided: Promise<R>; durable: Promise<R> } {
    this.updates += 1;
    let settled: Promise<R>;
    try {
      settled = Promise.resolve(updateNow(keys, decide));
    } catch (error) {
      this.failure = error;
      settled = Promise.reject(error);
      settled.catch(() => undefined);
    }
    return { decided: settled, durable: settled };
  }

  /** Throws (aborting the transaction) when an update failed or none ran synchronously (`missing` says which work). */
  check(missing: string): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.updates === 0) throw new Error(missing);
  }
}
