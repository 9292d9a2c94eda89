import test from 'ava';
import { parse } from 'csv-parse/sync';

import { addPack } from '../src/state/ledger.js';
import { capability as contactCapability, nativeContact, nativeOptions } from '../src/contact/service.js';
import { toItalianOutput } from '../src/http/keys.js';
import { finishResult } from '../src/http/outcomes.js';
import type { ContactItem } from '../src/contact/schema.js';
import { verifyInTurn } from '../src/contact/turn-batch.js';
import { readAnswers, type CoreAnswer } from '../src/contact/answer.js';
import { taxCodes, verifyContactAnswers, verifyContactAnswersSync } from '../src/native.js';
import { call, startServer, type TestServer } from './helpers/server.js';
import { sourceCsv as csvGz, type Row } from './helpers/source.js';

let server: TestServer;

test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});

test.after.always(async () => {
  await server?.close();
});

/** Real house numbers of Bologna (2012), each with its postcode, district and point. */
const BOLOGNA = (() => {
  const rows = csvGz('it/civici/bologna/civici_2012.csv.gz', ',');
  return rows.filter((r) => r.CAP?.length === 5 && !r.SUBCIV && /^VIA [A-Z ]+$/.test(r.DENOMINAZI ?? ''));
})();

/** `VIA DEL FAGGIOLO` → `Via del Faggiolo`, as people type it. */
function titled(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    .replace(/\b(Di|Del|Della|Dei|Degli|Delle|De|Da)\b/g, (w) => w.toLowerCase());
}

function pick(i: number): Row {
  return BOLOGNA[(i * 997) % BOLOGNA.length] as Row;
}

async function contact(body: unknown, pathName = '/api/v1/contact') {
  return call(server, 'POST', pathName, body);
}

test('a registered address comes back unchanged, with its point, postcode check and attribution', async (t) => {
  const row = pick(1);
  const res = await contact({ address: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  t.is(res.status, 200);
  t.deepEqual(res.body.outcome, []);
  t.is(res.body.outcome_label, 'ok');
  t.true(res.body.ok);
  t.is(res.body.geo.precision, 'house_number');
  t.is(res.body.geo.source, 'anncsu', 'within the spec enumeration');
  t.is(res.body.geo.dataset, 'municipal', 'the real provenance beside it');
  t.true(Math.abs(res.body.geo.lat - Number(row.LAT_WGS84)) < 1e-6);
  t.true(Math.abs(res.body.geo.lon - Number(row.LON_WGS84)) < 1e-6);
  t.is(res.body.normalized.postcode, row.CAP);
  t.is(res.body.normalized.country, 'Italy', 'the country named in the request language');
  t.is(res.body.normalized.country_code, 'IT');
  t.is(res.body.district, row.QUARTIERE);
  t.is(res.body.territory.cadastral_code, 'A944');
  t.deepEqual(res.body.postcode_check, { source: 'municipal', precision: 'house_number', house_numbers: 1, agreement: 1, confirmed: true });
  t.true(res.body.city_type.provincial_capital);
  t.regex(res.body.message, /ANNCSU/);
  t.regex(res.body.message, /Comune di Bologna/);
  t.is(res.body.attribution, undefined, 'the attribution list becomes the message');
  t.truthy(res.body.address_key);
});

test('abbreviations and lower case are a change of form; a missing postcode and province are filled in', async (t) => {
  const row = pick(2);
  const name = titled((row.DENOMINAZI as string).replace(/^VIA /, ''));
  const res = await contact({ address: `v. ${name.toLowerCase()}, ${row.CIVICO}`, city: 'bologna' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'POSTCODE', 'PROVINCE', 'STREET_FORM']);
  t.is(res.body.outcome_label, 'modified');
  t.is(res.body.normalized.postcode, row.CAP);
  t.is(res.body.normalized.province, 'BO');
  t.is(res.body.normalized.city, 'Bologna');
});

test('a wrong postcode is corrected from the house number', async (t) => {
  const row = pick(3);
  const wrong = row.CAP === '40121' ? '40122' : '40121';
  const res = await contact({ address: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}`, postcode: wrong, city: 'Bologna', province: 'BO' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'POSTCODE']);
  t.is(res.body.normalized.postcode, row.CAP);
});

test('typos in street and city are corrected, and the same street gets the same address_key', async (t) => {
  const row = BOLOGNA.find((r) => (r.DENOMINAZI ?? '').replace(/^VIA /, '').length >= 9 && !(r.DENOMINAZI ?? '').includes(' D')) as Row;
  const name = titled(row.DENOMINAZI as string);
  const typo = name.slice(0, -3) + (name.at(-2) ?? '') + (name.at(-3) ?? '') + name.slice(-1);
  const right = await contact({ address: `${name} ${row.CIVICO}`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  const res = await contact({ address: `${typo} ${row.CIVICO}`, postcode: row.CAP, city: 'Bolgona', province: 'BO' });
  t.deepEqual(res.body.outcome, ['MODIFIED', 'CITY', 'STREET'], typo);
  t.is(res.body.normalized.address, right.body.normalized.address);
  t.is(res.body.address_key, right.body.address_key);
});

test('numbers: missing, in an unknown form, and not in a complete register', async (t) => {
  const row = pick(4);
  const street = titled(row.DENOMINAZI as string);
  const missing = await contact({ address: street, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  t.true(missing.body.outcome.includes('HOUSE_NUMBER_MISSING'));
  const odd = await contact({ address: `${street} 12/A/B/CCCC`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  t.true(odd.body.outcome.includes('HOUSE_NUMBER_INVALID_FORMAT'));
  const absent = await contact({ address: `${street} 98765`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  t.true(absent.body.outcome.includes('HOUSE_NUMBER_NOT_FOUND'));
  t.is(absent.body.outcome_label, 'warning');
});

test('street and city not found, city ambiguous, incomplete data with ok false and status 200', async (t) => {
  const street = await contact({ address: 'Via Dei Test Inesistenti 4', city: 'Bologna', province: 'BO' });
  t.true(street.body.outcome.includes('STREET_NOT_FOUND'));
  t.is(street.body.address_key, 'VIA DEI TEST INESISTENTI 4');
  const city = await contact({ address: 'Via Roma 1', city: 'Qwertyville' });
  t.deepEqual(city.body.outcome, ['CITY_NOT_FOUND']);
  t.is(city.body.outcome_label, 'error');
  // a name ISTAT lists in two provinces (Samone, Livo, Castro…)
  const istat = csvGz('it/comuni/istat_elenco_comuni_2023-11.csv.gz', ';');
  const seen = new Map<string, number>();
  for (const r of istat) seen.set(r['Denominazione in italiano'] ?? '', (seen.get(r['Denominazione in italiano'] ?? '') ?? 0) + 1);
  const twin = [...seen].find(([, n]) => n === 2)?.[0] as string;
  t.truthy(twin);
  const ambiguous = await contact({ address: 'Via Dei Test Inesistenti 4', city: twin });
  t.deepEqual(ambiguous.body.outcome, ['CITY_AMBIGUOUS']);
  const empty = await contact({ address: '', city: '' });
  t.is(empty.status, 200);
  t.false(empty.body.ok);
  t.deepEqual(empty.body.outcome, ['INCOMPLETE_DATA']);
});

test('PO boxes, care-of and sub-address parts', async (t) => {
  const box = await contact({ address: 'Casella Postale 45', postcode: '40121', city: 'Bologna' });
  t.true(box.body.outcome.includes('PO_BOX'));
  const row = pick(5);
  const res = await contact({ address: `c/o Studio Rossi, ${titled(row.DENOMINAZI as string)} ${row.CIVICO} scala B int. 7`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
  t.deepEqual(res.body.outcome, []);
  t.is(res.body.care_of, 'Studio Rossi');
  t.deepEqual(res.body.sub_address, [
    { type: 'staircase', value: 'B' },
    { type: 'unit', value: '7' },
  ]);
  t.is(res.body.sub_address_confirmed, null);
});

test('foreign addresses: FOREIGN leads the outcome for Italian clients only', async (t) => {
  const en = await contact({ address: '10 Downing Street', postcode: 'SW1A 2AA', city: 'London', country: 'Regno Unito' });
  t.is(en.body.normalized.country_code, 'GB');
  t.false(en.body.outcome.includes('FOREIGN'));
  const it = await contact({ address: '10 Downing Street', city: 'London', country_code: 'GB', language: 'it' });
  t.is(it.body.esito[0], 'ESTERO');
  t.is(it.body.normalizzato.nazione_iso2, 'GB');
  const unknown = await contact({ address: 'Main Street 1', city: 'Nowhere', country: 'Atlantide' });
  t.true(unknown.body.outcome.includes('COUNTRY_UNRESOLVED'));
});

test('a single call answers as the same contact inside a batch, whether sent alone or with other calls at once', async (t) => {
  await addPack(server.state, server.account, 'contact', 1_000);
  const rows = [pick(21), pick(22), pick(23), pick(24)];
  const inputs: Record<string, unknown>[] = [
    { address: `${titled(rows[0]?.DENOMINAZI as string)} ${rows[0]?.CIVICO}`, postcode: rows[0]?.CAP, city: 'Bologna', province: 'BO' },
    { address: `v. ${titled((rows[1]?.DENOMINAZI as string).replace(/^VIA /, '')).toLowerCase()} n. ${rows[1]?.CIVICO}`, city: `${rows[1]?.CAP} Bologna (BO)`, postal_form: true },
    { address: `c/o Rossi ${titled(rows[2]?.DENOMINAZI as string)} ${rows[2]?.CIVICO} scala B`, city: 'Bolgona', preserve_original: true, debug: true },
    { address: `${titled(rows[3]?.DENOMINAZI as string)} 98765`, postcode: '40100', city: 'Bologna', precision: 1 },
    { address: 'Via Dei Test Inesistenti 4', city: 'Bologna' },
    { address: '10 Downing Street', postcode: 'SW1A 2AA', city: 'London', country: 'Regno Unito', postal_form: true },
    { address: 'Rua Augusta 100', city: 'Lisboa Portugal', foreign: 'detect' },
    { address: '', city: '' },
  ];
  // the singles first: the first foreign contact loads the foreign registers, and a batch of foreign
  // contacts on the rayon pool during that load deadlocks in the core (foreign::current holds its mutex
  // across a rayon import while rayon workers wait for it; reported with issue 14)
  for (const language of ['en', 'it', 'de']) {
    const singles: unknown[] = [];
    for (const input of inputs) {
      const single = await contact({ ...input, language });
      t.is(single.status, 200);
      const { credit: _c, credito: _k, ...answer } = single.body as Record<string, unknown>;
      singles.push(answer);
    }
    const batch = await contact({ items: inputs, language });
    t.is(batch.status, 200);
    const results = batch.body.results as { result: unknown }[];
    t.is(results.length, inputs.length);
    inputs.forEach((input, i) => t.deepEqual(singles[i], results[i]?.result, `${language} ${JSON.stringify(input)}`));
    // the same singles at once, each twice: calls of one event-loop turn share the core's batches
    const atOnce = await Promise.all([...inputs, ...inputs].map((input) => contact({ ...input, language })));
    atOnce.forEach((res, i) => {
      const { credit: _c, credito: _k, ...answer } = res.body as Record<string, unknown>;
      t.deepEqual(answer, singles[i % inputs.length], `${language} at once ${JSON.stringify(inputs[i % inputs.length])}`);
    });
  }
});

test('contacts of one event-loop turn are verified in batches of equal options, each answered as if alone', async (t) => {
  // one input under each option that changes its answer, a foreign one declared and detected, and others,
  // all queued in one turn
  const rows = [pick(31), pick(32), pick(33)];
  // a typo in the street too, which precision 1 does not correct
  const name = titled((rows[0]?.DENOMINAZI as string).replace(/^VIA /, '')).toLowerCase();
  const written = `v. ${name.slice(0, -3)}${name.at(-2)}${name.at(-3)}${name.slice(-1)} ${rows[0]?.CIVICO}`;
  const variants: Record<string, unknown>[] = [{}, { postal_form: true }, { preserve_original: true }, { precision: 1 }, { debug: true }];
  const abroad = { address: 'Rua Augusta 100, Lisboa', city: 'Portugal' };
  const items: ContactItem[] = [
    // the typo in the city is corrected because the postcode agrees (issue 29, rule 6: without it, a
    // warning naming Bologna)
    ...variants.map((options) => ({ address: written, city: 'Bolgona', postcode: rows[0]?.CAP, ...options }) as ContactItem),
    abroad as ContactItem,
    { ...abroad, foreign: 'detect' } as ContactItem,
    ...rows.slice(1).map((r) => ({ address: `${titled(r.DENOMINAZI as string)} ${r.CIVICO}`, postcode: r.CAP, city: 'Bologna', precision: 5 }) as ContactItem),
  ];
  const alone: CoreAnswer[] = [];
  for (const item of items) alone.push(readAnswers(await verifyContactAnswers({ items: [nativeContact(item)], options: nativeOptions(item) }))[0] as CoreAnswer);
  const together = await Promise.all(items.map((item) => verifyInTurn(nativeContact(item), nativeOptions(item))));
  t.deepEqual(together, alone);
  // the options do change these answers: a batch mixing them would have answered otherwise
  t.is(new Set(alone.slice(0, variants.length).map((r) => JSON.stringify(r))).size, variants.length);
  t.notDeepEqual(alone[variants.length], alone[variants.length + 1]);
});

test('a turn of 64 contacts or more is verified on the pool, each answered as if alone and in order', async (t) => {
  // more single contacts in one turn than the event loop verifies itself (turn-batch.ts, ON_LOOP_BELOW)
  const items: ContactItem[] = Array.from({ length: 70 }, (_, i) => {
    const r = pick(40 + i);
    return { address: `${titled(r.DENOMINAZI as string)} ${r.CIVICO}`, postcode: r.CAP, city: 'Bologna' } as ContactItem;
  });
  const alone: CoreAnswer[] = [];
  for (const item of items) alone.push(readAnswers(verifyContactAnswersSync({ items: [nativeContact(item)], options: nativeOptions(item) }))[0] as CoreAnswer);
  const together = await Promise.all(items.map((item) => verifyInTurn(nativeContact(item), nativeOptions(item))));
  t.deepEqual(together, alone);
  t.is(new Set(alone.map((r) => JSON.stringify(r))).size, 70, 'seventy different answers');
});

test('Italian path, keys and codes', async (t) => {
  const row = pick(6);
  const res = await contact({ indirizzo: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}`, localita: 'Bologna', lingua: 'it' }, '/api/v1/contatto');
  t.is(res.status, 200);
  t.deepEqual(res.body.esito, ['MODIFICATO', 'CAP', 'PROVINCIA']);
  t.is(res.body.normalizzato.cap, row.CAP);
  t.is(res.body.cap_verifica.confermato, true);
  t.regex(res.body.messaggio ?? res.body.message, /verificato/);
});

test('a batch keeps the order, options apply to every item, and bad options are a 400', async (t) => {
  const rows = [pick(7), pick(8), pick(9)];
  const items = rows.map((r, i) => ({ id: `r${i}`, address: `${titled(r.DENOMINAZI as string)} ${r.CIVICO}`, city: 'Bologna', postcode: r.CAP, province: 'BO' }));
  const res = await contact({ items, postal_form: true });
  t.is(res.status, 200);
  t.is(res.body.count, 3);
  res.body.results.forEach((r: { id: string; result: { normalized_postal: { address: string }; outcome: string[] } }, i: number) => {
    t.is(r.id, `r${i}`);
    t.deepEqual(r.result.outcome, []);
    t.is(r.result.normalized_postal.address, `${rows[i]?.DENOMINAZI} ${rows[i]?.CIVICO}`);
  });
  const bad = await contact({ address: 'Via Roma 1', city: 'Bologna', precision: 9 });
  t.is(bad.status, 400);
});

test('preserve_original keeps the name as written and gives the canonical one apart', async (t) => {
  const row = pick(10);
  const written = `V. ${titled((row.DENOMINAZI as string).replace(/^VIA /, ''))} ${row.CIVICO}`;
  const res = await contact({ address: written, city: 'Bologna', postcode: row.CAP, province: 'BO', preserve_original: true });
  const plain = await contact({ address: written, city: 'Bologna', postcode: row.CAP, province: 'BO' });
  t.is(res.body.canonical_address, plain.body.normalized.address);
  // the name as written, the type and number in their normal form
  t.is(res.body.normalized.address, `Via ${titled((row.DENOMINAZI as string).replace(/^VIA /, ''))} ${row.CIVICO}`);
});

test('the tax code of a contact is checked by the tax-code module', async (t) => {
  // the server runs in this process: its register is the one the native module opened
  const [generated] = await taxCodes({
    action: 'generate',
    items: [{ last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-03-15', birth_place: 'Bologna' }],
  });
  const code = generated?.tax_code as string;
  t.truthy(code);
  const row = pick(11);
  const base = { address: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}`, city: 'Bologna', postcode: row.CAP, province: 'BO', tax_code: code.toLowerCase(), last_name: 'Rossi', gender: 'M', birth_date: '1980-03-15' };
  const same = await contact({ ...base, first_name: 'Mario' });
  t.is(same.body.tax_code, code);
  t.false(same.body.tax_code_outcome.includes('TAX_CODE_MISMATCH'));
  const other = await contact({ ...base, first_name: 'Giulia' });
  t.true(other.body.tax_code_outcome.includes('TAX_CODE_MISMATCH'));
});

test('an async job answers as CSV with coordinates and territory codes', async (t) => {
  const rows = [pick(12), pick(13)];
  const items = rows.map((r) => ({ address: `${titled(r.DENOMINAZI as string)} ${r.CIVICO}`, city: 'Bologna', postcode: r.CAP, province: 'BO' }));
  const queued = await contact({ async: true, items });
  t.is(queued.status, 200);
  const job = queued.body.job as string;
  let state = '';
  for (let i = 0; i < 100 && state !== 'completed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    state = (await call(server, 'GET', `/api/v1/contact?job=${job}`)).body.state;
  }
  t.is(state, 'completed');
  const csv = await call(server, 'GET', `/api/v1/contact?job=${job}&format=csv`);
  const table = parse(csv.body as string, { columns: true }) as Row[];
  t.is(table.length, 2);
  t.is(table[0]?.istat_code, '037006');
  t.is(table[0]?.cadastral_code, 'A944');
  t.true(Math.abs(Number(table[0]?.latitude) - Number(rows[0]?.LAT_WGS84)) < 1e-6);
  t.is(table[0]?.geo_precision, 'house_number');
});

/** Streets of Bologna named `VIA <first name> <surname>` that share the surname with another such street. */
function sharedSurnames(): { surname: string; streets: string[]; number: string }[] {
  const given = new Set(['GIUSEPPE', 'GIOVANNI', 'ANTONIO', 'FRANCESCO', 'LUIGI', 'CARLO', 'PIETRO', 'PAOLO', 'MARIO', 'ALESSANDRO', 'ANDREA', 'GIACOMO', 'ENRICO', 'FEDERICO', 'VITTORIO']);
  const bySurname = new Map<string, Set<string>>();
  const numberOf = new Map<string, string>();
  for (const r of BOLOGNA) {
    const words = (r.DENOMINAZI as string).split(' ');
    if (words.length !== 3 || !given.has(words[1] as string)) continue;
    const set = bySurname.get(words[2] as string) ?? new Set<string>();
    set.add(r.DENOMINAZI as string);
    bySurname.set(words[2] as string, set);
    numberOf.set(r.DENOMINAZI as string, r.CIVICO as string);
  }
  const bare = new Set(BOLOGNA.map((r) => r.DENOMINAZI));
  return [...bySurname]
    .filter(([surname, set]) => set.size >= 2 && !bare.has(`VIA ${surname}`))
    .map(([surname, set]) => ({ surname, streets: [...set], number: numberOf.get([...set][0] as string) as string }));
}

test('customer-file forms: postcode and province in the city field, the city at the end of the line, number markers, care-of and building before the street', async (t) => {
  // one address in every form: each call is charged, and the test account has a limited free credit
  for (const i of [11]) {
    const row = pick(i);
    const street = titled(row.DENOMINAZI as string);
    const clean = await contact({ address: `${street} ${row.CIVICO}`, postcode: row.CAP, city: 'Bologna', province: 'BO' });
    t.deepEqual(clean.body.outcome, []);
    for (const written of [
      { address: `${street} ${row.CIVICO}`, city: `${row.CAP} Bologna (BO)` },
      { address: `${street} ${row.CIVICO} Bologna` },
      { address: `${street} n. ${row.CIVICO}, ${row.CAP} Bologna BO Italia` },
      { address: `${row.CIVICO} ${street} - Bologna (BO)` },
      { address: `c/o Rossi ${street} nr.${row.CIVICO}`, city: 'Bologna', province: 'Bologna' },
      { address: `Pal. C ${street} civ. ${row.CIVICO} p. 2 int 4`, city: 'BOLOGNA' },
    ]) {
      const res = await contact({ ...written, debug: true });
      t.is(res.status, 200, JSON.stringify(res.body));
      t.is(res.body.territory.street_id, clean.body.territory.street_id, JSON.stringify(written));
      t.is(res.body.normalized.postcode, row.CAP, JSON.stringify(written));
      t.is(res.body.normalized.city, 'Bologna');
      t.is(res.body.geo.precision, 'house_number');
      t.false(res.body.outcome.includes('STREET_NOT_FOUND'));
      t.true(Array.isArray(res.body.debug.repairs));
    }
  }
  const moved = await contact({ address: `${titled(pick(14).DENOMINAZI as string)} ${pick(14).CIVICO}`, city: `${pick(14).CAP} Bologna (BO)`, debug: true });
  t.deepEqual(moved.body.debug.repairs, ['postcode_from_city', 'province_from_city', 'city_field_cleaned']);
  t.is(moved.body.debug.street_step, 'full');
  t.is(moved.body.debug.score, 1);
  t.is(moved.body.debug.house_number, 'found');
});

test('a surname alone shared by several streets is STREET_AMBIGUOUS with the candidates, in English and Italian', async (t) => {
  const shared = sharedSurnames();
  t.true(shared.length > 0, 'Bologna has streets of one surname and different first names');
  const { surname, streets, number } = shared[0] as { surname: string; streets: string[]; number: string };
  const res = await contact({ address: `Via ${titled(surname)} ${number}`, city: 'Bologna', debug: true });
  t.true(res.body.outcome.includes('STREET_AMBIGUOUS'), JSON.stringify(res.body.outcome));
  const offered = res.body.candidates.map((c: { street: string }) => c.street.toUpperCase());
  for (const s of streets.slice(0, 2)) t.true(offered.includes(s), `${s} among ${offered.join(', ')}`);
  t.is(res.body.debug.street_step, 'ambiguous');
  const it = await contact({ indirizzo: `Via ${titled(surname)} ${number}`, localita: 'Bologna', debug: true, lingua: 'it' }, '/api/v1/contatto');
  t.true(it.body.esito.includes('INDIRIZZO_AMBIGUO'));
  t.is(it.body.candidati.length, res.body.candidates.length);
  t.is(it.body.diagnosi.passo_strada, 'ambiguous');
  // with the first name written, the street is found
  const named = await contact({ address: `${titled(streets[0] as string)} ${number}`, city: 'Bologna' });
  t.false(named.body.outcome.includes('STREET_AMBIGUOUS'));
  t.is(named.body.candidates, undefined);
});

test('streets as people write them: every word written beats an edit, numbers in every form, an exact name beats a longer one', async (t) => {
  const street = async (address: string, city: string, postcode = '') => {
    const res = await contact({ address, city, postcode, debug: true });
    t.is(res.status, 200);
    return res.body as { normalized: { address: string }; outcome: string[]; candidates?: { street: string }[] };
  };
  // Corso Vittorio Emanuele II, not Via Vittorio Emanuele Orlando
  t.regex((await street('corso vittorio emanuele 15', 'milano')).normalized.address, /^Corso Vittorio Emanuele II 15/);
  // Via Orti is one edit away; two streets hold "Corti" as written
  const corti = await street('Via Corti', 'Milano');
  t.true(corti.outcome.includes('STREET_AMBIGUOUS'), JSON.stringify(corti));
  t.deepEqual(corti.candidates?.map((c) => c.street), ['Via Alfonso Corti', 'Via Costantino Corti']);
  t.notRegex((await street('Via Mandolfo 7', 'Milano', '20138')).normalized.address, /Landolfo/);
  t.regex((await street('Via C. Colombo 100', 'Roma')).normalized.address, /^Via Cristoforo Colombo 100/);
  // the register writes VENTIDUE MARZO and, in Torino, VITTORIO EMANUELE SECONDO
  t.regex((await street('Corso XXII Marzo 10', 'Milano')).normalized.address, /^Corso Ventidue Marzo 10/);
  t.regex((await street('Corso Vittorio Emanuele 100', 'Torino')).normalized.address, /^Corso Vittorio Emanuele Secondo 100/);
  // the one street that holds the word, and four that do
  t.regex((await street('Via Sparano 10', 'Bari')).normalized.address, /^Via Sparano da Bari 10/);
  const caracciolo = await street('Via Caracciolo', 'Napoli');
  t.true(caracciolo.outcome.includes('STREET_AMBIGUOUS'), JSON.stringify(caracciolo));
  t.true((caracciolo.candidates?.length ?? 0) >= 4);
  // Via Dante exists: not ambiguous with Via Dante Chiasserini
  const dante = await street('Via Dante 2', 'Milano', '20121');
  t.is(dante.normalized.address, 'Via Dante 2');
  t.false(dante.outcome.includes('STREET_AMBIGUOUS'));
});

test('postcode_check: interpolated between the neighbours of a number the register lacks; building_number; postal capitalisation', async (t) => {
  // a street of several postcodes, a number missing between two of one side with the same postcode
  const numbers = new Map<string, Map<number, string>>();
  for (const r of BOLOGNA) {
    const m = numbers.get(r.DENOMINAZI as string) ?? new Map<number, string>();
    m.set(Number(r.CIVICO), r.CAP as string);
    numbers.set(r.DENOMINAZI as string, m);
  }
  let gap: { street: string; n: number; cap: string } | undefined;
  for (const [street, m] of numbers) {
    if (new Set(m.values()).size < 2) continue;
    for (const [n, cap] of m) {
      if (n > 1 && m.get(n + 4) === cap && !m.has(n + 2) && !BOLOGNA.some((r) => r.DENOMINAZI === street && Number(r.CIVICO) === n + 2)) {
        gap = { street, n: n + 2, cap };
        break;
      }
    }
    if (gap) break;
  }
  t.truthy(gap);
  const { street, n, cap } = gap as { street: string; n: number; cap: string };
  const en = await contact({ address: `${titled(street)} ${n}`, city: 'Bologna' });
  t.is(en.body.postcode_check.precision, 'interpolated');
  t.true(en.body.postcode_check.confirmed);
  t.is(en.body.normalized.postcode, cap);
  const it = await contact({ indirizzo: `${titled(street)} ${n}`, localita: 'Bologna', lingua: 'it' }, '/api/v1/contatto');
  t.is(it.body.cap_verifica.precisione, 'interpolated');
  t.is(it.body.normalizzato.cap, cap);

  const row = pick(15);
  const parts = await contact({ address: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}, palazzina 3, lotto 2, edificio C`, city: 'Bologna' });
  t.deepEqual(parts.body.sub_address, [
    { type: 'building_number', value: '3' },
    { type: 'building_number', value: '2' },
    { type: 'building', value: 'C' },
  ]);
  const partsIt = await contact({ indirizzo: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}, edificio 4`, localita: 'Bologna', lingua: 'it' }, '/api/v1/contatto');
  t.deepEqual(partsIt.body.subindirizzo, [{ tipo: 'building_number', valore: '4' }]);

  const indipendenza = BOLOGNA.find((r) => r.DENOMINAZI === "VIA DELL'INDIPENDENZA") ?? BOLOGNA.find((r) => /^VIA DELL /.test(r.DENOMINAZI ?? ''));
  const shown = await contact({ address: `via dell'indipendenza ${indipendenza?.CIVICO ?? 1}`, city: 'bologna' });
  t.regex(shown.body.normalized.address, /^Via dell'Indipendenza \d/);
  t.is(shown.body.territory.cab, undefined, 'no open source maps addresses to CAB codes (docs/contact.md)');
});

test('the OpenAPI document shows the contact answer with its new fields', async (t) => {
  const res = await call(server, 'GET', '/api/v1/openapi.json', undefined, { token: null });
  const schema = JSON.stringify(res.body.components.schemas.ContactResult);
  for (const word of ['interpolated', 'locality', 'building_number', 'candidates', 'debug', 'street_step']) t.true(schema.includes(word), word);
  t.true(JSON.stringify(res.body.components.schemas.ContactItem).includes('debug'));
});

test('a batch that mixes debug and plain items gives each item its own: debug only where asked', async (t) => {
  const row = pick(21);
  const item = { address: `${titled(row.DENOMINAZI as string)} ${row.CIVICO}`, city: 'Bologna' };
  const res = await contact({ items: [{ ...item, debug: true }, item, { ...item, debug: false }, { ...item, debug: true }] });
  t.is(res.status, 200, JSON.stringify(res.body));
  const debugOf = (i: number) => (res.body.results[i].result as { debug?: unknown }).debug;
  t.true(Array.isArray((debugOf(0) as { repairs?: unknown }).repairs));
  t.is(debugOf(1), undefined);
  t.is(debugOf(2), undefined);
  t.true(Array.isArray((debugOf(3) as { repairs?: unknown }).repairs));
});

/** A call's body text as sent, and the same cut before its credit (the credit comes last). */
async function rawCall(body: unknown, pathName = '/api/v1/contact'): Promise<{ status: number; text: string; beforeCredit: string; type: string | null; length: number }> {
  const res = await fetch(`${server.url}${pathName}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const at = Math.max(text.lastIndexOf(',"credit":'), text.lastIndexOf(',"credito":'));
  return { status: res.status, text, beforeCredit: at > 0 ? text.slice(0, at) : text, type: res.headers.get('content-type'), length: Number(res.headers.get('content-length')) };
}

test('a single call\'s answer text is, as JSON, what the presented and finished object of a batch serialises to, with every character beyond Latin-1 escaped', async (t) => {
  // the single call's text gets its label and reason in answer.ts and is sent as it is; a batch reads the
  // same parts as objects, which the framework finishes and serialises: key order, escapes, texts, labels
  const rows = Array.from({ length: 24 }, (_, i) => pick(100 + i));
  const variants: Record<string, unknown>[] = [{}, { postal_form: true }, { preserve_original: true }, { precision: 1 }, { debug: true }, { precision: 5 }];
  const bodies: Record<string, unknown>[] = rows.map((r, i) => ({
    address: i % 4 === 0 ? `v. ${titled((r.DENOMINAZI as string).replace(/^VIA /, '')).toLowerCase()} ${r.CIVICO}` : `${titled(r.DENOMINAZI as string)} ${r.CIVICO}`,
    city: i % 3 === 0 ? 'Bolgona' : 'Bologna',
    ...(i % 2 === 0 ? { postcode: r.CAP } : {}),
    ...variants[i % variants.length],
    ...(i % 5 === 0 ? { tax_code: 'rssmra80c15a944x', last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-03-15' } : {}),
  }));
  // no municipality, no street, a quote and a control character in what is echoed, a foreign address
  bodies.push({ address: 'Via "Roma" 1\u0001', city: 'Nessunposto' }, { address: 'Via Inesistente 99', city: 'Bologna' }, { city: 'Bologna' });
  bodies.push({ address: 'Unter den Linden 77', postcode: '10117', city: 'Berlin', country: 'Germania' }, { address: 'Via Roma 1', city: 'Lugano (Svizzera)', foreign: 'detect' });
  const BEYOND_LATIN1 = /[\u0100-\uffff]/;
  let compared = 0;
  let escaped = 0;
  let wide = 0;
  for (const [i, body] of bodies.entries()) {
    const language = ['en', 'de', 'el'][i % 3];
    const single = await rawCall({ ...body, language });
    const batch = await rawCall({ items: [body, body], language });
    t.is(single.status, 200);
    t.is(single.type, 'application/json; charset=utf-8');
    // a batch's text leaves as its UTF-8 bytes, written without being measured first (result-text.ts, utf8):
    // the same type, and a length that is the text's (a `’` or `–` makes it two bytes a character)
    t.is(batch.type, 'application/json; charset=utf-8');
    t.is(batch.length, Buffer.byteLength(batch.text), JSON.stringify(body));
    if (BEYOND_LATIN1.test(batch.text)) wide++;
    const result = (JSON.parse(batch.text) as { results: { result: unknown }[] }).results[0]?.result;
    // the batch's answer is written as text (result-text.ts, sendBatchText): the object path of a job and of
    // `run` without text (presented objects, finished, serialised) gives the same value
    const item = contactCapability.item.parse(body);
    const ctx = { language: language as 'en', dataDir: server.dataDir, allowPrivateNetwork: false };
    const viaObjects = finishResult((await contactCapability.run([item, item], ctx))[0]!, ctx.language, contactCapability.outcomes);
    t.is(JSON.stringify(result), JSON.stringify(viaObjects), `objects: ${JSON.stringify(body)}`);
    // the same keys in the same order and the same values; the bytes differ only where the text path
    // escapes what is beyond Latin-1 (result-text.ts, latin1Json)
    t.is(JSON.stringify(JSON.parse(`${single.beforeCredit}}`)), JSON.stringify(result), JSON.stringify(body));
    t.true(single.text.endsWith('}}') && JSON.parse(single.text).credit !== undefined);
    if (body.country === undefined && body.foreign === undefined) {
      t.false(BEYOND_LATIN1.test(single.text), `${language}: ${single.text}`);
      const message = (JSON.parse(single.text) as { message?: string }).message ?? '';
      // ANNCSU's attribution, «Fonte: ANNCSU – …», travels as \u2013 and reads back as the dash
      if (single.text.includes('ANNCSU \\u2013') && message.includes('ANNCSU – ')) escaped++;
    }
    // Italian keys: the single call's text translated as text (keys.ts, italianJson) is, as JSON, the batch's
    // object translated key by key — same keys, order and values; escapes kept
    const italian = await rawCall({ ...body, language: 'it' });
    const italianBatch = await rawCall({ items: [body, body], language: 'it' });
    const italianResult = (JSON.parse(italianBatch.text) as { results: { result: unknown }[] }).results[0]?.result;
    const italianObjects = finishResult((await contactCapability.run([item, item], { ...ctx, language: 'it' }))[0]!, 'it', contactCapability.outcomes);
    t.is(JSON.stringify(italianResult), JSON.stringify(toItalianOutput(italianObjects)), `it, objects: ${JSON.stringify(body)}`);
    t.is(JSON.stringify(JSON.parse(`${italian.beforeCredit}}`)), JSON.stringify(italianResult), `it: ${JSON.stringify(body)}`);
    t.true(JSON.parse(italian.text).credito !== undefined);
    if (body.country === undefined && body.foreign === undefined) t.false(BEYOND_LATIN1.test(italian.text), `it: ${italian.text}`);
    compared++;
  }
  t.is(compared, bodies.length);
  t.true(escaped > 10, `answers with ANNCSU's attribution escaped: ${escaped}`);
  // a foreign answer keeps what is beyond Latin-1 as it is (an Italian one escapes it): the case the length's test is for
  t.true(wide > 0, `batches with a character beyond Latin-1: ${wide}`);
});
