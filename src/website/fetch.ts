import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';

import { lookupAddresses } from '../email/dns.js';
import { PRIVATE_NOTE } from './messages.js';

/** One request may wait this long for its response headers. */
export const HOP_TIMEOUT_MS = 5000;
/** The whole check of one address, redirects included. */
export const TOTAL_TIMEOUT_MS = 15000;
export const MAX_REDIRECTS = 10;
const USER_AGENT = 'recapito-website-check/0.1 (+no content is read)';

export interface RedirectHop {
  url: string;
  status: number;
}

export interface ProbeResult {
  /** A web server answered with an HTTP status. */
  reachable: boolean;
  status?: number;
  final_url?: string;
  redirects: RedirectHop[];
  /** Every https hop presented a certificate that verifies; null when no https hop was made. */
  certificate_ok: boolean | null;
  outcome?: 'WEBSITE_DOMAIN_NOT_FOUND' | 'WEBSITE_NOT_RESPONDING' | 'WEBSITE_PAGE_NOT_FOUND' | 'WEBSITE_ACCESS_DENIED' | 'WEBSITE_RESPONSE_ANOMALOUS';
  note?: string;
}

export interface ProbeOptions {
  dnsServer?: string;
  /** The SSRF guard: true for an address that must not be contacted. */
  isBlocked: (address: string) => boolean;
  /** Try http:// when https:// finds no server (the scheme was not written). */
  httpFallback: boolean;
}

/**
 * Extra trusted CA certificates (PEM file) added to Node's roots, read once at first use from
 * RECAPITO_EXTRA_CA_FILE: how tests trust their own CA through the production code path. Unset in production.
 */
let extraCa: string[] | undefined | null = null;
function trustedCa(): string[] | undefined {
  if (extraCa === null) {
    const file = process.env.RECAPITO_EXTRA_CA_FILE;
    extraCa = file ? [...tls.rootCertificates, readFileSync(file, 'utf8')] : undefined;
  }
  return extraCa;
}

const CERT_ERROR = /^(CERT_|ERR_TLS_CERT|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH)/;

type HopAnswer =
  | { kind: 'response'; status: number; location?: string }
  | { kind: 'certificate'; code: string }
  | { kind: 'failed'; code: string };

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : String(e);
}

/** One request, connected to the address already checked (no second DNS answer can slip past the guard). */
function request(url: URL, address: string, verify: boolean, timeoutMs: number): Promise<HopAnswer> {
  const family = isIP(address);
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const secure = url.protocol === 'https:';
  const ca = trustedCa();
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: HopAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(a);
    };
    const options: https.RequestOptions = {
      method: 'GET',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { 'user-agent': USER_AGENT, accept: 'text/html,*/*;q=0.8' },
      lookup,
      agent: false,
      ...(secure ? { rejectUnauthorized: verify, servername: isIP(url.hostname) ? undefined : url.hostname, ...(ca ? { ca } : {}) } : {}),
    };
    const req = (secure ? https : http).request(options, (res) => {
      const location = res.headers.location;
      done({ kind: 'response', status: res.statusCode ?? 0, ...(location ? { location } : {}) });
      // the status is all we need: no content is read
      res.destroy();
      req.destroy();
    });
    const timer = setTimeout(() => {
      done({ kind: 'failed', code: 'ETIMEDOUT' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => {
      const code = errorCode(e);
      done(CERT_ERROR.test(code) ? { kind: 'certificate', code } : { kind: 'failed', code });
    });
    req.end();
  });
}

function statusOutcome(status: number): ProbeResult['outcome'] {
  if (status >= 200 && status < 300) return undefined;
  if (status === 404 || status === 410) return 'WEBSITE_PAGE_NOT_FOUND';
  if (status === 401 || status === 403) return 'WEBSITE_ACCESS_DENIED';
  return 'WEBSITE_RESPONSE_ANOMALOUS';
}

/** DNS, then HTTP(S), following redirects one at a time, each hop resolved and checked against the guard. */
export async function probeWebsite(start: URL, options: ProbeOptions): Promise<ProbeResult> {
  const deadline = Date.now() + TOTAL_TIMEOUT_MS;
  const redirects: RedirectHop[] = [];
  const visited = new Set<string>();
  let certificateOk: boolean | null = null;
  let url = start;
  let fallbackLeft = options.httpFallback;
  const base = () => ({ redirects, certificate_ok: certificateOk });

  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { ...base(), reachable: redirects.length > 0, final_url: url.href, outcome: 'WEBSITE_NOT_RESPONDING', note: 'time limit' };
    visited.add(url.href);

    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else {
      const dns = await lookupAddresses(host, options.dnsServer);
      if (dns.state !== 'found') {
        const first = redirects.length === 0;
        if (dns.state === 'unknown') return { ...base(), reachable: false, final_url: url.href, outcome: 'WEBSITE_NOT_RESPONDING', note: `dns ${dns.error}` };
        return { ...base(), reachable: !first, final_url: url.href, outcome: first ? 'WEBSITE_DOMAIN_NOT_FOUND' : 'WEBSITE_RESPONSE_ANOMALOUS', ...(first ? {} : { note: 'redirect to a domain without DNS records' }) };
      }
      addresses = dns.value;
    }
    const address = addresses.find((a) => !options.isBlocked(a));
    if (!address) return { ...base(), reachable: false, final_url: url.href, outcome: 'WEBSITE_NOT_RESPONDING', note: PRIVATE_NOTE };

    let answer = await request(url, address, true, Math.min(HOP_TIMEOUT_MS, left));
    if (url.protocol === 'https:') {
      if (answer.kind === 'certificate') {
        certificateOk = false;
        // the certificate fails, the server may still answer: ask again without verification to learn its status
        answer = await request(url, address, false, Math.max(1, Math.min(HOP_TIMEOUT_MS, deadline - Date.now())));
      } else if (answer.kind === 'response' && certificateOk === null) certificateOk = true;
    }
    if (answer.kind !== 'response') {
      if (fallbackLeft && url.protocol === 'https:' && redirects.length === 0) {
        fallbackLeft = false;
        certificateOk = null;
        url = new URL(url.href.replace(/^https:/, 'http:'));
        continue;
      }
      return { ...base(), reachable: false, final_url: url.href, outcome: 'WEBSITE_NOT_RESPONDING', note: answer.code };
    }
    fallbackLeft = false;

    const { status, location } = answer;
    if (status >= 300 && status < 400 && location) {
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { ...base(), reachable: true, status, final_url: url.href, outcome: 'WEBSITE_RESPONSE_ANOMALOUS', note: 'invalid redirect location' };
      }
      redirects.push({ url: url.href, status });
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return { ...base(), reachable: true, status, final_url: next.href, outcome: 'WEBSITE_RESPONSE_ANOMALOUS', note: 'redirect outside the web' };
      }
      if (visited.has(next.href)) return { ...base(), reachable: true, status, final_url: next.href, outcome: 'WEBSITE_RESPONSE_ANOMALOUS', note: 'redirect loop' };
      if (redirects.length >= MAX_REDIRECTS) return { ...base(), reachable: true, status, final_url: next.href, outcome: 'WEBSITE_RESPONSE_ANOMALOUS', note: 'too many redirects' };
      url = next;
      continue;
    }
    const outcome = statusOutcome(status);
    return { ...base(), reachable: true, status, final_url: url.href, ...(outcome ? { outcome } : {}) };
  }
}
