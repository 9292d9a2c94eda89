import test from 'ava';

import { asContact, countryInfo, FORMATS_PRESENT, openCageCases } from './helpers/formats.js';
import { addPack } from '../src/state/ledger.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  await addPack(server.state, 'test', 'contact', 100_000);
});

test.after.always(async () => {
  await server?.close();
});

async function contact(body: unknown, pathName = '/api/v1/contact') {
  return call(server, 'POST', pathName, body);
}

test('the issue’s example: a British postcode that is no postcode is flagged, not passed through', async (t) => {
  const res = await contact({ address: '12 Main Street', postcode: 'ZZZ', country: 'GB' });
  t.is(res.status, 200);
  t.deepEqual(res.body.outcome, ['POSTCODE_INVALID_FORMAT']);
  t.is(res.body.normalized.postcode, 'ZZZ', 'kept as written');
  t.regex(res.body.message, /postal form/);
  t.regex(res.body.message, /not verified/);
});

test('a postcode is written in its canonical form, the city in capitals on the envelope, the country line last', async (t) => {
  const res = await contact({ address: '10 downing st', postcode: 'sw1a2aa', city: 'London', country: 'UK', language: 'en' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'POSTCODE', 'STREET_FORM']);
  t.is(res.body.normalized.postcode, 'SW1A 2AA');
  t.is(res.body.normalized.address, '10 downing Street');
  t.is(res.body.normalized.city, 'London');
  t.is(res.body.normalized.country, 'United Kingdom');
  t.is(res.body.normalized.country_code, 'GB');
  t.deepEqual(res.body.normalized_postal.lines, ['10 downing Street', 'LONDON', 'SW1A 2AA', 'UNITED KINGDOM']);
  t.is(res.body.address_key, '10 DOWNING STREET');
});

test('postal_form forces normalized into the envelope form', async (t) => {
  const res = await contact({ address: '1600 Pennsylvania Ave NW', postcode: '20500', city: 'Washington', province: 'District of Columbia', country: 'US', postal_form: true, language: 'en' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'PROVINCE', 'CITY_FORM', 'STREET_FORM']);
  t.is(res.body.normalized.address, '1600 Pennsylvania Avenue NW');
  t.is(res.body.normalized.city, 'WASHINGTON');
  t.is(res.body.normalized.province, 'DC');
  t.is(res.body.normalized.country, 'UNITED STATES OF AMERICA');
  t.deepEqual(res.body.normalized_postal.lines, ['1600 Pennsylvania Avenue NW', 'WASHINGTON, DC 20500', 'UNITED STATES OF AMERICA']);
});

test('subdivisions are recognised and written as the post wants (CA provinces, ES provinces)', async (t) => {
  const ca = await contact({ address: '24 Sussex Drive', postcode: 'k1m 1m4', city: 'Ottawa', province: 'Ontario', country: 'Canada', language: 'en' });
  t.is(ca.body.normalized.province, 'ON');
  t.is(ca.body.normalized.postcode, 'K1M 1M4');
  t.deepEqual(ca.body.normalized_postal.lines, ['24 SUSSEX DRIVE', 'OTTAWA, ON K1M 1M4', 'CANADA']);
  const es = await contact({ address: 'Calle Mayor 1', postcode: '28013', city: 'Madrid', province: 'M', country: 'ES' });
  t.is(es.body.normalized.province, 'Madrid', 'the ISO code M is Madrid, written out as Correos wants it');
});

test('Italian clients get FOREIGN first, Italian codes and keys; English clients only the changes', async (t) => {
  // Berlin: Germany's register in service covers Essen only, so a Berlin address gets the postal form
  const body = { address: 'Hauptstr. 5', postcode: 'D-10827', city: 'Berlin', country: 'Germania' };
  const it = await contact({ ...body, language: 'it' });
  t.deepEqual(it.body.esito, ['ESTERO', 'MODIFICATO', 'CAP', 'INDIRIZZO_FORMA']);
  t.is(it.body.normalizzato.cap, '10827');
  t.is(it.body.normalizzato.indirizzo, 'Hauptstraße 5');
  t.deepEqual(it.body.normalizzato_postale.righe_busta, ['Hauptstraße 5', '10827 Berlin', 'GERMANIA']);
  t.regex(it.body.messaggio ?? it.body.message, /forma postale/);
  const en = await contact({ ...body, language: 'en' });
  t.deepEqual(en.body.outcome, ['MODIFIED', 'POSTCODE', 'STREET_FORM']);
  t.deepEqual(en.body.normalized_postal.lines, ['Hauptstraße 5', '10827 Berlin', 'GERMANY']);
  // the default language: the country line is in it too (issue 34: no Italian line in an English answer)
  const plain = await contact(body);
  t.is(plain.body.normalized.country, 'Germany', 'the answer is in the default language');
  t.deepEqual(plain.body.normalized_postal.lines, ['Hauptstraße 5', '10827 Berlin', 'GERMANY']);
  // UPU: the language of the country of origin or one known internationally; a German answer's line is English
  const de = await contact({ ...body, language: 'de' });
  t.is(de.body.normalized.country, 'Deutschland');
  t.deepEqual(de.body.normalized_postal.lines, ['Hauptstraße 5', '10827 Berlin', 'GERMANY']);
});

test('foreign: detect reads a foreign postcode form in a record without country', async (t) => {
  const res = await contact({ address: '12 Rue de Rivoli', postcode: 'F-75001', city: 'Paris', foreign: 'detect' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'POSTCODE']);
  t.is(res.body.normalized.country_code, 'FR');
  t.is(res.body.normalized.postcode, '75001');
  const declared = await contact({ address: '12 Rue de Rivoli', postcode: 'F-75001', city: 'Paris' });
  t.not(declared.body.normalized.country_code, 'FR', 'declared (default): no country means Italy');
});

test('every libaddressinput postcode example passes as people type it, for every country that has one (batch)', async (t) => {
  t.true(FORMATS_PRESENT);
  const items: { country_code: string; postcode: string; want: string }[] = [];
  for (const [code, info] of countryInfo()) {
    if (!info.zip || !info.zipex || code === 'IT') continue;
    for (const ex of info.zipex.split(',')) {
      if (!new RegExp(`^(?:${info.zip})$`).test(ex)) continue; // the data's own slips
      items.push({ country_code: code, postcode: ex.toLowerCase().replace(/[\s-]/g, ''), want: ex });
    }
  }
  const wrong: string[] = [];
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    const res = await contact({ items: chunk.map(({ want: _w, ...x }) => ({ ...x, city: 'X', address: 'A 1' })) });
    res.body.results.forEach((r: { result: { normalized: { postcode: string }; outcome: string[] } }, k: number) => {
      const item = chunk[k] as (typeof items)[number];
      if (r.result.outcome.includes('COUNTRY_UNRESOLVED')) return; // AC, TA: not in ISO 3166-1
      if (r.result.normalized.postcode !== item.want || r.result.outcome.includes('POSTCODE_INVALID_FORMAT')) wrong.push(`${item.country_code} ${item.postcode}`);
    });
  }
  t.true(items.length > 300);
  t.deepEqual(wrong, []);
});

test('OpenCage’s test cases, sent as a customer would: postcodes judged valid, the street line as OpenCage writes it', async (t) => {
  const cases = openCageCases().filter((c) => c.country && c.country !== 'IT' && asContact(c).address && asContact(c).city);
  t.true(cases.length > 100);
  const res = await contact({ items: cases.slice(0, 500).map((c) => ({ ...asContact(c), country_code: c.country })) });
  let postcodes = 0;
  let postcodesRight = 0;
  let streets = 0;
  const wrong: string[] = [];
  res.body.results.forEach((r: { result: { outcome: string[]; normalized_postal?: { lines: string[] } } }, k: number) => {
    const c = cases[k] as (typeof cases)[number];
    const pc = c.components.postcode ?? '';
    if (pc && !/[;,]/.test(pc)) {
      postcodes++;
      if (!r.result.outcome.includes('POSTCODE_INVALID_FORMAT')) postcodesRight++;
      else wrong.push(`${c.country} postcode ${pc}`);
    }
    const street = (r.result.normalized_postal?.lines ?? [])[0] ?? '';
    if (c.expected.toUpperCase().split('\n').includes(street.toUpperCase())) streets++;
    else wrong.push(`${c.country} ${c.description}: ${street}`);
  });
  // OpenCage's cases also hold partial postcodes (GB `E10`, GG `GY1`): invalid as a postal form, rightly flagged
  t.true(postcodesRight / postcodes >= 0.9, `${postcodesRight}/${postcodes} postcodes; ${wrong.join('\n')}`);
  t.true(streets / cases.length >= 0.9, `${streets}/${cases.length} street lines; ${wrong.slice(0, 20).join('\n')}`);
});

test('the catalogue says what is in service for each country', async (t) => {
  const res = await call(server, 'GET', '/api/v1/countries');
  const byCode = new Map<string, { verification: string; register: unknown; postcode_format: { checked: boolean; example: string | null } | null }>(res.body.countries.map((c: { iso2: string }) => [c.iso2, c]));
  t.is(byCode.get('IT')?.verification, 'house_number');
  t.truthy(byCode.get('IT')?.register);
  t.is(byCode.get('GB')?.verification, 'postal_form');
  t.is(byCode.get('GB')?.register, null);
  t.deepEqual(byCode.get('GB')?.postcode_format, { checked: true, example: 'EC1Y 8SY' });
  const it = await call(server, 'GET', '/api/v1/nazioni?q=GB&language=it');
  t.is(it.status, 200);
});

test('one-line addresses as people write them: every part to its field, the postal form built from the parts', async (t) => {
  // (line, country, address, postcode, city)
  const cases: [string, string, string, string, string][] = [
    ['10 Downing Street, London SW1A 2AA', 'GB', '10 Downing Street', 'SW1A 2AA', 'London'],
    ['Rue de Rivoli 99, 75001 Paris', 'FR', '99 Rue de Rivoli', '75001', 'Paris'], // France writes the number first (OpenCage's template for FR)
    ['Unter den Linden 77, 10117 Berlin', 'DE', 'Unter den Linden 77', '10117', 'Berlin'],
    ['Calle Mayor 1, 28013 Madrid', 'ES', 'Calle Mayor, 1', '28013', 'Madrid'],
    ['Graben 1, 1010 Wien', 'AT', 'Graben 1', '1010', 'Wien'],
    ['Damrak 1, 1012 LG Amsterdam', 'NL', 'Damrak 1', '1012 LG', 'Amsterdam'],
    ['Rue de la Loi 16, 1000 Bruxelles', 'BE', 'Rue de la Loi 16', '1000', 'Bruxelles'],
    ['1600 Amphitheatre Parkway, Mountain View, CA 94043', 'US', '1600 Amphitheatre Parkway', '94043', 'Mountain View'],
    ['C/ Mayor 1, 28013 Madrid', 'ES', 'Calle Mayor, 1', '28013', 'Madrid'],
  ];
  const res = await contact({ items: cases.map(([address, country]) => ({ address, country })), language: 'en' });
  t.is(res.status, 200);
  cases.forEach(([line, , address, postcode, city], k) => {
    const r = res.body.results[k].result;
    t.deepEqual([r.normalized.address, r.normalized.postcode, r.normalized.city], [address, postcode, city], line);
    t.is(r.normalized_postal.postcode, postcode.toUpperCase(), line);
  });
  const us = res.body.results[7].result;
  t.is(us.normalized.province, 'CA');
  t.deepEqual(us.normalized_postal.lines.slice(0, 2), ['1600 Amphitheatre Parkway', 'MOUNTAIN VIEW, CA 94043']);
});

test('a postal-form answer says so in its label and reason, not “Nothing to report”', async (t) => {
  const res = await contact({ address: '10 Downing Street', postcode: 'SW1A 2AA', city: 'London', country: 'GB', language: 'en' });
  t.is(res.body.outcome_label, 'warning');
  t.deepEqual(res.body.outcome, [], 'only the codes of the contract: the label and reason say it');
  t.regex(res.body.reason, /postal form/);
  t.regex(res.body.reason, /not verified/);
  // in Italian, and after the codes' own reasons when the form changed something
  const it = await contact({ address: '10 downing st', postcode: 'sw1a2aa', city: 'London', country: 'GB', lingua: 'it' }, '/api/v1/contatto');
  t.deepEqual(it.body.esito, ['ESTERO', 'MODIFICATO', 'CAP', 'INDIRIZZO_FORMA']);
  t.is(it.body.esito_label, 'avviso');
  t.regex(it.body.motivo, /^Solo messo nella forma postale del paese: via e numero civico non verificati; Corretto: /);
  // a register country whose register verifies the address says nothing of the kind
  const lu = await contact({ address: '14, Rue de Bonnevoie', city: 'Luxembourg', country: 'LU', language: 'en' });
  t.notRegex(lu.body.reason, /postal form/);
});

test('foreign: detect reads the clear signals of a record without country, and an Italian province keeps it Italian', async (t) => {
  const gb = await contact({ address: '10 Downing Street', postcode: 'SW1A 2AA', city: 'London', foreign: 'detect' });
  t.is(gb.body.normalized.country_code, 'GB');
  const fr = await contact({ address: 'Rue de Rivoli 99', city: '75001 Paris France', foreign: 'detect' });
  t.deepEqual([fr.body.normalized.country_code, fr.body.normalized.postcode, fr.body.normalized.city], ['FR', '75001', 'Paris']);
  const pt = await contact({ address: 'Avenida da Liberdade 1, 1250-096 Lisboa', foreign: 'detect' });
  t.deepEqual([pt.body.normalized.country_code, pt.body.normalized.postcode, pt.body.normalized.city], ['PT', '1250-096', 'Lisboa']);
  const ch = await contact({ address: 'Bahnhofstrasse 1, 8001 Zürich', foreign: 'detect' });
  t.is(ch.body.normalized.country_code, 'CH');
  const named = await contact({ address: 'Rue de Rivoli 99, 75001 Paris, France', foreign: 'detect' });
  t.deepEqual([named.body.normalized.country_code, named.body.normalized.city], ['FR', 'Paris']);
  // a Ticino locality is called Aquila: the province code says Italy
  for (const body of [{ address: 'Via Garibaldi 3, Aquila (AQ)' }, { address: 'Via Garibaldi 3', city: 'Aquila (AQ)' }]) {
    const it = await contact({ ...body, foreign: 'detect' });
    t.not(it.body.foreign_address, true, JSON.stringify(it.body));
    t.is(it.body.normalized.country_code, 'IT');
  }
});
