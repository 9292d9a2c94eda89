import { asBinary, type Database } from 'lmdb';

import { addRider, batchedWrite, queueWrite } from './commit.js';
import { closeState, openState, type StateDb, type TokenRecord } from './db.js';
import type { Decision, DocKey, ListOptions, Namespace, StateStore, UpdateListener, Written } from './store.js';

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
    // opened now: a job's stop refunds to it inside its own write transaction (src/jobs/store.ts), where
    // lmdb-js cannot open a database
    ['credit_packs', db.root.openDB<unknown, string>({ name: 'credit_packs' })],
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
    const decision = decide(keys.map((k) => table(k.ns).get(k.key)));
    for (const change of decision.write ?? []) {
      if (change.doc === null) void table(change.ns).remove(change.key);
      else void table(change.ns).put(change.key, change.doc);
    }
    return decision.result;
  };

  const writes = roundWrites(db);
  /** `apply` for a decision in the group commit: reads and writes through the round's documents. */
  const applyInRound = <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): R => {
    const decision = decide(
      keys.map((k) => {
        const written = writes.get(docId(k));
        return written ? (written.doc ?? undefined) : table(k.ns).get(k.key);
      }),
    );
    for (const change of decision.write ?? []) writes.set(docId(change), { table: table(change.ns), key: change.key, doc: change.doc });
    return decision.result;
  };

  return {
    backend: 'lmdb',
    lmdb: db,
    get: async <T>(ns: Namespace, key: string) => table(ns).get(key) as T | undefined,
    getNow: <T>(ns: Namespace, key: string) => table(ns).get(key) as T | undefined,
    updateNow: apply,
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
      if (options.batched) return batchedWrite(db, () => applyInRound(keys, decide));
      let settled: Promise<R>;
      try {
        settled = Promise.resolve(db.root.transactionSync(() => apply(keys, decide)));
      } catch (error) {
        settled = Promise.reject(error);
        settled.catch(() => undefined);
      }
      return { decided: settled, durable: settled };
    },
    updateInRound: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, listener: UpdateListener<R>) => queueWrite(db, () => applyInRound(keys, decide), listener),
    countRequest: (hash, now) => countRequest(db, hash, now),
    ping: async () => {
      db.kv.get('auth/generation');
    },
    close: () => closeState(dataDir),
  };
}

/**
 * The documents the decisions of the current group commit wrote, by namespace and key: the next
 * decision of the same round on the same document (thirty-two charges of one account) reads the object
 * the last one wrote instead of decoding it again, and the round encodes and puts each document once,
 * after its decisions (a rider). Decisions copy what they change (see `StateStore.update`), so handing
 * one decision's written object to the next is safe. One map per environment, whatever store uses it.
 */
interface RoundWrite {
  table: Database<unknown, string>;
  key: string;
  doc: unknown;
}

const pendingWrites = new WeakMap<StateDb, Map<string, RoundWrite>>();

const docId = (k: DocKey): string => `${k.ns}\u0000${k.key}`;

function roundWrites(db: StateDb): Map<string, RoundWrite> {
  let writes = pendingWrites.get(db);
  if (writes) return writes;
  const created = new Map<string, RoundWrite>();
  // registered when the store opens, before the usage counters' rider: it puts first
  addRider(db, () => {
    for (const w of created.values()) {
      if (w.doc === null) void w.table.remove(w.key);
      else void w.table.put(w.key, w.doc);
    }
    created.clear();
    return undefined;
  });
  pendingWrites.set(db, created);
  return created;
}

/**
 * Usage counters (`requests`, `last_used`) gathered in memory and written by the first shared commit
 * that comes (usually the request's own charge): never a commit of their own per request. A request is
 * answered only after the commit that holds its count is on disk, so a crash loses none.
 */
interface UsageRound {
  promise: Promise<void>;
  settle: (error?: unknown) => void;
  /** The commit holding the round is on disk: an answer need not wait for `promise` (one microtask less). */
  durable: boolean;
  /** A commit was asked for this round (an answer is waiting and no charge took the counts along). */
  asked: boolean;
}

interface UsageBuffer {
  pending: Map<string, { requests: number; last_used: string }>;
  /** The round that the next commit will write. */
  round: UsageRound | null;
}

const buffers = new WeakMap<StateDb, UsageBuffer>();

/** The token records this process wrote last, with their bytes: see `countedRecords`. */
const KNOWN_MAX = 10_000;

/**
 * Adds the round's counts to the token records, inside the round's transaction. Every round rewrites
 * the records of the tokens it counted, and decoding a record (msgpack records that carry their own
 * structure) was the costliest step of a request's count: the record this process wrote last is kept
 * with its bytes, and taken again while the stored bytes are still those (no other process — the CLI's
 * revoke — wrote it since). The bytes written are the encoder's own, as `put` would write them.
 */
function countedRecords(db: StateDb): (pending: Map<string, { requests: number; last_used: string }>) => void {
  const known = new Map<string, { bytes: Buffer; record: TokenRecord }>();
  // the same database, written as bytes (`asBinary`), with the msgpack encoder lmdb-js uses for it
  const tokens = db.tokens as unknown as Database<ReturnType<typeof asBinary>, string> & { encoder: { encode(value: unknown): Uint8Array } };
  return (pending) => {
    if (known.size + pending.size > KNOWN_MAX) known.clear();
    for (const [hash, use] of pending) {
      // lmdb-js's reusable buffer: its `length` is the value's size, its bytes go on beyond it
      const stored = db.tokens.getBinaryFast(hash);
      if (!stored) continue;
      const mine = known.get(hash);
      const same = mine !== undefined && mine.bytes.length === stored.length && mine.bytes.equals(stored.subarray(0, stored.length));
      const record: TokenRecord | undefined = same ? mine.record : db.tokens.get(hash);
      if (!record) continue;
      // field by field: a spread that then replaces fields takes V8's slow path
      const counted: TokenRecord = {
        id: record.id,
        account: record.account,
        created: record.created,
        expiry: record.expiry,
        revoked: record.revoked,
        last_used: use.last_used,
        requests: record.requests + use.requests,
      };
      // a copy: the encoder's buffer is shared by the encodings that follow
      const bytes = Buffer.from(tokens.encoder.encode(counted));
      void tokens.put(hash, asBinary(bytes));
      known.set(hash, { bytes, record: counted });
    }
  };
}

function usageBuffer(db: StateDb): UsageBuffer {
  let buffer = buffers.get(db);
  if (buffer) return buffer;
  const created: UsageBuffer = { pending: new Map(), round: null };
  const count = countedRecords(db);
  addRider(db, () => {
    const { pending, round } = created;
    if (!round) return undefined;
    created.pending = new Map();
    created.round = null;
    count(pending);
    return round.settle;
  });
  buffers.set(db, created);
  return created;
}

function countRequest(db: StateDb, hash: string, now: string): () => Promise<void> | null {
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
      settle = (error) => {
        if (error === undefined) {
          created.durable = true;
          resolve();
        } else reject(error);
      };
    });
    promise.catch(() => undefined);
    const created: UsageRound = { promise, settle, durable: false, asked: false };
    round = buffer.round = created;
  }
  const mine = round;
  return () => {
    if (mine.durable) return null;
    // still pending when the answer is ready (no charge took it along): one commit for the whole round
    if (buffer.round === mine && !mine.asked) {
      mine.asked = true;
      void batchedWrite(db, () => undefined);
    }
    return mine.promise;
  };
}
