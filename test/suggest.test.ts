import { randomUUID } from 'node:crypto';

import test from 'ava';

import { luxembourg } from '../bench/foreign-data.js';
import { enterSession, findSession, SESSION_MS } from '../src/suggest/session.js';
import { call, startServer, type TestServer } from './helpers/server.js';
import { sourceCsv } from './helpers/source.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});

test.after.always(async () => {
  await server?.close();
});

/** Bologna's own house-number list (2012): the register's numbers for its streets come from it. */
const BOLOGNA = sourceCsv('it/civici/bologna/civici_2012.csv.gz');

function numbersOf(street: string): Set<string> {
  return new Set(BOLOGNA.filter((r) => r.DENOMINAZI === street).map((r) => String(Number(r.CIVICO))));
}

async function suggest(body: Record<string, unknown>, token?: string | null) {
  return call(server, 'POST', '/api/v1/suggest', body, token === undefined ? {} : { token });
}

test('a prefix in Bologna finds Via del Faggiolo; hints carry no postcode nor house number', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' });
  t.is(res.status, 200);
  t.true(res.body.supported);
  t.is(res.body.phase, 'streets');
  const hit = res.body.hints.find((h: { name: string }) => h.name === 'Via del Faggiolo');
  t.truthy(hit, JSON.stringify(res.body.hints));
  t.is(hit.type, 'street');
  t.is(hit.municipality, 'Bologna');
  t.is(hit.source, 'registry');
  t.regex(String(hit.id), /^\d+$/, 'the ANNCSU street id, as /contact gives it in territory.street_id');
  for (const h of res.body.hints) {
    t.false(/\b40\d{3}\b/.test(JSON.stringify(h)), 'no postcode in a street hint');
    t.deepEqual(Object.keys(h).sort(), ['area', 'id', 'municipality', 'name', 'source', 'type']);
  }
  t.regex(res.body.attribution, /ANNCSU/);
  t.regex(res.body.attribution, /Comune di Bologna/);
  t.deepEqual(res.body.parsed, { street: 'via del fag', house_number: null, postcode: null });
  t.like(res.body.credit, { counter: 'contact', charged: 0 }, 'a keystroke is free: the contact counter as it stands');
});

test('one field as people write it: street, number, postcode and city', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'Via del Faggiolo 7, 40132 Bologna' });
  t.is(res.status, 200);
  t.deepEqual(res.body.parsed, { street: 'Via del Faggiolo', house_number: '7', postcode: '40132' });
  t.is(res.body.hints[0]?.name, 'Via del Faggiolo');
  const noComma = await suggest({ session: randomUUID(), q: 'via del faggiolo 7 bologna (BO)' });
  t.is(noComma.body.parsed.house_number, '7');
  t.is(noComma.body.hints[0]?.name, 'Via del Faggiolo');
  const name = await suggest({ session: randomUUID(), q: 'via 4 novembre', city: 'Bologna' });
  t.is(name.body.parsed.house_number, null, 'a number right after the street type is part of the name');
});

test('with only the province, the streets of its municipalities are searched, each hint naming its municipality', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'via del faggiol', province: 'BO' });
  t.is(res.status, 200);
  const hit = res.body.hints.find((h: { name: string }) => h.name === 'Via del Faggiolo');
  t.is(hit?.municipality, 'Bologna', JSON.stringify(res.body.hints));
  const typo = await suggest({ session: randomUUID(), q: 'via del fagiolo', province: 'BO' });
  t.true(typo.body.hints.some((h: { name: string; municipality: string }) => h.name === 'Via del Faggiolo' && h.municipality === 'Bologna'), JSON.stringify(typo.body.hints));
});

test('a typo still finds the street', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'via del fagiolo', city: 'Bologna' });
  t.is(res.status, 200);
  t.is(res.body.hints[0]?.name, 'Via del Faggiolo');
});

test('a name the prefix search misses is found by the engine\'s street resolution', async (t) => {
  const milano = await suggest({ session: randomUUID(), q: 'corso garibaldi', city: 'Milano' });
  t.is(milano.status, 200);
  t.true(milano.body.hints.some((h: { name: string }) => h.name === 'Corso Giuseppe Garibaldi'), JSON.stringify(milano.body.hints));
  const bologna = await suggest({ session: randomUUID(), q: 'indipendenza', city: 'Bologna' });
  t.true(bologna.body.hints.some((h: { name: string }) => h.name === "Via dell'Indipendenza"), JSON.stringify(bologna.body.hints));
});

test('the municipality typed alone is proposed', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'Bologna' });
  t.is(res.status, 200);
  t.true(res.body.hints.some((h: { type: string; name: string; area: string }) => h.type === 'municipality' && h.name === 'Bologna' && h.area === 'BO'));
});

test('house numbers only after select in the same session; select charges once per street', async (t) => {
  const session = randomUUID();
  const found = await suggest({ session, q: 'via del faggiolo', city: 'Bologna' });
  const street = found.body.hints[0];
  t.is(street.name, 'Via del Faggiolo');

  const early = await suggest({ session, street_id: street.id, house_number: '1' });
  t.is(early.status, 409);
  t.is(early.body.code, 'selection_required');

  const real = numbersOf('VIA DEL FAGGIOLO');
  t.true(real.size > 10);
  const pick = [...real].sort((a, b) => Number(a) - Number(b))[3] as string;
  const selected = await suggest({ session, action: 'select', street_id: street.id, house_number: pick });
  t.is(selected.status, 200);
  t.is(selected.body.credit.charged, 1);
  t.is(selected.headers.get('x-service-charged'), '1');
  const direct = await call(server, 'POST', '/api/v1/contact', { address: `Via del Faggiolo ${pick}`, city: 'Bologna', province: 'BO', country_code: 'IT' });
  const { credit: _a, ...fromSelect } = selected.body;
  const { credit: _b, ...fromContact } = direct.body;
  t.deepEqual(fromSelect, fromContact, 'the same record /contact returns');
  t.is(selected.body.normalized.address, `Via del Faggiolo ${pick}`);

  const again = await suggest({ session, action: 'select', street_id: street.id, house_number: `${pick}` });
  t.is(again.body.credit.charged, 0, 'a refined select on the same street is not charged again');
  t.is(again.headers.get('x-service-charged'), '0');

  const numbers = await suggest({ session, street_id: street.id, house_number: pick.slice(0, 1) });
  t.is(numbers.status, 200);
  t.is(numbers.body.phase, 'house_numbers');
  t.true(numbers.body.hints.length > 0);
  for (const h of numbers.body.hints) {
    t.is(h.type, 'house_number');
    t.true(h.name.startsWith(pick.slice(0, 1)));
    t.true(real.has(String(Number(h.name.split('/')[0]))), `${h.name} is in Bologna's list`);
  }
  const exact = await suggest({ session, street_id: street.id, house_number: pick });
  t.true(exact.body.exists);
  t.is(exact.body.hints[0].name, pick);
  const missing = await suggest({ session, street_id: street.id, house_number: '9999' });
  t.false(missing.body.exists);
  t.deepEqual(missing.body.hints, []);

  const other = await suggest({ session, q: 'via normandia', city: 'Bologna' });
  const second = other.body.hints[0];
  t.is(second.name, 'Via Normandia');
  const elsewhere = await suggest({ session, street_id: second.id, house_number: '1' });
  t.is(elsewhere.body.code, 'selection_required', 'the phase belongs to the selected street');
  const charged = await suggest({ session, action: 'select', street_id: second.id, house_number: '90' });
  t.is(charged.body.credit.charged, 1, 'another street is charged again');

  const otherSession = await suggest({ session: randomUUID(), street_id: street.id, house_number: '1' });
  t.is(otherSession.status, 409);
  t.is(otherSession.body.code, 'selection_required');
});

test('another country in a session is 409; a country not in service is 200, unsupported, free, no session', async (t) => {
  const session = randomUUID();
  t.is((await suggest({ session, q: 'via del fag', city: 'Bologna' })).status, 200);
  const fr = await suggest({ session, q: 'rue de rivoli', city: 'Paris', country: 'Francia' });
  t.is(fr.status, 409);
  t.is(fr.body.code, 'session_country');

  const fresh = randomUUID();
  const unsupported = await suggest({ session: fresh, q: 'rue de rivoli, Paris', country_code: 'FR' });
  t.is(unsupported.status, 200);
  t.false(unsupported.body.supported);
  t.deepEqual(unsupported.body.hints, []);
  t.is(unsupported.body.credit.charged, 0);
  // no session was opened: the same UUID can still start an Italian one
  t.is((await suggest({ session: fresh, q: 'via del fag', city: 'Bologna' })).status, 200);
});

test('more than 30 calls in a session is 429 session_quota', async (t) => {
  const session = randomUUID();
  for (let i = 0; i < 30; i++) {
    const res = await suggest({ session, q: 'via del fag'.slice(0, 5 + (i % 6)), city: 'Bologna' });
    t.is(res.status, 200, `call ${i + 1}`);
  }
  const over = await suggest({ session, q: 'via del faggiolo', city: 'Bologna' });
  t.is(over.status, 429);
  t.is(over.body.code, 'session_quota');
});

test('Italian keys in and out with lingua it; seleziona on /suggerisci', async (t) => {
  const sessione = randomUUID();
  const res = await call(server, 'POST', '/api/v1/suggerisci', { sessione, q: 'via del fag', localita: 'Bologna', lingua: 'it' });
  t.is(res.status, 200);
  t.true(res.body.supportato);
  t.is(res.body.fase, 'vie');
  t.deepEqual(Object.keys(res.body.letto).sort(), ['cap', 'civico', 'strada']);
  const hint = res.body.suggerimenti[0];
  t.is(hint.fonte, 'registro');
  t.is(hint.comune, 'Bologna');
  const sel = await call(server, 'POST', '/api/v1/suggerisci', { sessione, azione: 'seleziona', via_id: hint.id, civico: '5', lingua: 'it' });
  t.is(sel.status, 200);
  t.is(sel.body.credito.consumate, 1);
  t.truthy(sel.body.normalizzato);
});

test('bad input is a 400; select with a token without an account reaches the session check; no token is 401', async (t) => {
  const bad = await suggest({ session: 'not-a-uuid', q: 'via' });
  t.is(bad.status, 400);
  t.is(bad.body.code, 'validation_failed');
  // a token without an account pays from its trial allowance (docs/credit.md): no 403, the street is checked
  const noAccount = await suggest({ session: randomUUID(), action: 'select', street_id: '1', house_number: '1' }, await server.newToken(null));
  t.is(noAccount.status, 400);
  t.is(noAccount.body.details[0].field, 'street_id');
  const anon = await suggest({ session: randomUUID(), q: 'via' }, null);
  t.is(anon.status, 401);
  const unknown = await suggest({ session: randomUUID(), action: 'select', street_id: '123', house_number: '1' });
  t.is(unknown.status, 400);
});

test('sessions without a selection: 200 a day per token, five more per selection, then 429 session_budget', async (t) => {
  const token = await server.newToken('budget');
  const first = randomUUID();
  const opened = await suggest({ session: first, q: 'via del faggiolo', city: 'Bologna' }, token);
  for (let i = 1; i < 200; i++) {
    const res = await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token);
    if (res.status !== 200) return t.fail(`session ${i + 1}: ${res.status}`);
  }
  const over = await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token);
  t.is(over.status, 429);
  t.is(over.body.code, 'session_budget');
  t.true(over.body.retry_after > 0 && over.body.retry_after <= 86_400);
  t.is(over.headers.get('retry-after'), String(over.body.retry_after));
  t.is((await suggest({ session: first, q: 'via del faggiolo', city: 'Bologna' }, token)).status, 200, 'an open session goes on');

  // a selection in the first session: that session no longer counts, and five more are free
  const sel = await suggest({ session: first, action: 'select', street_id: opened.body.hints[0].id, house_number: '5' }, token);
  t.is(sel.status, 200);
  for (let i = 0; i < 6; i++) t.is((await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token)).status, 200, `extra session ${i + 1}`);
  t.is((await suggest({ session: randomUUID(), q: 'via del fag', city: 'Bologna' }, token)).body.code, 'session_budget');
});

test('a session lasts ten minutes: past them the UUID starts a new session, without its selections', async (t) => {
  const db = server.state;
  const token = 'expiry-token';
  const id = randomUUID();
  const t0 = Date.UTC(2026, 0, 10, 12);
  const a = await enterSession(db, token, id, 'IT', t0);
  t.is(a.calls, 1);
  t.is((await enterSession(db, token, id, 'IT', t0 + SESSION_MS - 1)).calls, 2);
  t.is(await findSession(db, token, id, t0 + SESSION_MS + 1), undefined);
  const b = await enterSession(db, token, id, 'IT', t0 + SESSION_MS + 1);
  t.is(b.calls, 1);
  t.is(b.created, t0 + SESSION_MS + 1);
  t.deepEqual(b.selected, []);
});

test('a later word of the name typed alone finds the streets that have it, also with a typo or glued to the type', async (t) => {
  // every street of Bologna's list with the word MARCONI in its name, as the register has them
  const withWord = new Set(BOLOGNA.map((r) => r.DENOMINAZI as string).filter((n) => n.split(' ').includes('MARCONI')));
  t.true(withWord.size > 0);
  for (const q of ['marconi', 'marcnoi', 'ViaMarconi']) {
    const res = await suggest({ session: randomUUID(), q, city: 'Bologna' });
    t.is(res.status, 200);
    const names = res.body.hints.map((h: { name: string }) => h.name.toUpperCase());
    t.true(names.some((n: string) => withWord.has(n)), `${q}: ${names.join(', ')}`);
  }
  const milano = await suggest({ session: randomUUID(), q: 'garibaldi', city: 'Milano' });
  const names = milano.body.hints.map((h: { name: string }) => h.name);
  t.true(names.includes('Corso Giuseppe Garibaldi'), names.join(', '));
});

test('a register country (Luxembourg, CACLR): streets of the place, then the numbers of the street selected, then the contact', async (t) => {
  const rows = luxembourg().filter((r) => r.city === 'Luxembourg' && /^Rue [A-Z][a-z]{7,}$/.test(r.street));
  const row = rows[Math.floor(rows.length / 2)];
  if (!row) return t.fail('no Luxembourg row');
  const session = randomUUID();
  const typed = row.street.slice(0, row.street.length - 2).toLowerCase();
  const res = await suggest({ session, q: typed, city: 'Luxembourg', country_code: 'LU' });
  t.is(res.status, 200);
  t.true(res.body.supported);
  const hit = res.body.hints.find((h: { name: string }) => h.name === row.street);
  t.truthy(hit, `${typed}: ${JSON.stringify(res.body.hints)}`);
  t.is(hit.source, 'registry');
  t.regex(res.body.attribution, /cadastre et de la topographie/);
  const selected = await suggest({ session, action: 'select', street_id: hit.id, house_number: row.number, country_code: 'LU' });
  t.is(selected.status, 200, JSON.stringify(selected.body));
  t.is(selected.body.normalized.address, `${row.number}, ${row.street}`);
  t.is(selected.body.normalized.postcode, row.postcode);
  const numbers = await suggest({ session, street_id: hit.id, house_number: row.number, country_code: 'LU' });
  t.is(numbers.body.phase, 'house_numbers');
  t.true(numbers.body.exists);
  t.is(numbers.body.hints[0]?.name, row.number);
});

test('a register country’s free text is read by its postal format: `Bundesplatz 3, 3011 Bern` is street, number, postcode and city', async (t) => {
  const res = await suggest({ session: randomUUID(), q: 'Bundesplatz 3, 3011 Bern', country_code: 'CH' });
  t.is(res.status, 200);
  t.deepEqual(res.body.parsed, { street: 'Bundesplatz', house_number: '3', postcode: '3011' });
  t.true(
    res.body.hints.some((h: { name: string; municipality: string }) => h.name === 'Bundesplatz' && h.municipality === 'Bern'),
    JSON.stringify(res.body.hints),
  );
});
