import { getHeapStatistics } from 'node:v8';

import type { FastifyInstance, FastifyReply } from 'fastify';

import type { ServiceConfig } from '../config.js';
import { ApiError } from './errors.js';

/** Seconds a client is told to wait by a 503 (Retry-After). */
export const OVERLOAD_RETRY_AFTER_S = 5;

/** The default heap ceiling: 3/4 of what V8 may grow to, so a 503 comes before an out-of-memory crash. */
export function defaultMaxHeapUsedBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.75);
}

/**
 * Refuses new requests with 503 `overloaded` and Retry-After instead of queueing them without bound: when
 * more than `maxInFlight` requests are being served, when the event loop lags by more than
 * `maxEventLoopDelayMs` (requests waited that long before being read), or when the V8 heap holds more
 * than `maxHeapUsedBytes`. Returns the check the service's one onRequest hook runs first: no hook of its
 * own, and the heap is sampled by a timer, not per request (it replaced @fastify/under-pressure, whose
 * hook every request paid for the heap check alone: issue 14).
 */
export function overloadGuard(app: FastifyInstance, config: ServiceConfig): (reply: FastifyReply) => ApiError | null {
  const limits = config.overload;
  const maxHeap = limits.maxHeapUsedBytes || defaultMaxHeapUsedBytes();
  let inFlight = 0;
  const release = () => inFlight--;
  // Event-loop lag by timer drift: under-pressure's own measure read "no sample in the interval" (one
  // task longer than the interval) as an infinite delay, which answered 503 to requests arriving after a
  // single slow one. Here the lag is what the last tick was late by.
  const tickMs = 100;
  let lastTick = performance.now();
  let lagMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(0, now - lastTick - tickMs);
    lastTick = now;
  }, tickMs);
  ticker.unref();
  let heapUsed = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    heapUsed = process.memoryUsage().heapUsed;
  }, limits.sampleIntervalMs);
  sampler.unref();
  app.addHook('onClose', async () => {
    clearInterval(ticker);
    clearInterval(sampler);
  });
  return (reply) => {
    if (inFlight >= limits.maxInFlight || lagMs > limits.maxEventLoopDelayMs || heapUsed > maxHeap) return overloadedError();
    inFlight++;
    // 'close' comes once per response, sent or aborted: the count cannot leak (`on`, not `once`: no wrapper per request)
    reply.raw.on('close', release);
    return null;
  };
}

export function overloadedError(): ApiError {
  return new ApiError('overloaded', { retry_after: OVERLOAD_RETRY_AFTER_S }, null, { retry_after: OVERLOAD_RETRY_AFTER_S });
}
