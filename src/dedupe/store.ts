import type { Database } from 'lmdb';

import { newJobCode } from '../jobs/store.js';
import type { StateDb } from '../state/db.js';
import type { DedupeRecord, MinLevel } from './schema.js';
import type { CoreResult } from './service.js';

/** Saved results stay readable this long (spec, Limits). */
export const RETENTION_DAYS = 30;

export interface SavedDedupe {
  job: string;
  account: string;
  /** As saved; an asynchronous job's live state is its job record's (`src/dedupe/job.ts`). */
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  created: string;
  updated: string;
  expires: string;
  min_level: MinLevel;
  foreign: 'declared' | 'detect';
  language: string;
  italian: boolean;
  /** Records plus reference, as compared. */
  rows: number;
  result: CoreResult | null;
  /** Group number → when it was marked processed. */
  processed: Record<string, string>;
  charged: number;
  error: string | null;
}

/** The records a job compared (English keys, in order); incremental calls append to `records`. */
export interface SavedRecords {
  records: DedupeRecord[];
  reference: DedupeRecord[] | null;
}

interface Tables {
  jobs: Database<SavedDedupe, string>;
  records: Database<SavedRecords, string>;
}

const dbs = new WeakMap<StateDb, Tables>();

/**
 * Saved dedupe jobs live in two named databases of the service's state environment: the job with
 * its result, and apart the records it compared (100,000 of them are not decoded on every read).
 */
function tables(db: StateDb): Tables {
  let t = dbs.get(db);
  if (!t) {
    t = { jobs: db.root.openDB<SavedDedupe, string>({ name: 'dedupe' }), records: db.root.openDB<SavedRecords, string>({ name: 'dedupe_records' }) };
    dbs.set(db, t);
  }
  return t;
}

export function createSaved(db: StateDb, spec: Omit<SavedDedupe, 'job' | 'created' | 'updated' | 'expires' | 'processed' | 'error' | 'rows'>, records: SavedRecords, job = newJobCode()): SavedDedupe {
  const now = new Date();
  const saved: SavedDedupe = {
    ...spec,
    job,
    rows: records.records.length + (records.reference?.length ?? 0),
    created: now.toISOString(),
    updated: now.toISOString(),
    expires: new Date(now.getTime() + RETENTION_DAYS * 86_400_000).toISOString(),
    processed: {},
    error: null,
  };
  const t = tables(db);
  db.root.transactionSync(() => {
    t.records.put(saved.job, records);
    t.jobs.put(saved.job, saved);
  });
  return saved;
}

export function getRecords(db: StateDb, job: string): SavedRecords | undefined {
  return tables(db).records.get(job);
}

export function putRecords(db: StateDb, job: string, records: SavedRecords): void {
  tables(db).records.putSync(job, records);
}

/** A saved job of this account that has not expired; expired ones are removed when met. */
export function getSaved(db: StateDb, job: string, account: string): SavedDedupe | undefined {
  const t = tables(db);
  const saved = t.jobs.get(job);
  if (!saved || saved.account !== account) return undefined;
  if (saved.expires < new Date().toISOString()) {
    db.root.transactionSync(() => {
      t.jobs.remove(job);
      t.records.remove(job);
    });
    return undefined;
  }
  return saved;
}

export function updateSaved(db: StateDb, job: string, change: (s: SavedDedupe) => void): SavedDedupe | undefined {
  let out: SavedDedupe | undefined;
  db.root.transactionSync(() => {
    const saved = tables(db).jobs.get(job);
    if (!saved) return;
    change(saved);
    saved.updated = new Date().toISOString();
    tables(db).jobs.put(job, saved);
    out = saved;
  });
  return out;
}

/** A saved dedupe whoever owns it (the job system's worker side). */
export function savedOf(db: StateDb, job: string): SavedDedupe | undefined {
  return tables(db).jobs.get(job);
}

/** A saved dedupe whose job could not be queued (402, 429, a full disk) goes with it. */
export function removeSaved(db: StateDb, job: string): void {
  const t = tables(db);
  db.root.transactionSync(() => {
    t.jobs.remove(job);
    t.records.remove(job);
  });
}
