import { randomBytes, scryptSync } from 'node:crypto';
import http from 'node:http';

import test from 'ava';

import { trustProxyOf } from '../src/config.js';
import { createUser, getUser, type ConsoleUser } from '../src/console/store.js';
import { doc } from '../src/state/store.js';
import { call, startServer, type TestServer } from './helpers/server.js';

/**
 * What is decided before a request's body is read, and on what (issue 33): the route the router matched,
 * not the raw URL; the token or the console session before any body; the proxies trusted by name only;
 * a sign-in backoff per e-mail; the console's Secure cookie behind a TLS proxy; no session for an
 * anonymous sign-in page; passwords at scrypt's OWASP cost. Real servers, real requests.
 */

const EMAIL = 'ada@example.it';
const PASSWORD = 'Ponte di Mezzo 1848';

/**
 * Sends the headers of a `declared`-byte body and its first MiB, then holds the rest back: resolves with
 * the status when the server answers without waiting for the body, null if it has not after `ms`.
 */
function answeredBeforeBody(url: string, path: string, headers: Record<string, string>, declared: number | 'chunked', ms = 20_000): Promise<number | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const lengthHeader: Record<string, string> = declared === 'chunked' ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(declared) };
    const req = http.request({ hostname, port, path, method: 'POST', headers: { ...headers, ...lengthHeader } });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(null);
    }, ms);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(1024 * 1024, 0x61));
  });
}

/** The sign-in page's form token and cookie, as a browser gets them. */
async function loginForm(url: string, headers: Record<string, string> = {}): Promise<{ cookie: string; csrf: string; setCookie: string[] }> {
  const res = await fetch(`${url}/console/login`, { headers });
  const setCookie = res.headers.getSetCookie();
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await res.text())?.[1] ?? '';
  return { cookie: setCookie.map((c) => c.split(';')[0]).join('; '), csrf, setCookie };
}

async function signIn(url: string, email: string, password: string, headers: Record<string, string> = {}): Promise<{ status: number; setCookie: string[]; text: string; retryAfter: string | null }> {
  const form = await loginForm(url, headers);
  const res = await fetch(`${url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: form.csrf, email, password }).toString(),
  });
  return { status: res.status, setCookie: res.headers.getSetCookie(), text: await res.text(), retryAfter: res.headers.get('retry-after') };
}

const sessions = async (server: TestServer) => (await server.state.list('console', { prefix: 'session/' })).length;

let server: TestServer;

test.before(async () => {
  server = await startServer();
  await createUser(server.state, server.account, EMAIL, PASSWORD);
});

test.after.always(async () => {
  await server?.close();
});

test.serial('percent-encoded paths are the routes they decode to: no answer without a token', async (t) => {
  for (const path of ['/api/v1/%63ountries?q=IT', '/api/v1/n%61zioni', '/api/v1/%63ountries', '/api/v1/countri%65s?q=FR']) {
    const anonymous = await call(server, 'GET', path, undefined, { token: null });
    t.true([401, 404].includes(anonymous.status), `${path} answered ${anonymous.status} without a token`);
    t.not(anonymous.status, 200);
  }
  // the same paths with the token reach the route: the router decodes them, and so does the token check now
  const known = await call(server, 'GET', '/api/v1/%63ountries?q=IT');
  t.is(known.status, 200);
  const posted = await call(server, 'POST', '/api/v1/%70hone', { phone: '+39 051 123456' }, { token: null });
  t.is(posted.status, 401);
  // a path no route has is a 404 for everyone; a known path with another method a 405 with Allow
  t.is((await call(server, 'POST', '/api/v1/nowhere', {}, { token: null })).status, 404);
  const wrongMethod = await call(server, 'DELETE', '/api/v1/countries', undefined, { token: null });
  t.is(wrongMethod.status, 405);
  t.truthy(wrongMethod.headers.get('allow'));
});

test.serial('an unauthenticated body is refused before it is read: API paths and the console', async (t) => {
  const big = 48 * 1024 * 1024;
  const json = { 'content-type': 'application/json' };
  t.is(await answeredBeforeBody(server.url, '/api/v1/contact', json, big), 401, 'a route that needs a token');
  t.is(await answeredBeforeBody(server.url, '/api/v1/nowhere', json, big), 404, 'a path no route has');
  t.is(await answeredBeforeBody(server.url, '/api/v1/%63ontact', json, big), 401, 'an encoded path');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  t.is(await answeredBeforeBody(server.url, '/console/login', form, big), 413, 'the sign-in form has a small limit');
  t.is(await answeredBeforeBody(server.url, '/console/login', form, 'chunked'), 413, 'a chunked sign-in body stops at the limit');
  t.is(await answeredBeforeBody(server.url, '/console/api/upload?name=x.csv', { 'content-type': 'application/octet-stream' }, big), 401, 'an upload needs a session first');
  t.is(await answeredBeforeBody(server.url, '/console/api/jobs', json, big), 401);
  // still alive and answering
  t.is((await fetch(`${server.url}/health`)).status, 200);
});

test.serial('the sign-in page stores no session until someone signs in; then the session works', async (t) => {
  const before = await sessions(server);
  for (let i = 0; i < 10; i++) {
    const form = await loginForm(server.url);
    t.false(form.setCookie.some((c) => c.startsWith('recapito_console=')), 'no session cookie for a visitor');
    t.truthy(form.csrf);
  }
  await fetch(`${server.url}/console/login?lang=it`);
  await fetch(`${server.url}/console/nowhere`);
  t.is(await sessions(server), before, 'anonymous visits stored no session');
  const good = await signIn(server.url, EMAIL, PASSWORD);
  t.is(good.status, 303);
  t.is(await sessions(server), before + 1);
  // the form's token is bound to its cookie: a token without the cookie (a cross-site form) is refused
  const form = await loginForm(server.url);
  const forged = await fetch(`${server.url}/console/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: form.csrf, email: EMAIL, password: PASSWORD }).toString() });
  t.is(forged.status, 403);
});

test.serial('a forged X-Forwarded-For does not lift the sign-in limit: 429 within 9 wrong passwords', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 9; i++) statuses.push((await signIn(server.url, 'mallory@example.it', 'wrong wrong wrong', { 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
  t.true(statuses.includes(429), statuses.join(' '));
  t.true(statuses.indexOf(429) <= 5, statuses.join(' '));
});

test.serial('behind trusted proxies, attempts from many addresses still meet the per-e-mail backoff; a good password is refused while it waits', async (t) => {
  const proxied = await startServer({ trustProxy: ['127.0.0.1'] });
  try {
    await createUser(proxied.state, proxied.account, EMAIL, PASSWORD);
    const statuses: number[] = [];
    // each attempt from another client address, as a trusted proxy reports them: the per-address limit never bites
    for (let i = 0; i < 9; i++) statuses.push((await signIn(proxied.url, EMAIL, `wrong ${i} wrong wrong`, { 'x-forwarded-for': `198.51.100.${i + 1}` })).status);
    t.deepEqual(statuses.slice(0, 5), [401, 401, 401, 401, 401], statuses.join(' '));
    t.true(statuses.slice(5).every((s) => s === 429), statuses.join(' '));
    const meanwhile = await signIn(proxied.url, EMAIL, PASSWORD, { 'x-forwarded-for': '198.51.100.200' });
    t.is(meanwhile.status, 429, 'the e-mail waits, whoever asks');
    t.regex(meanwhile.text, /try again in \d+ min/);
    // attempts refused while it waits are not counted: the first wait (a minute) is not stretched by them
    t.true(Number(meanwhile.retryAfter) >= 1 && Number(meanwhile.retryAfter) <= 60, `Retry-After ${meanwhile.retryAfter}`);
    // and another e-mail is not held by this one's failures
    await createUser(proxied.state, proxied.account, 'bea@example.it', PASSWORD);
    t.is((await signIn(proxied.url, 'bea@example.it', PASSWORD, { 'x-forwarded-for': '198.51.100.201' })).status, 303);
  } finally {
    await proxied.close();
  }
});

test.serial('the console cookie is Secure when a trusted proxy says https, and not on the word of anyone else', async (t) => {
  const https = { 'x-forwarded-proto': 'https' };
  const untrusted = await signIn(server.url, EMAIL, PASSWORD, https);
  t.is(untrusted.status, 303);
  t.false(untrusted.setCookie.some((c) => /;\s*Secure/i.test(c)), untrusted.setCookie.join(' | '));
  const proxied = await startServer({ trustProxy: ['loopback'] });
  try {
    await createUser(proxied.state, proxied.account, EMAIL, PASSWORD);
    const form = await loginForm(proxied.url, https);
    t.true(form.setCookie.some((c) => c.startsWith('recapito_login=') && /;\s*Secure/i.test(c)), form.setCookie.join(' | '));
    const good = await signIn(proxied.url, EMAIL, PASSWORD, https);
    t.is(good.status, 303);
    const session = good.setCookie.find((c) => c.startsWith('recapito_console='));
    t.truthy(session);
    t.regex(session ?? '', /;\s*Secure/i);
    t.regex(session ?? '', /SameSite=Strict/i);
    // over the proxy's plain http, no Secure (a browser would drop it)
    const plain = await signIn(proxied.url, EMAIL, PASSWORD, { 'x-forwarded-proto': 'http' });
    t.false(plain.setCookie.some((c) => /;\s*Secure/i.test(c)));
  } finally {
    await proxied.close();
  }
});

test.serial('passwords are hashed at scrypt N=2^17; an older 2^15 hash still signs in and is hashed again', async (t) => {
  const fresh = await getUser(server.state, EMAIL);
  t.regex(fresh?.password ?? '', /^scrypt\$131072\$8\$1\$/);
  const email = 'old@example.it';
  const salt = randomBytes(16);
  const old = ['scrypt', 32768, 8, 1, salt.toString('base64'), scryptSync(PASSWORD.normalize('NFC'), salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('base64')].join('$');
  const user: ConsoleUser = { email, account: server.account, password: old, created: new Date().toISOString(), disabled: null, generation: 1, last_login: null };
  await server.state.update([doc('console', `user/${email}`)], () => ({ result: undefined, write: [{ ns: 'console', key: `user/${email}`, doc: user }] })).durable;
  t.is((await signIn(server.url, email, 'not the password at all')).status, 401);
  t.is((await getUser(server.state, email))?.password, old, 'a wrong password changes nothing');
  t.is((await signIn(server.url, email, PASSWORD)).status, 303);
  const rehashed = (await getUser(server.state, email))?.password ?? '';
  t.regex(rehashed, /^scrypt\$131072\$8\$1\$/);
  t.is((await getUser(server.state, email))?.generation, 1, 'open sessions stay open');
  t.is((await signIn(server.url, email, PASSWORD)).status, 303, 'the new hash signs in');
});

test.serial('RECAPITO_TRUST_PROXY: off by default; named addresses only, never a count or everyone', (t) => {
  t.is(trustProxyOf(undefined), false);
  t.is(trustProxyOf(''), false);
  t.is(trustProxyOf('0'), false);
  t.deepEqual(trustProxyOf('loopback, 10.0.0.0/8'), ['loopback', '10.0.0.0/8']);
  t.throws(() => trustProxyOf('true'), { message: /name the proxy addresses/ });
  t.throws(() => trustProxyOf('2'), { message: /name the proxy addresses/ });
});
