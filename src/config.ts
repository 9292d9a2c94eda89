import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder (where package.json lives), whether running from src or dist. */
export const PROJECT_ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
})();

export interface ServiceConfig {
  dataDir: string;
  /** Shared state: `postgres://…` (RECAPITO_STATE_URL) for several nodes; undefined: LMDB in the data dir. */
  stateUrl?: string;
  /** Graceful shutdown: how long a stopping node answers 503 on /ready before it stops taking requests. */
  drainMs: number;
  host: string;
  port: number;
  /** Host names answered with Italian keys and codes by default (the legacy host). */
  legacyHosts: string[];
  /** Tests only: let network checks reach loopback/private addresses. */
  allowPrivateNetwork: boolean;
  /** Tests only: DNS server `host:port` used by email/website checks. */
  dnsServer?: string;
  /** Worker threads for asynchronous jobs. */
  jobWorkers: number;
  /** Requests a minute per token and class (spec: 60 single, 10 batch, 300 autocomplete). */
  rateLimits: { single: number; batch: number; autocomplete: number };
  /** Asynchronous jobs (any capability, dedupe included) one account may have queued or running at once. */
  maxActiveJobsPerAccount: number;
  /**
   * The proxies whose X-Forwarded-For / -Proto / -Host are believed (RECAPITO_TRUST_PROXY): false (the
   * default: the socket's address is the client), or their addresses, CIDR ranges and proxy-addr's names
   * (`loopback`, `uniquelocal`...). Sign-in throttling and the console's Secure cookie read them.
   */
  trustProxy: TrustProxy;
  /** When new requests get 503 overloaded with Retry-After (src/http/overload.ts). */
  overload: { maxInFlight: number; maxEventLoopDelayMs: number; maxHeapUsedBytes: number; sampleIntervalMs: number };
}

export type TrustProxy = false | string[];

/**
 * RECAPITO_TRUST_PROXY: unset, empty, `0`, `false` or `off` trust nobody; else a comma list of addresses,
 * CIDR ranges or names. Neither `true` nor a hop count: both believe whoever connects directly and sends
 * the header (the forged X-Forwarded-For of issue 33).
 */
export function trustProxyOf(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (['', '0', 'false', 'off', 'no'].includes(text.toLowerCase())) return false;
  if (/^\d+$/.test(text) || ['true', 'on', 'yes', 'all', '*'].includes(text.toLowerCase())) {
    throw new Error(`RECAPITO_TRUST_PROXY=${text}: name the proxy addresses (e.g. loopback or 10.0.0.0/8), not a count or everyone`);
  }
  return text.split(',').map((part) => part.trim()).filter(Boolean);
}

export function defaultDataDir(): string {
  return path.resolve(process.env.RECAPITO_DATA_DIR ?? path.join(PROJECT_ROOT, 'data'));
}

/** Where the open data is read from by default: ../shared/data beside the project, when present. */
export function defaultSourceDir(): string {
  return path.resolve(process.env.RECAPITO_SOURCE_DIR ?? path.join(PROJECT_ROOT, '..', 'shared', 'data'));
}

export function configFromEnv(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  const legacy = process.env.RECAPITO_LEGACY_HOSTS ?? '';
  return {
    dataDir: defaultDataDir(),
    stateUrl: process.env.RECAPITO_STATE_URL?.trim() || undefined,
    drainMs: Number(process.env.RECAPITO_DRAIN_MS ?? 0),
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 8080),
    legacyHosts: legacy.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    allowPrivateNetwork: process.env.RECAPITO_ALLOW_PRIVATE_NETWORK === '1',
    dnsServer: process.env.RECAPITO_DNS_SERVER || undefined,
    jobWorkers: Number(process.env.RECAPITO_JOB_WORKERS ?? 1),
    rateLimits: {
      single: Number(process.env.RECAPITO_RATE_SINGLE ?? 60),
      batch: Number(process.env.RECAPITO_RATE_BATCH ?? 10),
      autocomplete: Number(process.env.RECAPITO_RATE_AUTOCOMPLETE ?? 300),
    },
    trustProxy: trustProxyOf(process.env.RECAPITO_TRUST_PROXY),
    maxActiveJobsPerAccount: Number(process.env.RECAPITO_MAX_ACTIVE_JOBS ?? 10),
    overload: {
      maxInFlight: Number(process.env.RECAPITO_MAX_IN_FLIGHT ?? 256),
      maxEventLoopDelayMs: Number(process.env.RECAPITO_MAX_EVENT_LOOP_DELAY_MS ?? 30000),
      // 0 = the default, 3/4 of V8's heap limit (src/http/overload.ts)
      maxHeapUsedBytes: Number(process.env.RECAPITO_MAX_HEAP_BYTES ?? 0),
      sampleIntervalMs: 1000,
    },
    ...overrides,
  };
}
