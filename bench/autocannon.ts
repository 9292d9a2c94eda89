import { createRequire } from 'node:module';

/** The part of autocannon's result the load benches read (autocannon ships no types). */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

/** One request of a scenario; `setupRequest` gives each request its own body and headers. */
export interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: { body?: string; headers?: Record<string, string> }) => { body?: string; headers?: Record<string, string> };
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
}

/** autocannon, typed once for every bench that loads a real server. */
export const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;
