import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';

import test from 'ava';
import { parse } from 'csv-parse/sync';

import { clearDnsCache } from '../src/email/dns.js';
import { capability } from '../src/email/service.js';
import { editDistance, INTERNATIONAL_PROVIDERS } from '../src/email/typos.js';
import type { ItemResult } from '../src/http/capability.js';
import { labelOf } from '../src/http/outcomes.js';
import { dedupe, openRegister, roleMailboxesSync } from '../src/native.js';
import { contactDataDir, processOne } from './helpers/light.js';
import { SOURCE } from './helpers/source.js';
import { startDnsResponder, type DnsResponder, type ZoneEntry } from './helpers/dns-server.js';

let dataDir = '';
let dns: DnsResponder;
let freemail: string[] = [];
let roles: string[] = [];

const MX = (host: string): ZoneEntry => ({ MX: [{ exchange: `mx.${host}`, preference: 10 }] });

test.before(async () => {
  dataDir = await contactDataDir();
  const rows = (file: string) =>
    readFile(path.join(SOURCE, 'contact', 'email', file), 'utf8').then((t) => parse(t, { columns: true }) as Record<string, string>[]);
  freemail = (await rows('it_freemail_isp_domains.csv')).map((r) => r.domain!);
  roles = (await rows('it_role_localparts.csv')).map((r) => r.localpart!);
  const zone = new Map<string, ZoneEntry>();
  for (const d of [...freemail, ...INTERNATIONAL_PROVIDERS]) zone.set(d, MX(d));
  zone.set('example.it', MX('example.it'));
  zone.set('studiobianchi.com', { A: ['192.0.2.10'] });
  zone.set('gmail.co', MX('gmail.co'));
  zone.set('libero.com', MX('libero.com'));
  zone.set('mail.example.it', MX('mail.example.it'));
  zone.set('mailinator.com', MX('mailinator.com'));
  zone.set('nomail.example.it', { MX: [{ exchange: '', preference: 0 }] });
  zone.set('empty.example.it', {});
  zone.set(domainToASCII('perché.it'), MX('perche.it'));
  zone.set('slow.example.it', { silent: true });
  dns = await startDnsResponder(zone);
});

test.after.always(async () => {
  await dns?.close();
});

function verify(item: Record<string, unknown>): Promise<ItemResult> {
  return processOne(capability, item, { language: 'en', dataDir, allowPrivateNetwork: false, dnsServer: dns.server });
}

test('form cleaning: spaces, case, mailto:, angle brackets and display name', async (t) => {
  for (const written of [' Mario.Rossi@Example.IT ', 'mailto:mario.rossi@example.it', 'Mario Rossi <mario.rossi@example.it>', '<MARIO.ROSSI@EXAMPLE.IT>', 'Mario Rossi mario.rossi@example.it', 'mario.rossi@@example.it', 'mario. rossi @ example.it', 'mario.rossi@example.it; anna@example.it']) {
    const r = await verify({ email: written });
    t.is(r.email, 'mario.rossi@example.it', written);
    t.deepEqual(r.outcome, ['MODIFIED', 'EMAIL_FORM'], written);
    t.is(r.domain_exists, true);
    t.is(r.corrected_from, undefined);
  }
  const clean = await verify({ email: 'mario.rossi@example.it' });
  t.deepEqual(clean.outcome, []);
  t.true(clean.domain_checked as boolean);
  // a name's words are letters: an escaped space (a quoted pair without its quotes) is not a name before the address
  const escaped = await verify({ email: 'Fred\\ Bloggs@example.it' });
  t.true((escaped.outcome as string[]).includes('EMAIL_INVALID'), JSON.stringify(escaped));
  t.not(escaped.email, 'bloggs@example.it');
  const named = await verify({ email: "Anna-Maria D'Amico anna@example.it" });
  t.deepEqual([named.email, named.outcome], ['anna@example.it', ['MODIFIED', 'EMAIL_FORM']]);
});

test('a comma for a dot is a certain correction with corrected_from', async (t) => {
  const r = await verify({ email: 'mario.rossi@libero,it' });
  t.is(r.email, 'mario.rossi@libero.it');
  t.is(r.corrected_from, 'mario.rossi@libero,it');
  t.deepEqual(r.outcome, ['MODIFIED', 'EMAIL_DOMAIN']);
  t.is(labelOf(r.outcome, capability.outcomes), 'modified');
});

test('every Italian free-mail domain one transposition away, receiving no mail, is corrected', async (t) => {
  const providers = new Set([...freemail, ...INTERNATIONAL_PROVIDERS]);
  let checked = 0;
  for (const domain of freemail) {
    const name = domain.split('.')[0]!;
    if (name.length < 4) continue;
    const typo = `${name[0]}${name[2]}${name[1]}${name.slice(3)}.${domain.split('.').slice(1).join('.')}`;
    // only typos whose nearest provider is unique, and which are not themselves a provider
    const near = [...providers].filter((p) => editDistance(typo, p, 1) <= 1);
    if (providers.has(typo) || near.length !== 1) continue;
    const r = await verify({ email: `anna.verdi@${typo}` });
    t.is(r.email, `anna.verdi@${domain}`, typo);
    t.is(r.corrected_from, `anna.verdi@${typo}`);
    t.deepEqual(r.outcome, ['MODIFIED', 'EMAIL_DOMAIN'], typo);
    t.true(r.domain_exists as boolean);
    checked++;
  }
  t.true(checked >= 20, `checked ${checked}`);
});

test('a provider typo whose written domain takes mail, or unchecked, stays a proposal', async (t) => {
  const live = await verify({ email: 'luca@gmail.co' });
  t.is(live.email, 'luca@gmail.co');
  t.is(live.suggestion, 'luca@gmail.com');
  t.deepEqual(live.outcome, ['EMAIL_TYPO']);
  const offline = await verify({ email: 'luca@gmial.com', dns: false });
  t.is(offline.email, 'luca@gmial.com');
  t.is(offline.suggestion, 'luca@gmail.com');
  t.false(offline.domain_checked as boolean);
  t.is(offline.domain_exists, null);
  t.deepEqual(offline.outcome, ['EMAIL_TYPO']);
  // one edit from email.it, but gmail under another TLD is the likelier intent
  const otherTld = await verify({ email: 'luca@gmail.it', dns: false });
  t.is(otherTld.email, 'luca@gmail.it');
  t.is(otherTld.suggestion, 'luca@gmail.com');
  t.deepEqual(otherTld.outcome, ['EMAIL_TYPO']);
  const noMail = await verify({ email: 'luca@gmail.it' });
  t.is(noMail.email, 'luca@gmail.com', 'lands on the provider and gmail.it takes no mail here: certain');
  t.deepEqual(noMail.outcome, ['MODIFIED', 'EMAIL_DOMAIN']);
  // a real domain that shares a provider's name is nobody's typo
  const real = await verify({ email: 'luca@libero.com' });
  t.deepEqual(real.outcome, []);
  t.is(real.suggestion, undefined);
  t.deepEqual((await verify({ email: 'luca@mail.example.it', dns: false })).outcome, []);
  // gmail.con: the one-edit provider and the same-name provider agree, and .con takes no mail
  t.deepEqual((await verify({ email: 'luca@gmail.con' })).outcome, ['MODIFIED', 'EMAIL_DOMAIN']);
});

test('a typo on another domain is a proposal and the checks run on the suggestion', async (t) => {
  const r = await verify({ email: 'info@studiobianchi.con' });
  t.is(r.email, 'info@studiobianchi.con');
  t.is(r.suggestion, 'info@studiobianchi.com');
  t.true(r.domain_exists as boolean, 'A record of the suggested domain counts (no MX)');
  t.deepEqual(r.outcome, ['EMAIL_TYPO', 'EMAIL_ROLE_BASED']);
});

test('domain lookup: NXDOMAIN, null MX and no records are not found; dns:false skips', async (t) => {
  for (const domain of ['nowhere-at-all.it', 'nomail.example.it', 'empty.example.it']) {
    const r = await verify({ email: `a.b@${domain}` });
    t.deepEqual(r.outcome, ['EMAIL_DOMAIN_NOT_FOUND'], domain);
    t.false(r.ok as boolean);
    t.true(r.domain_checked as boolean);
  }
  const skipped = await verify({ email: 'a.b@nowhere-at-all.it', dns: 'false' });
  t.deepEqual(skipped.outcome, []);
  t.false(skipped.domain_checked as boolean);
});

test('a DNS server that does not answer leaves the domain unchecked, bounded by the timeout', async (t) => {
  const r = await verify({ email: 'a.b@slow.example.it' });
  t.false(r.domain_checked as boolean);
  t.is(r.domain_exists, null);
  t.deepEqual(r.outcome, []);
});

test('lookups are cached: a second address on the same domain asks nothing', async (t) => {
  clearDnsCache();
  await verify({ email: 'uno@example.it' });
  const before = dns.queries.length;
  await capability.run([{ email: 'due@example.it' }, { email: 'tre@example.it' }], {
    language: 'en', dataDir, allowPrivateNetwork: false, dnsServer: dns.server,
  });
  t.is(dns.queries.length, before);
});

test('disposable domains and every Italian role local part', async (t) => {
  const d = await verify({ email: 'xyz@mailinator.com' });
  t.true(d.outcome.includes('EMAIL_DISPOSABLE'));
  t.true(d.disposable as boolean);
  for (const local of roles) {
    const r = await verify({ email: `${local}@example.it` });
    t.deepEqual(r.outcome, ['EMAIL_ROLE_BASED'], local);
    t.is(labelOf(r.outcome, capability.outcomes), 'ok', 'a note, not an error');
  }
  t.deepEqual((await verify({ email: 'giulia.neri@example.it' })).outcome, []);
});

test('syntax by the RFC parser: quoted local parts, IDN, length limits', async (t) => {
  t.deepEqual((await verify({ email: '"mario rossi"@example.it' })).outcome, []);
  const idn = await verify({ email: 'anna@perché.it' });
  t.deepEqual(idn.outcome, []);
  t.true(idn.domain_exists as boolean, 'looked up as punycode');
  for (const bad of ['mario@', '@example.it', 'mario.example.it', 'mario@localhost', `${'a'.repeat(65)}@example.it`, 'mario@example@it', 'mario@exa_mple.it', `a@${'b'.repeat(64)}.it`]) {
    const r = await verify({ email: bad });
    t.deepEqual(r.outcome, ['EMAIL_INVALID'], bad);
    t.false(r.ok as boolean);
  }
  t.deepEqual((await verify({ email: '   ' })).outcome, ['EMAIL_EMPTY']);
  t.deepEqual((await verify({})).outcome, ['EMAIL_EMPTY']);
});

test('RFC 5321/6531 syntax: literals, quoted and UTF-8 local parts, a ? kept; comments, bad literals and TLDs refused', async (t) => {
  for (const valid of ['a@[192.0.2.1]', 'a@[IPv6:2001:db8::1]', 'a@[IPv6:::]', 'a@[IPv6:2001:db8::192.0.2.1]', '"a b"@example.it', '"a\\"b"@example.it', '""@example.it', 'mario?rossi@example.it', "!#$%&'*+-/=?^_`{|}~@example.it", 'josé@example.it', '用户@例子.广告', 'anna@xn--perch-fsa.it']) {
    const r = await verify({ email: valid, dns: false });
    t.deepEqual(r.outcome, [], valid);
    t.is(r.email, valid, `${valid} kept as written`);
  }
  const literal = await verify({ email: 'a@[192.0.2.1]' });
  t.is(literal.domain_checked, false, 'a literal is not looked up');
  t.is(literal.domain_exists, null);
  for (const invalid of [
    'test@(comment)example.it', '(comment)test@example.it', 'test(comment)@example.it', 'test@example.it(comment)',
    'a@[192.0.2.256]', 'a@[1.2.3]', 'a@[IPv6:2001:db8::g]', 'a@[IPv6:1::2::3]', 'a@[IPv6:fe80::1%eth0]', 'a@[2001:db8::1]', 'a@[tag:text]', 'a@[192.0.2.1',
    'me@bad.tld-2', 'me@example.x123', 'me@yy--0.it', 'me@xn--0.it', 'me@example.123',
    '"unclosed@example.it', 'a"b@example.it', '"a\\©"@example.it', '.a@example.it', 'a..b@example.it', 'a.@example.it', '≮me@example.it',
  ]) {
    t.deepEqual((await verify({ email: invalid, dns: false })).outcome, ['EMAIL_INVALID'], invalid);
  }
  // a mailto: URI still loses its query
  t.is((await verify({ email: 'mailto:mario.rossi@example.it?subject=ciao', dns: false })).email, 'mario.rossi@example.it');
});

test('hidden characters are refused, never cleaned away: controls, zero-width, BIDI overrides, private use', async (t) => {
  for (const c of ['\u200b', '\u200d', '\u202e', '\u2066', '\u00ad', '\ufeff', '\ue000', '\u{10fdef}', '\ufdef', '\u0000', '\u009c', '\u0007', '\n', '\r', '\t', '\u2028', '\ud800', '\ufffd']) {
    const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`;
    for (const written of [`mario${c}rossi@example.it`, `mario.rossi@exam${c}ple.it`, `mario.rossi@example.it${c}`, `"mario${c}"@example.it`]) {
      t.deepEqual((await verify({ email: written, dns: false })).outcome, ['EMAIL_INVALID'], `${code} in ${JSON.stringify(written)}`);
    }
  }
  // ordinary spaces around and typed inside are still cleaned, a no-break space too
  t.is((await verify({ email: '\u00a0mario.rossi@example.it ', dns: false })).email, 'mario.rossi@example.it');
  // a combining mark may follow a letter, not open the local part
  t.deepEqual((await verify({ email: 'jose\u0301@example.it', dns: false })).outcome, []);
  t.deepEqual((await verify({ email: '\u0301jose@example.it', dns: false })).outcome, ['EMAIL_INVALID']);
});

test('over HTTP: a domain literal and a ? kept, a comment and unsafe characters refused (a lone surrogate too)', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer({ dnsServer: dns.server });
  try {
    const res = await call(server, 'POST', '/api/v1/email', { items: ['a@[192.0.2.1]', 'mario?rossi@example.it', 'a@[IPv6:2001:db8::1]', 'test@(comment)example.it', 'ma\u200brio@example.it', 'ma\u202erio@example.it', 'ma\ue000rio@example.it', 'ma\ud800rio@example.it'].map((email) => ({ email })) });
    t.is(res.status, 200);
    const results = res.body.results.map((r: { result: ItemResult }) => r.result);
    t.deepEqual(results.slice(0, 3).map((r: ItemResult) => [r.email, r.ok, r.outcome]), [
      ['a@[192.0.2.1]', true, []],
      ['mario?rossi@example.it', true, []],
      ['a@[IPv6:2001:db8::1]', true, []],
    ]);
    t.deepEqual(results.slice(3).map((r: ItemResult) => [r.ok, r.outcome]), Array.from({ length: 5 }, () => [false, ['EMAIL_INVALID']]));
  } finally {
    await server.close();
  }
});

test('a batch keeps order and the schema rejects a non-boolean dns', async (t) => {
  const results = await capability.run(
    ['a@example.it', 'b@libero,it', ''].map((email) => capability.item.parse({ email, dns: true })),
    { language: 'en', dataDir, allowPrivateNetwork: false, dnsServer: dns.server },
  );
  t.deepEqual(results.map((r) => r.email), ['a@example.it', 'b@libero.it', '']);
  t.false(capability.item.safeParse({ email: 'a@b.it', dns: 'maybe' }).success);
});

test('over HTTP: correction with Italian keys and codes, batch of 3 charged 2 (the empty field is free)', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer({ dnsServer: dns.server });
  try {
    const it = await call(server, 'POST', '/api/v1/email', { email: 'Mario.Rossi@libero,it', lingua: 'it' });
    t.is(it.status, 200);
    t.is(it.body.email, 'mario.rossi@libero.it');
    t.is(it.body.corretta_da, 'Mario.Rossi@libero,it');
    t.deepEqual(it.body.esito, ['MODIFICATO', 'EMAIL_FORMA', 'EMAIL_DOMINIO']);
    t.true(it.body.dominio_esiste);
    const batch = await call(server, 'POST', '/api/v1/email', { dns: false, items: [{ email: 'a@example.it' }, { email: 'info@example.it' }, { email: '' }] });
    t.is(batch.status, 200);
    t.deepEqual(batch.body.results.map((r: { result: { outcome: string[] } }) => r.result.outcome), [[], ['EMAIL_ROLE_BASED'], ['EMAIL_EMPTY']]);
    // an empty e-mail is charged 0, as an empty phone or website (issue 34)
    t.is(batch.headers.get('x-service-charged'), '2');
    const tooMany = await call(server, 'POST', '/api/v1/email', { items: Array.from({ length: 501 }, () => ({ email: 'a@example.it' })) });
    t.is(tooMany.status, 413);
    // an asynchronous job runs in a worker thread: the dictionaries and the resolver load there too
    const queued = await call(server, 'POST', '/api/v1/email', { async: true, items: [{ email: 'x@libero,it' }, { email: 'info@example.it' }, { email: 'a.b@nowhere-at-all.it' }] });
    t.is(queued.status, 200);
    let job = queued;
    for (let i = 0; i < 600 && job.body.state !== 'completed' && job.body.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await call(server, 'GET', `/api/v1/email?job=${queued.body.job}`);
    }
    t.is(job.body.state, 'completed');
    t.deepEqual(job.body.results.map((r: { result: { outcome: string[] } }) => r.result.outcome), [['MODIFIED', 'EMAIL_DOMAIN'], ['EMAIL_ROLE_BASED'], ['EMAIL_DOMAIN_NOT_FOUND']]);
  } finally {
    await server.close();
  }
});

test('the npm role list the core ships is the package\'s, imported or not', async (t) => {
  const npm = (createRequire(import.meta.url)('role-based-email-addresses') as string[]).map((l) => l.toLowerCase());
  t.true(npm.length > 500);
  const bare = await mkdtemp(path.join(tmpdir(), 'recapito-no-dictionaries-'));
  for (const dir of [dataDir, bare]) {
    const flags = roleMailboxesSync(dir, npm);
    t.deepEqual(npm.filter((_, i) => !flags[i]), [], dir);
  }
  // the Italian list comes with the imported dictionaries only
  t.deepEqual(roleMailboxesSync(bare, ['segreteria', 'anagrafe']), [false, false]);
  t.deepEqual(roleMailboxesSync(dataDir, ['segreteria', 'anagrafe']), [true, true]);
});

/**
 * /email's EMAIL_ROLE_BASED and dedupe's reading of the same local part (a shared role mailbox makes two
 * records of one name only ambiguous, a shared personal one probable) agree: one list, one rule.
 */
test('/email and dedupe agree on role and personal mailboxes', async (t) => {
  const { freshDataDir } = await import('./helpers/server.js');
  const npm = createRequire(import.meta.url)('role-based-email-addresses') as string[];
  const firsts = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Davide', 'Elena', 'Paolo'];
  const lasts = ['Neri', 'Rossi', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci'];
  const personal = [
    ...firsts.map((f, i) => `${f}.${lasts[i]}`.toLowerCase()),
    ...firsts.map((f, i) => `${f[0]}${lasts[i]}`.toLowerCase()),
    'gm.rossi', 'pm.bianchi', 'mario_rossi80', 'giulia-neri',
  ];
  const role = [
    ...roles.filter((_, i) => i % 6 === 0),
    ...npm.filter((_, i) => i % 60 === 0),
    'info.milano', 'segreteria-roma', 'ufficio_tecnico', 'Amministrazione', '"info+shop"', 'protocollo.generale',
  ];
  openRegister(await freshDataDir());
  const locals = [...role, ...personal];
  // one person per local part, a surname of the published list each, so that no two pairs compare
  const surnames = (await readFile(path.join(SOURCE, 'contact', 'names', 'it_surnames_cognomix.txt'), 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[A-Z][a-z]{3,}$/.test(l));
  const pairs = locals.flatMap((local, i) => {
    const person = { first_name: firsts[i % firsts.length]!, last_name: surnames[i * 97]!, email: `${local}@studio${i}.it` };
    return [person, person];
  });
  const run = await dedupe({ records: pairs, min_level: 'ambiguous' });
  if (!('groups' in run)) throw new Error('a one-list dedupe answers groups');
  const levelOf = new Map<number, string>();
  for (const g of run.groups) for (const m of g.member_index) levelOf.set(m, g.level);
  for (const [i, local] of locals.entries()) {
    const emailSays = (await verify({ email: `${local}@example.it` })).outcome.includes('EMAIL_ROLE_BASED');
    const dedupeSays = levelOf.get(2 * i) === 'ambiguous' && levelOf.get(2 * i + 1) === 'ambiguous';
    t.is(emailSays, i < role.length, `/email on ${local}`);
    t.is(dedupeSays, emailSays, `dedupe on ${local}: ${levelOf.get(2 * i)}`);
  }
});
