import test from 'ava';

import { addPack } from '../src/state/ledger.js';
import { compareOf, dedupeBody, isPlainRecord } from '../src/dedupe/request.js';
import { compareRequest, dedupeRecord } from '../src/dedupe/schema.js';
import { ApiError } from '../src/http/errors.js';
import { toEnglishInput } from '../src/http/keys.js';
import { validate } from '../src/http/validation.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 1000, batch: 1000, autocomplete: 1000 } });
  await addPack(server.state, 'test', 'dedupe', 10_000);
});
test.after.always(async () => server?.close());

const dedupe = (body: unknown, path = '/api/v1/dedupe') => call(server, 'POST', path, body);

// Real names (it_firstnames, it_hypocoristics) on real streets of Bologna and Milano, written as
// callers write them: flat, or as address-book contacts with typed lists, postcodes as numbers, nulls.
const verdi = { id: 'a', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' };
const beppe = { id: 'b', first_name: 'Beppe', last_name: 'Verdi', address: 'V. S. Vitale, 12', city: 'bologna', phone: null };
const anna = { id: 'c', first_name: 'Anna', last_name: 'Verdi', address: 'Via San Vitale 12', city: 'Bologna', birth_date: '1961-04-02' };
const book = {
  id: 7,
  first_name: 'Chiara',
  last_name: 'Colombo',
  addresses: [
    { type: 'Casa', address: 'Corso Buenos Aires 45', postcode: 20124, city: 'Milano', province: 'MI' },
    { type: 'work', address: 'Via Dante 2', postcode: '20121', city: 'Milano', country_code: 'IT' },
  ],
  phones: [{ type: 'cell', value: '347 123 4567' }, 3391234567],
  emails: ['chiara.colombo@example.it', { type: 'work', value: 'c.colombo@example.com' }],
  email: [{ type: null, value: 'chiara@example.org' }],
  tax_code: null,
};
const PLAIN = [verdi, beppe, anna, book];

test('a record in the schema\'s English keys and types is plain: zod and key mapping give it back unchanged', (t) => {
  for (const record of PLAIN) {
    t.true(isPlainRecord(record), JSON.stringify(record));
    t.deepEqual(dedupeRecord.parse(record), record);
    t.deepEqual(toEnglishInput(record), record);
  }
});

test('anything else is not plain: Italian or synonym keys, unknown keys, wrong types, wrong nesting', (t) => {
  const others: unknown[] = [
    { id: 'a', cognome: 'Verdi', nome: 'Giuseppe' },
    { ...verdi, note: 'cliente dal 2019' },
    { ...book, addresses: [{ indirizzo: 'Via Dante 2', citta: 'Milano' }] },
    { ...verdi, phone: { number: 1 } },
    { ...verdi, first_name: { text: 'Giuseppe' } },
    { ...verdi, addresses: { address: 'Via Dante 2' } },
    { ...verdi, id: null },
    'Verdi Giuseppe',
    [verdi],
    null,
  ];
  for (const other of others) t.false(isPlainRecord(other), JSON.stringify(other));
});

test('a list mixing plain and Italian records reads as the same list in English (the records zod accepts, as zod gives them)', (t) => {
  const italian = { id: 'b', nome: 'Beppe', cognome: 'Verdi', indirizzo: 'V. S. Vitale, 12', localita: 'bologna' };
  const body = { anagrafiche: [verdi, italian, book], livello_minimo: 'certo', asincrono: true };
  const read = dedupeBody({ body } as never);
  t.false(read.plain);
  t.deepEqual(compareOf(read), validate(compareRequest, toEnglishInput(body)));
  const plain = { records: PLAIN, reference: [anna], min_level: 'probabile' };
  const plainRead = dedupeBody({ body: plain } as never);
  t.true(plainRead.plain);
  t.deepEqual(compareOf(plainRead), validate(compareRequest, toEnglishInput(plain)));
  // an English key wins over its Italian twin, as for every body
  const both = dedupeBody({ body: { records: [verdi], anagrafiche: [beppe, anna] } } as never);
  t.deepEqual(compareOf(both).records, [verdi]);
});

test('errors read as zod gives them: a bad record among plain ones, an empty list, a bad option', (t) => {
  const bodies: Record<string, unknown>[] = [
    { records: [verdi, beppe, anna, { ...book, first_name: { text: 'Chiara' } }] },
    { records: [] },
    { records: [verdi], reference: [] },
    { records: [verdi, beppe], min_level: 'sure', async: 'yes' },
    { records: 'Verdi' },
    {},
  ];
  for (const body of bodies) {
    const expected = t.throws(() => validate(compareRequest, toEnglishInput(body)), { instanceOf: ApiError });
    const actual = t.throws(() => compareOf(dedupeBody({ body } as never)), { instanceOf: ApiError });
    t.deepEqual(actual?.details, expected?.details, JSON.stringify(body));
    t.deepEqual(actual?.params, expected?.params);
  }
});

test('over HTTP: the same list in English or with Italian record keys gives the same groups; a bad record is a 400 naming it', async (t) => {
  const english = await dedupe({ records: [verdi, beppe, anna], save: false });
  const italian = await dedupe({ records: [verdi, { id: 'b', nome: 'Beppe', cognome: 'Verdi', indirizzo: 'V. S. Vitale, 12', localita: 'bologna' }, anna], save: false });
  t.is(english.status, 200);
  t.is(english.body.groups.length, 1);
  t.deepEqual(english.body.groups[0].members, ['a', 'b']);
  t.deepEqual(italian.body.groups, english.body.groups);
  t.deepEqual(italian.body.singles, english.body.singles);
  const bad = await dedupe({ records: [verdi, beppe, { ...anna, city: ['Bologna'] }], async: true });
  t.is(bad.status, 400);
  t.true(bad.body.details.every((d: { field: string }) => d.field.startsWith('records.2.city')));
});
