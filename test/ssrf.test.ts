/**
 * The website checker's SSRF guard (issue 15) against DNS rebinding, IPv4 addresses written as decimal,
 * octal and hexadecimal, IPv6-mapped and other IPv6 forms carrying an IPv4 address, and redirects to
 * private addresses. Real servers on loopback and a real DNS server on 127.0.0.1 (dns-packet).
 *
 * The network here is loopback only, so 127.0.0.2 stands in for "a public address": the guard under test is
 * the production one (isPrivateAddress) for every address but that one. The private target is a server on
 * 127.0.0.1 at the same port; the property is that it never receives a request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import test from 'ava';

import { clearDnsCache } from '../src/email/dns.js';
import { probeWebsite } from '../src/website/fetch.js';
import { normaliseWebsite } from '../src/website/form.js';
import { isPrivateAddress } from '../src/website/ssrf.js';
import { startDnsResponder, type DnsResponder, type ZoneEntry } from './helpers/dns-server.js';
import { call, startServer, type TestServer } from './helpers/server.js';

const STAND_IN = '127.0.0.2';
const guard = (address: string) => address !== STAND_IN && isPrivateAddress(address);

interface Site {
  port: number;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

/** A server on `host`: `/to?u=<url>` redirects to <url>, anything else answers 200. */
async function site(host: string, port = 0): Promise<Site> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let publicSite: Site;
let privateSite: Site;
let dns: DnsResponder;
/** A-record answers of rebind.test, in order; the last one repeats. */
let rebindAnswers: string[] = [];

test.before(async () => {
  publicSite = await site(STAND_IN);
  privateSite = await site('127.0.0.1', publicSite.port);
  const rebind: ZoneEntry = {
    ttl: 0,
    get A() {
      return [rebindAnswers.length > 1 ? rebindAnswers.shift()! : rebindAnswers[0]!];
    },
  };
  dns = await startDnsResponder(
    new Map<string, ZoneEntry>([
      ['rebind.test', rebind],
      ['public.test', { A: [STAND_IN] }],
      ['localhost.test', { A: ['127.0.0.1'] }],
      ['mixed.test', { A: ['127.0.0.1', '10.1.2.3', STAND_IN] }],
      ['mapped.test', { AAAA: ['::ffff:127.0.0.1'] }],
      ['metadata.test', { A: ['169.254.169.254'] }],
    ]),
  );
});

test.after.always(async () => {
  await publicSite?.close();
  await privateSite?.close();
  await dns?.close();
});

test.afterEach(() => {
  privateSite.hits.length = 0;
  publicSite.hits.length = 0;
  clearDnsCache();
});

const probe = (url: string) => probeWebsite(new URL(url), { dnsServer: dns.server, isBlocked: guard, httpFallback: false });

test.serial('isPrivateAddress: every written form of a private IPv4 address inside IPv6 is private; public ones are not', (t) => {
  for (const a of [
    '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '192.0.2.1',
    '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '0000:0000:0000:0000:0000:ffff:7f00:0001', '::FFFF:10.0.0.1', '::ffff:a9fe:a9fe',
    '::127.0.0.1', '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::a00:1', '2002:7f00:1::1', '2002:c0a8:101::1', '2001:0:4136:e378::1',
    'not-an-address', '',
  ]) t.true(isPrivateAddress(a), a);
  for (const a of ['8.8.8.8', '93.184.216.34', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2a00:1450:4001:80b::200e', '2606:4700::6810:84e5']) {
    t.false(isPrivateAddress(a), a);
  }
});

test.serial('decimal, octal, hexadecimal and short IPv4 forms are read as the address they are, and refused', async (t) => {
  const port = privateSite.port;
  for (const written of [
    `http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`, `http://0x7f.0.0.1:${port}/`, `http://0x7f000001:${port}/`, `http://127.1:${port}/`,
    `http://017700000001:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[0:0:0:0:0:ffff:7f00:1]:${port}/`, `http://[::ffff:7f00:1]:${port}/`,
  ]) {
    const form = normaliseWebsite(written);
    t.truthy(form, written);
    const result = await probeWebsite(form!.url, { dnsServer: dns.server, isBlocked: guard, httpFallback: false });
    t.false(result.reachable, written);
    t.is(result.note, 'private address not contacted', written);
  }
  t.deepEqual(privateSite.hits, [], 'the private server was never contacted');
});

test.serial('DNS rebinding: a name that answers public, then 127.0.0.1, never reaches 127.0.0.1', async (t) => {
  // within one check: the public hop redirects to the same name; its answer is the checked one, never a second
  rebindAnswers = [STAND_IN, '127.0.0.1'];
  const url = `http://rebind.test:${publicSite.port}/`;
  const first = await probe(`${url}to?u=${encodeURIComponent(`${url}again`)}`);
  t.deepEqual(privateSite.hits, []);
  t.true(publicSite.hits.length >= 1, 'the public address was checked');
  if (first.reachable) t.is(first.status, 200, 'the second hop went to the public address again');
  else t.is(first.note, 'private address not contacted');
  // the next check asks DNS again and gets 127.0.0.1: refused before any connection
  clearDnsCache();
  const second = await probe(url);
  t.false(second.reachable);
  t.is(second.note, 'private address not contacted');
  t.deepEqual(privateSite.hits, [], 'the private server was never contacted');
  t.true(dns.queries.filter((q) => q === 'A rebind.test').length >= 2, 'DNS was asked again');
});

test.serial('a name resolving to private and public addresses is contacted on the public one only', async (t) => {
  const result = await probe(`http://mixed.test:${publicSite.port}/`);
  t.true(result.reachable);
  t.is(result.status, 200);
  t.deepEqual(publicSite.hits, ['/']);
  t.deepEqual(privateSite.hits, []);
});

test.serial('redirects to private addresses, in every form, are not followed', async (t) => {
  const port = publicSite.port;
  for (const target of [
    `http://127.0.0.1:${port}/`, `http://localhost.test:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://2130706433:${port}/`,
    `http://0177.0.0.1:${port}/`, `http://mapped.test:${port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://metadata.test/latest/meta-data/',
    `http://10.0.0.1:${port}/`, `https://127.0.0.1:${port}/`,
  ]) {
    publicSite.hits.length = 0;
    const result = await probe(`http://public.test:${port}/to?u=${encodeURIComponent(target)}`);
    t.is(publicSite.hits.length, 1, target);
    t.false(result.reachable && result.status === 200, target);
    t.is(result.note, 'private address not contacted', target);
    t.is(result.redirects.length, 1, target);
  }
  t.deepEqual(privateSite.hits, [], 'the private server was never contacted');
});

test.serial('through the API with the production guard: private targets are answered WEBSITE_NOT_RESPONDING, never contacted', async (t) => {
  let server: TestServer | undefined;
  try {
    server = await startServer({ dnsServer: dns.server, allowPrivateNetwork: false });
    const port = privateSite.port;
    const websites = [`http://2130706433:${port}/`, `http://0177.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://localhost.test:${port}/`, `http://mapped.test:${port}/`];
    const r = await call(server, 'POST', '/api/v1/website', { items: websites.map((website) => ({ website })) });
    t.is(r.status, 200);
    for (const { result } of r.body.results) {
      t.false(result.reachable);
      t.is(result.outcome[0], 'WEBSITE_NOT_RESPONDING');
    }
    t.deepEqual(privateSite.hits, []);
  } finally {
    await server?.close();
  }
});
