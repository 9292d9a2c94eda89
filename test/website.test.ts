import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import test from 'ava';
import { generate } from 'selfsigned';

import type { ItemResult, ProcessContext } from '../src/http/capability.js';
import { labelOf } from '../src/http/outcomes.js';
import { MAX_REDIRECTS, probeWebsite } from '../src/website/fetch.js';
import { capability } from '../src/website/service.js';
import { isPrivateAddress } from '../src/website/ssrf.js';
import { startDnsResponder, type DnsResponder, type ZoneEntry } from './helpers/dns-server.js';

const HOSTS = ['site.test', 'valid.test', 'other.test', 'selfsigned.test', 'expired.test', 'silent.test', 'closed.test'];
let dns: DnsResponder;
const servers: net.Server[] = [];
const port: Record<string, number> = {};
const YEAR = 365 * 24 * 3600 * 1000;

function listen(server: net.Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Every server answers the same paths: statuses, redirect chains and loops. */
function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const p = req.url ?? '/';
  const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
  const chain = /^\/chain\/(\d+)$/.exec(p);
  if (p === '/ok') res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>ok</h1>');
  else if (p === '/missing') res.writeHead(404).end();
  else if (p === '/gone') res.writeHead(410).end();
  else if (p === '/private') res.writeHead(401).end();
  else if (p === '/forbidden') res.writeHead(403).end();
  else if (p === '/error') res.writeHead(503).end();
  else if (p === '/teapot') res.writeHead(418).end();
  else if (p === '/no-location') res.writeHead(302).end();
  else if (p === '/r1') redirect(301, '/r2');
  else if (p === '/r2') redirect(302, `http://site.test:${port.http}/ok`);
  else if (p === '/loop-a') redirect(302, '/loop-b');
  else if (p === '/loop-b') redirect(307, '/loop-a');
  else if (chain) redirect(302, `/chain/${Number(chain[1]) + 1}`);
  else if (p === '/to-https') redirect(301, `https://valid.test:${port.valid}/ok`);
  else if (p === '/to-blocked') redirect(302, `http://blocked.test:${port.http}/ok`);
  else res.writeHead(404).end();
}

test.before(async () => {
  const ca = await generate([{ name: 'commonName', value: 'recapito test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + YEAR),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const leaf = (host: string, extra: Parameters<typeof generate>[1] = {}) =>
    generate([{ name: 'commonName', value: host }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + YEAR),
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: host }] }],
      ...extra,
    });
  const valid = await leaf('valid.test', { ca: { key: ca.private, cert: ca.cert } });
  const expired = await leaf('expired.test', {
    ca: { key: ca.private, cert: ca.cert },
    notBeforeDate: new Date(Date.now() - 2 * YEAR),
    notAfterDate: new Date(Date.now() - YEAR),
  });
  const selfSigned = await leaf('selfsigned.test');

  // the client trusts the test CA through the same variable production reads (see docs/website.md)
  const caFile = path.join(await mkdtemp(path.join(tmpdir(), 'recapito-web-')), 'ca.pem');
  await writeFile(caFile, ca.cert);
  process.env.RECAPITO_EXTRA_CA_FILE = caFile;

  port.http = await listen(http.createServer(handler));
  port.valid = await listen(https.createServer({ key: valid.private, cert: valid.cert }, handler));
  port.expired = await listen(https.createServer({ key: expired.private, cert: expired.cert }, handler));
  port.selfsigned = await listen(https.createServer({ key: selfSigned.private, cert: selfSigned.cert }, handler));
  // accepts connections and never answers
  port.silent = await listen(net.createServer(() => undefined));
  const closed = net.createServer();
  port.closed = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)));
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  const zone = new Map<string, ZoneEntry>(HOSTS.map((h) => [h, { A: ['127.0.0.1'] }]));
  zone.set('blocked.test', { A: ['127.0.0.2'] });
  dns = await startDnsResponder(zone);
});

test.after.always(async () => {
  for (const s of servers) s.close();
  await dns?.close();
});

function ctx(allowPrivateNetwork = true): ProcessContext {
  return { language: 'en', dataDir: '/nonexistent', allowPrivateNetwork, dnsServer: dns.server };
}

async function check(website: string, extra: Record<string, unknown> = {}, allowPrivate = true): Promise<ItemResult> {
  const [r] = await capability.run([capability.item.parse({ website, ...extra })], ctx(allowPrivate));
  if (!r) throw new Error('no result');
  return r;
}

test('a page that answers 200: reachable, no outcome, no certificate over http', async (t) => {
  const url = `http://site.test:${port.http}/ok`;
  const r = await check(url);
  t.deepEqual(r.outcome, []);
  t.true(r.reachable as boolean);
  t.is(r.final_url, url);
  t.deepEqual(r.redirects, []);
  t.is(r.certificate_ok, null);
});

test('final statuses map to their outcomes', async (t) => {
  const cases: [string, string][] = [
    ['/missing', 'WEBSITE_PAGE_NOT_FOUND'], ['/gone', 'WEBSITE_PAGE_NOT_FOUND'], ['/private', 'WEBSITE_ACCESS_DENIED'],
    ['/forbidden', 'WEBSITE_ACCESS_DENIED'], ['/error', 'WEBSITE_RESPONSE_ANOMALOUS'], ['/teapot', 'WEBSITE_RESPONSE_ANOMALOUS'],
    ['/no-location', 'WEBSITE_RESPONSE_ANOMALOUS'],
  ];
  const results = await capability.run(cases.map(([p]) => ({ website: `http://site.test:${port.http}${p}` })), ctx());
  results.forEach((r, i) => {
    t.deepEqual(r.outcome, [cases[i]![1]], cases[i]![0]);
    t.true(r.reachable as boolean);
  });
});

test('redirects are followed one at a time and recorded', async (t) => {
  const r = await check(`http://site.test:${port.http}/r1`);
  t.deepEqual(r.outcome, []);
  t.deepEqual(r.redirects, [
    { url: `http://site.test:${port.http}/r1`, status: 301 },
    { url: `http://site.test:${port.http}/r2`, status: 302 },
  ]);
  t.is(r.final_url, `http://site.test:${port.http}/ok`);
  const toHttps = await check(`http://site.test:${port.http}/to-https`);
  t.is(toHttps.final_url, `https://valid.test:${port.valid}/ok`);
  t.true(toHttps.certificate_ok as boolean);
});

test('redirect loops and overlong chains stop as anomalous', async (t) => {
  const loop = await check(`http://site.test:${port.http}/loop-a`);
  t.deepEqual(loop.outcome, ['WEBSITE_RESPONSE_ANOMALOUS']);
  t.is(loop.note, 'redirect loop');
  t.is((loop.redirects as unknown[]).length, 2);
  const chain = await check(`http://site.test:${port.http}/chain/0`);
  t.deepEqual(chain.outcome, ['WEBSITE_RESPONSE_ANOMALOUS']);
  t.is((chain.redirects as unknown[]).length, MAX_REDIRECTS);
});

test('certificates: a chain to the trusted CA verifies; self-signed, expired and wrong-host do not', async (t) => {
  const ok = await check(`https://valid.test:${port.valid}/ok`);
  t.true(ok.certificate_ok as boolean);
  t.deepEqual(ok.outcome, []);
  for (const url of [
    `https://selfsigned.test:${port.selfsigned}/ok`,
    `https://expired.test:${port.expired}/ok`,
    `https://other.test:${port.valid}/ok`,
  ]) {
    const r = await check(url);
    t.false(r.certificate_ok as boolean, url);
    t.deepEqual(r.outcome, ['WEBSITE_CERTIFICATE_INVALID'], url);
    t.true(r.reachable as boolean, 'the status is still read');
    t.is(r.status, 200);
    t.is(labelOf(r.outcome, capability.outcomes), 'warning');
  }
});

test('no DNS record, a closed port and a server that never answers', async (t) => {
  const nx = await check(`http://nowhere.test:${port.http}/ok`);
  t.deepEqual(nx.outcome, ['WEBSITE_DOMAIN_NOT_FOUND']);
  t.false(nx.ok as boolean);
  const closed = await check(`http://closed.test:${port.closed}/ok`);
  t.deepEqual(closed.outcome, ['WEBSITE_NOT_RESPONDING']);
  t.false(closed.reachable as boolean);
  const silent = await check(`http://silent.test:${port.silent}/ok`);
  t.deepEqual(silent.outcome, ['WEBSITE_NOT_RESPONDING']);
  t.is(silent.note, 'no answer within the time limit');
});

test('SSRF guard: private addresses are not contacted, also when a redirect leads there', async (t) => {
  const r = await check(`http://site.test:${port.http}/ok`, {}, false);
  t.deepEqual(r.outcome, ['WEBSITE_NOT_RESPONDING']);
  t.is(r.note, 'private address not contacted');
  // the first hop is allowed, the redirect target resolves to an address the guard refuses
  const probe = await probeWebsite(new URL(`http://site.test:${port.http}/to-blocked`), {
    dnsServer: dns.server,
    isBlocked: (a) => a === '127.0.0.2',
    httpFallback: false,
  });
  t.is(probe.outcome, 'WEBSITE_NOT_RESPONDING');
  t.is(probe.note, 'private address not contacted');
  t.is(probe.final_url, `http://blocked.test:${port.http}/ok`);
  t.is(probe.redirects.length, 1);
});

test('over HTTP: a private address is said to be private, not a server that does not answer, in both languages', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer({ dnsServer: dns.server, allowPrivateNetwork: false });
  try {
    const en = await call(server, 'POST', '/api/v1/website', { website: `http://site.test:${port.http}/ok` });
    t.deepEqual(en.body.outcome, ['WEBSITE_NOT_RESPONDING']);
    t.is(en.body.reason, 'The site’s address is private, not on the public Internet: not contacted');
    t.is(en.body.outcome_label, 'error');
    const it = await call(server, 'POST', '/api/v1/sito', { sito: `http://127.0.0.1:${port.http}/ok`, lingua: 'it' });
    t.is(it.body.motivo, 'L’indirizzo del sito è privato, non su Internet pubblico: non contattato');
    // a batch and a row of two sites say it too; a public domain that does not answer keeps the contract's text
    const batch = await call(server, 'POST', '/api/v1/website', { items: [{ website: `http://site.test:${port.http}/ok http://10.0.0.1/` }, { website: `http://nowhere.test:${port.http}/ok` }] });
    t.is(batch.body.results[0].result.reason, 'The site’s address is private, not on the public Internet: not contacted');
    t.is(batch.body.results[1].result.reason, 'The domain has no DNS record');
  } finally {
    await server.close();
  }
  const closed = await check(`http://closed.test:${port.closed}/ok`);
  t.is(closed.reason, undefined, 'left to the table: the domain exists and no server responds');
});

test('the guard knows private, loopback, link-local and mapped addresses', (t) => {
  for (const a of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '224.0.0.1']) {
    t.true(isPrivateAddress(a), a);
  }
  for (const a of ['8.8.8.8', '172.32.0.1', '151.101.1.69', '2a00:1450:4002:402::200e', '::ffff:8.8.8.8']) t.false(isPrivateAddress(a), a);
});

test('form only with network false: scheme and www completed, case folded', async (t) => {
  const r = await check('WW.Example.COM', { network: false });
  t.is(r.website, 'https://www.example.com/');
  t.is(r.url_normalized, 'https://www.example.com/');
  t.deepEqual(r.outcome, ['MODIFIED', 'WEBSITE_FORM']);
  t.is(r.reachable, undefined);
  t.deepEqual((await check('https://www.example.com/', { network: 'no' })).outcome, []);
  t.deepEqual((await check('htp//www.example.com', { network: false })).website, 'http://www.example.com/');
  t.deepEqual((await check('ftp://example.com', { network: false })).outcome, ['WEBSITE_INVALID']);
  t.deepEqual((await check('not a website', { network: false })).outcome, ['WEBSITE_INVALID']);
  t.deepEqual((await check('   ')).outcome, ['WEBSITE_EMPTY']);
});

test('a scheme not written: https first, http when no TLS server answers', async (t) => {
  const r = await check(`site.test:${port.http}/ok`);
  t.is(r.final_url, `http://site.test:${port.http}/ok`);
  t.deepEqual(r.outcome, ['MODIFIED', 'WEBSITE_FORM']);
  t.is(r.certificate_ok, null);
  const tls = await check(`valid.test:${port.valid}/ok`);
  t.is(tls.final_url, `https://valid.test:${port.valid}/ok`);
  t.true(tls.certificate_ok as boolean);
});

test('up to three addresses a row, each billed', async (t) => {
  const field = `http://site.test:${port.http}/ok; http://site.test:${port.http}/missing http://site.test:${port.http}/r1 http://site.test:${port.http}/gone`;
  const r = await check(field);
  t.is(r.website, `http://site.test:${port.http}/ok`);
  t.is(r.website2, `http://site.test:${port.http}/missing`);
  t.is(r.website3, `http://site.test:${port.http}/r1`);
  t.deepEqual(r.outcome, ['WEBSITE_PAGE_NOT_FOUND']);
  t.is((r.websites as unknown[]).length, 3);
  t.is(capability.units(capability.item.parse({ website: field })), 3);
});

test('over HTTP: Italian alias and keys, one light operation per address', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer({ dnsServer: dns.server, allowPrivateNetwork: true });
  try {
    const it = await call(server, 'POST', '/api/v1/sito', { sito: `http://site.test:${port.http}/r1 http://site.test:${port.http}/gone`, lingua: 'it' });
    t.is(it.status, 200);
    t.is(it.body.url_finale, `http://site.test:${port.http}/ok`);
    t.true(it.body.raggiungibile);
    t.is(it.body.sito2, `http://site.test:${port.http}/gone`);
    t.deepEqual(it.body.esito, ['SITO_PAGINA_INESISTENTE']);
    t.is(it.headers.get('x-service-charged'), '2');
    const offline = await call(server, 'POST', '/api/v1/website', { network: false, items: [{ website: 'www.example.com' }] });
    t.deepEqual(offline.body.results[0].result.outcome, ['MODIFIED', 'WEBSITE_FORM']);
  } finally {
    await server.close();
  }
});

test('over HTTP: the note says why the check stopped in the request language', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer({ dnsServer: dns.server, allowPrivateNetwork: true });
  try {
    const items = [{ website: `http://site.test:${port.http}/loop-a` }, { website: `http://closed.test:${port.closed}/ok` }];
    const en = await call(server, 'POST', '/api/v1/website', { items });
    t.is(en.body.results[0].result.note, 'redirect loop');
    t.is(en.body.results[1].result.note, 'connection refused');
    const it = await call(server, 'POST', '/api/v1/sito', { elementi: items, lingua: 'it' });
    t.is(it.headers.get('content-language'), 'it');
    t.is(it.body.results[0].result.nota, 'ciclo di reindirizzamenti');
    t.is(it.body.results[1].result.nota, 'connessione rifiutata');
    const de = await call(server, 'POST', '/api/v1/website', { website: `http://site.test:${port.http}/loop-a` }, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    t.is(de.body.note, 'Weiterleitungsschleife');
  } finally {
    await server.close();
  }
});
