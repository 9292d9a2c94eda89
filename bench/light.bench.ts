/**
 * Throughput of the four light capabilities in-process (network off), and of email with the DNS lookups
 * answered by a local responder (cold cache and warm cache), each beside a peer where npm has one.
 * Items per second = batch size × ops/s.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parse } from 'csv-parse/sync';
import emailAddresses from 'email-addresses';
import parsePhoneNumber from 'libphonenumber-js/max';
import { Bench } from 'tinybench';

import { defaultSourceDir } from '../src/config.js';
import { clearDnsCache } from '../src/email/dns.js';
import { capability as email } from '../src/email/service.js';
import { capability as enrichment } from '../src/enrichment/service.js';
import type { ProcessContext } from '../src/http/capability.js';
import { importContactData } from '../src/import/contact.js';
import { capability as phone } from '../src/phone/service.js';
import { normaliseWebsite } from '../src/website/form.js';
import { capability as website } from '../src/website/service.js';
import { startDnsResponder, type ZoneEntry } from '../test/helpers/dns-server.js';
import { taskStats } from './stats.js';

const BATCH = 500;
const SOURCE = defaultSourceDir();

async function csv(...p: string[]): Promise<Record<string, string>[]> {
  return parse(await readFile(path.join(SOURCE, 'contact', ...p), 'utf8'), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<string, string>[];
}

function pick<T>(list: T[], n: number): T[] {
  return Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]!);
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'recapito-bench-light-'));
  await importContactData(SOURCE, dataDir);
  const ctx: ProcessContext = { language: 'it', dataDir, allowPrivateNetwork: false };

  // inputs drawn from the shared data: district prefixes, mobile blocks, first names, free-mail domains
  const prefixes = (await csv('phone', 'it_prefissi_distretti.csv')).map((r) => r.prefisso!).filter((p) => /^0\d+$/.test(p));
  const mobiles = (await csv('phone', 'it_mobile_prefix_operator.csv')).map((r) => r.prefisso_nazionale!);
  const phones = pick(
    [...prefixes.map((p) => `${p} ${'4567890123'.slice(0, 10 - p.length)}`), ...mobiles.map((m) => `+39 ${m}${'1234567'.slice(0, 10 - m.length)}`), '02/1234567 cell. 339 1234567', '0039 06 6981 2345 int. 3', '800 123 456', '+44 20 7946 0958'],
    BATCH,
  );
  const names = (await csv('names', 'it_firstnames_gender_births_italiatools.csv')).filter((r) => r.gender_signal === '1').slice(0, 2000).map((r) => r.name!);
  const domains = (await csv('email', 'it_freemail_isp_domains.csv')).map((r) => r.domain!);
  const emails = pick(names, BATCH).map((n, i) => {
    const d = domains[i % domains.length]!;
    return i % 10 === 0 ? ` <${n}.Rossi@${d.replace('.', ',')}> ` : i % 10 === 1 ? `${n.toLowerCase()}@${d.slice(0, 2)}${d[3]}${d[2]}${d.slice(4)}` : `${n.toLowerCase()}.rossi@${d}`;
  });
  const people = pick(names, BATCH).map((n, i) => (i % 20 === 0 ? { last_name: `Rossi ${n} S.r.l.` } : { last_name: 'ROSSI', first_name: n, ...(i % 5 === 0 ? { profession: 'avvocato' } : {}) }));
  const sites = pick(domains, BATCH).map((d, i) => (i % 3 === 0 ? `WWW.${d.toUpperCase()}` : i % 3 === 1 ? `http://www.${d}/contatti` : `ww.${d}`));

  const phoneItems = phones.map((p) => phone.item.parse({ phone: p }));
  const emailOff = emails.map((e) => email.item.parse({ email: e, dns: false }));
  const emailOn = emails.map((e) => email.item.parse({ email: e }));
  const peopleItems = people.map((p) => enrichment.item.parse(p));
  const siteItems = sites.map((w) => website.item.parse({ website: w, network: false }));

  const zone = new Map<string, ZoneEntry>(domains.map((d) => [d, { MX: [{ exchange: `mx.${d}`, preference: 10 }] }]));
  const dns = await startDnsResponder(zone);
  const dnsCtx: ProcessContext = { ...ctx, dnsServer: dns.server };

  const bench = new Bench({ time: 700, warmupTime: 150 });
  bench
    // fresh items each pass, as the endpoint parses them: the field's split is remembered per item object
    .add('phone: ours (split, plan, district, operator)', async () => void (await phone.run(phoneItems.map((i) => ({ ...i })), ctx)))
    .add('phone: ours, one call per item (units + process, as a single HTTP call)', async () => {
      for (const item of phoneItems) {
        const fresh = { ...item };
        phone.units(fresh);
        await phone.run([fresh], ctx);
      }
    })
    .add('phone: peer libphonenumber-js parse+isValid+getType', () => {
      for (const p of phones) {
        const n = parsePhoneNumber(p, 'IT');
        n?.isValid();
        n?.getType();
      }
    })
    .add('email: ours, dns false', async () => void (await email.run(emailOff, ctx)))
    .add('email: ours, dns false, one call per item', async () => {
      for (const item of emailOff) await email.run([item], ctx);
    })
    .add('email: peer email-addresses parse only', () => {
      for (const e of emails) emailAddresses.parseOneAddress(e.trim());
    })
    .add('email: ours, local DNS, cold cache', async () => {
      clearDnsCache();
      await email.run(emailOn, dnsCtx);
    })
    .add('email: ours, local DNS, warm cache', async () => void (await email.run(emailOn, dnsCtx)))
    .add('enrichment: ours', async () => void (await enrichment.run(peopleItems, ctx)))
    .add('website: ours, network false', async () => void (await website.run(siteItems, ctx)))
    .add('website: form only, normaliseWebsite', () => {
      for (const s of sites) normaliseWebsite(s);
    })
    .add('website: peer WHATWG URL parse', () => {
      for (const s of sites) {
        try {
          new URL(`https://${s}`);
        } catch {
          // peer counts failures too
        }
      }
    });
  await bench.run();
  await dns.close();
  console.log(`batch of ${BATCH} items per operation`);
  console.table(
    bench.tasks.map((task) => {
      const s = taskStats(task);
      return {
        task: task.name,
        'batches/s': Number(s.hz.toFixed(1)),
        'items/s': Math.round(s.hz * BATCH),
        'mean ms/batch': Number(s.mean.toFixed(2)),
        'p99 ms/batch': Number(s.p99.toFixed(2)),
      };
    }),
  );
}

await main();
