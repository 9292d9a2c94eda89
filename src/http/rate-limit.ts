import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { ServiceConfig } from '../config.js';
import { sharedRateStore } from '../state/rate-store.js';
import type { StateStore, WindowHit } from '../state/store.js';
import { ApiError } from './errors.js';

export type RateClass = 'single' | 'batch' | 'autocomplete';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that is not single/batch by its body: autocomplete (suggest). */
    rateClass?: RateClass;
    /**
     * The body holds more items than the route takes: such a call is refused with 413 by its handler and
     * does not use one of the minute's calls (the route knows its caps; the raw body, Italian keys included).
     */
    overCap?: (body: Record<string, unknown>) => boolean;
  }
}

/** One-minute windows (docs/conventions.md, Rate limits). */
const WINDOW_MS = 60_000;

/** Autocomplete as its route declares; a call with `items` (sync or async) is a batch call; everything else single. */
export function rateClass(req: FastifyRequest): RateClass {
  // declared by the route (suggest): no URL parsing per request
  const declared = req.routeOptions.config.rateClass;
  if (declared) return declared;
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && (Array.isArray(body.items) || Array.isArray(body.elementi) || Array.isArray(body.records) || Array.isArray(body.anagrafiche))) return 'batch';
  return 'single';
}

interface Window {
  started: number;
  hits: number;
}

/**
 * Fixed windows counted in this process (LMDB: one node, so the count is exact), by token and then by
 * class: the token id is a string the token cache keeps, so no key is built and hashed per request.
 * Tokens whose windows have all expired are swept when the map grows, so a stream of new tokens cannot
 * grow it without bound.
 */
class LocalWindows {
  private readonly tokens = new Map<string, Partial<Record<RateClass, Window>>>();
  private sweepAt = 10_000;

  hit(tokenId: string, cls: RateClass, windowMs: number, now: number): WindowHit {
    let classes = this.tokens.get(tokenId);
    if (!classes) {
      if (this.tokens.size >= this.sweepAt) this.sweep(windowMs, now);
      classes = {};
      this.tokens.set(tokenId, classes);
    }
    let w = classes[cls];
    if (!w || w.started + windowMs <= now) {
      w = { started: now, hits: 0 };
      classes[cls] = w;
    }
    w.hits += 1;
    return { count: w.hits, ttlMs: w.started + windowMs - now };
  }

  private sweep(windowMs: number, now: number): void {
    for (const [token, classes] of this.tokens) {
      if (Object.values(classes).every((w) => w.started + windowMs <= now)) this.tokens.delete(token);
    }
    // still full of live windows: let it hold twice as many before the next sweep
    this.sweepAt = Math.max(10_000, this.tokens.size * 2);
  }
}

/**
 * Per token, per class, one-minute windows; 429 `rate_limited` with retry_after in the body and Retry-After,
 * and the X-RateLimit-Limit/-Remaining/-Reset headers on every limited answer. The service's own limiter
 * rather than @fastify/rate-limit's global hook: that hook took an async function with four awaits per
 * request (issue 14); this one answers without a promise on LMDB and goes through the shared PostgreSQL
 * window (`hitWindow`) when several nodes count together.
 */
export interface RateLimiter {
  /** Counts the request; calls `done` with nothing or with the 429 (synchronously on LMDB). */
  check(req: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
}

export function rateLimiter(config: ServiceConfig, state?: StateStore): RateLimiter {
  const local = new LocalWindows();
  const shared = state?.hitWindow;
  const settle = (reply: FastifyReply, cls: RateClass, max: number, hit: WindowHit, done: (error?: Error) => void) => {
    const resetS = Math.ceil(hit.ttlMs / 1000);
    reply.header('x-ratelimit-limit', max);
    if (hit.count <= max) {
      reply.header('x-ratelimit-remaining', max - hit.count);
      reply.header('x-ratelimit-reset', resetS);
      return done();
    }
    reply.header('x-ratelimit-remaining', 0);
    reply.header('x-ratelimit-reset', resetS);
    const retryAfter = Math.max(1, resetS);
    done(new ApiError('rate_limited', { class: cls, max, retry_after: retryAfter }, { class: cls, max }, { retry_after: retryAfter }));
  };
  return {
    check(req, reply, done) {
      const caller = req.ctx.caller;
      // requests without a token (public pages, the console) are not limited here
      if (!caller) return done();
      const cls = rateClass(req);
      if (cls === 'batch' && req.routeOptions.config.overCap?.(req.body as Record<string, unknown>)) return done();
      const max = config.rateLimits[cls] ?? config.rateLimits.single;
      if (!shared) return settle(reply, cls, max, local.hit(caller.tokenId, cls, WINDOW_MS, Date.now()), done);
      shared(`${caller.tokenId}:${cls}`, WINDOW_MS).then(
        (hit) => settle(reply, cls, max, hit, done),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    },
  };
}

/**
 * @fastify/rate-limit stays for the routes that configure their own limit (the console's sign-in, by
 * address and e-mail), counted across nodes on PostgreSQL: not global, so API requests pay only `rateLimiter`.
 */
export async function registerRouteRateLimits(app: FastifyInstance, state?: StateStore): Promise<void> {
  // preHandler: the sign-in's key reads the e-mail from the parsed body
  await app.register(rateLimit, { global: false, hook: 'preHandler', ...(state?.hitWindow ? { store: sharedRateStore(state.hitWindow) } : {}) });
}
