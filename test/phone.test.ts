import { readFile } from 'node:fs/promises';
import path from 'node:path';

import test from 'ava';
import { parse } from 'csv-parse/sync';
import examples from 'libphonenumber-js/examples.mobile.json';
import parsePhoneNumber, { type CountryCode } from 'libphonenumber-js/max';

import type { ItemResult } from '../src/http/capability.js';
import { labelOf } from '../src/http/outcomes.js';
import { recordCountry } from '../src/phone/country.js';
import { capability } from '../src/phone/service.js';
import { contactDataDir, processOne } from './helpers/light.js';
import { SOURCE } from './helpers/source.js';

const PHONE_DATA = path.join(SOURCE, 'contact', 'phone');
let dataDir = '';

test.before(async () => {
  dataDir = await contactDataDir();
});

function verify(item: Record<string, unknown>): Promise<ItemResult> {
  return processOne(capability, item, { language: 'en', dataDir, allowPrivateNetwork: false });
}

async function csvRows(file: string): Promise<Record<string, string>[]> {
  return parse(await readFile(path.join(PHONE_DATA, file), 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

test('every district prefix of the plan file names its district on a landline', async (t) => {
  const rows = (await csvRows('it_prefissi_distretti.csv')).filter((r) => /^0\d+$/.test(r.prefisso ?? ''));
  const prefixes = rows.map((r) => r.prefisso!);
  t.true(rows.length > 200);
  let checked = 0;
  for (const row of rows) {
    const prefix = row.prefisso!;
    // fill to a 10-digit number whose digits after the prefix start no longer district prefix
    const number = (prefix + '9876543210').slice(0, 10);
    if (prefixes.some((p) => p.length > prefix.length && number.startsWith(p))) continue;
    if (!parsePhoneNumber(number, 'IT')?.isValid()) continue;
    const r = await verify({ phone: number });
    t.is(r.class, 'landline', number);
    t.is(r.district, row.distretto, number);
    t.is(r.national_number, number);
    t.is(r.e164, `+39${number}`);
    checked++;
  }
  t.true(checked > 200, `checked ${checked}`);
});

test('every mobile block of the libphonenumber carrier file gives its original assignee', async (t) => {
  const text = await readFile(path.join(PHONE_DATA, 'libphonenumber', 'carrier_en_39.txt'), 'utf8');
  const blocks = text
    .split('\n')
    .filter((l) => /^\d+\|/.test(l))
    .map((l) => l.split('|') as [string, string]);
  t.true(blocks.length >= 10);
  for (const [prefix, carrier] of blocks) {
    const national = prefix.slice(2);
    const longer = blocks.some(([p]) => p.length > prefix.length && p.startsWith(prefix));
    const number = (national + (longer ? '5' : '') + '1234567').slice(0, 10);
    const r = await verify({ phone: number });
    t.is(r.class, 'mobile', number);
    t.is(r.operator, carrier, number);
  }
});

test('a field with several numbers, labels and slashes splits into phone, phone2, phone3', async (t) => {
  const r = await verify({ phone: 'tel. 02/12345678 cell. 339-1234567; 0471 123456 / 06 87654321' });
  t.is(r.phone, '0212345678');
  t.is(r.phone2, '3391234567');
  t.is(r.phone3, '0471123456');
  t.deepEqual(r.outcome, ['MODIFIED', 'PHONE_FORM']);
  t.truthy(r.comments, 'the fourth number is reported as not kept');
  t.is(capability.units(capability.item.parse({ phone: 'tel. 02/12345678 cell. 339-1234567; 0471 123456 / 06 87654321' })), 3);
  t.is(capability.units(capability.item.parse({ phone: '02 1234 5678' })), 1);
});

test('extensions and notes are kept aside with PHONE_WITH_EXTENSION', async (t) => {
  const ext = await verify({ phone: '02 12345678 int. 23' });
  t.is(ext.phone, '0212345678');
  t.is(ext.extension, '23');
  t.deepEqual(ext.outcome, ['PHONE_WITH_EXTENSION']);
  const note = await verify({ phone: '0471 123456 (ore pasti)' });
  t.is(note.phone, '0471123456');
  t.is(note.note, 'ore pasti');
  t.true(note.outcome.includes('PHONE_WITH_EXTENSION'));
});

test('39 written without plus is removed when only that reading is a number', async (t) => {
  const r = await verify({ phone: '393391234567' });
  t.is(r.phone, '3391234567');
  t.is(r.class, 'mobile');
  t.deepEqual(r.outcome, ['MODIFIED', 'PHONE_FORM']);
  // 39… that is itself a valid mobile stays as written
  const own = await verify({ phone: '3931234567' });
  t.is(own.phone, '3931234567');
  t.deepEqual(own.outcome, []);
});

test('trunk zero after an international prefix is removed and the number is foreign', async (t) => {
  const r = await verify({ phone: '+44 (0)20 7946 0958' });
  t.is(r.e164, '+442079460958');
  t.is(r.class, 'foreign');
  t.is(r.country_code, 'GB');
  t.is(r.national_number, undefined);
  t.deepEqual(r.outcome, ['PHONE_FOREIGN', 'MODIFIED', 'PHONE_FORM']);
});

test('an international number written in full is not reported as changed', async (t) => {
  const r = await verify({ phone: '+49 30 1234567' });
  t.is(r.phone, '+49 301234567');
  t.deepEqual(r.outcome, ['PHONE_FOREIGN']);
});

test('a national number of a foreign record is read in that country and is not foreign to it', async (t) => {
  const r = await verify({ phone: '030 1234567', country: 'Germania' });
  t.is(r.e164, '+49301234567');
  t.is(r.class, 'landline');
  t.is(r.national_number, '301234567');
  t.is(r.country_code, 'DE');
  t.true(r.outcome.includes('PHONE_FOREIGN'));
  const byCode = await verify({ phone: '030 1234567', country_code: 'DEU' });
  t.is(byCode.e164, '+49301234567');
});

test('international format, Italian option value accepted', async (t) => {
  const r = await verify({ phone: '339 1234567', format: 'internazionale' });
  t.is(r.phone, '+39 3391234567');
  t.is(r.national_number, '3391234567');
});

test('special numbers from the curated table and the plan: type and outcome', async (t) => {
  const rows = await csvRows('it_numerazioni_speciali.csv');
  const expectations: Record<string, [string, string]> = {
    numero_verde: ['toll-free', 'PHONE_SPECIAL'],
    sovrapprezzo: ['premium rate', 'PHONE_SPECIAL'],
    addebito_ripartito: ['shared cost', 'PHONE_SPECIAL'],
    emergenza: ['public utility', 'PHONE_SERVICE'],
    pubblica_utilita: ['public utility', 'PHONE_SERVICE'],
  };
  let checked = 0;
  for (const row of rows) {
    const want = expectations[row.categoria ?? ''];
    const length = Number((row.lunghezza_cifre ?? '').split('-')[0]);
    if (!want || !length) continue;
    const number = (row.prefisso! + '123456789').slice(0, length);
    const r = await verify({ phone: number });
    t.is(r.class, 'special', `${number} ${row.descrizione}`);
    t.is(r.type, want[0], `${number} ${row.descrizione}`);
    t.true(r.outcome.includes(want[1]), `${number}: ${r.outcome.join(' ')}`);
    checked++;
  }
  t.true(checked >= 15, `checked ${checked}`);
});

test('errors: empty, not a number, out of plan, anomalous length', async (t) => {
  const empty = await verify({ phone: '  ' });
  t.deepEqual(empty.outcome, ['PHONE_EMPTY']);
  t.false(empty.ok);
  t.deepEqual((await verify({ phone: 'chiamare' })).outcome, ['PHONE_INVALID']);
  const outOfPlan = await verify({ phone: '2 12345678' });
  t.deepEqual(outOfPlan.outcome, ['PHONE_OUT_OF_PLAN']);
  t.is(labelOf(outOfPlan.outcome, capability.outcomes), 'error');
  t.deepEqual((await verify({ phone: '339 123' })).outcome, ['PHONE_LENGTH_ANOMALOUS']);
  t.is((await verify({ phone: '339 123' })).phone, '339123', 'phone is never empty when a number exists');
});

test('bad option values are rejected by the schema', (t) => {
  t.false(capability.item.safeParse({ phone: '02 1234567', format: 'local' }).success);
  t.true(capability.item.safeParse({ phone: 3391234567 }).success);
});

test('over HTTP: Italian alias, keys and codes with language it; one light operation per number', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer();
  try {
    const it = await call(server, 'POST', '/api/v1/telefono', { telefono: '02 1234 5678 int. 12', lingua: 'it' });
    t.is(it.status, 200);
    t.is(it.body.telefono, '0212345678');
    t.is(it.body.quartiere, 'Milano');
    t.deepEqual(it.body.esito, ['TELEFONO_CON_INTERNO']);
    const batch = await call(server, 'POST', '/api/v1/phone', { items: [{ id: 'a', phone: '3391234567 / 0212345678' }, { id: 'b', phone: '0471 123456' }] });
    t.is(batch.status, 200);
    t.is(batch.body.count, 2);
    t.is(batch.body.results[0].id, 'a');
    t.is(batch.body.results[0].result.phone2, '0212345678');
    t.is(batch.headers.get('x-service-charged'), '3');
  } finally {
    await server.close();
  }
});

test('slashes split by the numbering plan: three numbers stay three, a prefix and its number stay one', async (t) => {
  const three = await verify({ phone: '02 1234567 / 333 1234567 / 06 1234567' });
  t.deepEqual([three.phone, three.phone2, three.phone3], ['021234567', '3331234567', '061234567']);
  t.is(three.class, 'landline');
  t.deepEqual((three.numbers as ItemResult[]).map((n) => n.class), ['landline', 'mobile', 'landline']);
  const one = await verify({ phone: '06/1234567' });
  t.is(one.phone, '061234567');
  t.is(one.phone2, undefined);
  t.is(capability.units(capability.item.parse({ phone: '02 1234567 / 333 1234567 / 06 1234567' })), 3);
  t.is(capability.units(capability.item.parse({ phone: '06/1234567' })), 1);
  // the same without slashes: spaces alone
  const spaced = await verify({ phone: '333 1234567 06 1234567' });
  t.deepEqual([spaced.phone, spaced.phone2], ['3331234567', '061234567']);
});

test("national_number of a foreign record's own number is libphonenumber's national significant number", async (t) => {
  for (const [phone, country] of [['030 1234567', 'DE'], ['01 42 68 53 00', 'FR'], ['020 7946 0958', 'GB'], ['0201234567', 'NL']] as const) {
    const r = await verify({ phone, country_code: country });
    const pn = parsePhoneNumber(phone, country)!;
    t.is(r.national_number, pn.nationalNumber, `${phone} ${country}`);
    t.false((r.national_number as string).startsWith('0'), `${phone}: no trunk prefix`);
    t.is(r.e164, pn.number);
  }
  t.is((await verify({ phone: '030 1234567', country_code: 'DE' })).national_number, '301234567');
  // Italy's leading 0 is part of the number, not a trunk prefix
  t.is((await verify({ phone: '02 1234567' })).national_number, '021234567');
});

test("every country's example number: validity, class and e164 as the library reads them with parse, isValid and getType", async (t) => {
  const classOf: Record<string, string> = { MOBILE: 'mobile', TOLL_FREE: 'special', PREMIUM_RATE: 'special', SHARED_COST: 'special', UAN: 'special', PERSONAL_NUMBER: 'special', VOIP: 'special' };
  let checked = 0;
  let invalid = 0;
  for (const [country, example] of Object.entries(examples as Record<string, string>)) {
    // Italy's own plan has its special-number table and the 39 rule on top of the library; San Marino and the Vatican read as Italy's
    if (['IT', 'VA', 'SM'].includes(country) || recordCountry(country) !== country) continue;
    // the number as written, one digit short and one digit long: valid and invalid readings of the same plan
    for (const phone of [example, example.slice(0, -1), `${example}5`]) {
      const r = await verify({ phone, country_code: country });
      if (r.phone2 !== undefined || phone.length > 11) continue; // split by the plan into two numbers: not one reading
      const pn = parsePhoneNumber(phone, country as CountryCode);
      const valid = pn?.isValid() ?? false;
      t.is(r.ok, valid, `${country} ${phone}`);
      if (!valid || !pn) {
        invalid++;
        continue;
      }
      t.is(r.e164, pn.number, `${country} ${phone}`);
      // a plan sharing its calling code may give the number to its neighbour (Åland's example reads as Finnish)
      const expected = pn.country === country ? (classOf[pn.getType() ?? ''] ?? 'landline') : 'foreign';
      t.is(r.class, expected, `${country} ${phone} ${pn.country} ${pn.getType()}`);
      checked++;
    }
  }
  t.true(checked > 200, `${checked} valid numbers checked`);
  t.true(invalid > 200, `${invalid} invalid numbers checked`);
});

test('over HTTP: split, national_number and comments in English and Italian', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer();
  try {
    const en = await call(server, 'POST', '/api/v1/phone', { phone: '02 1234567 / 333 1234567 / 06 1234567 / 0471 123456' });
    t.is(en.status, 200);
    t.deepEqual([en.body.phone, en.body.phone2, en.body.phone3], ['021234567', '3331234567', '061234567']);
    t.deepEqual(en.body.comments, ['at most 3 numbers are kept: more in the field, left out: 1']);
    t.is(en.headers.get('x-service-charged'), '3');
    const it = await call(server, 'POST', '/api/v1/telefono', { telefono: '02 1234567 / 333 1234567 / 06 1234567 / 0471 123456', lingua: 'it' });
    t.deepEqual([it.body.telefono, it.body.telefono2, it.body.telefono3], ['021234567', '3331234567', '061234567']);
    t.deepEqual(it.body.commenti, ['si tengono al massimo 3 numeri: altri nel campo, non tenuti: 1']);
    const de = await call(server, 'POST', '/api/v1/telefono', { telefono: '030 1234567', nazione_iso2: 'DE', lingua: 'it' });
    t.is(de.body.nazionale, '301234567');
    t.is(de.body.formato_e164, '+49301234567');
    const unknownEn = await call(server, 'POST', '/api/v1/phone', { phone: '06/1234567', country: 'Atlantis' });
    t.is(unknownEn.body.phone, '061234567');
    t.deepEqual(unknownEn.body.comments, ['country not recognised: numbers read as Italian']);
    const unknownIt = await call(server, 'POST', '/api/v1/phone', { phone: '06/1234567', country: 'Atlantis', language: 'it' });
    t.deepEqual(unknownIt.body.commenti, ['paese non riconosciuto: numeri letti come italiani']);
    const unknownFr = await call(server, 'POST', '/api/v1/phone', { phone: '06/1234567', country: 'Atlantis' }, { headers: { 'accept-language': 'fr' } });
    t.deepEqual(unknownFr.body.comments, ['pays non reconnu : numéros lus comme italiens']);
  } finally {
    await server.close();
  }
});
