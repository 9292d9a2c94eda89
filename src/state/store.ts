import type pg from 'pg';

import type { StateDb } from './db.js';

/**
 * The service's state behind one interface, two back ends: LMDB in the data dir (one node, the default)
 * or PostgreSQL (`RECAPITO_STATE_URL=postgres://…`, any number of nodes). Capability code talks to the
 * domain modules (state/ledger, state/tokens, suggest/session, dedupe/store, console/store), which talk
 * only to this interface: none of them knows which back end runs.
 *
 * The model is a document store with atomic multi-document updates. Every piece of state is a JSON
 * document named by a namespace and a key. An update names the documents it reads, gets them, decides
 * synchronously (a pure function: no I/O, may throw to refuse) and returns the documents to write:
 * - LMDB: inside one write transaction (LMDB's writer lock serialises processes); `batched` updates share
 *   the group commit of issue 14 (src/state/commit.ts);
 * - PostgreSQL: one transaction that locks the named rows (`SELECT … FOR UPDATE`) before deciding, so two
 *   nodes racing for the same counter are serialised by PostgreSQL and the last unit goes to exactly one.
 */
export type Namespace =
  | 'accounts'
  | 'tokens'
  | 'credits'
  | 'credit_packs'
  | 'trials'
  | 'kv'
  | 'suggest_sessions'
  | 'suggest_budgets'
  | 'dedupe'
  | 'dedupe_records'
  | 'console';

export interface DocKey {
  ns: Namespace;
  key: string;
}

/** A document to write; `doc: null` removes it. */
export interface DocChange extends DocKey {
  doc: unknown;
}

/** What an update's decision returns: its result and the documents to write (none: a read-only decision). */
export interface Decision<R> {
  result: R;
  write?: DocChange[];
}

/**
 * Two moments of an update (src/state/commit.ts): `decided` when the decision is known (work it allows may
 * start), `durable` when it is committed. On PostgreSQL both are the commit.
 */
export interface Written<R> {
  decided: Promise<R>;
  durable: Promise<R>;
}

/**
 * The moments of one batched update told to callbacks rather than as two promises: on the request path a
 * charge's promises and their microtasks cost the event loop more than its decision. In this order:
 * `decided` or `refused` once, then `durable` once. The callbacks must not throw.
 */
export interface UpdateListener<R> {
  /** The decision (written in the update's transaction, not yet durable): work it allows may start. */
  decided(result: R): void;
  /** The decision threw (a refusal: nothing of it is written), or the update failed before deciding. */
  refused(error: unknown): void;
  /** The update is committed and flushed (no argument), or it failed (the error); also after `refused`. */
  durable(error?: unknown): void;
}

export interface UpdateOptions {
  /** LMDB: ride the next group commit (request paths). PostgreSQL: no difference. */
  batched?: boolean;
}

export interface ListOptions {
  /** Only keys starting with this. */
  prefix?: string;
}

/** One rate-limit window's count after a hit, and the milliseconds left in the window. */
export interface WindowHit {
  count: number;
  ttlMs: number;
}

export interface StateStore {
  readonly backend: 'lmdb' | 'postgres';
  /** The LMDB environment (jobs still keep their chunks there on one node); undefined on PostgreSQL. */
  readonly lmdb?: StateDb;
  /** The PostgreSQL pool (pg-boss and the jobs' tables share it); undefined on LMDB. */
  readonly pool?: pg.Pool;

  get<T>(ns: Namespace, key: string): Promise<T | undefined>;
  /**
   * `get` answered at once, where a read costs no I/O (LMDB: the memory map, the committed state as
   * `get` sees it); undefined on PostgreSQL. For the request path, where a promise per read is what costs.
   */
  readonly getNow?: <T>(ns: Namespace, key: string) => T | undefined;
  /**
   * LMDB only: read, decide and write at once inside the write transaction the caller holds on the same
   * environment (a job's stop and its refund, src/jobs/store.ts), with no commit of its own.
   */
  readonly updateNow?: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>) => R;
  /** Several documents in one read (one snapshot). */
  getMany(keys: DocKey[]): Promise<unknown[]>;
  list<T>(ns: Namespace, options?: ListOptions): Promise<{ key: string; value: T }[]>;
  /**
   * Reads `keys` under lock, decides, writes: atomically against every other update on any node.
   * `decide` must not change the documents it is given: it copies what it changes (in a group commit,
   * one decision's written document is the next one's input, and is encoded after the round).
   */
  update<R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, options?: UpdateOptions): Written<R>;
  /**
   * LMDB: `update` in the next group commit, its moments told to `listener` (no promise per update).
   * Undefined on PostgreSQL; `updateListened` serves both back ends.
   */
  readonly updateInRound?: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, listener: UpdateListener<R>) => void;

  /**
   * Counts one authenticated request of a token (`requests`, `last_used` of its document) in the next
   * shared write; the answer awaits the returned function's promise before it leaves, so a crash loses
   * no count, and concurrent requests share one write. The function answers null when the count is
   * already on disk (the request's own charge carried it): nothing to wait for.
   */
  countRequest(tokenHash: string, now: string): () => Promise<void> | null;

  /**
   * Rate limits across nodes: one hit in the fixed window of `key`. Undefined on LMDB, where the
   * process-local limiter of @fastify/rate-limit is exact (one node).
   */
  readonly hitWindow?: (key: string, windowMs: number) => Promise<WindowHit>;

  /** Answers when the store can serve (readiness): a round trip to PostgreSQL, a read on LMDB. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const doc = (ns: Namespace, key: string): DocKey => ({ ns, key });

/** A batched update whose moments are told to `listener`: at once on LMDB, from `update`'s promises elsewhere. */
export function updateListened<R>(store: StateStore, keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, listener: UpdateListener<R>): void {
  if (store.updateInRound) return store.updateInRound(keys, decide, listener);
  const written = store.update(keys, decide, { batched: true });
  written.decided.then(
    (result) => listener.decided(result),
    (error: unknown) => listener.refused(error),
  );
  written.durable.then(
    () => listener.durable(),
    (error: unknown) => listener.durable(error),
  );
}
