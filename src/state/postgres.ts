import path from 'node:path';

import pg from 'pg';
import Postgrator from 'postgrator';

import { PROJECT_ROOT } from '../config.js';
import { doc, type Decision, type DocChange, type DocKey, type ListOptions, type Namespace, type StateStore, type WindowHit, type Written } from './store.js';

/** Migrations shipped with the service (plain SQL, postgrator's `NNN.do.name.sql`). */
export const MIGRATIONS = path.join(PROJECT_ROOT, 'src', 'state', 'migrations');

/** Any fixed number: the advisory lock that lets one starting node migrate while the others wait. */
const MIGRATION_LOCK = 17_001;

/**
 * Brings the schema to the newest migration. Every node runs it at start; an advisory lock makes the
 * first one migrate and the others find the work done.
 */
export async function migrate(url: string): Promise<{ from: number; to: number }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => console.error(`state store migration connection: ${error.message}`));
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const postgrator = new Postgrator({
      migrationPattern: path.join(MIGRATIONS, '*.sql'),
      driver: 'pg',
      database: client.database ?? 'postgres',
      schemaTable: 'state_schema_version',
      execQuery: (query: string) => client.query(query),
    });
    const from = Number(await postgrator.getDatabaseVersion());
    await postgrator.migrate();
    const to = Number(await postgrator.getDatabaseVersion());
    return { from, to };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

const id = (k: { ns: string; key: string }): string => `${k.ns}\u0000${k.key}`;

/** Keys in one order for every transaction, so that two multi-document updates never deadlock. */
function sorted(keys: DocKey[]): DocKey[] {
  const unique = new Map(keys.map((k) => [id(k), k]));
  return [...unique.values()].sort((a, b) => (a.ns === b.ns ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.ns < b.ns ? -1 : 1));
}

/** Locked rows by `id`, and the keys `lockAll` inserted an empty row for, to lock a document not written yet. */
interface Locked {
  rows: Map<string, unknown>;
  placeholders: DocKey[];
}

async function lockRows(client: pg.PoolClient, keys: DocKey[]): Promise<Map<string, unknown>> {
  const res = await client.query<{ ns: string; key: string; doc: unknown }>(
    `SELECT d.ns, d.key, d.doc FROM state_docs d JOIN unnest($1::text[], $2::text[]) AS k(ns, key) USING (ns, key)
     ORDER BY d.ns, d.key FOR UPDATE OF d`,
    [keys.map((k) => k.ns), keys.map((k) => k.key)],
  );
  return new Map(res.rows.map((r) => [id(r), r.doc]));
}

async function writeDocs(client: pg.PoolClient | pg.Pool, changes: DocChange[]): Promise<void> {
  const puts = changes.filter((c) => c.doc !== null);
  const removes = changes.filter((c) => c.doc === null);
  if (puts.length > 0) {
    await client.query(
      `INSERT INTO state_docs (ns, key, doc) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])
       ON CONFLICT (ns, key) DO UPDATE SET doc = excluded.doc`,
      [puts.map((c) => c.ns), puts.map((c) => c.key), puts.map((c) => JSON.stringify(c.doc))],
    );
  }
  if (removes.length > 0) {
    await client.query(`DELETE FROM state_docs d USING unnest($1::text[], $2::text[]) AS k(ns, key) WHERE d.ns = k.ns AND d.key = k.key`, [
      removes.map((c) => c.ns),
      removes.map((c) => c.key),
    ]);
  }
}

/**
 * Locks the rows of `keys` and of `existingOnly` together, in one global order (every transaction locks in
 * that order, so two of them never wait on each other in a cycle), inserting placeholders for the documents
 * of `keys` not written yet; `existingOnly` rows (tokens whose request counts ride along) are never created.
 */
async function lockAll(client: pg.PoolClient, keys: DocKey[], existingOnly: DocKey[] = []): Promise<Locked> {
  const order = sorted([...keys, ...existingOnly]);
  if (order.length === 0) return { rows: new Map(), placeholders: [] };
  let rows = await lockRows(client, order);
  const missing = sorted(keys).filter((k) => !rows.has(id(k)));
  if (missing.length > 0) {
    // a row to lock for documents not written yet: two nodes creating the same one meet here
    await client.query(`INSERT INTO state_docs (ns, key, doc) SELECT ns, key, NULL FROM unnest($1::text[], $2::text[]) AS k(ns, key) ON CONFLICT DO NOTHING`, [
      missing.map((k) => k.ns),
      missing.map((k) => k.key),
    ]);
    rows = await lockRows(client, order);
  }
  return { rows, placeholders: missing };
}

/**
 * Removes the placeholders `lockAll` inserted that the update did not write: a decision that only read a
 * document not written yet (a refund looking for a retired pack) left an empty row behind for ever. A
 * placeholder the update wrote (a document's first write: a new session, a new day's usage) is filtered out
 * here, so that the common case costs no query.
 */
async function dropPlaceholders(client: pg.PoolClient, placeholders: DocKey[], written: (key: DocKey) => boolean): Promise<void> {
  const unwritten = placeholders.filter((k) => !written(k));
  if (unwritten.length === 0) return;
  await client.query(`DELETE FROM state_docs d USING unnest($1::text[], $2::text[]) AS k(ns, key) WHERE d.ns = k.ns AND d.key = k.key AND d.doc IS NULL`, [
    unwritten.map((k) => k.ns),
    unwritten.map((k) => k.key),
  ]);
}

/**
 * One update on a connection already in a transaction: its rows locked (in the global order), the
 * decision taken on them, its writes made on that connection, committed with the caller's transaction.
 * The store's own updates use it, and so does the job store's stop (its refund commits with the stop).
 */
export async function updateOnConnection<R>(client: pg.PoolClient, keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): Promise<R> {
  const { rows, placeholders } = await lockAll(client, keys);
  const decision = decide(keys.map((k) => rows.get(id(k)) ?? undefined));
  if (decision.write?.length) await writeDocs(client, decision.write);
  await dropPlaceholders(client, placeholders, (k) => decision.write?.some((w) => w.ns === k.ns && w.key === k.key) ?? false);
  return decision.result;
}

/** One transaction on a connection of `pool` (also the job store's, src/jobs/pg.ts). */
export async function inPoolTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  // between two statements of the transaction no query is active: a dropped connection is then an
  // 'error' event, which must not end the process (the next statement fails and the caller gets it)
  const dropped = (error: Error) => console.error(`state store connection: ${error.message}`);
  client.on('error', dropped);
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // a connection that cannot even roll back is not given back to the pool
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.off('error', dropped);
    client.release(broken);
  }
}
/**
 * A round's transaction again when PostgreSQL chose it as a deadlock victim (40P01) or refused it for a
 * serialization failure (40001): its decisions are pure, so running them again on fresh rows is safe.
 */
async function retryingDeadlocks<R>(work: () => Promise<R>, tries = 3): Promise<R> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= tries || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

export interface PostgresOptions {
  /** Connections of this node's pool (default 20). */
  max?: number;
}

/**
 * The PostgreSQL back end: documents in `state_docs`, each update one transaction that locks the rows it
 * reads before deciding. Call `migrate` first (openStore does).
 */
export function postgresStore(url: string, options: PostgresOptions = {}): StateStore {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  // an idle client's error (the server restarted) must not end the process: the next query reconnects
  pool.on('error', (error) => console.error(`state store connection: ${error.message}`));

  const inTransaction = <R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> => inPoolTransaction(pool, work);


  function transaction<R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): Promise<R> {
    return inTransaction((client) => updateOnConnection(client, keys, decide));
  }

  /**
   * Group commit, as on LMDB (src/state/commit.ts): the batched updates of one event-loop turn (the charges
   * and refunds of concurrent requests) run in ONE transaction: their rows locked together, each decision
   * taken in turn on the documents as the decisions before it left them (a refusal writes nothing), the
   * request counts gathered meanwhile written too, one commit, one WAL flush. Thirty-two requests on one
   * account cost one row lock and one fsync, not thirty-two one after the other.
   */
  interface Queued {
    keys: DocKey[];
    decide: (docs: unknown[]) => Decision<unknown>;
    settle: (outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) => void;
  }
  let queue: Queued[] = [];
  let scheduled = false;
  let pendingUsage = new Map<string, { n: number; last: string }>();
  let usageRound: { promise: Promise<void>; settle: (error?: unknown) => void } | null = null;

  /**
   * One round in flight per node: what arrives while a round commits waits and goes together in the next
   * one. Rounds started every turn instead queued on the account's row lock one behind the other, each
   * holding it through its own commit (72 calls/s on one account, bench/jobs-nodes).
   */
  let inFlight = false;

  function schedule(): void {
    if (scheduled || inFlight) return;
    scheduled = true;
    setImmediate(() => void runRound());
  }

  async function runRound(): Promise<void> {
    scheduled = false;
    inFlight = true;
    try {
      await flush();
    } finally {
      inFlight = false;
      if (queue.length > 0 || pendingUsage.size > 0 || usageRound) schedule();
    }
  }

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    const usage = pendingUsage;
    pendingUsage = new Map();
    const round = usageRound;
    usageRound = null;
    if (batch.length === 0 && usage.size === 0) {
      round?.settle();
      return;
    }
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await retryingDeadlocks(() => inTransaction(async (client) => {
        outcomes.length = 0;
        // the tokens whose counts this round writes are locked with the rest: written after an unordered
        // lock of their own they deadlocked against another node's round (about 1% of calls, issue 17)
        const { rows, placeholders } = await lockAll(
          client,
          batch.flatMap((q) => q.keys),
          [...usage.keys()].map((key) => doc('tokens', key)),
        );
        const docs = new Map<string, unknown>(rows);
        const writes = new Map<string, DocChange>();
        for (const q of batch) {
          try {
            const decision = q.decide(q.keys.map((k) => docs.get(id(k)) ?? undefined));
            for (const w of decision.write ?? []) {
              docs.set(id(w), w.doc ?? undefined);
              writes.set(id(w), w);
            }
            outcomes.push({ ok: true, value: decision.result });
          } catch (error) {
            // a refusal (402, 429...) before writing: the others in the batch go on
            outcomes.push({ ok: false, error });
          }
        }
        if (writes.size > 0) await writeDocs(client, [...writes.values()]);
        await dropPlaceholders(client, placeholders, (k) => writes.has(id(k)));
        if (usage.size > 0) await writeUsage(client, usage);
      }));
    } catch (error) {
      for (const q of batch) q.settle({ ok: false, error });
      round?.settle(error);
      return;
    }
    batch.forEach((q, i) => q.settle(outcomes[i] ?? { ok: false, error: new Error('update not decided') }));
    round?.settle();
  }

  function batched<R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      queue.push({ keys, decide, settle: (o) => (o.ok ? resolve(o.value as R) : reject(o.error)) });
      schedule();
    });
  }

  /** Request counts of tokens: written by the next group commit, which an answer waits for. */
  async function writeUsage(client: pg.PoolClient | pg.Pool, usage: Map<string, { n: number; last: string }>): Promise<void> {
    const hashes = [...usage.keys()];
    await client.query(
      `UPDATE state_docs d SET doc = d.doc || jsonb_build_object('requests', COALESCE((d.doc ->> 'requests')::bigint, 0) + u.n, 'last_used', u.last)
       FROM unnest($1::text[], $2::int[], $3::text[]) AS u(key, n, last) WHERE d.ns = 'tokens' AND d.key = u.key AND d.doc IS NOT NULL`,
      [hashes, hashes.map((h) => usage.get(h)?.n ?? 0), hashes.map((h) => usage.get(h)?.last ?? '')],
    );
  }

  const hitWindow = async (key: string, windowMs: number): Promise<WindowHit> => {
    // the database's clock decides the window: nodes with skewed clocks still share one count
    const res = await pool.query<{ hits: number; ttl: number }>(
      `INSERT INTO rate_windows AS w (key, started, hits) VALUES ($1, clock_timestamp(), 1)
       ON CONFLICT (key) DO UPDATE SET
         started = CASE WHEN w.started <= clock_timestamp() - make_interval(secs => $2 / 1000.0) THEN clock_timestamp() ELSE w.started END,
         hits = CASE WHEN w.started <= clock_timestamp() - make_interval(secs => $2 / 1000.0) THEN 1 ELSE w.hits + 1 END
       RETURNING hits, GREATEST(0, CEIL(EXTRACT(EPOCH FROM (started + make_interval(secs => $2 / 1000.0) - clock_timestamp())) * 1000))::int AS ttl`,
      [key, windowMs],
    );
    const row = res.rows[0];
    return { count: row?.hits ?? 1, ttlMs: row?.ttl ?? windowMs };
  };

  return {
    backend: 'postgres',
    pool,
    get: async <T>(ns: Namespace, key: string) => {
      const res = await pool.query<{ doc: T | null }>('SELECT doc FROM state_docs WHERE ns = $1 AND key = $2', [ns, key]);
      return res.rows[0]?.doc ?? undefined;
    },
    getMany: async (keys) => {
      if (keys.length === 0) return [];
      const res = await pool.query<{ ns: string; key: string; doc: unknown }>(
        'SELECT d.ns, d.key, d.doc FROM state_docs d JOIN unnest($1::text[], $2::text[]) AS k(ns, key) USING (ns, key)',
        [keys.map((k) => k.ns), keys.map((k) => k.key)],
      );
      const found = new Map(res.rows.map((r) => [id(r), r.doc]));
      return keys.map((k) => found.get(id(k)) ?? undefined);
    },
    list: async <T>(ns: Namespace, options: ListOptions = {}) => {
      const res = options.prefix
        ? await pool.query<{ key: string; doc: T }>('SELECT key, doc FROM state_docs WHERE ns = $1 AND starts_with(key, $2) AND doc IS NOT NULL ORDER BY key', [ns, options.prefix])
        : await pool.query<{ key: string; doc: T }>('SELECT key, doc FROM state_docs WHERE ns = $1 AND doc IS NOT NULL ORDER BY key', [ns]);
      return res.rows.map((r) => ({ key: r.key, value: r.doc }));
    },
    update: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>, options: { batched?: boolean } = {}): Written<R> => {
      const done = options.batched ? batched(keys, decide) : transaction(keys, decide);
      done.catch(() => undefined);
      return { decided: done, durable: done };
    },
    countRequest: (hash, now) => {
      const use = pendingUsage.get(hash);
      if (use) {
        use.n += 1;
        use.last = now;
      } else {
        pendingUsage.set(hash, { n: 1, last: now });
      }
      if (!usageRound) {
        let settle!: (error?: unknown) => void;
        const promise = new Promise<void>((resolve, reject) => {
          settle = (error) => (error === undefined ? resolve() : reject(error));
        });
        promise.catch(() => undefined);
        usageRound = { promise, settle };
      }
      const mine = usageRound;
      // the answer is ready: the next group commit (the request's own charge, usually) carries the count
      return () => {
        if (usageRound === mine) schedule();
        return mine.promise;
      };
    },
    hitWindow,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: async () => {
      await flush().catch(() => undefined);
      await pool.end();
    },
  };
}
