import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

import type { ServiceConfig } from '../config.js';
import { sharedRateStore } from '../state/rate-store.js';
import type { StateStore } from '../state/store.js';
import { ApiError } from './errors.js';

export type RateClass = 'single' | 'batch' | 'autocomplete';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that is not single/batch by its body: autocomplete (suggest). */
    rateClass?: RateClass;
  }
}

/** Autocomplete as its route declares; a call with `items` (sync or async) is a batch call; everything else single. */
export function rateClass(req: FastifyRequest): RateClass {
  // declared by the route (suggest): no URL parsing per request
  const declared = req.routeOptions.config.rateClass;
  if (declared) return declared;
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && (Array.isArray(body.items) || Array.isArray(body.elementi) || Array.isArray(body.records) || Array.isArray(body.anagrafiche))) return 'batch';
  return 'single';
}

/** Per token, per class, one minute windows; 429 with retry_after in the body and Retry-After. */
export async function registerRateLimits(app: FastifyInstance, config: ServiceConfig, state?: StateStore): Promise<void> {
  await app.register(rateLimit, {
    // several nodes on PostgreSQL count a token's requests together; one node on LMDB counts in memory
    ...(state?.hitWindow ? { store: sharedRateStore(state.hitWindow) } : {}),
    global: true,
    hook: 'preHandler',
    timeWindow: 60_000,
    allowList: (req) => !req.ctx?.caller,
    keyGenerator: (req) => `${req.ctx?.caller?.tokenId ?? req.ip}:${rateClass(req)}`,
    max: (_req, key) => config.rateLimits[(key.split(':').pop() ?? 'single') as RateClass] ?? config.rateLimits.single,
    errorResponseBuilder: (req, context) => {
      const retryAfter = Math.max(1, Math.ceil(context.ttl / 1000));
      return new ApiError('rate_limited', { class: rateClass(req), max: context.max, retry_after: retryAfter }, { class: rateClass(req), max: context.max }, { retry_after: retryAfter });
    },
  });
}
