import test from 'ava';
import { getCountries, type CountryCode, type PhoneNumber } from 'libphonenumber-js/core';
import examples from 'libphonenumber-js/examples.mobile.json';
import metadata from 'libphonenumber-js/metadata.max.json';

import { isValidOfType, readByLibrary, readNumber, readPlain, typeOf } from '../src/phone/plan.js';
import { digitsFrom, phoneCsv } from './helpers/light.js';

/** What the service reads of a number: the library's parse fields and its getType. */
function facts(pn: PhoneNumber | undefined): unknown {
  if (!pn) return undefined;
  return { country: pn.country, code: pn.countryCallingCode, national: pn.nationalNumber, number: pn.number, carrier: pn.carrierCode, ext: pn.ext, type: pn.getType() };
}

/** Texts as the service hands them to the plan: digits with at most a leading +, in a record country. */
function texts(): [string, CountryCode][] {
  const random = digitsFrom(14);
  const out: [string, CountryCode][] = [];
  const countries = getCountries(metadata);
  const callingCode = (c: CountryCode) => (metadata.countries as Record<string, [string]>)[c]![0];
  for (const [country, example] of Object.entries(examples as Record<string, string>) as [CountryCode, string][]) {
    for (const national of [example, example.slice(0, -1), `${example}5`, example.slice(0, 2), example.slice(0, 1)]) {
      out.push([national, country], [national, 'IT'], [`+${callingCode(country)}${national}`, 'IT'], [`${callingCode(country)}${national}`, country]);
      out.push([`00${callingCode(country)}${national}`, country], [`+${callingCode(country)}0${national}`, country]);
    }
  }
  const districts = phoneCsv('it_prefissi_distretti.csv').map((r) => r.prefisso!).filter((p) => /^0\d+$/.test(p));
  const mobiles = phoneCsv('it_mobile_prefix_operator.csv').map((r) => r.prefisso_nazionale!);
  const special = phoneCsv('it_numerazioni_speciali.csv').map((r) => r.prefisso!);
  for (const prefix of [...districts, ...mobiles, ...special]) {
    for (let length = 4; length <= 13; length++) {
      const national = prefix + random(Math.max(0, length - prefix.length));
      out.push([national, 'IT'], [`+39${national}`, 'IT'], [`+39${national}`, 'DE'], [national, 'VA'], [national, 'SM'], [`39${national}`, 'IT']);
    }
  }
  for (let i = 0; i < 4000; i++) {
    const lead = ['', '0', '3', '+39', '+', '+1', '+44', '+7', '00', '8', '1', '06698'][i % 12]!;
    out.push([`${lead}${random(1 + (i % 16))}`, countries[(i * 31) % countries.length]!]);
  }
  return out;
}

test('the plan reading equals the library: parse fields, type and validity of every text', async (t) => {
  let plain = 0;
  let numbers = 0;
  const all = texts();
  for (const [text, country] of all) {
    const library = readByLibrary(text, country);
    const ours = readPlain(text, country);
    if (ours !== null) {
      plain++;
      t.deepEqual(facts(ours), facts(library), `${text} in ${country}`);
    }
    t.deepEqual(facts(readNumber(text, country)), facts(library), `${text} in ${country}`);
    if (library) {
      numbers++;
      t.is(typeOf(library), library.getType(), `${text} in ${country}`);
      t.is(isValidOfType(library, typeOf(library)), library.isValid(), `${text} in ${country}`);
    }
  }
  // the comparison means something only if the plan reads most texts itself and most texts are numbers
  t.true(plain > all.length / 3, `${plain} of ${all.length} read by the plan`);
  t.true(numbers > all.length / 2, `${numbers} of ${all.length} are numbers`);
});
