import type { FastifyReply, FastifyRequest } from 'fastify';
import { Piscina } from 'piscina';

import { consume, refund, type ChargeTicket, type CreditCharge } from '../state/ledger.js';
import type { Capability, ItemResult } from '../http/capability.js';
import { answer, requireAccount, type RequestContext, type Services } from '../http/context.js';
import { csvStream } from '../http/csv.js';
import { ApiError, invalidField, isStorageError } from '../http/errors.js';
import { fieldName, italianValue } from '../http/keys.js';
import { say, type Language, type Texts } from '../http/language.js';
import { italianCode, reasonOf } from '../http/outcomes.js';
import type { JobRecord } from '../state/db.js';
import { assertJobSlot } from './quota.js';
import { isActive, itemChunks, LmdbJobStore, type Charged, type JobStore, type KeepOutput, type NewJob, type StoredResult, type Tally } from './store.js';
import type { UnitTask } from './worker.js';

/** Results come inline in the JSON job read only under this many rows (spec); above, CSV. */
export const INLINE_RESULTS_MAX = 5_000;

/** Tries a unit gets before its job is marked failed. */
export const UNIT_ATTEMPTS = 2;
/** A job paused by a failed state write (a full disk) is tried again after this long. */
const STORAGE_RETRY_MS = 5_000;

/** Why a job failed, as its read says it: stored by key, written in the reader's language. */
export const JOB_ERRORS: Record<string, Texts> = {
  unit_failed: {
    en: 'Part of the job could not be processed after {attempts} attempts: the operations not processed were given back.',
    it: 'Una parte del lavoro non è stata elaborata dopo {attempts} tentativi: le operazioni non elaborate sono state restituite.',
    de: 'Ein Teil des Auftrags konnte nach {attempts} Versuchen nicht verarbeitet werden: die nicht verarbeiteten Operationen wurden zurückgebucht.',
    fr: 'Une partie de la tâche n’a pas pu être traitée après {attempts} tentatives : les opérations non traitées ont été rendues.',
    es: 'Una parte del trabajo no se pudo procesar tras {attempts} intentos: las operaciones no procesadas se han devuelto.',
    nl: 'Een deel van de taak kon na {attempts} pogingen niet worden verwerkt: de niet verwerkte bewerkingen zijn teruggegeven.',
    pt: 'Uma parte do trabalho não pôde ser processada após {attempts} tentativas: as operações não processadas foram devolvidas.',
    sv: 'En del av jobbet kunde inte behandlas efter {attempts} försök: de obehandlade operationerna har återförts.',
    no: 'En del av jobben kunne ikke behandles etter {attempts} forsøk: de ubehandlede operasjonene er tilbakeført.',
    fi: 'Osaa työstä ei voitu käsitellä {attempts} yrityksen jälkeen: käsittelemättömät toiminnot on palautettu.',
    da: 'En del af jobbet kunne ikke behandles efter {attempts} forsøg: de ubehandlede operationer er ført tilbage.',
    is: 'Ekki tókst að vinna hluta verksins eftir {attempts} tilraunir: óunnar aðgerðir hafa verið endurgreiddar.',
    el: 'Μέρος της εργασίας δεν μπόρεσε να επεξεργαστεί μετά από {attempts} προσπάθειες: οι μη επεξεργασμένες λειτουργίες επιστράφηκαν.',
  },
};

/** A job's stored error in `language`; a text stored before errors were keys stays as it was written. */
export function jobErrorText(error: string, language: Language): string {
  const texts = JOB_ERRORS[error];
  return texts ? say(texts, language, { attempts: UNIT_ATTEMPTS }) : error;
}

/** What the job system needs to know of one kind of job beyond its stored chunks. */
export interface JobKind {
  /** The input the pool worker gets for one unit; by default the chunk stored with the job. */
  input?(record: JobRecord, chunk: number): Promise<unknown>;
  /** The progress one unit's output adds. */
  tally(output: unknown, record: JobRecord): Tally;
  /**
   * Where a unit's output is kept when not in the job's results (a dedupe's: its saved dedupe), written in
   * the unit's commit, in the transaction that adds its progress and completes the job.
   */
  keep?: KeepOutput;
}

const LABEL_KIND: Record<string, keyof JobRecord['outcomes']> = { ok: 'ok', modified: 'modified', warning: 'to_check', error: 'unresolved' };

/** A capability's chunk: its results counted by outcome label. */
const capabilityKind: JobKind = {
  tally(output) {
    const results = output as StoredResult[];
    const outcomes: Tally['outcomes'] = {};
    for (const r of results) {
      const k = LABEL_KIND[r.result.outcome_label ?? 'ok'] ?? 'to_check';
      outcomes[k] = (outcomes[k] ?? 0) + 1;
    }
    return { rows: results.length, outcomes };
  },
};

/**
 * Where units of work come from. On LMDB the node keeps them in memory and resumes from the store at
 * start (`LocalUnits`); on PostgreSQL every unit is a pg-boss message that any node may take, leased
 * and taken again when its node dies (`PgJobs` in pg.ts).
 */
export interface UnitSource {
  /** Starts handing units to `run` (the job service's executor). */
  start(run: UnitRunner): Promise<void>;
  /** A job was stored: its units are to be run (a no-op where storing the job queued them). */
  queued(record: JobRecord): void;
  /** Stops taking units; `finish` waits for those running, otherwise they are given up (handed back). */
  close(finish: boolean): Promise<void>;
}

/** Runs one unit: throws on failure; `attempt` counts from 1. */
export type UnitRunner = (job: string, chunk: number, attempt: number) => Promise<void>;

/**
 * Asynchronous jobs of every capability and of dedupe: queued with their whole input and charged at
 * queuing, run unit by unit (a chunk of items, or a whole dedupe) on the node's piscina pool, each unit's
 * output committed with its progress once, resumed after a restart (LMDB) or taken by another node
 * (PostgreSQL), cancelled with the unprocessed units given back.
 */
export class JobService {
  private readonly pool: Piscina;
  private readonly kinds = new Map<string, JobKind>();

  constructor(
    private readonly services: Services,
    readonly store: JobStore = new LmdbJobStore(services.db, services.state),
    private readonly units: UnitSource = new LocalUnits(store, services.config.jobWorkers),
  ) {
    this.pool = new Piscina({
      filename: new URL('./worker.js', import.meta.url).href,
      minThreads: 1,
      maxThreads: Math.max(1, services.config.jobWorkers),
      idleTimeout: 60_000,
    });
  }

  /** A kind of job other than a capability's chunks (dedupe). */
  defineKind(name: string, kind: JobKind): void {
    this.kinds.set(name, kind);
  }

  private kind(name: string): JobKind {
    return this.kinds.get(name) ?? capabilityKind;
  }

  /** Starts running units: jobs a previous process left queued or running included. */
  async resume(): Promise<void> {
    await this.units.start((job, chunk, attempt) => this.runUnit(job, chunk, attempt));
  }

  /**
   * Queues a job: the account's job slots checked, then `charge` takes its units (402 when not covered,
   * nothing stored), then the job is stored; a job that cannot be stored (a full disk, the database
   * gone) gives its charge back, so neither is left behind.
   */
  async enqueue(spec: NewJob, charge: () => Promise<Charged>): Promise<JobRecord & { charge: CreditCharge }> {
    await assertJobSlot(this.services, this.store, spec.account);
    const taken = await charge();
    let record: JobRecord;
    try {
      record = await this.store.create(spec, taken.ticket);
    } catch (error) {
      await refund(this.services.state, taken.ticket, taken.charge.charged);
      throw error;
    }
    this.units.queued(record);
    return { ...record, charge: taken.charge };
  }

  /**
   * Queues a job whose charge an older process already took (a dedupe it left queued): no job slot
   * checked, nothing charged again; `ticket` is where a cancel gives back to.
   */
  async adopt(spec: NewJob, ticket: ChargeTicket): Promise<JobRecord> {
    const record = await this.store.create(spec, ticket);
    this.units.queued(record);
    return record;
  }

  /** Stops a job once and gives back what it did not process, to the buckets it was charged to, in one transaction. */
  private stopJob(code: string, state: 'cancelled' | 'failed', error: string | null): Promise<number> {
    return this.store.stop(code, state, error, (tx, owed) => refund(tx, owed.ticket, owed.units));
  }

  async submit(cap: Capability<unknown>, account: string, ctx: RequestContext, items: unknown[], ids: unknown[]): Promise<JobRecord & { charge: CreditCharge }> {
    const units = items.map((item) => cap.units(item));
    const total = units.reduce((s, u) => s + u, 0);
    const spec: NewJob = {
      kind: cap.name,
      account,
      language: ctx.language,
      italian: ctx.italian,
      counter: cap.counter,
      chunks: itemChunks(items.map((item, i) => ({ id: ids[i], item })), units),
    };
    return this.enqueue(spec, () => consume(this.services.state, account, cap.counter, total));
  }

  /** One unit: skipped when already committed or the job stopped; its output and progress committed together. */
  private async runUnit(job: string, chunk: number, attempt: number): Promise<void> {
    const { store } = this;
    const record = await store.get(job);
    if (!record || !isActive(record.state)) return;
    if ((await store.chunkOutput(job, chunk)) !== undefined) return;
    const kind = this.kind(record.kind);
    await store.markRunning(job);
    const input = kind.input ? await kind.input(record, chunk) : await store.chunkInput(job, chunk);
    const { config } = this.services;
    const task: UnitTask = { kind: record.kind, language: record.language, dataDir: config.dataDir, allowPrivateNetwork: config.allowPrivateNetwork, dnsServer: config.dnsServer, input };
    let output: unknown;
    try {
      output = await this.pool.run(task);
    } catch (error) {
      // the data, not the disk: after the last attempt the job fails and gives back what it did not do
      if (attempt >= UNIT_ATTEMPTS && !isStorageError(error)) {
        // the cause is the operator's (the log); the job keeps the key of what its reader is told
        console.error(`job ${job}: unit ${chunk} failed after ${attempt} attempts: ${error instanceof Error ? error.message : String(error)}`);
        await this.stopJob(job, 'failed', 'unit_failed');
        return;
      }
      throw error;
    }
    await store.commitChunk(job, chunk, output, kind.tally(output, record), kind.keep);
  }

  /** The job of this account and kind named by `?job=` / `?lavoro=`; 400 without a code, 404 otherwise. */
  async owned(kind: string, req: FastifyRequest): Promise<JobRecord> {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const code = query.job ?? query.lavoro;
    if (typeof code !== 'string' || code.trim() === '') {
      throw invalidField('job', 'job_required');
    }
    const account = requireAccount(req);
    const record = await this.store.get(code.trim());
    // another account's job is as unknown as a job that never existed
    if (!record || record.account !== account || record.kind !== kind) throw new ApiError('job_not_found', { job: code.trim() });
    return record;
  }

  async read(cap: Capability<unknown>, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const record = await this.owned(cap.name, req);
    const format = String((req.query as Record<string, unknown>).format ?? (req.query as Record<string, unknown>).formato ?? 'json').toLowerCase();
    if (format === 'csv') return this.csv(cap, record, req, reply);
    if (format !== 'json') throw invalidField('format', 'json_or_csv');
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
      // the job's read verifies and charges nothing: `outcome` empty; its results carry their own
      outcome: [],
    };
    if (record.error) body.error = jobErrorText(record.error, req.ctx.language);
    if (record.rows < INLINE_RESULTS_MAX) body.results = await this.results(record);
    return answer(req, reply, body);
  }

  /** Cancels a job of this kind from any node: what it did not process goes back to the balance, once. */
  async cancel(kind: string, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const record = await this.owned(kind, req);
    const refunded = await this.stopJob(record.job, 'cancelled', null);
    const now = (await this.store.get(record.job)) ?? record;
    return answer(req, reply, { ok: true, job: now.job, state: now.state, rows: now.rows, done: now.done, refunded, outcome: [] });
  }

  private async results(record: JobRecord): Promise<StoredResult[]> {
    const out: StoredResult[] = [];
    for (let i = 0; i < record.chunks; i++) out.push(...(((await this.store.chunkOutput(record.job, i)) as StoredResult[] | undefined) ?? []));
    return out;
  }

  private csv(cap: Capability<unknown>, record: JobRecord, req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const italian = req.ctx.italian;
    const specs = [...new Set(['id', ...cap.csvColumns, 'outcome', 'outcome_label', 'reason'])];
    const columns = specs.map((spec) => {
      const [name = spec, path = name] = spec.split('=');
      return { name, path: path.split('.') };
    });
    const stream = csvStream(columns.map((c) => fieldName(c.name, italian)));
    const write = async () => {
      for (let i = 0; i < record.chunks; i++) {
        for (const row of ((await this.store.chunkOutput(record.job, i)) as StoredResult[] | undefined) ?? []) {
          const result = inLanguage(row.result, record.language, req.ctx.language, cap);
          const ok = stream.write(columns.map((c) => cell(c.name === 'id' ? row.id : pick(result, c.path), c.name, italian)));
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

  /** Graceful: finishes the units running, then stops. */
  async close(): Promise<void> {
    await this.units.close(true);
    await this.pool.destroy();
    await this.store.close();
  }

  /** Stops taking work without waiting for running units (they resume at the next start, or on another node). */
  async stop(): Promise<void> {
    await this.units.close(false);
    await this.pool.destroy();
    await this.store.close();
  }
}

/**
 * The units of one process on LMDB: jobs queued in memory and run one after the other, each with up to
 * `parallel` units at once; at start, the jobs a previous process left queued or running.
 */
export class LocalUnits implements UnitSource {
  private readonly queue: string[] = [];
  private run: UnitRunner | undefined;
  private running = false;
  private closing = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: JobStore,
    private readonly parallel: number,
  ) {}

  async start(run: UnitRunner): Promise<void> {
    this.run = run;
    for (const job of await this.store.active()) this.push(job.job);
  }

  queued(record: JobRecord): void {
    this.push(record.job);
  }

  private push(job: string): void {
    if (this.closing) return;
    // a job queued before the units started is also found by start(): once in the queue is enough
    if (!this.queue.includes(job)) this.queue.push(job);
    if (!this.running && this.run) {
      this.running = true;
      this.idle = this.drain().finally(() => {
        this.running = false;
      });
    }
  }

  private async drain(): Promise<void> {
    for (let job = this.queue.shift(); job !== undefined; job = this.queue.shift()) {
      try {
        await this.runJob(job);
      } catch (error) {
        // a node stopping abandons its running units: they resume at the next start
        if (this.closing) return;
        // a state write failed (a full disk): the job keeps its stored state and is tried again later,
        // here or after a restart; the process must not die of it
        console.error(`job ${job}: ${error instanceof Error ? error.message : String(error)}; the state store cannot write (disk full?); retrying in ${STORAGE_RETRY_MS / 1000} s`);
        if (!this.closing) setTimeout(() => this.push(job), STORAGE_RETRY_MS).unref();
      }
    }
  }

  private async runJob(job: string): Promise<void> {
    const run = this.run;
    if (!run) return;
    const pending = await this.store.pendingChunks(job);
    let fault: unknown;
    const next = async (): Promise<void> => {
      for (let chunk = pending.shift(); chunk !== undefined && fault === undefined && !this.closing; chunk = pending.shift()) {
        for (let attempt = 1; ; attempt++) {
          try {
            await run(job, chunk, attempt);
            break;
          } catch (error) {
            // the disk, not the data: no attempt is spent, the job pauses and is tried again later
            if (isStorageError(error) || attempt >= UNIT_ATTEMPTS) {
              fault = error;
              break;
            }
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.parallel) }, next));
    if (fault !== undefined) throw fault;
  }

  async close(finish: boolean): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    if (finish) await this.idle;
  }
}

function pick(result: ItemResult, path: string[]): unknown {
  let v: unknown = result;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

function cell(value: unknown, column: string, italian: boolean): string | number {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) {
    const items = column === 'outcome' && italian ? value.map((c) => italianCode(String(c))) : value;
    return items.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(' ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  // an enumerated value (outcome_label, class…) in Italian under Italian headers, as in the JSON answers
  const text = String(value);
  return italian ? italianValue(column, text) : text;
}

/**
 * A stored result read in another language than the job's: its reason written again from its codes in the
 * reader's language, so that no line of the file is in a language its headers are not (issue 34).
 */
function inLanguage(result: ItemResult, jobLanguage: string, language: Language, cap: Capability<unknown>): ItemResult {
  if (jobLanguage === language || !Array.isArray(result.outcome)) return result;
  return { ...result, reason: reasonOf(result.outcome, language, cap.outcomes) };
}
