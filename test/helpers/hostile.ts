/**
 * Hostile HTTP requests for the fuzz test (test/fuzz.test.ts) and the hostile campaign (bench/hostile.bench.ts):
 * a fast-check arbitrary of whole requests (method, path, headers, raw body bytes), a raw sender that tells a
 * dropped connection from an answer, and the property every answer must hold.
 */
import http from 'node:http';

import fc from 'fast-check';

import { ERROR_STATUS } from '../../src/http/errors.js';
import '../../src/capabilities.js';
import { specFields } from '../../src/http/keys.js';
import { BODY_LIMITS } from '../../src/http/validation.js';

export interface Endpoint {
  /** English path, then the Italian alias when there is one. */
  paths: string[];
  batchCap: number;
  async: boolean;
}

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What kind of hostility this is, for the campaign's table. */
  kind: string;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The connection ended without an answer: the error code. */
  dropped?: string;
}

/** Statuses the interface documents (docs/conventions.md, Error body; 503 under overload). */
export const DOCUMENTED_STATUSES = new Set([200, 202, ...Object.values(ERROR_STATUS).filter((s) => s !== 500)]);

/** The endpoints of the running service, read from its own index (GET /api/v1/). */
export function endpointsOf(index: { endpoints: { method: string; path: string; italian_path: string | null; batch_cap?: number; async?: boolean }[] }): Endpoint[] {
  return index.endpoints
    .filter((e) => e.method === 'POST')
    .map((e) => ({ paths: [e.path, ...(e.italian_path ? [e.italian_path] : [])], batchCap: e.batch_cap ?? 500, async: e.async ?? false }));
}

const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\t', '\n', '\r', '\u000b', '\u001b', '\u007f', '\u0085', '\u2028', '\u2029', '\ufeff', '\ufffe'];
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\udfff\ud800'];
/** Look-alikes of real values: Cyrillic and Greek letters, full-width and Arabic-Indic digits, combining marks. */
const HOMOGLYPHS = ['Rоma', 'МILANO', 'Тоrino', 'www.gооgle.it', 'info@раураl.it', 'ΑΒΓ', 'RSSМRA85T10А562S', '０６１２３４５６７', '٠٦١٢٣٤٥٦٧', 'Via Roma 1̶0̶', 'e\u0301', 'ß', 'İstanbul', 'ﬁrenze'];
/** Plausible values, so that hostile bodies also reach the engines rather than stop at validation. */
const PLAUSIBLE = [
  'RSSMRA85T10A562S', 'RSSMRA85T10A562', 'MRTMTT25D09F205Z', '+39 06 6982', '333 1234567', '0039021234567', 'info@example.it',
  'mario.rossi@gmail.con', 'https://www.comune.roma.it', 'example.it', 'http://127.0.0.1/', 'http://2130706433/', 'Via Roma 1',
  'Piazza del Popolo', '00184', 'ROMA', 'Roma', 'RM', 'MI', 'IT', 'it', 'Milano', 'Mario', 'Rossi', 'Srl', '1985-12-10', 'M', 'F',
  'national', 'nazionale', 'generate', 'valida', 'certain', 'probabile', 'detect', 'streets', 'csv', '',
];
const NUMBERS = [0, -0, 1, -1, 0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 53 - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e21, 5000, 5001, 100_000, 100_001];

const piece = fc.oneof(
  fc.constantFrom(...CONTROL),
  fc.constantFrom(...BIDI),
  fc.constantFrom(...SURROGATES),
  fc.constantFrom(...HOMOGLYPHS),
  fc.constantFrom(...PLAUSIBLE),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Strings a client should never send: control characters, bidi overrides, lone surrogates, NUL, look-alikes. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(piece, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 3, arbitrary: fc.constantFrom(...PLAUSIBLE) },
  // at and beyond the per-string limit, and a 1 MB string
  { weight: 1, arbitrary: fc.constantFrom(BODY_LIMITS.stringChars, BODY_LIMITS.stringChars + 1, 1_000_000).chain((n) => fc.constantFrom('x', 'é', '\u202e', '9').map((c) => c.repeat(n))) },
);

const FIELDS = [
  ...new Set([
    ...[...specFields().keys()].slice(0, 400),
    ...[...specFields().values()].slice(0, 400),
    'tax_code', 'codice_fiscale', 'cf', 'phone', 'email', 'website', 'full_name', 'first_name', 'last_name', 'address', 'postcode', 'zip',
    'city', 'province', 'country', 'country_code', 'action', 'format', 'dns', 'text', 'session', 'select', 'records', 'reference', 'min_level',
    'foreign', 'save', 'job', 'group', 'processed', 'id', 'language', 'lingua', 'items', 'elementi', 'async', 'asincrono', 'Tax-Code', 'CAP ',
  ]),
];
export const fieldName: fc.Arbitrary<string> = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...FIELDS) }, { weight: 1, arbitrary: hostileString });

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBERS) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Any JSON value with hostile leaves and mostly real field names, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fieldName, tie('value'), { maxKeys: 5, noNullPrototype: true }),
  ),
})).value;

const item = fc.dictionary(fieldName, hostileValue, { maxKeys: 6, noNullPrototype: true });

function repeatItems(n: number, one: unknown): unknown[] {
  return Array.from({ length: n }, () => one);
}

/** Bodies as JSON values: single items, batches (also over the cap), async, dedupe-shaped, anything. */
function jsonBody(endpoint: Endpoint): fc.Arbitrary<{ value: unknown; kind: string }> {
  return fc.oneof(
    item.map((value) => ({ value, kind: 'single' })),
    fc.record({ items: fc.array(fc.oneof(item, hostileValue), { maxLength: 5 }), extra: item }).map(({ items, extra }) => ({ value: { ...extra, items }, kind: 'batch' })),
    fc.record({ items: fc.array(item, { minLength: 1, maxLength: 3 }), async: fc.oneof(fc.constant(true), leaf) }).map((value) => ({ value, kind: 'async' })),
    // small items: the count is the hostility here
    fc.record({ n: fc.constantFrom(endpoint.batchCap + 1, 100_001), async: fc.boolean(), one: fc.constantFrom({}, { tax_code: 'RSSMRA85T10A562S' }, { phone: '06 6982' }, 1) }).map(({ n, async, one }) => ({
      value: { async, items: repeatItems(n, one), records: repeatItems(Math.min(n, 600), one) },
      kind: 'over-cap',
    })),
    fc.record({ records: fc.array(item, { maxLength: 4 }), reference: fc.option(fc.array(item, { maxLength: 2 })), opts: item }).map(({ records, reference, opts }) => ({
      value: { ...opts, records, ...(reference ? { reference } : {}) },
      kind: 'dedupe-shaped',
    })),
    hostileValue.map((value) => ({ value, kind: 'any-json' })),
  );
}

/** Bodies that are not JSON, or JSON no parser should accept. */
const rawBody: fc.Arbitrary<{ body: Buffer; kind: string }> = fc.oneof(
  fc.integer({ min: BODY_LIMITS.depth - 1, max: 6000 }).chain((n) =>
    fc.constantFrom(`${'['.repeat(n)}${']'.repeat(n)}`, `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`, `{"items":[${'{"x":['.repeat(n)}${']}'.repeat(n)}]}`, '['.repeat(n)).map((s) => ({ body: Buffer.from(s), kind: 'deep-nesting' })),
  ),
  fc.constantFrom(
    '{"__proto__":{"admin":true}}', '{"items":[{"__proto__":{"x":1}}]}', '{"constructor":{"prototype":{"x":1}}}', '{"tax_code":"x","__proto__":null}',
    '{"items":1e400}', '{"tax_code":-1e400}', `{"phone":${'9'.repeat(500)}}`, '{"a":1,"a":2}', '', 'null', 'true', '"string"', '[]', '{}', '\ufeff{}', '{"items":[]}',
    '{"async":true,"items":[]}', '{"items":[null,1,"x",[]]}', '{"language":"xx"}', '{"language":null}', '{"job":"../../etc/passwd"}',
  ).map((s) => ({ body: Buffer.from(s), kind: 'raw-json' })),
  hostileValue.chain((v) => {
    const text = JSON.stringify({ items: [v], tax_code: v }) ?? '{}';
    return fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((cut) => ({ body: Buffer.from(text.slice(0, cut)), kind: 'truncated-json' }));
  }),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ body: Buffer.concat([Buffer.from('{"tax_code":"'), Buffer.from(bytes), Buffer.from('"}')]), kind: 'bad-utf8' })),
  fc.constantFrom([0xff, 0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]).map((bytes) => ({ body: Buffer.concat([Buffer.from('{"city":"'), Buffer.from(bytes), Buffer.from('"}')]), kind: 'bad-utf8' })),
);

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16le', 'application/json; charset=latin1', 'APPLICATION/JSON',
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml', 'application/vnd.api+json',
  'application/json, text/plain', 'text/csv', '',
];

/** Every UTF-8 byte percent-encoded (encodeURIComponent refuses lone surrogates; these become U+FFFD). */
function percentEncoded(s: string): string {
  return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

export interface HostileOptions {
  endpoints: Endpoint[];
  token: string;
  /** Tokens that must be refused: revoked, unknown (a token without an account pays from its trial allowance, test/trial.test.ts). */
  badTokens: string[];
  legacyHost: string;
}

/** One hostile request: mostly well-formed HTTP to real endpoints with hostile content, some of everything else. */
export function hostileRequest(o: HostileOptions): fc.Arbitrary<HostileRequest> {
  const endpoint = fc.constantFrom(...o.endpoints);
  const auth = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${o.token}`) },
    { weight: 1, arbitrary: fc.constantFrom(...o.badTokens.map((t) => `Bearer ${t}`), `Bearer ${o.token}x`, 'Bearer', 'Basic dXNlcjpwYXNz', `bearer   ${o.token}  `, `Bearer ${'A'.repeat(8000)}`, '') },
  );
  const headers = fc.record({
    authorization: auth,
    host: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constant(o.legacyHost) }),
    'accept-language': fc.constantFrom('', 'it', 'it-IT,it;q=0.9', 'de', 'xx', '*', 'en;q=abc', 'el,,,;q=2'),
    'content-type': fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
    'content-encoding': fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('gzip', 'br', 'identity', 'x-unknown') }),
  });
  const query = fc.oneof(
    { weight: 6, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom('?language=it', '?language=zz', '?lingua=it', '?job=', '?job=JOB-0000', '?job=%00', '?job=..%2F..', '?format=csv', '?job=x&format=xml', '?language[]=it') },
    { weight: 1, arbitrary: hostileString.filter((s) => s.length < 200).map((s) => `?job=${percentEncoded(s)}&format=csv`) },
  );
  const path = fc.oneof(
    { weight: 12, arbitrary: endpoint.chain((e) => fc.constantFrom(...e.paths)) },
    { weight: 1, arbitrary: fc.constantFrom('/api/v1/', '/api/v1/openapi.json', '/api/v1/credit', '/api/v1/credito', '/api/v1/countries', '/api/v1/nope', '/api/v1/phone/', '/api/v1/PHONE', '/api/v1/%00', '/api/v2/phone', '/', '/api/v1/phone%2F..', '/api/v1/phone/../tax-code') },
  );
  const method = fc.oneof({ weight: 10, arbitrary: fc.constant('POST') }, { weight: 2, arbitrary: fc.constantFrom('GET', 'DELETE') }, { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND') });
  const body = fc.oneof(
    { weight: 5, arbitrary: endpoint.chain(jsonBody).map(({ value, kind }) => ({ body: Buffer.from(JSON.stringify(value) ?? 'null'), kind })) },
    { weight: 2, arbitrary: rawBody },
  );
  return fc.record({ method, path, query, headers, body }).map(({ method, path, query, headers, body }) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) if (v !== '') h[k] = v;
    let bytes: Buffer | undefined = method === 'GET' || method === 'HEAD' ? undefined : body.body;
    if (bytes && h['content-type']?.includes('utf-16')) bytes = Buffer.from(bytes.toString('utf8'), 'utf16le');
    return { method, path: `${path}${query}`, headers: h, ...(bytes ? { body: bytes } : {}), kind: bytes ? body.kind : 'no-body' };
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** Sends a request byte for byte (no client-side validation of method, headers or body). */
export function send(base: string, r: HostileRequest, timeoutMs = 60_000): Promise<Answer> {
  const url = new URL(r.path, base);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body) headers['content-length'] = r.body.length;
    const req = http.request({ host: url.hostname, port: url.port, method: r.method, path: `${url.pathname}${url.search}`, headers, agent, setHost: !headers.host }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', dropped: (e as NodeJS.ErrnoException).code ?? e.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    req.on('error', (e) => resolve({ status: 0, headers: {}, text: '', dropped: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(r.body);
  });
}

/** Closes the keep-alive sockets (end of a campaign). */
export function closeSockets(): void {
  agent.destroy();
}

/** A connection the server may end early: a body announced larger than the limit gets its 413 before it is read. */
export function earlyRefusalAllowed(r: HostileRequest): boolean {
  return (r.body?.length ?? 0) > BODY_LIMITS.bytes;
}

/** What is wrong with an answer, or null: a documented status, and for errors the one error body. */
export function answerProblem(r: HostileRequest, a: Answer): string | null {
  if (a.dropped) return earlyRefusalAllowed(r) ? null : `connection dropped (${a.dropped})`;
  if (!DOCUMENTED_STATUSES.has(a.status)) return `undocumented status ${a.status}`;
  if (a.status < 400 || r.method === 'HEAD') return null;
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return `error body is not JSON: ${a.text.slice(0, 80)}`;
  }
  if (typeof body !== 'object' || body === null) return 'error body is not an object';
  const b = body as Record<string, unknown>;
  if (b.ok !== false) return 'error body without ok: false';
  if (typeof b.code !== 'string' || !(b.code in ERROR_STATUS)) return `unknown error code ${String(b.code)}`;
  if (ERROR_STATUS[b.code as keyof typeof ERROR_STATUS] !== a.status) return `code ${b.code} answered with status ${a.status}`;
  if (typeof b.message !== 'string' || b.message === '') return 'error body without a message';
  if (!('details' in b)) return 'error body without details';
  if ((a.status === 429 || a.status === 503) && !a.headers['retry-after']) return `${a.status} without Retry-After`;
  return null;
}
