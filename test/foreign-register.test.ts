/**
 * Foreign records verified in their national registers, on real rows of each imported register
 * (read from the published files by bench/foreign-data.ts, not by the core) written the way
 * people write them.
 */
import test from 'ava';

import { evaluate, KINDS, line } from '../bench/foreign-eval.js';
import { bern, denmark, essen, luxembourg, metres } from '../bench/foreign-data.js';
import { foreignRegisters } from '../src/native.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});

test.after.always(async () => {
  await server?.close();
});

async function contact(body: unknown) {
  return call(server, 'POST', '/api/v1/contact', body);
}

const LU = luxembourg();
const BERN = bern();
const ESSEN = essen();

test('Luxembourg: the number written first, the postcode filled in from the number, the commune code and the register named', async (t) => {
  const row = LU.find((r) => r.street === 'Rue de Bonnevoie' && r.number === '14');
  t.truthy(row, 'a real CACLR row');
  const res = await contact({ address: '14, Rue de Bonnevoie', city: 'Luxembourg', country: 'LU' });
  t.is(res.status, 200);
  t.is(res.body.normalized.address, '14, Rue de Bonnevoie');
  t.is(res.body.normalized.postcode, row?.postcode);
  t.deepEqual(res.body.outcome, ['MODIFIED', 'POSTCODE'], 'FOREIGN only for Italian clients');
  t.is(res.body.territory.country, 'LU');
  t.is(res.body.territory.municipality_code, '0001');
  t.is(res.body.territory.municipality_code_type, 'lu_commune');
  t.true(res.body.postcode_check.confirmed);
  t.regex(res.body.message, /CACLR/);
  t.regex(res.body.message, /Administration du cadastre et de la topographie/);
  t.truthy(res.body.address_key);
});

test('Luxembourg in Italian: FOREIGN leads; a typo and the number after the street still find the street', async (t) => {
  const row = LU.find((r, i) => i > LU.length / 2 && /^Rue [A-Z][a-z]{8,}$/.test(r.street));
  if (!row) return t.fail();
  // two letters of the name swapped: `Rue Kirchberg` → `Rue Kicrhberg`
  const typo = row.street.replace(/^(Rue [A-Z][a-z])([a-z])([a-z])/, '$1$3$2');
  t.not(typo, row.street);
  const res = await contact({ address: `${typo} ${row.number}`, postcode: row.postcode, city: row.city, country_code: 'LU', language: 'it' });
  t.is(res.status, 200);
  t.is(res.body.esito[0], 'ESTERO', 'FOREIGN, in Italian');
  t.is(res.body.normalizzato.indirizzo, `${row.number}, ${row.street}`);
});

test('foreign: detect, the country named only at the end of the address line (in Italian): verified in its register like a declared one', async (t) => {
  const res = await contact({ address: '14, Rue de Bonnevoie, Lussemburgo', city: 'Luxembourg', foreign: 'detect' });
  t.is(res.status, 200);
  t.is(res.body.normalized.country_code, 'LU', JSON.stringify(res.body));
  t.is(res.body.territory?.country, 'LU', JSON.stringify(res.body));
  t.regex(res.body.message, /CACLR/);
  // without detect, a record that names no country is Italian
  const italian = await contact({ address: '14, Rue de Bonnevoie, Lussemburgo', city: 'Luxembourg' });
  t.true(italian.body.outcome.includes('CITY_NOT_FOUND'));
});

test('Switzerland (Bern): house-number point from GWR within metres, floor kept as sub-address, BFS number', async (t) => {
  const row = BERN[1234];
  if (!row || row.lat === undefined || row.lon === undefined) return t.fail();
  const res = await contact({ address: `${row.street} ${row.number}, 3. OG`, postcode: row.postcode, city: 'Bern', country_code: 'CH' });
  t.is(res.status, 200);
  t.is(res.body.normalized.address, `${line(row)}, 3. OG`);
  t.is(res.body.geo.precision, 'house_number');
  t.is(res.body.geo.source, 'inspire');
  t.true(metres(row.lat, row.lon, res.body.geo.lat, res.body.geo.lon) < 150);
  t.is(res.body.territory.municipality_code, '351');
  t.is(res.body.territory.municipality_code_type, 'bfs');
});

test('Germany (Essen): abbreviation written out by the register form, a number the complete register lacks is HOUSE_NUMBER_NOT_FOUND, no postcode in the file means POSTCODE_UNCONFIRMED', async (t) => {
  const row = ESSEN.find((r) => r.street.endsWith('Str.') && /^\d+$/.test(r.number));
  if (!row) return t.fail();
  const written = row.street.replace(/Str\.$/, 'Straße');
  const res = await contact({ address: `${written} ${row.number}`, postcode: '45127', city: 'Essen', country_code: 'DE' });
  t.is(res.body.normalized.address, `${row.street} ${row.number}`);
  t.true(res.body.outcome.includes('POSTCODE_UNCONFIRMED'));
  t.false(res.body.postcode_check.confirmed);
  t.is(res.body.normalized.postcode, '45127', 'the given postcode stays');
  t.is(res.body.territory.municipality_code, '05113000');
  t.is(res.body.territory.municipality_code_type, 'ags');
  const missing = await contact({ address: `${row.street} 9999`, city: 'Essen', country_code: 'DE' });
  t.true(missing.body.outcome.includes('HOUSE_NUMBER_NOT_FOUND'));
  t.is(missing.body.geo.precision, 'street');
});

test('a street that is not in the complete register is STREET_NOT_FOUND, never another street', async (t) => {
  const res = await contact({ address: 'Kramgasse 12', postcode: '1260', city: 'Luxembourg', country_code: 'LU' });
  t.true(res.body.outcome.includes('STREET_NOT_FOUND'));
  t.not(res.body.normalized.address, undefined);
  t.is(res.body.normalized.address, 'Kramgasse 12');
});

test('a real street of another country one letter from a local one is not taken for a typo when its number and postcode are not the local street\'s', async (t) => {
  // Bern has Steckweg (3014), no Streckweg; Steckweg has no 12a
  const res = await contact({ address: 'Streckweg 12a', postcode: '3006', city: 'Bern', country_code: 'CH' });
  t.is(res.status, 200);
  t.true(res.body.outcome.includes('STREET_NOT_FOUND'), JSON.stringify(res.body.outcome));
  t.is(res.body.normalized.address, 'Streckweg 12a');
  // the local street with its own number is answered through the same typo
  const row = BERN.find((r) => r.street === 'Steckweg');
  if (!row) return t.fail();
  const typo = await contact({ address: `Streckweg ${row.number}`, postcode: row.postcode, city: 'Bern', country_code: 'CH' });
  t.is(typo.body.normalized.address, `Steckweg ${row.number}`, JSON.stringify(typo.body.outcome));
});

test('Denmark (DAR): floor and door set apart, the postcode confirmed for the number', async (t) => {
  const row = denmark().find((r) => r.street === 'Ridehusgade' && r.number === '49');
  t.truthy(row);
  const res = await contact({ address: 'Ridehusgade 49, 2. th', postcode: '5000', city: 'Odense C', country_code: 'DK' });
  t.is(res.body.normalized.address, 'Ridehusgade 49, 2. th');
  t.deepEqual(res.body.outcome, []);
  t.true(res.body.postcode_check.confirmed);
  t.regex(res.body.message, /Danmarks Adresseregister/);
});

test('outside what a register covers (Berlin), the record is left to the postal form', async (t) => {
  const res = await contact({ address: 'Unter den Linden 77', postcode: '10117', city: 'Berlin', country_code: 'DE' });
  t.is(res.status, 200);
  t.notRegex(res.body.message ?? '', /Essen/);
  t.is(res.body.territory ?? null, null);
});

test('the catalogue source lists each imported register with its levels, date and attribution', (t) => {
  const regs = foreignRegisters();
  const lu = regs.find((r) => r.country === 'LU');
  t.deepEqual(lu?.verification, ['house_number', 'street', 'postcode']);
  t.is(lu?.coverage, 'national');
  t.is(lu?.date, '2025-06-05');
  t.true((lu?.house_numbers ?? 0) > 240_000);
  t.deepEqual(regs.find((r) => r.country === 'FI')?.verification, ['postcode']);
  t.true((regs.find((r) => r.country === 'CH')?.points ?? 0) > 20_000);
});

test('evaluation set: every register, every perturbation — at least 90% right overall, no wrong answer on real addresses', async (t) => {
  const table = await evaluate(40);
  for (const [cc, kinds] of table) {
    let right = 0;
    let n = 0;
    for (const kind of KINDS) {
      const [dev, held] = kinds.get(kind) ?? [];
      for (const c of [dev, held]) {
        if (!c) continue;
        t.is(c.wrong, 0, `${cc} ${kind}: no confident wrong answer`);
        if (kind === 'not_in_register') continue;
        right += c.right;
        n += c.right + c.abstained + c.wrong;
      }
    }
    // NO is a 46-row format sample of two streets whose abbreviated form (`vn.`) is not yet read: held lower
    t.true(right / n >= (cc === 'NO' ? 0.85 : 0.9), `${cc}: ${((100 * right) / n).toFixed(1)}% right`);
  }
});
