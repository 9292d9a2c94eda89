import path from 'node:path';

import pg from 'pg';
import Postgrator from 'postgrator';

import { PROJECT_ROOT } from '../config.js';
import type { Decision, DocChange, DocKey, ListOptions, Namespace, StateStore, WindowHit, Written } from './store.js';

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

const id = (k: DocKey): string => `${k.ns}\u0000${k.key}`;

/** Keys in one order for every transaction, so that two multi-document updates never deadlock. */
function sorted(keys: DocKey[]): DocKey[] {
  const unique = new Map(keys.map((k) => [id(k), k]));
  return [...unique.values()].sort((a, b) => (a.ns === b.ns ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.ns < b.ns ? -1 : 1));
}

async function lockRows(client: pg.PoolClient, keys: DocKey[]): Promise<Map<string, unknown>> {
  const res = await client.query<{ ns: string; key: string; doc: unknown }>(
    `SELECT d.ns, d.key, d.doc FROM state_docs d JOIN unnest($1::text[], $2::text[]) AS k(ns, key) USING (ns, key)
     ORDER BY d.ns, d.key FOR UPDATE OF d`,
    [keys.map((k) => k.ns), keys.map((k) => k.key)],
  );
  return new Map(res.rows.map((r) => [`${r.ns}\u0000${r.key}`, r.doc]));
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

export interface PostgresOptions {
  /** Connections of this node's pool (default 10). */
  max?: number;
}

/**
 * The PostgreSQL back end: documents in `state_docs`, each update one transaction that locks the rows it
 * reads before deciding. Call `migrate` first (openStore does).
 */
export function postgresStore(url: string, options: PostgresOptions = {}): StateStore {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // an idle client's error (the server restarted) must not end the process: the next query reconnects
  pool.on('error', (error) => console.error(`state store connection: ${error.message}`));

  async function transaction<R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): Promise<R> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const order = sorted(keys);
      let rows = await lockRows(client, order);
      const missing = order.filter((k) => !rows.has(id(k)));
      if (missing.length > 0) {
        // a row to lock for documents not written yet: two nodes creating the same one meet here
        await client.query(`INSERT INTO state_docs (ns, key, doc) SELECT ns, key, NULL FROM unnest($1::text[], $2::text[]) AS k(ns, key) ON CONFLICT DO NOTHING`, [
          missing.map((k) => k.ns),
          missing.map((k) => k.key),
        ]);
        rows = await lockRows(client, order);
      }
      const decision = decide(keys.map((k) => rows.get(id(k)) ?? undefined));
      if (decision.write?.length) await writeDocs(client, decision.write);
      await client.query('COMMIT');
      return decision.result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Request counts of tokens gathered until the next write: the answers of one event-loop turn share one
   * UPDATE, and writes run one after the other, so an answer that waits for a later round also waits for
   * the round that took its count.
   */
  let pending = new Map<string, { n: number; last: string }>();
  let round: Promise<void> | null = null;
  let lastWrite: Promise<void> = Promise.resolve();
  async function writeUsage(): Promise<void> {
    const batch = pending;
    pending = new Map();
    if (batch.size === 0) return;
    const hashes = [...batch.keys()];
    await pool.query(
      `UPDATE state_docs d SET doc = d.doc || jsonb_build_object('requests', COALESCE((d.doc ->> 'requests')::bigint, 0) + u.n, 'last_used', u.last)
       FROM unnest($1::text[], $2::int[], $3::text[]) AS u(key, n, last) WHERE d.ns = 'tokens' AND d.key = u.key AND d.doc IS NOT NULL`,
      [hashes, hashes.map((h) => batch.get(h)?.n ?? 0), hashes.map((h) => batch.get(h)?.last ?? '')],
    );
  }
  function nextRound(): Promise<void> {
    if (round) return round;
    const mine: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      if (round === mine) round = null;
      const write = lastWrite.catch(() => undefined).then(writeUsage);
      lastWrite = write;
      return write;
    });
    mine.catch(() => undefined);
    round = mine;
    return mine;
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
      const found = new Map(res.rows.map((r) => [`${r.ns}\u0000${r.key}`, r.doc]));
      return keys.map((k) => found.get(id(k)) ?? undefined);
    },
    list: async <T>(ns: Namespace, options: ListOptions = {}) => {
      const res = options.prefix
        ? await pool.query<{ key: string; doc: T }>('SELECT key, doc FROM state_docs WHERE ns = $1 AND starts_with(key, $2) AND doc IS NOT NULL ORDER BY key', [ns, options.prefix])
        : await pool.query<{ key: string; doc: T }>('SELECT key, doc FROM state_docs WHERE ns = $1 AND doc IS NOT NULL ORDER BY key', [ns]);
      return res.rows.map((r) => ({ key: r.key, value: r.doc }));
    },
    update: <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>): Written<R> => {
      const done = transaction(keys, decide);
      done.catch(() => undefined);
      return { decided: done, durable: done };
    },
    increment: async (ns, key, by) => {
      const res = await pool.query<{ value: string }>(
        `INSERT INTO state_docs AS d (ns, key, doc) VALUES ($1, $2, to_jsonb($3::bigint))
         ON CONFLICT (ns, key) DO UPDATE SET doc = to_jsonb(COALESCE((d.doc #>> '{}')::bigint, 0) + $3::bigint)
         RETURNING d.doc #>> '{}' AS value`,
        [ns, key, by],
      );
      return Number(res.rows[0]?.value ?? by);
    },
    countRequest: (hash, now) => {
      const use = pending.get(hash);
      if (use) {
        use.n += 1;
        use.last = now;
      } else {
        pending.set(hash, { n: 1, last: now });
      }
      return nextRound;
    },
    hitWindow,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    close: async () => {
      await lastWrite.catch(() => undefined);
      await writeUsage().catch(() => undefined);
      await pool.end();
    },
  };
}
