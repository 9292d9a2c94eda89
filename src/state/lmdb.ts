import type { Database } from 'lmdb';

import { addRider, batchedWrite } from './commit.js';
import { closeState, openState, type StateDb, type TokenRecord } from './db.js';
import type { Decision, DocKey, ListOptions, Namespace, StateStore, Written } from './store.js';

/**
 * The LMDB back end: each namespace is a named database of the environment under `<data-dir>/state`
 * (the same names as before the interface, so existing state reads on). One node: LMDB's writer lock
 * makes every update atomic across the process and the operator's CLI.
 */
export function lmdbStore(dataDir: string): StateStore {
  const db = openState(dataDir);
  const named = new Map<Namespace, Database<unknown, string>>([
    ['accounts', db.accounts as Database<unknown, string>],
    ['tokens', db.tokens as Database<unknown, string>],
    ['credits', db.credits as Database<unknown, string>],
    ['trials', db.trials as Database<unknown, string>],
    ['kv', db.kv],
  ]);
  const table = (ns: Namespace): Database<unknown, string> => {
    let t = named.get(ns);
    if (!t) {
      t = db.root.openDB<unknown, string>({ name: ns });
      named.set(ns, t);
    }
    return t;
  };

  /** Runs inside a write transaction: read, decide, write. */
  const apply = <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): R => {
    // lmdb-js decodes a new object on every get: the decision may change what it reads
    const decision = decide(keys.map((k) => table(k.ns).get(k.key)));
    for (const change of decision.write ?? []) {
      if (change.doc === null) void table(change.ns).remove(change.key);
      else void table(change.ns).put(change.key, change.doc);
    }
    return decision.result;
  };

  return {
    backend: 'lmdb',
    lmdb: db,
    get: async <T>(ns: Namespace, key: string) => table(ns).get(key) as T | undefined,
    getMany: async (keys) => keys.map((k) => table(k.ns).get(k.key)),
    list: async <T>(ns: Namespace, options: ListOptions = {}) => {
      const out: { key: string; value: T }[] = [];
      const range = options.prefix ? { start: options.prefix } : {};
      for (const { key, value } of table(ns).getRange(range)) {
        if (options.prefix && !key.startsWith(options.prefix)) break;
        out.push({ key, value: value as T });
      }
      return out;
    },
    update: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, options: { batched?: boolean } = {}): Written<R> => {
      if (options.batched) return batchedWrite(db, () => apply(keys, decide));
      let settled: Promise<R>;
      try {
        settled = Promise.resolve(db.root.transactionSync(() => apply(keys, decide)));
      } catch (error) {
        settled = Promise.reject(error);
        settled.catch(() => undefined);
      }
      return { decided: settled, durable: settled };
    },
    countRequest: (hash, now) => countRequest(db, hash, now),
    ping: async () => {
      db.kv.get('auth/generation');
    },
    close: () => closeState(dataDir),
  };
}

/**
 * Usage counters (`requests`, `last_used`) gathered in memory and written by the first shared commit
 * that comes (usually the request's own charge): never a commit of their own per request. A request is
 * answered only after the commit that holds its count is on disk, so a crash loses none.
 */
interface UsageRound {
  promise: Promise<void>;
  settle: (error?: unknown) => void;
  /** A commit was asked for this round (an answer is waiting and no charge took the counts along). */
  asked: boolean;
}

interface UsageBuffer {
  pending: Map<string, { requests: number; last_used: string }>;
  /** The round that the next commit will write. */
  round: UsageRound | null;
}

const buffers = new WeakMap<StateDb, UsageBuffer>();

function usageBuffer(db: StateDb): UsageBuffer {
  let buffer = buffers.get(db);
  if (buffer) return buffer;
  const created: UsageBuffer = { pending: new Map(), round: null };
  addRider(db, () => {
    const { pending, round } = created;
    if (!round) return undefined;
    created.pending = new Map();
    created.round = null;
    for (const [hash, use] of pending) {
      const record: TokenRecord | undefined = db.tokens.get(hash);
      if (record) void db.tokens.put(hash, { ...record, last_used: use.last_used, requests: record.requests + use.requests });
    }
    return round.settle;
  });
  buffers.set(db, created);
  return created;
}

function countRequest(db: StateDb, hash: string, now: string): () => Promise<void> {
  const buffer = usageBuffer(db);
  const use = buffer.pending.get(hash);
  if (use) {
    use.requests += 1;
    use.last_used = now;
  } else {
    buffer.pending.set(hash, { requests: 1, last_used: now });
  }
  let round = buffer.round;
  if (!round) {
    let settle!: (error?: unknown) => void;
    const promise = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    promise.catch(() => undefined);
    round = buffer.round = { promise, settle, asked: false };
  }
  const mine = round;
  return () => {
    // still pending when the answer is ready (no charge took it along): one commit for the whole round
    if (buffer.round === mine && !mine.asked) {
      mine.asked = true;
      void batchedWrite(db, () => undefined);
    }
    return mine.promise;
  };
}
