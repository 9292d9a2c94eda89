/**
 * What the request path every call shares answers, byte for byte: status, headers and body text of a fixed
 * sequence of calls on a fresh server (LMDB), so that a rewrite of the path (issue 14: key mapping, languages,
 * validation, outcome decoration, credit object and headers, rate-limit headers, error bodies, serialisation)
 * can be checked to change nothing. Each capability's single and batch calls in English and Italian (keys,
 * paths, option values), the language from the body, the query, Accept-Language and the account, a legacy
 * host, a trial token, and the refusals (bad JSON, prototype keys, nesting, validation, unknown language,
 * envelope errors, 401, 404, 405). Calls run one after another, so the credit figures are the same on every
 * run; headers that carry the time (date, x-ratelimit-reset) are left out and instants in bodies masked.
 *
 *   node dist/bench/path-answers.js write <file>   (before the change)
 *   node dist/bench/path-answers.js check <file>   (after: prints the differing calls, exits 1 on any)
 */

import { addPack } from '../src/state/ledger.js';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { answerArgs, writeOrCheck } from './answer-file.js';

interface Call {
  method: string;
  path: string;
  /** JSON-encoded unless already text (malformed bodies). */
  body?: unknown;
  headers?: Record<string, string>;
  /** 'trial': a token without an account; 'none': no token. */
  token?: 'trial' | 'none' | 'bad';
}

const INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const TIME_HEADERS = new Set(['date', 'x-ratelimit-reset', 'keep-alive', 'connection']);

const TAX = { action: 'validate', tax_code: 'RSSMRA80A01H501U' };
const PHONE = { phone: '02 12345678' };
const CONTACT = { address: 'Via del Faggiolo 7', postcode: '40132', city: 'Bologna' };
const EMAIL = { email: 'mario.rossi@gmial.com', dns: false };
const NAMES = { last_name: 'Rossi', first_name: 'Maria', title: 'dott.ssa' };

/** One capability's calls in every form the path knows. */
function capabilityCalls(en: string, it: string, single: Record<string, unknown>, italianSingle: Record<string, unknown>): Call[] {
  const post = (path: string, body: unknown, headers?: Record<string, string>): Call => ({ method: 'POST', path, body, ...(headers ? { headers } : {}) });
  return [
    post(en, single),
    post(it, italianSingle),
    post(en, italianSingle),
    post(en, { ...single, language: 'it' }),
    post(en, { ...single, lingua: 'de' }),
    post(`${en}?language=fr`, single),
    post(en, single, { 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' }),
    post(en, single, { 'accept-language': 'xx, nl;q=0.3' }),
    post(en, { ...single, async: false }),
    post(en, { items: [single, { id: 'two', ...single }] }),
    post(it, { elementi: [italianSingle, { id: 7, ...italianSingle }] }),
    post(en, { items: [single], language: 'el' }),
    { ...post(en, single), token: 'trial' },
  ];
}

function calls(): Call[] {
  const post = (path: string, body: unknown, headers?: Record<string, string>): Call => ({ method: 'POST', path, body, ...(headers ? { headers } : {}) });
  return [
    ...capabilityCalls('/api/v1/tax-code', '/api/v1/codicefiscale', TAX, { azione: 'valida', codice_fiscale: 'RSSMRA80A01H501U' }),
    ...capabilityCalls('/api/v1/phone', '/api/v1/telefono', PHONE, { telefono: '+39 333 1234567', formato: 'internazionale' }),
    ...capabilityCalls('/api/v1/contact', '/api/v1/contatto', CONTACT, { indirizzo: 'via faggiolo 7', cap: '40132', localita: 'bologna', nominativo: 'Mario Rossi' }),
    ...capabilityCalls('/api/v1/email', '/api/v1/email', EMAIL, { 'E-Mail': 'info@example.it', dns: 'no' }),
    ...capabilityCalls('/api/v1/enrichment', '/api/v1/arricchimento', NAMES, { cognome: 'Bianchi', nome: 'Luca', qualifica: 'ingegnere' }),
    // the English key wins over its Italian twin; synonyms; a value that is a number where text is read
    post('/api/v1/tax-code', { action: 'validate', codice_fiscale: 'XXXXXX', tax_code: 'RSSMRA80A01H501U' }),
    post('/api/v1/contact', { Address: 'Via Irnerio 1', ZIP: 40126, City: 'Bologna' }),
    post('/api/v1/phone', { phone_number: 3331234567, country_code: 'IT', format: 'national' }),
    // refusals
    post('/api/v1/tax-code', '{"action": "validate", '),
    post('/api/v1/tax-code', ''),
    post('/api/v1/tax-code', '[1, 2]'),
    post('/api/v1/tax-code', '"text"'),
    post('/api/v1/tax-code', '{"__proto__": {"x": 1}, "action": "validate"}'),
    post('/api/v1/tax-code', `${'['.repeat(40)}${']'.repeat(40)}`),
    post('/api/v1/tax-code', { action: 'validate', tax_code: 'x'.repeat(10_001) }),
    post('/api/v1/tax-code', { action: 'validate', tax_code: '\ud800RSSMRA80A01H501U' }),
    post('/api/v1/tax-code', { action: 'invent' }),
    post('/api/v1/tax-code', { action: 'invent' }, { 'accept-language': 'it' }),
    post('/api/v1/tax-code', { action: 12, tax_code: [] }),
    post('/api/v1/tax-code', { ...TAX, language: 'xx' }),
    post('/api/v1/tax-code', { ...TAX, async: 'yes' }),
    post('/api/v1/tax-code', { ...TAX, async: true }),
    post('/api/v1/tax-code', { items: [] }),
    post('/api/v1/tax-code', { items: 'all' }),
    post('/api/v1/tax-code', { items: [TAX, 3] }),
    post('/api/v1/phone', { phone: { number: 1 } }),
    post('/api/v1/email', { email: 'a@b.it', dns: 'maybe' }, { 'accept-language': 'de' }),
    post('/api/v1/contact', { precision: 9, address: 'Via Irnerio 1' }),
    { ...post('/api/v1/tax-code', TAX), token: 'none' },
    { ...post('/api/v1/tax-code', TAX), token: 'bad' },
    { ...post('/api/v1/tax-code', TAX, { 'accept-language': 'fr' }), token: 'bad' },
    post('/api/v1/nowhere', TAX),
    { method: 'PUT', path: '/api/v1/tax-code', body: TAX },
    { method: 'GET', path: '/api/v1/tax-code?job=nope' },
    // reads
    { method: 'GET', path: '/api/v1/credit' },
    { method: 'GET', path: '/api/v1/credito?lingua=it' },
    { method: 'GET', path: '/api/v1/' },
    { method: 'GET', path: '/api/v1/openapi.json' },
    { method: 'GET', path: '/health' },
  ];
}

interface Run {
  server: TestServer;
  trial: string;
}

async function send(run: Run, c: Call): Promise<string> {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  const token = c.token === 'trial' ? run.trial : c.token === 'bad' ? 'rk_not_a_token' : c.token === 'none' ? null : run.server.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
  const res = await fetch(`${run.server.url}${c.path}`, { method: c.method, headers, body });
  const kept = [...res.headers.entries()].filter(([name]) => !TIME_HEADERS.has(name));
  // instants (a pack's activation, a token's last use) are the run's, not the path's
  return JSON.stringify({ status: res.status, headers: kept, body: (await res.text()).replace(INSTANT, '<instant>') });
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('path-answers');
  const list = calls();
  const got: string[] = [];
  // the legacy host answers in Italian without a language named: its own server, same calls
  for (const legacy of [false, true]) {
    const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 }, ...(legacy ? { legacyHosts: ['127.0.0.1'] } : {}) });
    try {
      await addPack(server.state, server.account, 'contact', 1_000);
      await addPack(server.state, server.account, 'light', 1_000);
      const run = { server, trial: await server.newToken(null) };
      for (const c of legacy ? list.slice(0, 13) : list) got.push(await send(run, c));
    } finally {
      await server.close();
    }
  }
  writeOrCheck(mode, file, got, (i) => `call ${i}`);
}

await main();
