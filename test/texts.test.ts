import test from 'ava';

import { setAutoTopup } from '../src/state/ledger.js';
import { call, startServer, type TestServer } from './helpers/server.js';

// The credit texts (the report's `warning`, the charge's `note`) follow the request language like every other text.

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});
test.after.always(async () => server?.close());

const phones = (n: number) => Array.from({ length: n }, (_, i) => ({ phone: `02 ${String(1000000 + i)}` }));

/** Spends `n` light operations the way a customer does: a phone batch over HTTP. */
async function spend(token: string, n: number): Promise<void> {
  const r = await call(server, 'POST', '/api/v1/phone', { items: phones(n) }, { token });
  if (r.status !== 200) throw new Error(`spend ${n}: ${r.status}`);
}

test('credit report warning: English, Italian (keys too), German by Accept-Language', async (t) => {
  const token = await server.newToken('texts-warning');
  const fresh = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(fresh.body.counters.light.warning, null);
  await spend(token, 460); // 40 of 500 left: under a tenth
  const en = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(en.body.counters.light.warning, 'less than 10% left');
  const it = await call(server, 'GET', '/api/v1/credito?lingua=it', undefined, { token });
  t.is(it.headers.get('content-language'), 'it');
  t.is(it.body.contatori.leggere.avviso, 'resta meno del 10%');
  await spend(token, 40);
  const emptyEn = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.is(emptyEn.body.counters.light.warning, 'nothing left: buy a pack or activate auto top-up');
  const emptyIt = await call(server, 'GET', '/api/v1/credit?language=it', undefined, { token });
  t.is(emptyIt.body.contatori.leggere.avviso, 'credito esaurito: acquista un pacchetto o attiva l’auto-ricarica');
  const emptyDe = await call(server, 'GET', '/api/v1/credit', undefined, { token, headers: { 'accept-language': 'de' } });
  t.is(emptyDe.body.counters.light.warning, 'nichts mehr übrig: ein Paket kaufen oder die automatische Aufladung aktivieren');
  await setAutoTopup(server.state, 'texts-warning', 'light', 100, 10);
  const armed = await call(server, 'GET', '/api/v1/credit?language=it', undefined, { token });
  t.true(armed.body.contatori.leggere.avviso.startsWith('credito esaurito: la prossima chiamata acquista un pacchetto'));
});

test('the charge note of auto top-up: English, Italian, and on a batch', async (t) => {
  for (const [account, language, note] of [
    ['texts-note-en', 'en', 'packs bought by auto top-up for this call: 1'],
    ['texts-note-it', 'it', 'pacchetti acquistati dall’auto-ricarica per questa chiamata: 1'],
  ] as const) {
    const token = await server.newToken(account);
    await spend(token, 500);
    await setAutoTopup(server.state, account, 'light', 100, 10);
    const r = await call(server, 'POST', '/api/v1/phone', { phone: '0212345678', language }, { token });
    t.is(r.status, 200);
    t.is(r.headers.get('x-service-auto-topup'), '1');
    const credit = language === 'it' ? r.body.credito.nota : r.body.credit.note;
    t.is(credit, note);
    // the next call takes from the pack just bought: no note
    const next = await call(server, 'POST', '/api/v1/phone', { items: [{ phone: '0212345678' }], language }, { token });
    t.is(language === 'it' ? next.body.credito.nota : next.body.credit.note, null);
  }
});

test('the legacy host: Italian keys, codes and texts for an Italian account without `language`', async (t) => {
  const legacy = await startServer({ legacyHosts: ['legacy.example.it'], rateLimits: { single: 1000, batch: 1000, autocomplete: 1000 } }, 'it');
  try {
    const { request } = await import('node:http');
    const port = new URL(legacy.url).port;
    const post = (path: string, body: unknown) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const data = JSON.stringify(body);
        const headers = { host: 'legacy.example.it', authorization: `Bearer ${legacy.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
        const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        });
        req.on('error', reject);
        req.end(data);
      });
    const phone = await post('/api/v1/telefono', { telefono: '06/1234567', nazione: 'Atlantide' });
    t.is(phone.telefono, '061234567');
    t.deepEqual(phone.commenti, ['paese non riconosciuto: numeri letti come italiani']);
    const names = await post('/api/v1/arricchimento', { cognome: 'Rossi', nome: 'Maria', sesso: 'M' });
    t.deepEqual(names.commenti, ['nome di solito femminile']);
    // issue 34: an account set to English gets Italian throughout on the legacy host (keys and texts agree)
    const english = await legacy.newToken('legacy-english');
    const raw = await new Promise<{ language: string | undefined; body: Record<string, unknown> }>((resolve, reject) => {
      const data = JSON.stringify({ indirizzo: 'via indipendenza 8', cap: '40121', localita: 'bologna' });
      const headers = { host: 'legacy.example.it', authorization: `Bearer ${english}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
      const req = request({ host: '127.0.0.1', port, path: '/api/v1/contatto', method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ language: res.headers['content-language'], body: JSON.parse(text) as Record<string, unknown> }));
      });
      req.on('error', reject);
      req.end(data);
    });
    t.is(raw.language, 'it');
    t.is((raw.body.normalizzato as Record<string, unknown>).nazione, 'Italia');
    for (const text of textsOf(raw.body)) t.deepEqual(englishWords(text), [], text);
  } finally {
    await legacy.close();
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Issue 34: every text the service writes, in Italian, without an English word. The tables are walked whole
// (every entry's Italian text), and every error path and every capability is asked over HTTP with language it.

import { ERROR_MESSAGES } from '../src/http/errors.js';
import { ALL_OUTCOMES } from '../src/capabilities.js';
import { PROBLEMS, WORDS } from '../src/http/problems.js';
import { ENRICHMENT_COMMENTS } from '../src/enrichment/messages.js';
import { PHONE_COMMENTS } from '../src/phone/messages.js';
import { COMMENT_TEXTS, DATUM_TEXTS, NOTE_TEXTS } from '../src/tax-code/messages.js';
import { CHECKED, CITY_TYPE, FORM_ONLY, MAP_CHECKED, REGISTER_CHECKED, REGISTER_VERIFIED, VERIFIED } from '../src/contact/texts.js';
import { CONNECTION_FAILED, DNS_FAILED, NETWORK, NOTES as WEBSITE_NOTES, PRIVATE_ADDRESS } from '../src/website/messages.js';
import { AUTO_TOPUP_NOTE } from '../src/http/credit-text.js';
import { POSTAL_FORMATS, SOURCE } from '../src/http/attribution.js';
import { JOB_ERRORS } from '../src/jobs/service.js';
import { REASON_TEXTS } from '../src/dedupe/outcomes.js';
import { warningText, type CounterWarning } from '../src/http/credit-text.js';
import { clientTexts } from '../src/console/texts.js';
import { LANGUAGES } from '../src/http/language.js';

/**
 * Words that are English and never Italian. Technical names that Italian writes as they are (token, e-mail,
 * JSON, CSV, DNS, UUID, Authorization: Bearer, the JSON literals true and false) are not in the list; neither
 * are words both languages share (area, no, per, in, non, date).
 */
const ENGLISH = new Set(
  `the and or of to is are was were be been being must may can cannot could should would will not does did
  invalid input expected received too big small large string text required synchronous asynchronous single batch
  contact contacts credit modified corrected warning error errors request requests field fields found missing empty
  for with from only has have this that these those call calls item items unknown allowed method minute minutes
  left nothing processed charged available needed limit least most more less than option options match pattern
  valid address phone website name first last tax city street postcode country birth gender job jobs group
  session select suggest light dedupe deduplication list which when where there your you please try again retry
  later page take takes accepted refused reached monthly pack packs bought next buy month registers register
  verified against national italian english by at an into out over under without within yes
  number numbers character characters key keys level levels nested deeper longer one two three body object array
  integer whole type format already used until renews subscription activate top-up topup`.split(/\s+/).filter(Boolean),
);

/** The English words of a text (placeholders `{name}`, the list of language codes and paths, identifiers, left out). */
function englishWords(text: string): string[] {
  return text
    .replace(/\{\w+\}/g, ' ')
    .replace(LANGUAGES.join(', '), ' ')
    .replace(/\/[\w/.-]*/g, ' ') // paths of the API: identifiers, as the request wrote them
    .replace(/\b(?:CC BY(?:-SA)?|ODbL) \d\.\d\b/g, ' ') // licence names of the registers' attribution
    .split(/[^\p{L}\-’']+/u)
    .map((w) => w.toLowerCase().replace(/^['’-]+|['’-]+$/g, ''))
    .filter((w) => ENGLISH.has(w));
}

/** Every Italian text of the tables the service writes from. */
function italianTables(): [string, string][] {
  const out: [string, string][] = [];
  const add = (where: string, texts: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(texts)) {
      const it = (value as { it?: unknown }).it;
      if (typeof it === 'string') out.push([`${where}.${key}`, it]);
      else if (value && typeof value === 'object' && 'reason' in value) out.push([`${where}.${key}`, (value as { reason: { it: string } }).reason.it]);
    }
  };
  add('errors', ERROR_MESSAGES);
  add('problems', PROBLEMS);
  add('words', WORDS);
  add('outcomes', ALL_OUTCOMES);
  add('enrichment', ENRICHMENT_COMMENTS);
  add('phone', PHONE_COMMENTS);
  add('tax-code.comments', COMMENT_TEXTS);
  add('tax-code.data', DATUM_TEXTS);
  add('tax-code.notes', NOTE_TEXTS);
  add('contact.city_type', CITY_TYPE);
  add('contact', { VERIFIED, CHECKED, FORM_ONLY, REGISTER_VERIFIED, REGISTER_CHECKED, MAP_CHECKED });
  add('website.notes', WEBSITE_NOTES);
  add('website.network', NETWORK);
  add('website', { PRIVATE_ADDRESS, CONNECTION_FAILED, DNS_FAILED });
  add('credit', { AUTO_TOPUP_NOTE });
  add('attribution', { SOURCE, POSTAL_FORMATS });
  add('jobs.errors', JOB_ERRORS);
  add('dedupe.reasons', REASON_TEXTS);
  for (const kind of ['auto_topup_next', 'auto_topup_cap', 'awaiting_renewal', 'nothing_left', 'low'] as CounterWarning[]) out.push([`credit.${kind}`, warningText(kind, 'it') ?? '']);
  for (const [key, text] of Object.entries(clientTexts('it'))) out.push([`console.${key}`, text]);
  return out;
}

test('every Italian text of the message tables is free of English words', (t) => {
  const found = italianTables()
    .map(([where, text]) => [where, text, englishWords(text)] as const)
    .filter(([, , words]) => words.length > 0)
    .map(([where, text, words]) => `${where}: ${words.join(', ')} — ${text}`);
  t.deepEqual(found, []);
});

/** The texts an answer carries (never its keys, codes or the data it echoes). */
const TEXT_KEYS = new Set(['message', 'problem', 'reason', 'motivo', 'messaggio', 'note', 'nota', 'commenti', 'avviso', 'spiegazioni', 'label']);

function textsOf(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return TEXT_KEYS.has(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v, key));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => textsOf(v, k));
  return [];
}

/** An answer asked in Italian: its status, its language header and no English word in any of its texts. */
async function italianAnswer(t: import('ava').ExecutionContext, what: string, status: number, r: { status: number; headers: Headers; body: unknown }) {
  t.is(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
  t.is(r.headers.get('content-language'), 'it', what);
  const texts = textsOf(r.body);
  t.true(texts.length > 0, `${what}: no text in ${JSON.stringify(r.body)}`);
  for (const text of texts) t.deepEqual(englishWords(text), [], `${what}: ${text}`);
}

test('every error path answers in Italian when Italian is asked, before and after the body is read', async (t) => {
  const it = { headers: { 'accept-language': 'it' } };
  const account = await server.newToken('texts-errors');
  await italianAnswer(t, '401 no token (query)', 401, await call(server, 'GET', '/api/v1/credit?language=it', undefined, { token: null }));
  await italianAnswer(t, '401 bad token (Accept-Language)', 401, await call(server, 'POST', '/api/v1/phone', { phone: '06 1234567' }, { token: 'rk_nope', ...it }));
  // a request without a valid token is refused before its body is read (issue 33): the query and Accept-Language name its language
  await italianAnswer(t, '401 bad token (query lingua)', 401, await call(server, 'POST', '/api/v1/telefono?lingua=it', { telefono: '06 1234567' }, { token: 'rk_nope' }));
  await italianAnswer(t, '400 bad JSON', 400, await call(server, 'POST', '/api/v1/phone?lingua=it', '{"phone":', { token: account }));
  await italianAnswer(t, '400 not JSON', 400, await call(server, 'POST', '/api/v1/phone?lingua=it', 'phone=1', { token: account, headers: { 'content-type': 'text/plain' } }));
  await italianAnswer(t, '400 __proto__', 400, await call(server, 'POST', '/api/v1/phone?lingua=it', '{"__proto__":{"x":1}}', { token: account }));
  const bodies: [string, string, unknown][] = [
    ['wrong type', '/api/v1/phone', { telefono: { numero: 5 }, lingua: 'it' }],
    ['over the maximum', '/api/v1/contact', { address: 'Via Roma 1', city: 'Bologna', precision: 9, language: 'it' }],
    ['not an option', '/api/v1/contact', { address: 'Via Roma 1', city: 'Bologna', foreign: 'xx', language: 'it' }],
    ['phone format', '/api/v1/phone', { phone: '06 1234567', format: 'strano', language: 'it' }],
    ['tax-code action', '/api/v1/tax-code', { action: 'indovina', tax_code: 'RSSMRA80A01H501U', language: 'it' }],
    ['dns not boolean', '/api/v1/email', { email: 'a@b.it', dns: 'forse', language: 'it' }],
    ['items not a list', '/api/v1/phone', { items: 'x', language: 'it' }],
    ['items empty', '/api/v1/phone', { items: [], language: 'it' }],
    ['item not an object', '/api/v1/phone', { items: [1], language: 'it' }],
    ['async not boolean', '/api/v1/phone', { items: [{ phone: '06 1234567' }], async: 'yes', language: 'it' }],
    ['body a list', '/api/v1/phone?lingua=it', [1, 2]],
    ['string too long (refused as it is read: the query names the language)', '/api/v1/phone?lingua=it', { phone: 'x'.repeat(10_001) }],
    ['too deep', '/api/v1/phone?lingua=it', { x: JSON.parse('['.repeat(40) + ']'.repeat(40)) as unknown }],
    ['unsupported language', '/api/v1/phone', { phone: '06 1234567', language: 'xx' }],
    ['dedupe records empty', '/api/v1/dedupe', { records: [], language: 'it' }],
    ['dedupe reference with job', '/api/v1/dedupe', { job: 'NOSUCH', records: [{ last_name: 'Rossi' }], reference: [{ last_name: 'Rossi' }], language: 'it' }],
    ['suggest session', '/api/v1/suggest', { session: 'abc', q: 'via roma', language: 'it' }],
    ['suggest select', '/api/v1/suggest', { session: '6f1c2b8e-1d2a-4b3c-9d4e-5f6a7b8c9d0e', action: 'select', language: 'it' }],
  ];
  for (const [what, path, body] of bodies) {
    await italianAnswer(t, `400 ${what}`, 400, await call(server, 'POST', path, body, { token: account, ...(what === 'unsupported language' ? it : {}) }));
  }
  await italianAnswer(t, '400 job code missing', 400, await call(server, 'GET', '/api/v1/phone?lingua=it', undefined, { token: account }));
  const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items: [{ phone: '06 1234567' }] }, { token: account });
  await italianAnswer(t, '400 format', 400, await call(server, 'GET', `/api/v1/phone?job=${queued.body.job}&format=xml&lingua=it`, undefined, { token: account }));
  await italianAnswer(t, '403 no account', 403, await call(server, 'GET', '/api/v1/credit?lingua=it', undefined, { token: await server.newToken(null) }));
  await italianAnswer(t, '404 job', 404, await call(server, 'GET', '/api/v1/phone?job=NOSUCHJOB&lingua=it', undefined, { token: account }));
  await italianAnswer(t, '404 path', 404, await call(server, 'GET', '/api/v1/nowhere?lingua=it', undefined, { token: account }));
  await italianAnswer(t, '405', 405, await call(server, 'PUT', '/api/v1/phone?lingua=it', undefined, { token: account }));
  await italianAnswer(t, '413 synchronous', 413, await call(server, 'POST', '/api/v1/website', { items: Array.from({ length: 101 }, () => ({ website: 'a.it' })), language: 'it' }, { token: account }));
  const session = '0b9f7e3c-2a41-4d6e-8f1a-3c5d7e9f1b2d';
  t.is((await call(server, 'POST', '/api/v1/suggest', { session, q: 'via', language: 'it' }, { token: account })).status, 200);
  await italianAnswer(t, '409 session country', 409, await call(server, 'POST', '/api/v1/suggest', { session, q: 'rue', country_code: 'FR', language: 'it' }, { token: account }));
  await italianAnswer(t, '402', 402, await call(server, 'POST', '/api/v1/phone', { items: phones(500), language: 'it' }, { token: account }));
});

test('429 answers in Italian', async (t) => {
  const small = await startServer({ rateLimits: { single: 1, batch: 1, autocomplete: 1 } });
  try {
    const body = { phone: '06 1234567', language: 'it' };
    t.is((await call(small, 'POST', '/api/v1/phone', body)).status, 200);
    await italianAnswer(t, '429 single', 429, await call(small, 'POST', '/api/v1/phone', body));
    t.is((await call(small, 'POST', '/api/v1/phone', { items: [{ phone: '06 1234567' }] })).status, 200);
    await italianAnswer(t, '429 batch', 429, await call(small, 'POST', '/api/v1/phone', { items: [{ phone: '06 1234567' }], lingua: 'it' }));
  } finally {
    await small.close();
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Issue 34: the contract's conventions on every answer — `outcome` always, `credit` where a counter can be charged.

test('outcome on /countries and /credit; outcome and the counter’s state (nothing charged) on a 400 and on suggest', async (t) => {
  const token = await server.newToken('texts-conventions');
  const countries = await call(server, 'GET', '/api/v1/countries?q=ital', undefined, { token });
  t.is(countries.status, 200);
  t.deepEqual(countries.body.outcome, []);
  t.is(countries.body.credit, undefined, 'the catalogue charges no counter');
  const credit = await call(server, 'GET', '/api/v1/credito?lingua=it', undefined, { token });
  t.deepEqual(credit.body.esito, []);
  const bad = await call(server, 'POST', '/api/v1/phone', { phone: { x: 1 } }, { token });
  t.is(bad.status, 400);
  t.deepEqual(bad.body.outcome, []);
  t.like(bad.body.credit, { counter: 'light', charged: 0, available: 500, free: { operations: 0, remaining: 500 } });
  const unauthorized = await call(server, 'GET', '/api/v1/credit', undefined, { token: null });
  t.deepEqual([unauthorized.status, unauthorized.body.outcome, unauthorized.body.credit], [401, [], null], 'no caller: no counter to show');
  const session = '5d2c1e0f-7a6b-4c3d-9e8f-1a2b3c4d5e6f';
  const keystroke = await call(server, 'POST', '/api/v1/suggest', { session, q: 'via', city: 'Bologna' }, { token });
  t.is(keystroke.status, 200);
  t.deepEqual(keystroke.body.outcome, []);
  t.like(keystroke.body.credit, { counter: 'contact', charged: 0, available: 50 });
  const abroad = await call(server, 'POST', '/api/v1/suggerisci', { sessione: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', q: 'main street', nazione_iso2: 'US', lingua: 'it' }, { token });
  t.is(abroad.status, 200);
  t.deepEqual(abroad.body.esito, []);
  t.like(abroad.body.credito, { contatore: 'contatto', consumate: 0 });
  // the 400 after a charge shows what is left, not what the account started with
  t.is((await call(server, 'POST', '/api/v1/phone', { phone: '06 1234567' }, { token })).status, 200);
  t.like((await call(server, 'POST', '/api/v1/phone', { phone: [] }, { token })).body.credit, { charged: 0, available: 499 });
});

test('an Italian job’s CSV: Italian headers over Italian rows, whatever language the job was queued in', async (t) => {
  const token = await server.newToken('texts-csv');
  const items = [{ phone: '0039 06 1234567' }, { phone: '+41 44 123 45 67' }, { phone: 'abc' }];
  for (const queuedIn of ['it', 'en']) {
    const queued = await call(server, 'POST', '/api/v1/phone', { async: true, items, language: queuedIn }, { token });
    t.is(queued.status, 200);
    const job = queued.body.job ?? queued.body.lavoro;
    for (let i = 0; i < 100; i++) {
      const state = await call(server, 'GET', `/api/v1/phone?job=${job}`, undefined, { token });
      if (state.body.state === 'completed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const read = await call(server, 'GET', `/api/v1/telefono?lavoro=${job}&lingua=it`, undefined, { token });
    t.deepEqual(read.body.esito, [], 'a job read verifies nothing: outcome empty');
    const csv = await call(server, 'GET', `/api/v1/telefono?lavoro=${job}&formato=csv&lingua=it`, undefined, { token });
    t.is(csv.status, 200);
    const lines = String(csv.body).trim().split('\n');
    t.regex(lines[0] ?? '', /esito,esito_label,motivo/);
    t.is(lines.length, 4);
    for (const line of lines) t.deepEqual(englishWords(line), [], `queued in ${queuedIn}: ${line}`);
    t.true(lines.some((l) => l.includes('modificato')), 'the label of a corrected number in Italian');
  }
});

test('billing details of the contract: an empty e-mail costs nothing; a 413 does not use a batch call', async (t) => {
  const token = await server.newToken('texts-billing');
  const empty = await call(server, 'POST', '/api/v1/email', { email: '  ' }, { token });
  t.deepEqual([empty.body.outcome, empty.body.credit.charged], [['EMAIL_EMPTY'], 0]);
  const batch = await call(server, 'POST', '/api/v1/email', { items: [{ email: '' }, { email: 'mario.rossi@example.com', dns: false }] }, { token });
  t.is(batch.body.credit.charged, 1);
  const small = await startServer({ rateLimits: { single: 100, batch: 1, autocomplete: 100 } });
  try {
    const big = { items: Array.from({ length: 101 }, () => ({ website: 'example.com' })) };
    t.is((await call(small, 'POST', '/api/v1/website', big)).status, 413);
    t.is((await call(small, 'POST', '/api/v1/sito', { elementi: big.items })).status, 413);
    t.is((await call(small, 'POST', '/api/v1/dedupe', { records: Array.from({ length: 501 }, (_, i) => ({ last_name: `R${i}` })) })).status, 413);
    // the minute's one batch call is still there
    t.is((await call(small, 'POST', '/api/v1/website', { items: [{ website: 'example.com', network: false }] })).status, 200);
    t.is((await call(small, 'POST', '/api/v1/website', { items: [{ website: 'example.com', network: false }] })).status, 429);
  } finally {
    await small.close();
  }
});

test('enrichment answers comments always, empty when there is nothing to say', async (t) => {
  const plain = await call(server, 'POST', '/api/v1/enrichment', { last_name: 'Rossi', first_name: 'Mario' });
  t.deepEqual(plain.body.comments, []);
  const company = await call(server, 'POST', '/api/v1/arricchimento', { cognome: 'Rossi S.r.l.', lingua: 'it' });
  t.deepEqual(company.body.commenti, []);
});

test('auto top-up stopped by its monthly cap: the warning promises no pack, the 402 says the top-up failed', async (t) => {
  const token = await server.newToken('texts-cap');
  await spend(token, 500);
  // a pack of 100 light operations costs 0.20 €: a cap of 0.20 € allows exactly one
  await setAutoTopup(server.state, 'texts-cap', 'light', 100, 0.2);
  const before = await call(server, 'GET', '/api/v1/credit', undefined, { token });
  t.regex(before.body.counters.light.warning, /next call buys a pack/);
  await spend(token, 100);
  const after = await call(server, 'GET', '/api/v1/credit?language=it', undefined, { token });
  t.regex(after.body.contatori.leggere.avviso, /tetto mensile dell’auto-ricarica raggiunto/);
  t.notRegex(after.body.contatori.leggere.avviso, /prossima chiamata acquista/);
  const refused = await call(server, 'POST', '/api/v1/phone', { phone: '06 1234567', language: 'it' }, { token });
  t.is(refused.status, 402);
  t.regex(refused.body.message, /l’auto-ricarica non ha potuto acquistare un pacchetto: il tetto mensile di 0.2 € è raggiunto/);
  t.is(refused.body.details.auto_topup, 'monthly_cap_reached');
  const en = await call(server, 'POST', '/api/v1/phone', { phone: '06 1234567' }, { token });
  t.regex(en.body.message, /auto top-up could not buy a pack/);
});

test('a failed job says why in the reader’s language; the cause stays in the log', async (t) => {
  await server.newToken('texts-failed');
  // a chunk no capability can read (not a list of items): the worker throws on every attempt, the job fails
  const record = await server.service.jobs.adopt(
    { kind: 'phone', account: 'texts-failed', language: 'it', italian: true, counter: 'light', chunks: [{ rows: 1, units: 0, input: 42 }] },
    { account: 'texts-failed', counter: 'light', month: new Date().toISOString().slice(0, 7), free: 0, subscription: 0, packs: [] },
  );
  const token = await server.newToken('texts-failed');
  let read = await call(server, 'GET', `/api/v1/telefono?lavoro=${record.job}&lingua=it`, undefined, { token });
  for (let i = 0; i < 200 && read.body.stato !== 'fallito' && read.body.stato !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    read = await call(server, 'GET', `/api/v1/telefono?lavoro=${record.job}&lingua=it`, undefined, { token });
  }
  t.is(read.status, 200);
  t.is(read.body.ok, false, JSON.stringify(read.body));
  t.is(read.body.errore, 'Una parte del lavoro non è stata elaborata dopo 2 tentativi: le operazioni non elaborate sono state restituite.');
  t.deepEqual(englishWords(read.body.errore), []);
  const en = await call(server, 'GET', `/api/v1/phone?job=${record.job}`, undefined, { token });
  t.is(en.body.error, 'Part of the job could not be processed after 2 attempts: the operations not processed were given back.');
});

test('a compare with no personal data: the contract’s INCOMPLETE_DATA, the detail in the reason, in Italian', async (t) => {
  const token = await server.newToken('texts-compare');
  const r = await call(server, 'POST', '/api/v1/codicefiscale', { azione: 'confronta', codice_fiscale: 'RSSMRA80A01H501U', lingua: 'it' }, { token });
  t.is(r.status, 200);
  t.deepEqual([r.body.esito, r.body.errore], [['DATI_INCOMPLETI'], 'dati_persona']);
  t.is(r.body.motivo, 'Dati insufficienti: mancano i dati della persona da confrontare con il codice fiscale');
  t.deepEqual([r.body.note, r.body.commenti], [[], []]);
});

test('the other eleven languages fall back per string: a problem without its own text is English inside a message in the language asked', async (t) => {
  const token = await server.newToken('texts-fallback');
  // `at_most` is written in Italian, English, German, French and Spanish: Dutch gets the English problem in a Dutch sentence
  const over = await call(server, 'POST', '/api/v1/contact', { address: 'Via Roma 1', city: 'Bologna', precision: 9, language: 'nl' }, { token });
  t.is(over.status, 400);
  t.is(over.headers.get('content-language'), 'nl');
  t.is(over.body.message, 'Ongeldig veld precision: must be at most 5');
  const de = await call(server, 'POST', '/api/v1/contact', { address: 'Via Roma 1', city: 'Bologna', precision: 9, language: 'de' }, { token });
  t.is(de.body.message, 'Ungültiges Feld precision: darf höchstens 5 sein');
  // a problem written in Dutch: the whole message is Dutch
  const type = await call(server, 'POST', '/api/v1/phone', { phone: { x: 1 }, language: 'nl' }, { token });
  t.is(type.body.message, 'Ongeldig veld phone: moet een tekst zijn');
  // and Greek, by Accept-Language
  const greek = await call(server, 'POST', '/api/v1/phone', { items: [1] }, { token, headers: { 'accept-language': 'el' } });
  t.is(greek.status, 400);
  t.true((greek.body.message as string).endsWith(': πρέπει να είναι αντικείμενο'), greek.body.message as string);
});
