import { randomBytes } from 'node:crypto';

import type { ChargeTicket } from '../credit/ledger.js';
import type { ItemResult } from '../http/capability.js';
import type { JobRecord, StateDb } from '../state/db.js';

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

const chunkKey = (job: string, i: number): string => `${job}/${String(i).padStart(6, '0')}`;

export function newJobCode(): string {
  // 16 base32 characters: unguessable, short enough to read over the phone
  return randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').slice(0, 16).toUpperCase();
}

export interface NewJob {
  kind: string;
  account: string;
  language: string;
  italian: boolean;
  counter: string;
  items: StoredItem[];
  units: number[];
  ticket: ChargeTicket;
}

/** Input, progress and charge ticket in one transaction: a job is stored whole or not at all. */
export function createJob(db: StateDb, spec: NewJob): JobRecord {
  const job = newJobCode();
  const now = new Date().toISOString();
  const chunks = Math.ceil(spec.items.length / CHUNK_SIZE);
  const chunk_units: number[] = [];
  for (let i = 0; i < chunks; i++) {
    chunk_units.push(spec.units.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE).reduce((s, u) => s + u, 0));
  }
  const record: JobRecord = {
    job,
    kind: spec.kind,
    account: spec.account,
    language: spec.language,
    italian: spec.italian,
    state: 'queued',
    rows: spec.items.length,
    done: 0,
    chunks,
    chunks_done: 0,
    chunk_size: CHUNK_SIZE,
    created: now,
    updated: now,
    counter: spec.counter,
    charged: chunk_units.reduce((s, u) => s + u, 0),
    refunded: 0,
    outcomes: { ok: 0, modified: 0, to_check: 0, unresolved: 0 },
    error: null,
    chunk_units,
  };
  db.root.transactionSync(() => {
    db.jobs.put(job, record);
    db.kv.put(`ticket/${job}`, spec.ticket);
    for (let i = 0; i < chunks; i++) db.jobChunks.put(chunkKey(job, i), spec.items.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE));
  });
  return record;
}

export function getJob(db: StateDb, job: string): JobRecord | undefined {
  return db.jobs.get(job);
}

export function chunkItems(db: StateDb, job: string, i: number): StoredItem[] {
  return (db.jobChunks.get(chunkKey(job, i)) ?? []) as StoredItem[];
}

export function chunkResults(db: StateDb, job: string, i: number): StoredResult[] | undefined {
  return db.jobResults.get(chunkKey(job, i)) as StoredResult[] | undefined;
}

export function listJobs(db: StateDb): JobRecord[] {
  return [...db.jobs.getRange()].map((e) => e.value);
}

const KIND: Record<string, keyof JobRecord['outcomes']> = { ok: 'ok', modified: 'modified', warning: 'to_check', error: 'unresolved' };

/**
 * Commits one chunk's results and the job's progress together, once: a chunk that was already
 * committed (a worker killed after writing, then run again) is not counted twice.
 */
export function commitChunk(db: StateDb, job: string, i: number, results: StoredResult[]): boolean {
  return db.root.transactionSync(() => {
    const record = db.jobs.get(job);
    if (!record || db.jobResults.get(chunkKey(job, i)) !== undefined) return false;
    if (record.state === 'cancelled' || record.state === 'failed') return false;
    db.jobResults.put(chunkKey(job, i), results);
    const outcomes = { ...record.outcomes };
    for (const r of results) outcomes[KIND[r.result.outcome_label ?? 'ok'] ?? 'to_check'] += 1;
    db.jobs.put(job, {
      ...record,
      state: 'running',
      done: record.done + results.length,
      chunks_done: record.chunks_done + 1,
      outcomes,
      updated: new Date().toISOString(),
    });
    return true;
  });
}

/** Moves a job to a new state; returns the record as written, or undefined if it was not there. */
export function setState(db: StateDb, job: string, state: JobRecord['state'], error: string | null = null): JobRecord | undefined {
  return db.root.transactionSync(() => {
    const record = db.jobs.get(job);
    if (!record) return undefined;
    const next = { ...record, state, error: error ?? record.error, updated: new Date().toISOString() };
    db.jobs.put(job, next);
    return next;
  });
}

/** Units of the chunks that have no results: what a job that stops gives back. */
export function unprocessedUnits(db: StateDb, record: JobRecord): number {
  let units = 0;
  for (let i = 0; i < record.chunks; i++) if (chunkResults(db, record.job, i) === undefined) units += record.chunk_units[i] ?? 0;
  return units;
}

export function ticketOf(db: StateDb, job: string): ChargeTicket | undefined {
  return db.kv.get(`ticket/${job}`) as ChargeTicket | undefined;
}

export function markRefunded(db: StateDb, job: string, units: number): void {
  db.root.transactionSync(() => {
    const record = db.jobs.get(job);
    if (record) db.jobs.put(job, { ...record, refunded: record.refunded + units });
  });
}
