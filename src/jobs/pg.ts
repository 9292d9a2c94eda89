import pg from 'pg';
import PgBoss from 'pg-boss';

import type { ChargeTicket } from '../state/ledger.js';
import { inPoolTransaction, updateOnConnection } from '../state/postgres.js';
import type { JobRecord } from '../state/db.js';
import type { UnitRunner, UnitSource } from './service.js';
import type { Decision, DocKey, StateStore } from '../state/store.js';
import { isActive, jobRecord, KEPT_BY_KIND, newJobCode, withTally, type GiveBack, type JobStore, type KeepOutput, type NewJob, type Tally } from './store.js';

/** The pg-boss queue of units of work: one message per chunk (or per dedupe), `{job, chunk}`. */
export const UNIT_QUEUE = 'recapito-units';

export interface PgJobsOptions {
  /** The state store's pool (src/state/postgres.ts): jobs, pg-boss and the state share one per node. */
  pool: pg.Pool;
  /**
   * Seconds a node holds a unit it took without renewing it: the node renews it every third of this
   * while the unit runs, so a unit of any length (a 100,000-record dedupe) stays with a live node, and a
   * node that dies loses it after at most this (plus a maintenance round), for any node to take again.
   */
  leaseSeconds: number;
  /** Units this node runs at once (its piscina threads). */
  workers: number;
}

/** Times a unit is offered again after its lease expired or its node handed it back. */
const UNIT_RETRIES = 20;
/** How long an idle node waits before asking the queue again. */
const POLL_MS = 250;

interface JobRow {
  job: string;
  kind: string;
  account: string;
  language: string;
  italian: boolean;
  state: JobRecord['state'];
  rows: number;
  done: number;
  chunks: number;
  chunks_done: number;
  chunk_size: number;
  created: Date;
  updated: Date;
  counter: string;
  charged: number;
  refunded: number;
  outcomes: JobRecord['outcomes'];
  error: string | null;
  chunk_units: number[];
}

const COLUMNS = 'job, kind, account, language, italian, state, rows, done, chunks, chunks_done, chunk_size, created, updated, counter, charged, refunded, outcomes, error, chunk_units';

function toRecord(row: JobRow): JobRecord {
  return { ...row, created: row.created.toISOString(), updated: row.updated.toISOString() };
}

/**
 * Jobs in PostgreSQL, shared by every node. A job, its input chunks and the queue messages of its
 * units are written in one transaction (pg-boss writes through our client), so a job is queued whole or
 * not at all; a unit's result and the job's progress are one transaction under the job row's lock, and
 * the result's primary key (job, chunk) makes the commit idempotent: a unit run twice (its first node
 * died after the lease, or stalled past it) is counted once.
 */
export class PgJobStore implements JobStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
    private readonly options: PgJobsOptions,
    private readonly state: StateStore,
  ) {}

  async create(spec: NewJob, ticket: ChargeTicket): Promise<JobRecord> {
    const record = jobRecord(spec.job ?? newJobCode(), spec);
    const lease = this.options.leaseSeconds;
    await inPoolTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO recapito_jobs (${COLUMNS}, ticket) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)`,
        [record.job, record.kind, record.account, record.language, record.italian, record.state, record.rows, record.done, record.chunks, record.chunks_done, record.chunk_size, record.created, record.updated, record.counter, record.charged, record.refunded, JSON.stringify(record.outcomes), record.error, record.chunk_units, JSON.stringify(ticket)],
      );
      const inputs = spec.chunks.flatMap((c, i) => (c.input === undefined ? [] : [{ i, input: JSON.stringify(c.input) }]));
      if (inputs.length > 0) {
        await client.query('INSERT INTO recapito_job_chunks (job, chunk, input) SELECT $1, i, x::json FROM unnest($2::int[], $3::text[]) AS t(i, x)', [record.job, inputs.map((c) => c.i), inputs.map((c) => c.input)]);
      }
      // the units' messages in the same transaction (pg-boss writes through our client): a job is
      // queued whole or not at all
      const messages = spec.chunks.map((_, chunk) => ({ name: UNIT_QUEUE, data: { job: record.job, chunk }, expireInSeconds: lease, retryLimit: UNIT_RETRIES, retryDelay: 0 }));
      await this.boss.insert(messages, { db: { executeSql: (text, values) => client.query(text, values) } });
    });
    return record;
  }

  async get(code: string): Promise<JobRecord | undefined> {
    const { rows } = await this.pool.query<JobRow>(`SELECT ${COLUMNS} FROM recapito_jobs WHERE job = $1`, [code]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async active(account?: string): Promise<JobRecord[]> {
    const { rows } =
      account === undefined
        ? await this.pool.query<JobRow>(`SELECT ${COLUMNS} FROM recapito_jobs WHERE state IN ('queued', 'running')`)
        : await this.pool.query<JobRow>(`SELECT ${COLUMNS} FROM recapito_jobs WHERE state IN ('queued', 'running') AND account = $1`, [account]);
    return rows.map(toRecord);
  }

  async markRunning(code: string): Promise<void> {
    await this.pool.query(`UPDATE recapito_jobs SET state = 'running', updated = now() WHERE job = $1 AND state = 'queued'`, [code]);
  }

  async chunkInput(code: string, chunk: number): Promise<unknown> {
    const { rows } = await this.pool.query<{ input: unknown }>('SELECT input FROM recapito_job_chunks WHERE job = $1 AND chunk = $2', [code, chunk]);
    return rows[0]?.input;
  }

  async chunkOutput(code: string, chunk: number): Promise<unknown> {
    const { rows } = await this.pool.query<{ output: unknown }>('SELECT output FROM recapito_job_results WHERE job = $1 AND chunk = $2', [code, chunk]);
    return rows[0]?.output;
  }

  async pendingChunks(code: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ chunk: number }>(
      `SELECT c AS chunk FROM recapito_jobs j, generate_series(0, j.chunks - 1) AS c
        WHERE j.job = $1 AND NOT EXISTS (SELECT 1 FROM recapito_job_results r WHERE r.job = j.job AND r.chunk = c) ORDER BY c`,
      [code],
    );
    return rows.map((r) => r.chunk);
  }

  async commitChunk(code: string, chunk: number, output: unknown, tally: Tally, keep?: KeepOutput): Promise<boolean> {
    return inPoolTransaction(this.pool, async (client) => {
      // the job row's lock orders this commit with a cancel from any node
      const { rows } = await client.query<JobRow>(`SELECT ${COLUMNS} FROM recapito_jobs WHERE job = $1 FOR UPDATE`, [code]);
      const row = rows[0];
      if (!row || !isActive(row.state)) return false;
      const inserted = await client.query('INSERT INTO recapito_job_results (job, chunk, output) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [code, chunk, JSON.stringify(keep ? KEPT_BY_KIND : output)]);
      if (inserted.rowCount !== 1) return false;
      const next = withTally(toRecord(row), tally);
      // the kind's documents in this same transaction: the output kept, the job completed, or neither
      if (keep) await keep(transactionState(this.state, client), output, next);
      await client.query('UPDATE recapito_jobs SET state = $2, done = $3, chunks_done = $4, outcomes = $5, updated = now() WHERE job = $1', [code, next.state, next.done, next.chunks_done, JSON.stringify(next.outcomes)]);
      return true;
    });
  }

  async stop(code: string, state: 'cancelled' | 'failed', error: string | null, giveBack: GiveBack): Promise<number> {
    return inPoolTransaction(this.pool, async (client) => {
      // under the job row's lock: no unit commits between the count of what is left and the stop
      const { rows } = await client.query<JobRow & { ticket: ChargeTicket }>(`SELECT ${COLUMNS}, ticket FROM recapito_jobs WHERE job = $1 FOR UPDATE`, [code]);
      const row = rows[0];
      if (!row || !isActive(row.state)) return 0;
      const done = await client.query<{ chunk: number }>('SELECT chunk FROM recapito_job_results WHERE job = $1', [code]);
      const committed = new Set(done.rows.map((r) => r.chunk));
      const units = Math.max(0, row.chunk_units.reduce((s, u, i) => s + (committed.has(i) ? 0 : u), 0) - row.refunded);
      await client.query('UPDATE recapito_jobs SET state = $2, error = coalesce($3, error), refunded = refunded + $4, updated = now() WHERE job = $1', [code, state, error, units]);
      // the credit given back in this same transaction: both commit, or neither
      return units > 0 ? giveBack(transactionState(this.state, client), { ticket: row.ticket, units }) : 0;
    });
  }

  async close(): Promise<void> {
    // the pool and pg-boss belong to PgUnits' lifecycle (one per node): closed there
  }
}

/**
 * The state store seen from inside a transaction of the job store on the same database (a job's stop, a
 * unit's commit whose kind keeps its output):
 * `update` runs on that transaction's connection (src/state/postgres.ts `updateOnConnection`), committed
 * with it; every other member is the store's own.
 */
function transactionState(state: StateStore, client: pg.PoolClient): StateStore {
  const update = <R>(keys: DocKey[], decide: (docs: unknown[]) => Decision<R>) => {
    const done = updateOnConnection(client, keys, decide);
    done.catch(() => undefined);
    return { decided: done, durable: done };
  };
  return { ...state, update };
}

/**
 * Units from pg-boss: this node's `workers` loops each take one message at a time (pg-boss's
 * `fetch`, FOR UPDATE SKIP LOCKED: two nodes never take one message), run it on the node's pool, and
 * complete it; a loop finding nothing waits POLL_MS. A message a node took and never completed (the node
 * died) expires after its lease in pg-boss's maintenance and is offered again to any node.
 */
export class PgUnits implements UnitSource {
  private closing = false;
  private loops: Promise<void>[] = [];
  private readonly inFlight = new Set<string>();
  private wake: (() => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly boss: PgBoss,
    private readonly workers: number,
    private readonly leaseSeconds: number,
  ) {}

  /**
   * Keeps a unit's lease while it runs: its start moved to now (pg-boss expires an active message at
   * started_on + expire_in; pg-boss 10 has no heartbeat of its own).
   */
  private renew(id: string): () => void {
    const timer = setInterval(() => {
      this.pool.query(`UPDATE pgboss.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active'`, [UNIT_QUEUE, id]).catch((error: unknown) => {
        console.error(`job queue: lease renewal failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    }, (this.leaseSeconds * 1000) / 3);
    timer.unref();
    return () => clearInterval(timer);
  }

  async start(run: UnitRunner): Promise<void> {
    this.loops = Array.from({ length: Math.max(1, this.workers) }, () => this.loop(run));
  }

  queued(): void {
    // the messages were written with the job; a local loop that sleeps may start at once
    for (const w of this.wake.splice(0)) w();
  }

  private async loop(run: UnitRunner): Promise<void> {
    while (!this.closing) {
      let message: PgBoss.JobWithMetadata<{ job: string; chunk: number }> | undefined;
      try {
        [message] = await this.boss.fetch<{ job: string; chunk: number }>(UNIT_QUEUE, { batchSize: 1, includeMetadata: true });
      } catch (error) {
        if (!this.closing) console.error(`job queue: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!message) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          this.wake.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        continue;
      }
      this.inFlight.add(message.id);
      const release = this.renew(message.id);
      try {
        await run(message.data.job, message.data.chunk, message.retryCount + 1);
        await this.boss.complete(UNIT_QUEUE, message.id);
      } catch (error) {
        // offered again at once (to this node or another) until UNIT_RETRIES
        console.error(`job ${message.data.job} unit ${message.data.chunk}: ${error instanceof Error ? error.message : String(error)}`);
        await this.boss.fail(UNIT_QUEUE, message.id, { message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
      } finally {
        release();
        this.inFlight.delete(message.id);
      }
    }
  }

  async close(finish: boolean): Promise<void> {
    this.closing = true;
    for (const w of this.wake.splice(0)) w();
    if (finish) {
      await Promise.all(this.loops);
    } else if (this.inFlight.size > 0) {
      // handed back: offered again at once instead of after the lease
      await this.boss.fail(UNIT_QUEUE, [...this.inFlight]).catch(() => undefined);
    }
    // the pool is the state store's: closed with it
    await this.boss.stop({ graceful: false, close: false, wait: true, timeout: 5_000 }).catch(() => undefined);
  }
}

/**
 * Opens the PostgreSQL job back end of this node on the state store's pool: pg-boss (its own schema,
 * created or migrated by pg-boss itself) and the unit queue. The job tables come with the state
 * migrations (src/state/migrations/002.do.jobs.sql).
 */
export async function openPgJobs(options: PgJobsOptions, state: StateStore): Promise<{ store: PgJobStore; units: PgUnits }> {
  const { pool } = options;
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: 'pgboss',
    schedule: false,
    // expired leases are found by maintenance: run it often enough for a lease to end near its time
    maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(options.leaseSeconds / 2))),
    // an unfinished message is kept: pg-boss's default would let it expire from the queue after 14 days
    retentionDays: 30,
  });
  boss.on('error', (error: Error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();
  if (!(await boss.getQueue(UNIT_QUEUE))) {
    await boss.createQueue(UNIT_QUEUE, { name: UNIT_QUEUE, retryLimit: UNIT_RETRIES, retryDelay: 0, expireInSeconds: options.leaseSeconds }).catch(async (error: unknown) => {
      // another node created it between our look and our create
      if (!(await boss.getQueue(UNIT_QUEUE))) throw error;
    });
  }
  return { store: new PgJobStore(pool, boss, options, state), units: new PgUnits(pool, boss, options.workers, options.leaseSeconds) };
}
