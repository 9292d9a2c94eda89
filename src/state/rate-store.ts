import type { WindowHit } from './store.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit that counts in the shared state (PostgreSQL's `rate_windows`), so
 * that a token's requests are limited across every node, not per node. Fixed windows, like the plugin's
 * own local store.
 */
export function sharedRateStore(hitWindow: (key: string, windowMs: number) => Promise<WindowHit>) {
  return class SharedRateStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      hitWindow(key, timeWindow).then(
        (hit) => callback(null, { current: hit.count, ttl: hit.ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): SharedRateStore {
      return this;
    }
  };
}
