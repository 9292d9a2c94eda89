/**
 * The tax-code service's answers on a fixed set of inputs built from the register's own sources, one JSON line
 * each (the input and the answer in English, Italian and German), so that a rewrite of the service's work can be
 * checked to give byte for byte the same answers as before it:
 *
 *   node dist/bench/tax-code-answers.js write .tmp/tax-code-answers.jsonl   (before the change)
 *   node dist/bench/tax-code-answers.js check .tmp/tax-code-answers.jsonl   (after: exits 1 on the first difference)
 *
 * Inputs: a person born in every municipality of the ANPR archive (ceased, renamed and moved ones included) in
 * the middle of its life and in every foreign state, generated; their codes validated, extracted and compared as
 * written, with homocode letters, a wrong check letter, spaces and lower case, a wrong month, a day out of range
 * and cut short; Italian action names; missing data. Each item once alone (the event loop's door) and all of
 * them again in batches (the pool's door). Today is fixed, so ages do not move between runs.
 */

import type { Language } from '../src/http/language.js';
import { openRegister } from '../src/native.js';
import { taxCodeItem, type TaxCodeItem } from '../src/tax-code/schema.js';
import { processTaxCodes } from '../src/tax-code/service.js';
import { sharedRegister } from '../test/helpers/server.js';
import { sourceCsv } from '../test/helpers/source.js';
import { answerArgs, writeOrCheck } from './answer-file.js';

const TODAY = '2026-11-25';
const LANGUAGES: Language[] = ['en', 'it', 'de'];
const HOMOCODE = 'LMNPQRSTUV';
const NAMES: [string, string, string][] = [
  ['Rossi', 'Mario', 'M'],
  ['Bianchi', 'Laura', 'F'],
  ['De Luca', 'Gian Maria', 'M'],
  ['Fo', 'Ida', 'F'],
  ["D'Angelo", 'Anna Maria', 'F'],
  ['Ng', 'Li', 'M'],
];

function middle(from: string, to: string): string {
  const a = Date.parse(from > '1900-01-01' ? from : '1900-01-01');
  const b = Date.parse(to < TODAY ? to : TODAY);
  return new Date((a + b) / 2).toISOString().slice(0, 10);
}

function persons(): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  const towns = sourceCsv('it/comuni/anpr_archivio_comuni.csv.gz');
  towns.forEach((t, i) => {
    if (i % 3 !== 0) return;
    const [last, first, gender] = NAMES[i % NAMES.length]!;
    const place = i % 2 ? `${t.DENOMINAZIONE_IT} (${t.SIGLAPROVINCIA})` : t.DENOMINAZIONE_IT!;
    out.push({ action: 'generate', last_name: last, first_name: first, gender, birth_date: middle(t.DATAISTITUZIONE!, t.DATACESSAZIONE!), birth_place: place });
  });
  sourceCsv('it/esteri/anpr_stati_esteri.csv').forEach((s, i) => {
    const [last, first, gender] = NAMES[i % NAMES.length]!;
    const place = [s.DENOMINAZIONEISTAT, s.DENOMINAZIONEISTAT_EN, s.CODISO3166_1_ALPHA3][i % 3] || s.DENOMINAZIONE!;
    out.push({ action: 'generate', last_name: last, first_name: first, gender, birth_date: `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`, birth_place: place });
  });
  return out;
}

/** A code as people mistype or vary it. */
function variants(code: string, i: number): string[] {
  const homocode = code.slice(0, 15).replace(/\d(?=\D*$)/, (d) => HOMOCODE[Number(d)]!) + code[15];
  const wrongCheck = code.slice(0, 15) + (code[15] === 'A' ? 'B' : 'A');
  const month = code.slice(0, 8) + (code[8] === 'A' ? 'Z' : 'A') + code.slice(9);
  const day = code.slice(0, 9) + '9' + code.slice(10);
  return [code, homocode, wrongCheck, ` ${code.toLowerCase().slice(0, 8)} ${code.slice(8)} `, month, day, code.slice(0, 11 + (i % 5))];
}

function inputs(generated: (string | undefined)[], people: Record<string, string>[]): Record<string, string>[] {
  const out: Record<string, string>[] = [...people];
  generated.forEach((code, i) => {
    if (!code) return;
    const person = people[i]!;
    for (const c of i % 7 === 0 ? variants(code, i) : [code]) {
      out.push({ action: i % 2 ? 'validate' : 'valida', tax_code: c });
      if (i % 5 === 0) out.push({ action: i % 2 ? 'extract' : 'estrai', tax_code: c });
    }
    if (i % 4 === 0) {
      out.push({ ...person, action: 'compare', tax_code: code });
      out.push({ ...person, action: 'confronta', tax_code: code, first_name: 'Giuseppe', birth_date: '1975-06-30' });
    }
  });
  out.push({ action: 'generate' }, { action: 'generate', last_name: 'Rossi' }, { action: 'validate' }, { action: 'validate', tax_code: '' });
  out.push({ action: 'compare', tax_code: 'RSSMRA80A01H501U' }, { action: 'extract', tax_code: 'XXXXXXXXXXXXXXXX' }, { action: 'validate', tax_code: '123' });
  return out;
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('tax-code-answers');
  openRegister(await sharedRegister(), true);
  const people = persons();
  const generated = (await processTaxCodes(people.map((p) => taxCodeItem.parse(p)), 'en', TODAY)).map((r) => r.tax_code as string | undefined);
  const items: TaxCodeItem[] = inputs(generated, people).map((i) => taxCodeItem.parse(i));
  const lines: string[] = [];
  for (const language of LANGUAGES) {
    for (const item of items) lines.push(JSON.stringify({ language, item, single: (await processTaxCodes([item], language, TODAY))[0] }));
    for (let i = 0; i < items.length; i += 500) lines.push(JSON.stringify({ language, batch: await processTaxCodes(items.slice(i, i + 500), language, TODAY) }));
  }
  writeOrCheck(mode, file, lines);
}

await main();
