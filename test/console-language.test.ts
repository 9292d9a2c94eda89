/**
 * The console's refusals in the console's language (issue 34): the per-address sign-in limit, the wait of an
 * e-mail after wrong passwords and the limit on live tokens answer in Italian when Italian is asked, in English
 * otherwise; never the English identifiers of the code that refused. The session cookie is signed
 * (@fastify/session through @fastify/cookie): signing in and reading a page with it checks the signature both
 * ways. Real server, plain HTTP.
 */
import test from 'ava';

import { createUser } from '../src/console/store.js';
import { startServer, type TestServer } from './helpers/server.js';

process.env.RECAPITO_MAX_TOKENS_PER_ACCOUNT = '3';

let server: TestServer;

test.before(async () => {
  server = await startServer();
});

test.after.always(async () => {
  await server?.close();
});

/** The sign-in form's cookie and token, then a POST of the form; the answer's status, cookies and text. */
async function signIn(email: string, password: string, headers: Record<string, string> = {}, query = ''): Promise<{ status: number; cookie: string; text: string }> {
  const form = await fetch(`${server.url}/console/login${query}`, { headers });
  const first = form.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${server.url}/console/login${query}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie: first, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') || first;
  return { status: res.status, cookie, text: await res.text() };
}

/** The visible text of a page: tags, scripts and styles out. */
function visible(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

test('the per-address sign-in limit answers in the language asked', async (t) => {
  for (const [headers, query, expected, foreign] of [
    [{ 'accept-language': 'it' }, '', 'Troppi tentativi: attendi un minuto e riprova.', /too many|attempts/i],
    [{}, '?lang=it', 'Troppi tentativi: attendi un minuto e riprova.', /too many|attempts/i],
    [{ 'accept-language': 'en' }, '', 'Too many attempts: wait a minute and try again.', /troppi/i],
  ] as const) {
    // another e-mail each round: the per-e-mail wait must not answer first
    const email = `mallory-${query ? 'q' : headers['accept-language']}@example.it`;
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 6; i++) {
      const r = await signIn(email, 'wrong wrong wrong', headers, query);
      statuses.push(r.status);
      last = r.text;
    }
    t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    const text = visible(last);
    t.true(text.includes(expected), text);
    t.notRegex(text, foreign);
    t.notRegex(text, /sign-in attempts|login_limited/);
  }
});

test('an account at its limit of live tokens is told so in Italian, with the limit', async (t) => {
  const email = 'ada@example.it';
  const password = 'Ponte di Mezzo 1848';
  await createUser(server.state, server.account, email, password);
  const signed = await signIn(email, password, {}, '?lang=it');
  t.is(signed.status, 303);
  // the signed session cookie opens the console: its signature was written and checked
  const tokens = await fetch(`${server.url}/console/tokens`, { headers: { cookie: signed.cookie } });
  t.is(tokens.status, 200);
  const page = await tokens.text();
  t.regex(page, /Token API/);
  // a tampered signature opens nothing
  const dot = signed.cookie.lastIndexOf('.');
  const forged = `${signed.cookie.slice(0, dot + 1)}${signed.cookie[dot + 1] === 'A' ? 'B' : 'A'}${signed.cookie.slice(dot + 2)}`;
  t.not(forged, signed.cookie);
  t.is((await fetch(`${server.url}/console/tokens`, { headers: { cookie: forged }, redirect: 'manual' })).status, 303);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  let refused: Response | undefined;
  for (let i = 0; i < 6 && !refused; i++) {
    const res = await fetch(`${server.url}/console/tokens/create`, {
      method: 'POST',
      headers: { cookie: signed.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, expiry: '' }).toString(),
    });
    if (res.status !== 200) refused = res;
    else await res.text();
  }
  t.truthy(refused, 'the limit refused a token');
  t.is(refused!.status, 409);
  const text = visible(await refused!.text());
  t.true(text.includes('Questo account ha già 3 token attivi, il massimo consentito: revocane uno prima.'), text);
  t.notRegex(text, /live tokens|RECAPITO_MAX_TOKENS|revoke one/);
  // a refused upload, from the page's script: the console's text in the session's language
  const csrfToken = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
  const upload = async (name: string, data: Buffer) => {
    const res = await fetch(`${server.url}/console/api/upload?name=${encodeURIComponent(name)}`, { method: 'POST', headers: { cookie: signed.cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/octet-stream' }, body: data });
    return { status: res.status, message: ((await res.json()) as { message: string }).message };
  };
  t.deepEqual(await upload('vuoto.csv', Buffer.alloc(0)), { status: 400, message: 'Il file è vuoto.' });
  t.deepEqual(await upload('vecchio.xls', Buffer.from('whatever')), { status: 400, message: 'Le vecchie cartelle .xls non si leggono: salva il foglio come .xlsx o .csv.' });
  t.deepEqual(await upload('rotto.xlsx', Buffer.from('PK not a zip')), { status: 400, message: 'Il file non è una cartella XLSX leggibile.' });
});

test('the wait of an e-mail after wrong passwords, in Italian', async (t) => {
  const email = 'bea@example.it';
  await createUser(server.state, server.account, email, 'Ponte di Mezzo 1848');
  // from another client address each time the per-address limit would answer first: wait for the e-mail's
  let text = '';
  for (let i = 0; i < 7 && !text.includes('riprova tra'); i++) {
    const r = await signIn(email, `wrong ${i} wrong`, { 'accept-language': 'it-IT,it;q=0.9' });
    text = visible(r.text);
  }
  t.regex(text, /Troppi tentativi|Troppe password errate per questa e-mail: riprova tra \d+ min\./);
  t.notRegex(text, /try again|too many/i);
});
