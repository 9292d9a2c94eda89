import { Resolver } from 'node:dns/promises';

/** What DNS said about a name: records, a definite absence, or no usable answer in time. */
export type Lookup<T> = { state: 'found'; value: T } | { state: 'absent'; nxdomain: boolean } | { state: 'unknown'; error: string };

/** Per-query bound; a lookup never holds a request longer than this. */
export const DNS_TIMEOUT_MS = 3000;
const MIN_TTL_S = 30;
const MAX_TTL_S = 3600;
/** node:dns does not expose the TTL of MX answers: they and negative answers are kept this long. */
const DEFAULT_TTL_S = 300;
const MAX_ENTRIES = 50_000;

interface Entry {
  expires: number;
  value: Promise<Lookup<unknown>>;
}

const cache = new Map<string, Entry>();
const resolvers = new Map<string, Resolver>();

/** One resolver per server: the system's in production, `host:port` given by tests (ProcessContext.dnsServer). */
function resolverFor(server: string | undefined): Resolver {
  const key = server ?? '';
  let r = resolvers.get(key);
  if (!r) {
    r = new Resolver({ timeout: Math.floor(DNS_TIMEOUT_MS / 2), tries: 2 });
    if (server) r.setServers([server]);
    resolvers.set(key, r);
  }
  return r;
}

function clampTtl(ttl: number): number {
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, ttl));
}

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : 'ERROR';
}

/** Cached, de-duplicated while in flight, bounded by DNS_TIMEOUT_MS. */
function cached<T>(
  key: string,
  query: () => Promise<{ value: T; ttl: number } | undefined>,
): Promise<Lookup<T>> {
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<Lookup<T>>;
  let ttl = DEFAULT_TTL_S;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Lookup<T>>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'unknown', error: 'ETIMEOUT' }), DNS_TIMEOUT_MS);
  });
  const answer = query().then(
    (found): Lookup<T> => {
      if (!found) return { state: 'absent', nxdomain: false };
      ttl = found.ttl;
      return { state: 'found', value: found.value };
    },
    (e: unknown): Lookup<T> => {
      const code = errorCode(e);
      if (code === 'ENOTFOUND') return { state: 'absent', nxdomain: true };
      if (code === 'ENODATA') return { state: 'absent', nxdomain: false };
      return { state: 'unknown', error: code };
    },
  );
  const value = Promise.race([answer, timeout]).then((r) => {
    clearTimeout(timer);
    // an unanswered query is not remembered: the next call asks again
    if (r.state === 'unknown') cache.delete(key);
    else {
      const entry = cache.get(key);
      if (entry) entry.expires = Date.now() + clampTtl(ttl) * 1000;
    }
    return r;
  });
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, { expires: Number.POSITIVE_INFINITY, value });
  return value;
}

export interface MxRecord {
  exchange: string;
  priority: number;
}

export function lookupMx(domain: string, server?: string): Promise<Lookup<MxRecord[]>> {
  return cached(`${server ?? ''}|MX|${domain}`, async () => {
    const mx = await resolverFor(server).resolveMx(domain);
    return mx.length ? { value: mx, ttl: DEFAULT_TTL_S } : undefined;
  });
}

/** A and AAAA together, with the shortest TTL of the answers. */
export function lookupAddresses(host: string, server?: string): Promise<Lookup<string[]>> {
  return cached(`${server ?? ''}|ADDR|${host}`, async () => {
    const r = resolverFor(server);
    const settle = <T>(p: Promise<T>) => p.then((v) => ({ ok: true as const, v }), (e: unknown) => ({ ok: false as const, e }));
    const [a, aaaa] = await Promise.all([settle(r.resolve4(host, { ttl: true })), settle(r.resolve6(host, { ttl: true }))]);
    const records = [...(a.ok ? a.v : []), ...(aaaa.ok ? aaaa.v : [])];
    if (records.length) return { value: records.map((x) => x.address), ttl: Math.min(...records.map((x) => x.ttl)) };
    // both failed: NXDOMAIN wins over NODATA, any other failure makes the answer unknown
    const errors = [a, aaaa].flatMap((x) => (x.ok ? [] : [errorCode(x.e)]));
    if (errors.includes('ENOTFOUND')) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    const other = errors.find((c) => c !== 'ENODATA');
    if (other) throw Object.assign(new Error(other), { code: other });
    return undefined;
  });
}

/** Does the domain receive mail? MX first (a null MX says no), then A/AAAA as the implicit MX (RFC 5321 §5.1). */
export async function mailDomain(
  domain: string,
  server?: string,
): Promise<{ checked: boolean; exists: boolean | null; receivesMail: boolean | null }> {
  const mx = await lookupMx(domain, server);
  if (mx.state === 'found') {
    const nullMx = mx.value.length === 1 && (mx.value[0]?.exchange ?? '').replace(/\.$/, '') === '';
    return { checked: true, exists: true, receivesMail: !nullMx };
  }
  if (mx.state === 'unknown') return { checked: false, exists: null, receivesMail: null };
  if (mx.nxdomain) return { checked: true, exists: false, receivesMail: false };
  const addr = await lookupAddresses(domain, server);
  if (addr.state === 'found') return { checked: true, exists: true, receivesMail: true };
  if (addr.state === 'unknown') return { checked: false, exists: null, receivesMail: null };
  return { checked: true, exists: false, receivesMail: false };
}

/** Tests and benches start from a cold cache. */
export function clearDnsCache(): void {
  cache.clear();
}
