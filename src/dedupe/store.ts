import { newJobCode, type JobStore } from '../jobs/store.js';
import type { JobRecord, StateDb } from '../state/db.js';
import { doc, type DocChange, type StateStore } from '../state/store.js';
import type { DedupeRecord, MinLevel } from './schema.js';
import type { CoreResult } from './service.js';

/** Saved results stay readable this long (spec, Limits). */
export const RETENTION_DAYS = 30;

/** A saved dedupe's state: an asynchronous one's is its job's. */
export type DedupeState = JobRecord['state'];

/** A saved dedupe as the routes read it (`getSaved`): its state and error where they live. */
export interface SavedDedupe extends SavedDoc {
  state: DedupeState;
  error: string | null;
  result: CoreResult | null;
}

/**
 * A saved dedupe as stored, its result decoded. An asynchronous one is a job of `src/jobs/` (kind
 * `dedupe`, the same code): its state and error are the job record's and are not stored here (nor
 * copied: a read takes them from the job, `getSaved`); its result is written here once, in the
 * transaction that completes the job (`keep` in src/dedupe/job.ts). A synchronous one saved with its
 * result stores `state: 'completed'`; dedupes saved by older processes may store any state, which the
 * job record's (if any) overrides on read.
 */
export interface SavedDoc {
  job: string;
  account: string;
  state?: DedupeState;
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
  error?: string | null;
}

/** A saved dedupe but for its result: what a review changes. */
export type SavedHead = Omit<SavedDoc, 'result'>;

/**
 * A saved dedupe as stored: its result as the core's JSON text. A 100,000-record result is some 100,000
 * objects, and encoding them one by one into the state store cost more than any other step around the
 * core, again at every review; one string is written and read as it is, and a review or a completed job
 * changes the rest of the document without decoding it. Older processes stored the result as an object,
 * which reads as well.
 */
type StoredSaved = SavedHead & { result: CoreResult | string | null };

function decoded(stored: StoredSaved): SavedDoc {
  return typeof stored.result === 'string' ? { ...stored, result: JSON.parse(stored.result) as CoreResult } : (stored as SavedDoc);
}

function encoded(saved: SavedDoc): StoredSaved {
  return saved.result ? { ...saved, result: JSON.stringify(saved.result) } : saved;
}

/**
 * The records a job compared (English keys, in order); incremental calls append to `records`. The one
 * copy of them: an asynchronous dedupe's unit reads its input here (src/dedupe/job.ts), not from the job.
 */
export interface SavedRecords {
  records: DedupeRecord[];
  reference: DedupeRecord[] | null;
}

/*
 * Saved dedupes live in the service's state store (src/state/store.ts), LMDB or PostgreSQL, so that a
 * result saved on one node is read, reviewed and deleted on any other: namespace `dedupe` for the job
 * and its result, `dedupe_records` apart for the records it compared (100,000 of them are not decoded on
 * every read). On LMDB these are the named databases the node-local store used, so saved results read on.
 */
const savedDoc = (job: string) => doc('dedupe', job);
const recordsDoc = (job: string) => doc('dedupe_records', job);
const gone = (job: string): DocChange[] => [
  { ...savedDoc(job), doc: null },
  { ...recordsDoc(job), doc: null },
];

/** Saves a dedupe: with `state: 'completed'` and its result, or without a state (an asynchronous one: its job's). */
export async function createSaved(
  state: StateStore,
  spec: Omit<SavedDoc, 'job' | 'created' | 'updated' | 'expires' | 'processed' | 'error' | 'rows'>,
  records: SavedRecords,
  job = newJobCode(),
): Promise<SavedDoc> {
  const now = new Date();
  const saved: SavedDoc = {
    ...spec,
    job,
    rows: records.records.length + (records.reference?.length ?? 0),
    created: now.toISOString(),
    updated: now.toISOString(),
    expires: new Date(now.getTime() + RETENTION_DAYS * 86_400_000).toISOString(),
    processed: {},
  };
  return state.update([savedDoc(job), recordsDoc(job)], () => ({
    result: saved,
    write: [
      { ...recordsDoc(job), doc: records },
      { ...savedDoc(job), doc: encoded(saved) },
    ],
  })).durable;
}

export function getRecords(state: StateStore, job: string): Promise<SavedRecords | undefined> {
  return state.get<SavedRecords>('dedupe_records', job);
}

const expired = (saved: SavedHead, now = new Date().toISOString()): boolean => saved.expires < now;

/**
 * A saved dedupe of this account that has not expired (expired ones are removed when met), with the state
 * and error of its job when it has one (`jobs`: where the jobs live). A read: nothing is written back.
 */
export async function getSaved(state: StateStore, jobs: JobStore, job: string, account: string): Promise<SavedDedupe | undefined> {
  const [saved, record] = await Promise.all([state.get<StoredSaved>('dedupe', job), jobs.get(job)]);
  if (!saved || saved.account !== account) return undefined;
  if (expired(saved)) {
    // removed only if still expired under the lock (an update on another node cannot extend it, but be exact)
    await state.update([savedDoc(job)], ([s]) => ({ result: undefined, write: s && expired(s as StoredSaved) ? gone(job) : [] })).durable;
    return undefined;
  }
  // saved, its job not yet stored (the moment between the two writes of an asynchronous POST): queued
  return { ...decoded(saved), state: record ? record.state : (saved.state ?? 'queued'), error: record ? record.error : (saved.error ?? null) };
}

/**
 * Changes a saved dedupe atomically on any node (an incremental match); with
 * `records`, its records are rewritten in the same update (`records` gets what is stored, undefined when
 * gone). Undefined when the saved dedupe is gone.
 */
export function updateSaved(
  state: StateStore,
  job: string,
  change: (s: SavedDoc) => void,
  records?: (stored: SavedRecords | undefined) => SavedRecords,
): Promise<SavedDoc | undefined> {
  const keys = records ? [savedDoc(job), recordsDoc(job)] : [savedDoc(job)];
  return state.update(keys, ([s, r]) => {
    if (!s) return { result: undefined };
    const saved = decoded(s as StoredSaved);
    change(saved);
    saved.updated = new Date().toISOString();
    const write: DocChange[] = [{ ...savedDoc(job), doc: encoded(saved) }];
    if (records) write.push({ ...recordsDoc(job), doc: records(r as SavedRecords | undefined) });
    return { result: saved, write };
  }).durable;
}

/**
 * Changes a saved dedupe but for its result, which stays as stored (not decoded, not encoded again), on
 * any node (a review; a completed job's result); `change` may return a new result, as the core's JSON
 * text. Undefined when it is gone.
 */
export function updateHead(state: StateStore, job: string, change: (s: SavedHead) => string | void): Promise<SavedHead | undefined> {
  return state.update([savedDoc(job)], ([s]) => {
    if (!s) return { result: undefined };
    const { result, ...head } = s as StoredSaved;
    const replaced = change(head);
    head.updated = new Date().toISOString();
    return { result: head, write: [{ ...savedDoc(job), doc: { ...head, result: replaced ?? result } }] };
  }).durable;
}

/** A saved dedupe as stored, whoever owns it (the job system's side). */
export async function savedOf(state: StateStore, job: string): Promise<SavedDoc | undefined> {
  const stored = await state.get<StoredSaved>('dedupe', job);
  return stored && decoded(stored);
}

/**
 * Saved dedupes a process older than this one left in the node's LMDB: on PostgreSQL (where saved dedupes
 * used to stay node-local) each is copied into the shared state, unless already there, and removed from
 * the node; on LMDB the node's databases are the state and nothing moves. Returns those still queued or
 * running as saved (an asynchronous dedupe of a process older than the job system has no job record:
 * the caller queues it).
 */
export async function adoptLocalSaved(db: StateDb, state: StateStore): Promise<SavedDoc[]> {
  const local = db.root.openDB<StoredSaved, string>({ name: 'dedupe' });
  const localRecords = db.root.openDB<SavedRecords, string>({ name: 'dedupe_records' });
  const unfinished: SavedDoc[] = [];
  for (const { key, value } of local.getRange()) {
    if (state.backend === 'postgres') {
      const records = localRecords.get(key);
      await state.update([savedDoc(key), recordsDoc(key)], ([s]) => ({
        result: undefined,
        write: s || !records ? [] : [{ ...recordsDoc(key), doc: records }, { ...savedDoc(key), doc: value }],
      })).durable;
      await db.root.transaction(() => {
        void local.remove(key);
        void localRecords.remove(key);
      });
    }
    if (value.state === 'queued' || value.state === 'running') unfinished.push(decoded(value));
  }
  return unfinished;
}

/** A saved dedupe whose job could not be queued (402, 429, a full disk) goes with it. */
export async function removeSaved(state: StateStore, job: string): Promise<void> {
  await state.update([savedDoc(job), recordsDoc(job)], () => ({ result: undefined, write: gone(job) })).durable;
}
