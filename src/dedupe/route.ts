import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { consume } from '../state/ledger.js';
import { chargeHeaders, chargedWork } from '../http/billing.js';
import { answer, requireAccount, requirePayer, type Services } from '../http/context.js';
import { ASYNC_CAP, itemsOver } from '../http/endpoint.js';
import { ApiError, badRequest, invalidField } from '../http/errors.js';
import { problem } from '../http/problems.js';
import { overloadedError } from '../http/overload.js';
import { jobErrorText, type JobService } from '../jobs/service.js';
import { newJobCode } from '../jobs/store.js';
import type { Language } from '../http/language.js';
import type { PluginOptions } from '../http/plugin.js';
import { validate } from '../http/validation.js';
import { coreErrorCode } from '../native.js';
import { dedupeCsv } from './csv.js';
import { DEDUPE_KIND, dedupeKind } from './job.js';
import { compareOf, dedupeBody } from './request.js';
import { reviewRequest, type CompareRequest } from './schema.js';
import { compare, isGroups, matchNew, mergeIncremental, present, type CoreGroups } from './service.js';
import { createSaved, getRecords, getSaved, removeSaved, updateHead, updateSaved, type SavedDedupe } from './store.js';

export const DEDUPE_PATHS = ['/api/v1/dedupe', '/api/v1/deduplica'] as const;

/** Records plus reference per synchronous call (spec, Limits). */
export const SYNC_CAP = 500;
/**
 * Records (plus reference) of one asynchronous dedupe job: the spec's 100,000 unless the operator
 * raises it with RECAPITO_DEDUPE_ASYNC_CAP (a 1,000,000-record list runs in about 3 minutes and
 * 4 GiB on 2 cores: docs/dedupe.md). Never below the spec's cap.
 */
export const DEDUPE_ASYNC_CAP = Math.max(ASYNC_CAP, Number(process.env.RECAPITO_DEDUPE_ASYNC_CAP) || ASYNC_CAP);

const RECORD_LISTS = [['records', 'anagrafiche'], ['reference', 'riferimento']] as const;
const overCap = (body: Record<string, unknown>) => itemsOver(body, RECORD_LISTS, SYNC_CAP, DEDUPE_ASYNC_CAP);

function tooMany(received: number, cap: number, mode: 'synchronous' | 'asynchronous'): ApiError {
  return new ApiError('too_many_items', { received, cap, endpoint: DEDUPE_PATHS[0], mode }, { field: 'records', cap, received });
}

/** A core refusal of the input (code `bad_input`) is the caller's 400, not our 500. */
function coreError(error: unknown): unknown {
  if (coreErrorCode(error) === 'bad_input') return badRequest('records_unreadable', { detail: (error as Error).message });
  return error;
}

function jobCode(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidField('job', 'job_required');
  }
  return value.trim();
}

/** The caller's saved dedupe as it stands (an asynchronous one with its job's state and error). */
async function owned(services: Services, jobs: JobService, req: FastifyRequest, code: string): Promise<SavedDedupe> {
  const saved = await getSaved(services.state, jobs.store, code, requireAccount(req));
  if (!saved) throw new ApiError('job_not_found', { job: code });
  return saved;
}

function view(saved: SavedDedupe, language: Language): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ok: saved.state !== 'failed',
    job: saved.job,
    state: saved.state,
    rows: saved.rows,
    created: saved.created,
    expires: saved.expires,
  };
  if (saved.result) Object.assign(body, present(saved.result, language, saved.processed));
  if (saved.error) body.error = jobErrorText(saved.error, language);
  return body;
}

async function review(services: Services, jobs: JobService, req: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>): Promise<FastifyReply> {
  jobCode(body.job);
  const r = validate(reviewRequest, body);
  const saved = await owned(services, jobs, req, r.job);
  if (!saved.result || !isGroups(saved.result) || !saved.result.groups.some((g) => g.group === r.group)) {
    throw new ApiError('group_not_found', { group: r.group, job: r.job });
  }
  const at = new Date().toISOString();
  // the first mark stands, whichever node took it
  const marked = await updateHead(services.state, saved.job, (s) => {
    s.processed[String(r.group)] = s.processed[String(r.group)] ?? at;
  });
  if (!marked) throw new ApiError('job_not_found', { job: r.job });
  // a review verifies and charges nothing: `outcome` empty (spec: every response carries it)
  return answer(req, reply, { ok: true, job: saved.job, group: r.group, processed: true, processed_at: marked.processed[String(r.group)] ?? at, outcome: [] });
}

/** A saved one-list job new records can join: completed, with groups. */
function joinable(saved: SavedDedupe): SavedDedupe & { result: CoreGroups } {
  if (saved.state !== 'completed' || !saved.result || !isGroups(saved.result)) {
    throw badRequest('job_not_extendable', { job: saved.job, state: saved.state === 'completed' ? problem('two_list_job') : saved.state });
  }
  return saved as SavedDedupe & { result: CoreGroups };
}

/** The saved job changed between the read an incremental match was made on and its write. */
class StaleSnapshot extends Error {}

/** Tries of one incremental call against a job other nodes keep growing meanwhile. */
const INCREMENTAL_TRIES = 5;

/** The incremental calls of this process, per job: each starts once the one before it is saved. */
const incrementalQueue = new Map<string, Promise<unknown>>();

function oneAfterAnother<T>(job: string, run: () => Promise<T>): Promise<T> {
  const mine = (incrementalQueue.get(job) ?? Promise.resolve()).then(run, run);
  const tail = mine.catch(() => undefined);
  incrementalQueue.set(job, tail);
  void tail.then(() => {
    if (incrementalQueue.get(job) === tail) incrementalQueue.delete(job);
  });
  return mine;
}

/**
 * Extension: new records matched against a saved job's groups and singles. The match is made on one read of
 * the job and saved only if the job is still as read: two calls matched on the same read would each save
 * groups without the other's records. In this process the calls on one job run one after another; a call of
 * another node in between makes the write refuse, and the match is made again on the job as it is now (the
 * charge is taken once; if no try lands, it is given back and the caller gets `overloaded`, 503, to retry).
 */
async function incremental(services: Services, jobs: JobService, req: FastifyRequest, reply: FastifyReply, r: CompareRequest & { job: string }): Promise<FastifyReply> {
  if (r.reference) throw badRequest('reference_with_job');
  if (r.async) throw badRequest('incremental_async');
  const account = requireAccount(req);
  // read once per try (a 100,000-record job's result is large): in the queue, so the first read is current
  return oneAfterAnother(r.job, async () => {
    const matchAndSave = async (read: SavedDedupe & { result: CoreGroups }) => {
      const stored = await getRecords(services.state, read.job);
      if (!stored) throw new ApiError('job_not_found', { job: read.job });
      const result = await matchNew({ records: stored.records, result: read.result, min_level: read.min_level, foreign: read.foreign }, r.records).catch((error: unknown) => {
        throw coreError(error);
      });
      const groups = mergeIncremental(read.result, result);
      const before = new Map(read.result.groups.map((g) => [g.group, g.members.length]));
      // the grown records and the new groups in one update: no node reads one without the other
      const updated = await updateSaved(
        services.state,
        read.job,
        (s) => {
          if (s.rows !== read.rows) throw new StaleSnapshot();
          s.rows += r.records.length;
          s.result = groups;
          s.charged += r.records.length;
          // A reviewed group that grew must be reviewed again.
          for (const g of groups.groups) if (before.get(g.group) !== g.members.length) delete s.processed[String(g.group)];
          for (const k of Object.keys(s.processed)) if (!groups.groups.some((g) => String(g.group) === k)) delete s.processed[k];
        },
        (now) => ({ records: [...(now ?? stored).records, ...r.records], reference: null }),
      );
      // its state and error are the job's, as read (a stored one is an older process's)
      return { result, now: updated ? { ...updated, state: read.state, error: read.error } : read };
    };
    // before the charge: a job that cannot be extended is a 400 with nothing charged
    let read = joinable(await owned(services, jobs, req, r.job));
    const { value, charge } = await chargedWork(services.state, { payer: { account }, counter: 'dedupe', units: r.records.length }, async () => {
      for (let tried = 1; ; tried++) {
        try {
          return await matchAndSave(read);
        } catch (error) {
          if (!(error instanceof StaleSnapshot)) throw error;
          // other nodes kept growing the job: nothing saved, the charge given back, the caller told to retry
          if (tried >= INCREMENTAL_TRIES) throw overloadedError();
          read = joinable(await owned(services, jobs, req, r.job));
        }
      }
    });
    const { result, now } = value;
    chargeHeaders(reply, charge);
    // Only what changed comes back (the whole job is one GET away): a 100,000-record job stays cheap.
    const { count: _count, ...changed } = present({ groups: result.groups, singles: result.singles, min_level: result.min_level }, req.ctx.language, now.processed);
    return answer(req, reply, {
      ok: true,
      job: now.job,
      state: now.state,
      rows: now.rows,
      expires: now.expires,
      added: result.added.map((a) => ({ id: a.id, group: a.group })),
      ...changed,
      removed_groups: result.removed_groups,
      credit: charge,
    });
  });
}

/** POST, GET and DELETE on /api/v1/dedupe and /api/v1/deduplica; asynchronous runs are jobs of src/jobs/. */
export const dedupeRoutes: FastifyPluginAsync<PluginOptions> = async (app, { services, jobs }) => {
  jobs.defineKind(DEDUPE_KIND, dedupeKind(services.state, jobs));

  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const read = dedupeBody(req);
    const { body } = read;
    if (body.group !== undefined || body.processed !== undefined) return review(services, jobs, req, reply, body);

    const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
    const received = count(body.records) + count(body.reference);
    if (body.async === true && received > DEDUPE_ASYNC_CAP) throw tooMany(received, DEDUPE_ASYNC_CAP, 'asynchronous');
    if (body.async !== true && received > SYNC_CAP) throw tooMany(received, SYNC_CAP, 'synchronous');
    const r = compareOf(read);
    if (r.job !== undefined) return incremental(services, jobs, req, reply, { ...r, job: r.job });

    // a saved result belongs to an account: a token without one deduplicates without saving (unless it asks to)
    const owner = req.ctx.caller?.account?.name;
    const saves = r.async || (r.save && (owner !== undefined || body.save === true));
    const account = saves ? requireAccount(req) : (owner ?? '');
    const units = r.records.length + (r.reference?.length ?? 0);
    const spec = {
      account,
      min_level: r.min_level,
      foreign: r.foreign,
      language: req.ctx.language,
      italian: req.ctx.italian,
      charged: units,
    };
    const records = { records: r.records, reference: r.reference ?? null };
    if (r.async) {
      // An asynchronous result is read back by its code, so it is always saved: the records first (no
      // state: the job's), then the job (one unit of work) with its charge; a job that cannot be queued
      // (429, 402, a full disk) takes its saved records with it.
      const code = newJobCode();
      await createSaved(services.state, { ...spec, result: null }, records, code);
      let job;
      try {
        job = await jobs.enqueue(
          { job: code, kind: DEDUPE_KIND, account, language: req.ctx.language, italian: req.ctx.italian, counter: 'dedupe', chunks: [{ rows: units, units }] },
          () => consume(services.state, account, 'dedupe', units),
        );
      } catch (error) {
        await removeSaved(services.state, code);
        throw error;
      }
      chargeHeaders(reply, job.charge);
      return answer(req, reply, { ok: true, job: code, state: 'queued', rows: units, credit: job.charge });
    }
    const { value: result, charge } = await chargedWork(services.state, { payer: requirePayer(req), counter: 'dedupe', units }, () =>
      compare(r).catch((error: unknown) => {
        throw coreError(error);
      }),
    );
    chargeHeaders(reply, charge);
    const saved = saves ? await createSaved(services.state, { ...spec, state: 'completed', result }, records) : null;
    return answer(req, reply, {
      ok: true,
      ...(saved ? { job: saved.job, expires: saved.expires } : {}),
      state: 'completed',
      ...present(result, req.ctx.language),
      credit: charge,
    });
  };

  const get = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const saved = await owned(services, jobs, req, jobCode(query.job ?? query.lavoro));
    const format = String(query.format ?? query.formato ?? 'json').toLowerCase();
    if (format === 'csv') return dedupeCsv(saved, req, reply);
    if (format !== 'json') throw invalidField('format', 'json_or_csv');
    return answer(req, reply, view(saved, req.ctx.language));
  };
  // an asynchronous dedupe still queued or running is cancelled like any job, its charge given back
  const cancel = async (req: FastifyRequest, reply: FastifyReply) => jobs.cancel(DEDUPE_KIND, req, reply);

  for (const path of DEDUPE_PATHS) {
    app.post(path, { config: { counter: 'dedupe', overCap } }, post);
    app.get(path, get);
    app.delete(path, cancel);
  }
};
