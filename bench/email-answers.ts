/**
 * The email service's answers with DNS off on a fixed set of inputs, one JSON line each, so that a rewrite of the
 * service's own work can be checked to give byte for byte the same answers as before it:
 *
 *   node dist/bench/email-answers.js write .tmp/email-answers.jsonl   (before the change)
 *   node dist/bench/email-answers.js check .tmp/email-answers.jsonl   (after: exits 1 on the first difference)
 *
 * Inputs: first names at every free-mail, ISP and PEC domain of shared/data/contact/email, at a one- and
 * two-edit typo of each, at disposable domains; every role local part of the shared list; the forms people
 * write (display names, angle brackets, mailto:, spaces, capitals, commas for dots, doubled dots, several
 * addresses, quoted local parts, Unicode and punycode domains, address literals) and junk. Each item alone
 * and all of them again in batches.
 */

import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

import { capability } from '../src/email/service.js';
import type { Language } from '../src/http/language.js';
import { contactDataDir } from '../test/helpers/light.js';
import { sourceCsv } from '../test/helpers/source.js';
import { answerArgs, writeOrCheck } from './answer-file.js';

function typo(domain: string, i: number): string {
  const k = 1 + (i % Math.max(1, domain.indexOf('.') - 1));
  return i % 3 === 0 ? domain.slice(0, k) + domain.slice(k + 1) : i % 3 === 1 ? domain.slice(0, k) + domain[k + 1] + domain[k] + domain.slice(k + 2) : domain.replace(/\.[a-z]+$/, '.con');
}

function inputs(): Record<string, unknown>[] {
  const names = sourceCsv('contact/names/it_firstnames_gender_births_italiatools.csv').slice(0, 400).map((r) => r.name!.toLowerCase());
  const domains = [
    ...sourceCsv('contact/email/it_freemail_isp_domains.csv').map((r) => r.domain!),
    ...sourceCsv('contact/email/it_pec_domains.csv').map((r) => Object.values(r)[0]!),
    'gmail.com', 'hotmail.it', 'outlook.com', 'yahoo.it', 'comune.bologna.it', 'unibo.it', 'example.com',
  ];
  const roles = sourceCsv('contact/email/it_role_localparts.csv').map((r) => Object.values(r)[0]!);
  const disposable = [...disposableEmailBlocklistSet()].slice(0, 200);
  const out: Record<string, unknown>[] = [];
  domains.forEach((d, i) => {
    const n = names[i % names.length]!;
    out.push({ email: `${n}.rossi@${d}` }, { email: `${n}@${typo(d, i)}` }, { email: `${n}${i}@${typo(typo(d, i), i + 1)}` });
    out.push({ email: ` ${n[0]!.toUpperCase()}${n.slice(1)} Rossi <${n.toUpperCase()}@${d}> ` }, { email: `${n}.rossi@${d.replace('.', ',')}` });
  });
  roles.forEach((r, i) => out.push({ email: `${r}@${domains[i % domains.length]}` }, { email: `${r}.milano@example.it` }, { email: `${r}-roma@comune.roma.it` }));
  disposable.forEach((d, i) => out.push({ email: `${names[i % names.length]}@${d}` }, { email: `x@mail.${d}` }));
  const odd = [
    '', '   ', 'mario', '@gmail.com', 'mario@', 'mario@@gmail.com', 'mario..rossi@gmail.com', 'mario@gmail..com', 'mario@.gmail.com',
    'mailto:mario@gmail.com', 'mario@gmail.com?subject=x', '<mario@gmail.com>', 'Mario Rossi mario@gmail.com', 'mario rossi@gmail.com',
    'mario @ gmail.com', 'mario@gmail.com, luigi@libero.it', 'mario@gmail.com; luigi@libero.it', '"mario rossi"@gmail.com',
    '"mario"@example.it', 'mario@[192.0.2.1]', 'mario@città.it', 'mario@xn--citt-3ra.it', 'mario@xn--zz.it', 'mario@a.0x7f',
    'mario@123.45', 'mario@-bad.it', 'mario@bad-.it', 'MARIO@GMAIL.COM', 'mario@gmail.com.', "'mario@gmail.com'", '(mario@gmail.com)',
    'mario.@gmail.com', '.mario@gmail.com', 'mário@gmail.com', 'mario+tag@gmail.com', 'mario%x@gmail.com', 'a'.repeat(70) + '@gmail.com',
    `mario@${'a'.repeat(64)}.it`, `mario@${'abc.'.repeat(70)}it`, 'mario@gmail', 'mario@localhost', 'info@pec.it', 'noreply@gmail.com',
  ];
  for (const email of odd) out.push({ email }, { email, dns: 'no' });
  return out.map((o) => ({ dns: false, ...o }));
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('email-answers');
  const dataDir = await contactDataDir();
  const items = inputs().map((i) => capability.item.parse(i));
  const lines: string[] = [];
  for (const language of ['en', 'it'] as Language[]) {
    const ctx = { language, dataDir, allowPrivateNetwork: false };
    for (const item of items) lines.push(JSON.stringify({ item, single: (await capability.run([item], ctx))[0] }));
    for (let i = 0; i < items.length; i += 500) lines.push(JSON.stringify({ batch: await capability.run(items.slice(i, i + 500), ctx) }));
  }
  writeOrCheck(mode, file, lines);
}

await main();
