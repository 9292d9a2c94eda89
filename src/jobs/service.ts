import type { FastifyReply, FastifyRequest } from 'fastify';
import { Piscina } from 'piscina';
import { stringify } from 'csv-stringify';

import { consume, refund, type CreditCharge } from '../credit/ledger.js';
import type { Capability, ItemResult } from '../http/capability.js';
import { answer, requireAccount, type RequestContext, type Services } from '../http/context.js';
import { ApiError, isStorageError } from '../http/errors.js';
import { fieldName } from '../http/keys.js';
import { italianCode } from '../http/outcomes.js';
import type { JobRecord } from '../state/db.js';
import {
  chunkResults,
  createJob,
  getJob,
  listJobs,
  markRefunded,
  setState,
  ticketOf,
  unprocessedUnits,
  type StoredResult,
} from './store.js';
import { assertJobSlot } from './quota.js';
import type { ChunkTask } from './worker.js';

/** Results come inline in the JSON job read only under this many rows (spec); above, CSV. */
export const INLINE_RESULTS_MAX = 5_000;

/** Tries a chunk gets before its job is marked failed. */
const CHUNK_ATTEMPTS = 2;
/** A job paused by a failed state write (a full disk) is tried again after this long. */
const STORAGE_RETRY_MS = 5_000;

/**
 * Asynchronous jobs: queued with their whole input in LMDB and charged at queuing, processed chunk by
 * chunk on a piscina pool, resumed after a restart from the first chunk without results.
 */
export class JobService {
  private readonly pool: Piscina;
  private readonly queue: string[] = [];
  private running = false;
  private closing = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly services: Services) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, services.config.jobWorkers),
      idleTimeout: 60_000,
    });
  }

  /** Picks up jobs a previous process left queued or running. */
  resume(): void {
    for (const job of listJobs(this.services.db)) if (job.state === 'queued' || job.state === 'running') this.enqueue(job.job);
  }

  async submit(cap: Capability<unknown>, account: string, ctx: RequestContext, items: unknown[], ids: unknown[]): Promise<JobRecord & { charge: CreditCharge }> {
    assertJobSlot(this.services, account);
    const units = items.map((item) => cap.units(item));
    const total = units.reduce((s, u) => s + u, 0);
    // the charge (shared state) first, then the job (this node's store): a job that cannot be stored
    // (a full disk) gives the charge back, so neither is left behind
    const { charge, ticket } = await consume(this.services.state, account, cap.counter, total);
    let record: JobRecord;
    try {
      record = createJob(this.services.db, {
        kind: cap.name,
        account,
        language: ctx.language,
        italian: ctx.italian,
        counter: cap.counter,
        items: items.map((item, i) => ({ id: ids[i], item })),
        units,
        ticket,
      });
    } catch (error) {
      await refund(this.services.state, ticket, total);
      throw error;
    }
    this.enqueue(record.job);
    return { ...record, charge };
  }

  private enqueue(job: string): void {
    this.queue.push(job);
    if (!this.running) {
      this.running = true;
      this.idle = this.drain().finally(() => {
        this.running = false;
      });
    }
  }

  private async drain(): Promise<void> {
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      try {
        await this.run(job);
      } catch (error) {
        // a state write failed (a full disk): the job keeps its stored state and is tried again later,
        // here or after a restart; the process must not die of it
        console.error(`job ${job}: ${error instanceof Error ? error.message : String(error)}; retrying in ${STORAGE_RETRY_MS / 1000} s`);
        this.retryLater(job);
      }
    }
  }

  private retryLater(job: string): void {
    if (this.closing) return;
    setTimeout(() => this.enqueue(job), STORAGE_RETRY_MS).unref();
  }

  private async run(code: string): Promise<void> {
    const { db, config } = this.services;
    const record = getJob(db, code);
    if (!record || (record.state !== 'queued' && record.state !== 'running')) return;
    setState(db, code, 'running');
    const pending: number[] = [];
    for (let i = 0; i < record.chunks; i++) if (chunkResults(db, code, i) === undefined) pending.push(i);
    const parallel = Math.max(1, config.jobWorkers);
    let failure: string | null = null;
    let storageFault = false;
    const next = async (): Promise<void> => {
      for (let i = pending.shift(); i !== undefined && failure === null; i = pending.shift()) {
        if (getJob(db, code)?.state !== 'running') return;
        const task: ChunkTask = { dataDir: config.dataDir, job: code, chunk: i, allowPrivateNetwork: config.allowPrivateNetwork, dnsServer: config.dnsServer };
        for (let attempt = 1; ; attempt++) {
          try {
            await this.pool.run(task);
            break;
          } catch (error) {
            // the disk, not the data: no attempt is spent, the job pauses and is tried again later
            if (isStorageError(error)) {
              storageFault = true;
              failure = 'storage';
              break;
            }
            if (attempt >= CHUNK_ATTEMPTS) {
              failure = error instanceof Error ? error.message : String(error);
              break;
            }
          }
        }
      }
    };
    await Promise.all(Array.from({ length: parallel }, next));
    if (storageFault) {
      console.error(`job ${code}: the state store cannot write (disk full?); retrying in ${STORAGE_RETRY_MS / 1000} s`);
      this.retryLater(code);
      return;
    }
    const now = getJob(db, code);
    if (!now || now.state !== 'running') return;
    if (failure !== null) {
      setState(db, code, 'failed', failure);
      await this.giveBack(code);
    } else if (now.chunks_done >= now.chunks) {
      setState(db, code, 'completed');
    }
  }

  /** A job that stops returns its unprocessed operations to the balance, once. */
  private giveBack(code: string): Promise<number> {
    // one give-back of a job at a time (a cancel meeting a failure): each sees what the other marked
    const before = this.givingBack.get(code) ?? Promise.resolve(0);
    const mine = before.catch(() => 0).then(async () => {
      const { db, state } = this.services;
      const record = getJob(db, code);
      const ticket = ticketOf(db, code);
      if (!record || !ticket) return 0;
      const units = unprocessedUnits(db, record) - record.refunded;
      if (units <= 0) return 0;
      const given = await refund(state, ticket, units);
      markRefunded(db, code, given);
      return given;
    });
    this.givingBack.set(code, mine);
    void mine.finally(() => {
      if (this.givingBack.get(code) === mine) this.givingBack.delete(code);
    }).catch(() => undefined);
    return mine;
  }

  private readonly givingBack = new Map<string, Promise<number>>();

  private owned(cap: Capability<unknown>, req: FastifyRequest): JobRecord {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const code = query.job ?? query.lavoro;
    if (typeof code !== 'string' || code.trim() === '') {
      throw new ApiError('validation_failed', { field: 'job', problem: 'the job code is required' }, [{ field: 'job', problem: 'required' }]);
    }
    const account = requireAccount(req);
    const record = getJob(this.services.db, code.trim());
    // another account's job is as unknown as a job that never existed
    if (!record || record.account !== account || record.kind !== cap.name) throw new ApiError('job_not_found', { job: code.trim() });
    return record;
  }

  async read(cap: Capability<unknown>, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const record = this.owned(cap, req);
    const format = String((req.query as Record<string, unknown>).format ?? (req.query as Record<string, unknown>).formato ?? 'json').toLowerCase();
    if (format === 'csv') return this.csv(cap, record, req, reply);
    if (format !== 'json') throw new ApiError('validation_failed', { field: 'format', problem: 'json or csv' }, [{ field: 'format', problem: 'json or csv' }]);
    const body: Record<string, unknown> = {
      ok: record.state !== 'failed',
      job: record.job,
      state: record.state,
      rows: record.rows,
      done: record.done,
      outcomes: record.outcomes,
      charged: record.charged,
      refunded: record.refunded,
      created: record.created,
      updated: record.updated,
    };
    if (record.error) body.error = record.error;
    if (record.rows < INLINE_RESULTS_MAX) body.results = this.results(record);
    return answer(req, reply, body);
  }

  async cancel(cap: Capability<unknown>, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const record = this.owned(cap, req);
    let refunded = 0;
    if (record.state === 'queued' || record.state === 'running') {
      setState(this.services.db, record.job, 'cancelled');
      refunded = await this.giveBack(record.job);
    }
    const now = getJob(this.services.db, record.job) ?? record;
    return answer(req, reply, { ok: true, job: now.job, state: now.state, rows: now.rows, done: now.done, refunded });
  }

  private results(record: JobRecord): StoredResult[] {
    const out: StoredResult[] = [];
    for (let i = 0; i < record.chunks; i++) out.push(...(chunkResults(this.services.db, record.job, i) ?? []));
    return out;
  }

  private csv(cap: Capability<unknown>, record: JobRecord, req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const italian = req.ctx.italian;
    const specs = [...new Set(['id', ...cap.csvColumns, 'outcome', 'outcome_label', 'reason'])];
    const columns = specs.map((spec) => {
      const [name = spec, path = name] = spec.split('=');
      return { name, path: path.split('.') };
    });
    const stream = stringify({ header: true, columns: columns.map((c) => fieldName(c.name, italian)) });
    const db = this.services.db;
    const write = async () => {
      for (let i = 0; i < record.chunks; i++) {
        for (const row of chunkResults(db, record.job, i) ?? []) {
          const ok = stream.write(columns.map((c) => cell(c.name === 'id' ? row.id : pick(row.result, c.path), c.name, italian)));
          if (!ok) await new Promise((resolve) => stream.once('drain', resolve));
        }
      }
      stream.end();
    };
    void write().catch((error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))));
    reply.header('Content-Language', req.ctx.language);
    reply.header('Content-Disposition', `attachment; filename="${cap.name}-${record.job}.csv"`);
    return reply.type('text/csv; charset=utf-8').send(stream);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.idle;
    await this.pool.destroy();
  }

  /** Stops taking work without waiting for the running job (it resumes at the next start). */
  async stop(): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    await this.pool.destroy();
  }
}

function pick(result: ItemResult, path: string[]): unknown {
  let v: unknown = result;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

function cell(value: unknown, column: string, italian: boolean): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    const items = column === 'outcome' && italian ? value.map((c) => italianCode(String(c))) : value;
    return items.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(' ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
