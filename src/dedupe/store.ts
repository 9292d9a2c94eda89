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
  state: 'queued' | 'running' | 'completed' | 'failed';
  created: string;
  updated: string;
  expires: string;
  min_level: MinLevel;
  foreign: 'declared' | 'detect';
  language: string;
  italian: boolean;
  /** Records as compared (English keys), in order; incremental calls append to them. */
  records: DedupeRecord[];
  reference: DedupeRecord[] | null;
  result: CoreResult | null;
  /** Group number → when it was marked processed. */
  processed: Record<string, string>;
  charged: number;
  error: string | null;
}

const dbs = new WeakMap<StateDb, Database<SavedDedupe, string>>();

/** Saved dedupe jobs live in their own named database of the service's state environment. */
function table(db: StateDb): Database<SavedDedupe, string> {
  let t = dbs.get(db);
  if (!t) {
    t = db.root.openDB<SavedDedupe, string>({ name: 'dedupe' });
    dbs.set(db, t);
  }
  return t;
}

export function createSaved(db: StateDb, spec: Omit<SavedDedupe, 'job' | 'created' | 'updated' | 'expires' | 'processed' | 'error'>): SavedDedupe {
  const now = new Date();
  const saved: SavedDedupe = {
    ...spec,
    job: newJobCode(),
    created: now.toISOString(),
    updated: now.toISOString(),
    expires: new Date(now.getTime() + RETENTION_DAYS * 86_400_000).toISOString(),
    processed: {},
    error: null,
  };
  table(db).putSync(saved.job, saved);
  return saved;
}

/** A saved job of this account that has not expired; expired ones are removed when met. */
export function getSaved(db: StateDb, job: string, account: string): SavedDedupe | undefined {
  const saved = table(db).get(job);
  if (!saved || saved.account !== account) return undefined;
  if (saved.expires < new Date().toISOString()) {
    table(db).removeSync(job);
    return undefined;
  }
  return saved;
}

export function updateSaved(db: StateDb, job: string, change: (s: SavedDedupe) => void): SavedDedupe | undefined {
  let out: SavedDedupe | undefined;
  db.root.transactionSync(() => {
    const saved = table(db).get(job);
    if (!saved) return;
    change(saved);
    saved.updated = new Date().toISOString();
    table(db).putSync(job, saved);
    out = saved;
  });
  return out;
}

/** Jobs a previous process left queued or running. */
export function unfinished(db: StateDb): SavedDedupe[] {
  const out: SavedDedupe[] = [];
  for (const { value } of table(db).getRange()) if (value.state === 'queued' || value.state === 'running') out.push(value);
  return out;
}
