import test from 'ava';
import fc from 'fast-check';

import { englishKey, italianJson, toEnglishInput, toItalianOutput } from '../src/http/keys.js';
import { ALL_OUTCOMES } from '../src/capabilities.js';
import { languageFromAcceptHeader } from '../src/http/language.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 1000, batch: 1000, autocomplete: 1000 } });
});
test.after.always(async () => server?.close());

test('the index is public and lists every endpoint, async usage and statuses', async (t) => {
  const r = await call(server, 'GET', '/api/v1/', undefined, { token: null });
  t.is(r.status, 200);
  const paths = (r.body.endpoints as { path: string }[]).map((e) => e.path);
  t.true(paths.includes('/api/v1/phone'));
  t.true(paths.some((p) => p.startsWith('/api/v1/countries')));
  t.true(paths.includes('/api/v1/credit'));
  t.deepEqual(r.body.async.states, ['queued', 'running', 'completed', 'failed', 'cancelled']);
  t.true(r.body.statuses['402'].includes('payment_required'));
  t.true((r.body.attribution as string[]).some((a) => a.includes('ANPR')));
});

test('401 for a missing, an invalid, an expired and a revoked token', async (t) => {
  const missing = await call(server, 'GET', '/api/v1/countries', undefined, { token: null });
  t.is(missing.status, 401);
  t.is(missing.body.code, 'unauthorized');
  t.false(missing.body.ok);

  const invalid = await call(server, 'GET', '/api/v1/countries', undefined, { token: 'rk_not_a_real_token' });
  t.is(invalid.status, 401);
  t.is(invalid.body.code, 'token_invalid');

  const expired = await server.newToken('test', new Date(Date.now() - 60_000).toISOString());
  const e = await call(server, 'GET', '/api/v1/countries', undefined, { token: expired });
  t.is(e.status, 401);
  t.is(e.body.code, 'token_expired');

  const { revokeToken } = await import('../src/state/tokens.js');
  const doomed = await server.newToken();
  t.is((await call(server, 'GET', '/api/v1/countries?q=IT', undefined, { token: doomed })).status, 200);
  await revokeToken(server.state, doomed);
  const revoked = await call(server, 'GET', '/api/v1/countries', undefined, { token: doomed });
  t.is(revoked.status, 401);
  t.is(revoked.body.code, 'token_revoked');
});

test('a token not tied to an account cannot read credit (403) but verifies from its trial allowance', async (t) => {
  const loose = await server.newToken(null);
  t.is((await call(server, 'GET', '/api/v1/countries?q=FR', undefined, { token: loose })).status, 200);
  const credit = await call(server, 'GET', '/api/v1/credit', undefined, { token: loose });
  t.is(credit.status, 403);
  t.is(credit.body.code, 'account_required');
  const phone = await call(server, 'POST', '/api/v1/phone', { phone: '0212345678' }, { token: loose });
  t.is(phone.status, 200);
});

test('Italian keys, values and synonyms in; Italian keys, codes and values out with language it', async (t) => {
  const italian = await call(server, 'POST', '/api/v1/telefono', { telefono: '+39 02 1234 5678', formato: 'internazionale', lingua: 'it' });
  t.is(italian.status, 200);
  t.truthy(italian.body.telefono);
  t.true(String(italian.body.telefono).startsWith('+39'));
  t.truthy(italian.body.esito);
  t.is(italian.body.credito.contatore, 'leggere');
  t.is(italian.headers.get('content-language'), 'it');
  t.is(italian.body.phone, undefined);

  const english = await call(server, 'POST', '/api/v1/phone', { phone_number: '02 1234 5678' });
  t.is(english.status, 200);
  t.is(english.body.phone, '0212345678');
  t.is(english.body.credit.counter, 'light');
  t.is(english.headers.get('content-language'), 'en');
});

test('the key mapping covers the spec word for word, both ways', (t) => {
  t.is(englishKey('cap'), 'postcode');
  t.is(englishKey('codice_fiscale'), 'tax_code');
  t.is(englishKey('zip'), 'postcode');
  t.is(englishKey('surname'), 'last_name');
  t.is(englishKey('date_of_birth'), 'birth_date');
  t.deepEqual(toEnglishInput({ azione: 'genera', elementi: [{ cognome: 'Rossi', livello_minimo: 'certo' }] }), {
    action: 'generate',
    items: [{ last_name: 'Rossi', min_level: 'certain' }],
  });
  t.deepEqual(toItalianOutput({ state: 'queued', outcomes: { to_check: 1 }, level: 'probable', address_key: 'x' }), {
    stato: 'in_coda',
    esiti: { da_controllare: 1 },
    livello: 'probabile',
    indirizzo_confronto: 'x',
  });
});

test('Italian keys worked on the text are the object walk\'s: keys, enumerated values, outcome codes at any depth', (t) => {
  // keys the mapping knows (and some it does not), the fields that carry enumerated values or outcome codes
  const keys = ['outcome', 'record_outcome', 'tax_code_outcome', 'state', 'level', 'counter', 'class', 'type', 'address', 'postcode', 'city', 'credit', 'note', 'outcomes', 'to_check', 'message', 'label', 'x', 'a"b', 'é\u2013', 'constructor'];
  const strings = ['queued', 'probable', 'contact', 'mobile', 'toll-free', 'ok', 'modified', ...Object.keys(ALL_OUTCOMES).slice(0, 12), 'Via "Roma" 1\\', 'a\u0001b', 'Fonte: ANNCSU – ISTAT', '', 'constructor'];
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...strings), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.constantFrom(...keys), tie('value'), { maxKeys: 6 }),
  }));
  let compared = 0;
  fc.assert(
    fc.property(json.object, (value) => {
      const text = JSON.stringify(value);
      const expected = JSON.stringify(toItalianOutput(JSON.parse(text)));
      compared++;
      // compact text and indented text (not compact: the long way) alike
      return JSON.stringify(JSON.parse(italianJson(text))) === expected && italianJson(JSON.stringify(value, null, 1)) === expected;
    }),
    { seed: 20261126, numRuns: 3000 },
  );
  t.is(compared, 3000);
  // a real answer's shape: keys, a nested enumerated value, the outcome codes, escapes kept as they are
  const answer = '{"ok":true,"outcome":["MODIFIED","PROVINCE"],"normalized":{"postcode":"40132"},"message":"ISTAT \\u2013 x","state":"queued","credit":{"counter":"contact","note":null}}';
  t.is(italianJson(answer), '{"ok":true,"esito":["MODIFICATO","PROVINCIA"],"normalizzato":{"cap":"40132"},"message":"ISTAT \\u2013 x","stato":"in_coda","credito":{"contatore":"contatto","nota":null}}');
});

test('language: body, then query, then Accept-Language, then the account', async (t) => {
  const name = async (path: string, headers: Record<string, string> = {}, token?: string) =>
    (await call(server, 'GET', path, undefined, { headers, token })).body;
  t.is((await name('/api/v1/countries?q=GR&language=de', { 'accept-language': 'fr' })).countries[0].name, 'Griechenland');
  t.is((await name('/api/v1/countries?q=GR', { 'accept-language': 'fr-CH, de;q=0.5' })).countries[0].name, 'Grèce');
  const { createAccount, createToken } = await import('../src/state/tokens.js');
  await createAccount(server.state, 'greek', 'el');
  const greek = (await createToken(server.state, 'greek')).token;
  const byAccount = await call(server, 'GET', '/api/v1/countries?q=GR', undefined, { token: greek });
  t.is(byAccount.body.countries[0].name, 'Ελλάδα');
  t.is(byAccount.headers.get('content-language'), 'el');
  // the body wins over the query string
  const phone = await call(server, 'POST', '/api/v1/phone?language=de', { phone: 'abc', language: 'es' });
  t.is(phone.headers.get('content-language'), 'es');
  const bad = await call(server, 'GET', '/api/v1/countries?language=xx');
  t.is(bad.status, 400);
  t.is(bad.body.details[0].field, 'language');
  t.is(languageFromAcceptHeader('nb-NO,en;q=0.1'), 'no');
});

test('405 for a wrong method on a known path, 404 for an unknown path, both with the error body', async (t) => {
  const r = await call(server, 'PUT', '/api/v1/phone', { phone: '1' });
  t.is(r.status, 405);
  t.is(r.body.code, 'method_not_allowed');
  t.regex(r.headers.get('allow') ?? '', /POST/);
  const nf = await call(server, 'GET', '/api/v1/nothing-here');
  t.is(nf.status, 404);
  t.is(nf.body.code, 'not_found');
});

test('413 names the cap; 400 names the field; bad JSON is 400; unknown fields are tolerated', async (t) => {
  const items = Array.from({ length: 5001 }, () => ({ phone: '021234567' }));
  const big = await call(server, 'POST', '/api/v1/phone', { items });
  t.is(big.status, 413);
  t.is(big.body.code, 'too_many_items');
  t.is(big.body.details.cap, 5000);
  t.regex(big.body.message, /5000/);

  const wrongType = await call(server, 'POST', '/api/v1/phone', { items: [{ phone: '021234567' }, { phone: { number: 12 } }] });
  t.is(wrongType.status, 400);
  t.is(wrongType.body.code, 'validation_failed');
  t.is(wrongType.body.details[0].field, 'items.1.phone');

  const asyncWrong = await call(server, 'POST', '/api/v1/phone', { items: [{ phone: '1' }], async: 'yes' });
  t.is(asyncWrong.status, 400);
  t.is(asyncWrong.body.details[0].field, 'async');

  const notJson = await call(server, 'POST', '/api/v1/phone', '{"phone": ', {});
  t.is(notJson.status, 400);
  t.is(notJson.body.code, 'invalid_json');

  const extra = await call(server, 'POST', '/api/v1/phone', { phone: '021234567', favourite_colour: 'blue' });
  t.is(extra.status, 200);
});

test('429 with retry_after in the body and Retry-After once a token passes its minute', async (t) => {
  const limited = await startServer({ rateLimits: { single: 5, batch: 2, autocomplete: 10 } });
  try {
    for (let i = 0; i < 5; i++) t.is((await call(limited, 'GET', '/api/v1/countries?q=IT')).status, 200);
    const over = await call(limited, 'GET', '/api/v1/countries?q=IT');
    t.is(over.status, 429);
    t.is(over.body.code, 'rate_limited');
    t.true(over.body.retry_after > 0 && over.body.retry_after <= 60);
    t.truthy(over.headers.get('retry-after'));
    // batch calls have their own, smaller, budget
    for (let i = 0; i < 2; i++) t.is((await call(limited, 'POST', '/api/v1/phone', { items: [{ phone: '021234567' }] })).status, 200);
    t.is((await call(limited, 'POST', '/api/v1/phone', { items: [{ phone: '021234567' }] })).status, 429);
    // another token is not slowed down by the first
    t.is((await call(limited, 'GET', '/api/v1/countries?q=IT', undefined, { token: await limited.newToken() })).status, 200);
  } finally {
    await limited.close();
  }
});

test('countries: search by code, by name in several languages, by nickname', async (t) => {
  const first = async (q: string) => (await call(server, 'GET', `/api/v1/countries?q=${encodeURIComponent(q)}`)).body.countries[0]?.iso2;
  t.is(await first('DEU'), 'DE');
  t.is(await first('Deutschland'), 'DE');
  t.is(await first('Allemagne'), 'DE');
  t.is(await first('Svizzera'), 'CH');
  t.is(await first('Ελλάδα'), 'GR');
  t.is(await first('Grecia'), 'GR');
  t.is(await first('UK'), 'GB');
  t.is(await first('Holland'), 'NL');
  t.is(await first('USA'), 'US');
  t.is(await first('America'), 'US');
  t.is(await first('Islanda'), 'IS');
  t.is(await first('Suomi'), 'FI');
  const all = await call(server, 'GET', '/api/v1/nazioni?lingua=it');
  t.true(all.body.count >= 249);
  t.truthy(all.body.nazioni[0].codice_iso2);
});

test('OpenAPI 3.1 comes from the request schemas', async (t) => {
  const r = await call(server, 'GET', '/api/v1/openapi.json', undefined, { token: null });
  t.is(r.status, 200);
  t.is(r.body.openapi, '3.1.0');
  t.truthy(r.body.paths['/api/v1/phone'].post);
  t.truthy(r.body.components.schemas.PhoneItem.properties.phone);
  t.truthy(r.body.paths['/api/v1/dedupe'].post);
  t.truthy(r.body.components.schemas.DedupeRequest.properties.records);
  t.truthy(r.body.components.schemas.SuggestRequest.properties.session);
});

test('the legacy host answers Italian keys and codes by default, English when the request says so', async (t) => {
  const legacy = await startServer({ legacyHosts: ['legacy.example.it'], rateLimits: { single: 1000, batch: 1000, autocomplete: 1000 } });
  try {
    const { request } = await import('node:http');
    const port = new URL(legacy.url).port;
    const post = (body: unknown, host: string) =>
      new Promise<{ status: number; language: string; body: Record<string, unknown> }>((resolve, reject) => {
        const data = JSON.stringify(body);
        const req = request({ host: '127.0.0.1', port, path: '/api/v1/telefono', method: 'POST', headers: { host, authorization: `Bearer ${legacy.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, language: String(res.headers['content-language']), body: JSON.parse(text) as Record<string, unknown> }));
        });
        req.on('error', reject);
        req.end(data);
      });
    const byDefault = await post({ telefono: '+41 44 668 18 00' }, 'legacy.example.it');
    t.is(byDefault.status, 200);
    t.truthy(byDefault.body.telefono);
    t.deepEqual(byDefault.body.esito, ['TELEFONO_ESTERO']);
    // keys, codes and texts are Italian, whatever the account's language (en here): they never disagree (issue 34)
    t.is(byDefault.language, 'it');
    t.is(byDefault.body.motivo, 'Numero estero: forma controllata in E.164');
    const english = await post({ phone: '+41 44 668 18 00', language: 'en' }, 'legacy.example.it');
    t.truthy(english.body.phone);
    t.deepEqual(english.body.outcome, ['PHONE_FOREIGN']);
    const production = await post({ phone: '+41 44 668 18 00' }, 'api.example.it');
    t.truthy(production.body.outcome);
  } finally {
    await legacy.close();
  }
});
