import test from 'ava';

import { setAutoTopup } from '../src/credit/ledger.js';
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
  } finally {
    await legacy.close();
  }
});
