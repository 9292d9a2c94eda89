import type { FastifyReply, FastifyRequest } from 'fastify';

import type { JobService } from '../jobs/service.js';
import type { CreditCharge } from '../state/ledger.js';
import { chargeHeaders, chargedWork, type Charged } from './billing.js';
import { englishBody } from './body.js';
import type { Capability, ItemResult, ProcessContext } from './capability.js';
import { answer, requireAccount, requirePayer, type Services } from './context.js';
import { ApiError, badRequest, invalidField } from './errors.js';
import type { Language } from './language.js';
import { completeInto, copyFields, finishResult, isFinished } from './outcomes.js';
import type { PluginOptions, ServicePlugin } from './plugin.js';
import { ResultText, sendBatchText, sendResultText } from './result-text.js';
import { isPlainObject, validate } from './validation.js';

/** Items per asynchronous call (spec, Common shapes). */
export const ASYNC_CAP = 100_000;

/** Fields of the envelope, never part of an item. */
const ENVELOPE: readonly string[] = ['items', 'async', 'language'];

export function processContext(services: Services, req: FastifyRequest): ProcessContext {
  return {
    language: req.ctx.language,
    dataDir: services.config.dataDir,
    allowPrivateNetwork: services.config.allowPrivateNetwork,
    dnsServer: services.config.dnsServer,
  };
}

/** The items of a call, English keys, each validated; batch options copied into items that lack them. */
function readItems<Item>(cap: Capability<Item>, body: Record<string, unknown>): { items: Item[]; ids: unknown[] } {
  const raw = body.items;
  if (!Array.isArray(raw)) throw invalidField('items', 'type_array');
  if (raw.length === 0) throw invalidField('items', 'empty_list');
  const shared = Object.fromEntries((cap.batchOptions ?? []).filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
  // plain loops: a closure made per call and run for every item was optimised again in call after call
  // (V8 holds optimised code weakly once its closures are gone; issue 30, `src/contact/service.ts` `shaped`)
  const items = new Array<Item>(raw.length);
  const ids = new Array<unknown>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const item: unknown = raw[i];
    if (!isPlainObject(item)) throw invalidField(`items.${i}`, 'type_object');
    items[i] = validate(cap.item, { ...shared, ...item }, ['items', i]);
    ids[i] = item.id !== undefined ? item.id : i + 1;
  }
  return { items, ids };
}

/**
 * A batch body with more items under `lists` (each an English key and its Italian twin) than the cap of its
 * mode (`async` or `asincrono` true: the asynchronous cap): read before the key mapping, for the rate limit
 * (a call refused with 413 does not use one of the minute's batch calls).
 */
export function itemsOver(body: Record<string, unknown>, lists: readonly (readonly [string, string])[], syncCap: number, asyncCap: number): boolean {
  let n = 0;
  for (const [key, italian] of lists) {
    const items = body[key] ?? body[italian];
    if (Array.isArray(items)) n += items.length;
  }
  return n > ((body.async ?? body.asincrono) === true ? asyncCap : syncCap);
}

const ITEMS = [['items', 'elementi']] as const;

function tooMany(cap: Capability<unknown>, received: number, limit: number, mode: 'synchronous' | 'asynchronous'): ApiError {
  return new ApiError('too_many_items', { received, cap: limit, endpoint: cap.paths[0] ?? cap.name, mode }, { field: 'items', cap: limit, received });
}

/**
 * A synchronous call of a capability through the charged sequence: its results as `run` gave them, finished
 * text where the capability has it (the caller finishes objects from the capability's outcome table). Not an
 * async function: the charged sequence's own promise is handed on, without one more promise and tick per call.
 */
function runCharged<Item>(services: Services, req: FastifyRequest, cap: Capability<Item>, items: Item[]): Promise<Charged<(ItemResult | ResultText)[]>> {
  let units = 0;
  for (const item of items) units += cap.units(item);
  const work = () => cap.run(items, processContext(services, req), 'text').then((results) => {
    if (results.length !== items.length) throw new Error(`${cap.name} answered ${results.length} results for ${items.length} items`);
    return results;
  });
  return chargedWork(services.state, { payer: requirePayer(req), counter: cap.counter, units }, work);
}

/** The envelope fields a single call's body holds (nearly always none). */
function hasEnvelope(body: Record<string, unknown>): boolean {
  for (const key of ENVELOPE) if (body[key] !== undefined) return true;
  return false;
}

/**
 * A single call's answer: the finished result and its credit in one object, the fields in the order
 * `{ ...finishResult(result), credit }` gives them. A capability's fresh result is that object itself
 * (a field it has keeps its place when written again, a new one comes last, as in the copy).
 */
function singleAnswer(result: ItemResult, language: Language, cap: Capability<unknown>, charge: CreditCharge): Record<string, unknown> {
  const out = cap.freshResults ? result : copyFields(result);
  if (!isFinished(result)) completeInto(out, result, language, cap.outcomes);
  out.credit = charge;
  return out;
}

/** A handler's error as the error handler takes it: anything thrown that is not an Error is a 500 there too. */
function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function capabilityRoutes<Item>(cap: Capability<Item>, services: Services, jobs: JobService) {
  /** Batch and asynchronous calls: one async function, few calls carrying many items. */
  const many = async (req: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>) => {
    if (body.async === true) {
      if (!cap.asyncAllowed) throw badRequest('no_async', { endpoint: cap.paths[0] ?? cap.name });
      const received = Array.isArray(body.items) ? body.items.length : 0;
      if (received > ASYNC_CAP) throw tooMany(cap as Capability<unknown>, received, ASYNC_CAP, 'asynchronous');
      const account = requireAccount(req);
      const { items, ids } = readItems(cap, body);
      const job = await jobs.submit(cap as Capability<unknown>, account, req.ctx, items, ids);
      chargeHeaders(reply, job.charge);
      return answer(req, reply, { ok: true, job: job.job, state: job.state, rows: job.rows, credit: job.charge });
    }
    const received = Array.isArray(body.items) ? body.items.length : 0;
    if (received > cap.batchCap) throw tooMany(cap as Capability<unknown>, received, cap.batchCap, 'synchronous');
    const { items, ids } = readItems(cap, body);
    const language = req.ctx.language;
    const { value: results, charge } = await runCharged(services, req, cap, items);
    chargeHeaders(reply, charge);
    if (cap.textAnswers) return sendBatchText(req, reply, results, ids, (result) => finishResult(result, language, cap.outcomes), charge);
    return answer(req, reply, { count: results.length, results: results.map((result, i) => ({ id: ids[i], result: finishResult(result as ItemResult, language, cap.outcomes) })), credit: charge });
  };
  /**
   * Single calls are answered from the charged sequence's own promise, not from an async handler: that
   * saved three promises and their ticks per call (the handler's, its await's and Fastify's wrapper of
   * it). A throw before the charge reaches Fastify as the handler's throw; a refusal or failure of the
   * charged sequence is sent as the error it is, to the same error handler.
   */
  const post = (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined => {
    const body = englishBody(req);
    if (body.async !== undefined && typeof body.async !== 'boolean') {
      throw invalidField('async', 'type_boolean');
    }
    if (body.async === true || body.items !== undefined) return many(req, reply, body);
    let single = body;
    if (hasEnvelope(body)) {
      single = {};
      for (const key in body) if (!ENVELOPE.includes(key)) single[key] = body[key];
    }
    const item = validate(cap.item, single);
    runCharged(services, req, cap, [item]).then(
      ({ value: results, charge }) => {
        try {
          chargeHeaders(reply, charge);
          const result = results[0];
          if (result instanceof ResultText) sendResultText(req, reply, result, charge);
          else answer(req, reply, singleAnswer(result as ItemResult, req.ctx.language, cap as Capability<unknown>, charge));
        } catch (error) {
          reply.send(asError(error));
        }
      },
      (error: unknown) => reply.send(asError(error)),
    );
    return undefined;
  };
  const get = async (req: FastifyRequest, reply: FastifyReply) => jobs.read(cap as Capability<unknown>, req, reply);
  const cancel = async (req: FastifyRequest, reply: FastifyReply) => jobs.cancel(cap.name, req, reply);
  return { post, get, cancel };
}

/** A capability as a Fastify plugin: POST (single, batch, async), GET ?job= and DELETE ?job=, on its English and Italian paths. */
export function capabilityPlugin<Item>(cap: Capability<Item>): ServicePlugin {
  return {
    name: cap.name,
    counters: { [cap.name]: cap.counter },
    capability: cap as Capability<unknown>,
    routes: async (app, { services, jobs }: PluginOptions) => {
      const { post, get, cancel } = capabilityRoutes(cap, services, jobs);
      const overCap = (body: Record<string, unknown>) => itemsOver(body, ITEMS, cap.batchCap, ASYNC_CAP);
      for (const path of cap.paths) {
        app.post(path, { config: { counter: cap.counter, overCap } }, post);
        app.get(path, get);
        app.delete(path, cancel);
      }
    },
  };
}
