import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { charge as chargeCredit, refundDurably, type CreditCharge } from '../credit/ledger.js';
import type { JobService } from '../jobs/service.js';
import type { Capability, ItemResult, ProcessContext } from './capability.js';
import { answer, requireAccount, requirePayer, type Services } from './context.js';
import { ApiError } from './errors.js';
import { toEnglishInput } from './keys.js';
import { finishResult } from './outcomes.js';
import { isPlainObject, validate } from './validation.js';

/** Items per asynchronous call (spec, Common shapes). */
export const ASYNC_CAP = 100_000;

/** Fields of the envelope, never part of an item. */
const ENVELOPE = new Set(['items', 'async', 'language']);

export function processContext(services: Services, req: FastifyRequest): ProcessContext {
  return {
    language: req.ctx.language,
    languageNamed: req.ctx.languageNamed ?? false,
    dataDir: services.config.dataDir,
    allowPrivateNetwork: services.config.allowPrivateNetwork,
    dnsServer: services.config.dnsServer,
  };
}

export function chargeHeaders(reply: FastifyReply, charge: CreditCharge): void {
  reply.header('X-Service-Charged', String(charge.charged));
  reply.header('X-Service-Available', String(charge.available));
  if (charge.auto_topup > 0) reply.header('X-Service-Auto-Topup', String(charge.auto_topup));
}

/** The items of a call, English keys, each validated; batch options copied into items that lack them. */
function readItems<Item>(cap: Capability<Item>, body: Record<string, unknown>): { items: Item[]; ids: unknown[] } {
  const raw = body.items;
  if (!Array.isArray(raw)) throw new ApiError('validation_failed', { field: 'items', problem: 'must be an array' }, [{ field: 'items', problem: 'must be an array' }]);
  if (raw.length === 0) throw new ApiError('validation_failed', { field: 'items', problem: 'is empty' }, [{ field: 'items', problem: 'is empty' }]);
  const shared = Object.fromEntries((cap.batchOptions ?? []).filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
  const items = raw.map((item, i) => {
    if (!isPlainObject(item)) throw new ApiError('validation_failed', { field: `items.${i}`, problem: 'must be an object' }, [{ field: `items.${i}`, problem: 'must be an object' }]);
    return validate(cap.item, { ...shared, ...item }, ['items', i]);
  });
  return { items, ids: raw.map((item, i) => (isPlainObject(item) && item.id !== undefined ? item.id : i + 1)) };
}

function tooMany(cap: Capability<unknown>, received: number, limit: number, mode: 'synchronous' | 'asynchronous'): ApiError {
  return new ApiError('too_many_items', { received, cap: limit, endpoint: cap.paths[0] ?? cap.name, mode }, { field: 'items', cap: limit, received });
}

/**
 * Charges, processes, and gives back what was not processed when processing fails: the one place
 * where a synchronous call's credit and work meet. The charge is decided in the next shared commit
 * (a 402 writes nothing and processes nothing); processing runs while that commit goes to disk, and
 * the answer waits until it is there.
 */
async function chargedRun<Item>(services: Services, req: FastifyRequest, cap: Capability<Item>, items: Item[]): Promise<{ results: ItemResult[]; charge: CreditCharge }> {
  const payer = requirePayer(req);
  let units = 0;
  for (const item of items) units += cap.units(item);
  const pending = chargeCredit(services.db, payer, cap.counter, units);
  const { charge, ticket } = await pending.decided;
  let results: ItemResult[];
  try {
    results = await cap.process(items, processContext(services, req));
    if (results.length !== items.length) throw new Error(`${cap.name} answered ${results.length} results for ${items.length} items`);
  } catch (error) {
    await pending.durable;
    await refundDurably(services.db, ticket, units);
    throw error;
  }
  const language = req.ctx.language;
  const finished = results.map((r) => finishResult(r, language));
  await pending.durable;
  return { results: finished, charge };
}

/** POST (single, batch, async) and GET ?job= for one capability, on its English and Italian paths. */
export function registerCapability<Item>(app: FastifyInstance, services: Services, jobs: JobService, cap: Capability<Item>): void {
  const post = async (req: FastifyRequest, reply: FastifyReply) => {
    const body = toEnglishInput(req.body ?? {});
    if (!isPlainObject(body)) throw new ApiError('validation_failed', { field: '(body)', problem: 'must be a JSON object' }, [{ field: '(body)', problem: 'must be a JSON object' }]);
    if (body.async !== undefined && typeof body.async !== 'boolean') {
      throw new ApiError('validation_failed', { field: 'async', problem: 'must be a boolean' }, [{ field: 'async', problem: 'must be a boolean' }]);
    }
    if (body.async === true) {
      if (!cap.asyncAllowed) throw new ApiError('bad_request', { detail: `${cap.paths[0]} does not take async` });
      const received = Array.isArray(body.items) ? body.items.length : 0;
      if (received > ASYNC_CAP) throw tooMany(cap as Capability<unknown>, received, ASYNC_CAP, 'asynchronous');
      const account = requireAccount(req);
      const { items, ids } = readItems(cap, body);
      const job = jobs.submit(cap as Capability<unknown>, account, req.ctx, items, ids);
      chargeHeaders(reply, job.charge);
      return answer(req, reply, { ok: true, job: job.job, state: job.state, rows: job.rows, credit: job.charge });
    }
    if (body.items !== undefined) {
      const received = Array.isArray(body.items) ? body.items.length : 0;
      if (received > cap.batchCap) throw tooMany(cap as Capability<unknown>, received, cap.batchCap, 'synchronous');
      const { items, ids } = readItems(cap, body);
      const { results, charge } = await chargedRun(services, req, cap, items);
      chargeHeaders(reply, charge);
      return answer(req, reply, { count: results.length, results: results.map((result, i) => ({ id: ids[i], result })), credit: charge });
    }
    const single = Object.fromEntries(Object.entries(body).filter(([k]) => !ENVELOPE.has(k)));
    const item = validate(cap.item, single);
    const { results, charge } = await chargedRun(services, req, cap, [item]);
    chargeHeaders(reply, charge);
    return answer(req, reply, { ...results[0], credit: charge });
  };

  const get = async (req: FastifyRequest, reply: FastifyReply) => jobs.read(cap as Capability<unknown>, req, reply);
  const cancel = async (req: FastifyRequest, reply: FastifyReply) => jobs.cancel(cap as Capability<unknown>, req, reply);

  for (const path of cap.paths) {
    app.post(path, post);
    app.get(path, get);
    app.delete(path, cancel);
  }
}
