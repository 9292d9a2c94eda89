import test from 'ava';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { updateSaved } from '../src/dedupe/store.js';
import { codiceFiscale } from './helpers/tax-code.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 1000, batch: 1000, autocomplete: 1000 } });
  await addPack(server.state, 'test', 'dedupe', 10_000);
});
test.after.always(async () => server?.close());

const dedupe = (body: unknown, token?: string | null) => call(server, 'POST', '/api/v1/dedupe', body, token === undefined ? {} : { token });

// Real names (it_firstnames, it_hypocoristics) on real streets of Bologna, Milano and Alessandria.
const verdi = { id: 'a', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' };
const beppe = { id: 'b', first_name: 'Beppe', last_name: 'Verdi', address: 'V. S. Vitale, 12', city: 'bologna' };
const anna = { id: 'c', first_name: 'Anna', last_name: 'Verdi', address: 'Via San Vitale 12', city: 'Bologna' };

test('nickname and abbreviated street: one certain group with reasons, main record and consolidated record; family apart', async (t) => {
  const r = await dedupe({ records: [verdi, beppe, anna] });
  t.is(r.status, 200);
  t.true(r.body.ok);
  t.is(r.body.groups.length, 1);
  const g = r.body.groups[0];
  t.deepEqual(g.members, ['a', 'b']);
  t.is(g.level, 'certain');
  t.true(g.reasons.includes('nickname'));
  t.true(g.explanations.some((e: string) => e.includes('nickname')));
  t.is(g.main_record.id, 'a');
  t.is(g.main_record.reason, 'most_complete');
  t.is(g.record.first_name, 'Giuseppe');
  t.deepEqual(g.record.addresses[0].provenance, ['a', 'b']);
  t.is(g.pairs[0].level, 'certain');
  t.deepEqual(r.body.singles, [{ id: 'c', outcome: [], outcome_label: 'ok', reason: r.body.singles[0].reason }]);
  t.is(r.headers.get('x-service-charged'), '3');
  t.is(typeof r.body.job, 'string');
});

test('min_level: certain needs the house number; a missing one leaves the pair probable; Italian values and keys in and out', async (t) => {
  const records = [
    { id: 1, first_name: 'Luca', last_name: 'Ferrari', address: 'Strada Maggiore 4', city: 'Bologna' },
    { id: 2, first_name: 'Luca', last_name: 'Ferrari', address: 'Strada Maggiore', city: 'Bologna' },
  ];
  t.is((await dedupe({ records, min_level: 'certain' })).body.groups.length, 0);
  t.is((await dedupe({ records })).body.groups[0].level, 'probable');
  const it = await dedupe({ anagrafiche: records, livello_minimo: 'ambiguo', lingua: 'it' });
  t.is(it.status, 200);
  t.is(it.body.gruppi.length, 1);
  t.is(it.body.gruppi[0].livello, 'probabile');
  t.deepEqual(it.body.gruppi[0].membri, [1, 2]);
  t.true(it.body.gruppi[0].spiegazioni.includes('civico mancante'));
});

test('birth date (data_nascita) both ways: a moved person with a surname typo is found, father and son of one name are kept apart', async (t) => {
  const r = await dedupe({
    anagrafiche: [
      { id: 1, nome: 'Giorgio', cognome: 'Bertolazzi', indirizzo: 'Strada Maggiore 4', localita: 'Bologna', data_nascita: '1971-04-09' },
      { id: 2, nome: 'Giorgio', cognome: 'Bertolazi', indirizzo: 'Via Dazio 12', localita: 'Alessandria', data_nascita: '09/04/1971' },
      { id: 3, nome: 'Franco', cognome: 'Lodi', indirizzo: 'Via Dazio 40', localita: 'Alessandria', data_nascita: '02/06/1950' },
      { id: 4, nome: 'Franco', cognome: 'Lodi', indirizzo: 'Via Dazio 40', localita: 'Alessandria', data_nascita: '02/06/1978' },
      { id: 5, nome: 'Franco', cognome: 'Lodi', indirizzo: 'Via Dazio, 40', localita: 'Alessandria' },
    ],
    livello_minimo: 'ambiguo',
    lingua: 'it',
  });
  t.is(r.status, 200);
  t.deepEqual(r.body.gruppi[0].membri, [1, 2]);
  t.true(r.body.gruppi[0].spiegazioni.includes('stessa data di nascita'));
  // Record 5 (no date) may join one of them, never both: father and son stay in two groups.
  const together = r.body.gruppi.some((g: { membri: number[] }) => g.membri.includes(3) && g.membri.includes(4));
  t.false(together);
});

test('contact details: same name and personal mobile → probable; generic email only ambiguous; another name never', async (t) => {
  const records = [
    { id: 1, first_name: 'Paola', last_name: 'Galli', phone: '+39 335 123 4567', city: 'Torino' },
    { id: 2, first_name: 'Paola', last_name: 'Galli', phones: [{ type: 'Cellulare', value: '3351234567' }], city: 'Roma' },
    { id: 3, first_name: 'Sara', last_name: 'Conti', email: 'info@studioconti.it' },
    { id: 4, first_name: 'Sara', last_name: 'Conti', emails: [{ type: 'lavoro', value: 'INFO@studioconti.it' }] },
    { id: 5, first_name: 'Marta', last_name: 'Moretti', phone: '335 1234567' },
  ];
  const probable = await dedupe({ records });
  t.deepEqual(probable.body.groups.map((g: { members: number[] }) => g.members), [[1, 2]]);
  t.is(probable.body.groups[0].level, 'probable');
  t.true(probable.body.groups[0].reasons.includes('same_phone'));
  t.is(probable.body.groups[0].record.phones.length, 1);
  t.is(probable.body.groups[0].record.phones[0].type_normalized, 'cell');
  const ambiguous = await dedupe({ records, min_level: 'ambiguous' });
  const emailGroup = ambiguous.body.groups.find((g: { members: number[] }) => g.members.includes(3));
  t.deepEqual(emailGroup.members, [3, 4]);
  t.is(emailGroup.level, 'ambiguous');
  t.true(emailGroup.reasons.includes('shared_email'));
  t.false(ambiguous.body.groups.some((g: { members: number[] }) => g.members.includes(5)));
});

test('phones read by libphonenumber as /phone reads them: a French number written nationally and internationally is one phone; the country written in Italian', async (t) => {
  const records = [
    { id: 1, first_name: 'Claire', last_name: 'Dubois', phone: '01 42 68 53 00', city: 'Paris', country: 'Francia' },
    { id: 2, first_name: 'Claire', last_name: 'Dubois', phones: [{ type: 'work', value: '+33 1 42 68 53 00' }], city: 'Lyon', country_code: 'FR' },
    { id: 3, first_name: 'Claire', last_name: 'Dubois', phone: '01 42 68 53 00', city: 'Bruxelles', country: 'Belgio' },
  ];
  const r = await dedupe({ records });
  t.is(r.status, 200);
  t.deepEqual(r.body.groups.map((g: { members: number[] }) => g.members), [[1, 2]]);
  t.true(r.body.groups[0].reasons.includes('same_phone'), JSON.stringify(r.body.groups[0].reasons));
  // the answer keeps what the caller wrote
  t.true(JSON.stringify(r.body.groups[0].record).includes('Francia') || JSON.stringify(r.body.groups[0].record).includes('FR'));
});

test('foreign: detect, the country named only at the end of the address line: the addresses are read as that country\'s', async (t) => {
  const records = [
    { id: 1, first_name: 'Jean', last_name: 'Martin', address: '12 rue Paradis, Francia', city: 'Marseille', phone: '04 91 00 12 34' },
    { id: 2, first_name: 'Jean', last_name: 'Martin', address: '12 rue Paradis, France', city: 'Marseille', phone: '+33 4 91 00 12 34' },
  ];
  const detected = await dedupe({ records, foreign: 'detect' });
  t.is(detected.status, 200);
  t.deepEqual(detected.body.groups.map((g: { members: number[] }) => g.members), [[1, 2]]);
  const countries = (detected.body.groups[0].record.addresses as { country_code: string }[]).map((a) => a.country_code);
  t.deepEqual([...new Set(countries)], ['FR'], JSON.stringify(detected.body.groups[0].record));
  const declared = await dedupe({ records });
  const italian = ((declared.body.groups[0]?.record.addresses ?? []) as { country_code: string }[]).map((a) => a.country_code);
  t.false(italian.includes('FR'), JSON.stringify(declared.body.groups));
});

test('tax codes: equal and consistent → certain "same tax code"; two different valid codes never group', async (t) => {
  const rossi = codiceFiscale('RSSMRA80A01H501');
  const other = codiceFiscale('RSSMRA85T10A562');
  const r = await dedupe({
    records: [
      { id: 'x', first_name: 'Mario', last_name: 'Rossi', tax_code: rossi, city: 'Roma' },
      { id: 'y', first_name: 'Mario', last_name: 'Rossi', tax_code: rossi, address: 'Via Appia Nuova 10', city: 'Roma' },
      { id: 'z', first_name: 'Mario', last_name: 'Rossi', tax_code: other, address: 'Via Appia Nuova 10', city: 'Roma' },
    ],
  });
  t.is(r.body.groups.length, 1);
  t.deepEqual(r.body.groups[0].members, ['x', 'y']);
  t.deepEqual(r.body.groups[0].reasons, ['same_tax_code']);
  t.true(r.body.groups[0].explanations.includes('same tax code'));
  t.is(r.body.groups[0].record.tax_code, rossi);
});

test('two countries never match; an address-book contact repeating itself is INTERNAL_DUPLICATE with the merged record', async (t) => {
  const r = await dedupe({
    records: [
      { id: 1, first_name: 'Anna', last_name: 'Weber', address: 'Hauptstrasse 5', city: 'Bolzano' },
      { id: 2, first_name: 'Anna', last_name: 'Weber', address: 'Hauptstrasse 5', city: 'Bolzano', country: 'Austria' },
      { id: 3, last_name: 'Colombo', addresses: [{ type: 'home', address: 'Via Dazio 90', city: 'Alessandria' }, { type: 'Casa', address: 'via dazio, 90', postcode: '15122', city: 'Alessandria' }], phones: ['333 1112222', '+39 333 111 2222'] },
    ],
    min_level: 'ambiguous',
  });
  t.is(r.body.groups.length, 0);
  const colombo = r.body.singles.find((s: { id: number }) => s.id === 3);
  t.deepEqual(colombo.outcome, ['INTERNAL_DUPLICATE']);
  t.is(colombo.record.addresses.length, 1);
  t.is(colombo.record.addresses[0].type_normalized, 'home');
  t.is(colombo.record.phones.length, 1);
  const it = await dedupe({ anagrafiche: [r.body.singles[2] && { id: 3, cognome: 'Colombo', telefoni: ['333 1112222', '3331112222'] }], lingua: 'it' });
  t.deepEqual(it.body.singoli[0].esito, ['DUPLICATO_INTERNO']);
});

test('abroad: a street written with its words split or joined, and a postcode one slip away on the same street and number, are one place; a relative there is not', async (t) => {
  const au = (id: number, first_name: string, last_name: string, address: string, postcode: string, city: string) => ({ id, first_name, last_name, address, postcode, city, country_code: 'AU' });
  const r = await dedupe({
    records: [
      au(1, 'Benjamin', 'Fauser', '12 bimbiang crescent', '4216', 'Labrador'),
      au(2, 'Benjamin', 'Fauser', '12 bimbiang cr escent', '4216', 'Labrador'),
      au(3, 'Harvey', 'Shepherdson', '7 lumholtz place', '6430', 'Roleystone'),
      au(4, 'Harvey', 'Shepherdson', '7 lumholtzplace', '6403', 'Wilson'),
      au(5, 'Chloe', 'Shepherdson', '7 lumholtz place', '6403', 'Wilson'),
    ],
  });
  t.is(r.status, 200);
  const groups = r.body.groups.map((g: { members: number[] }) => [...g.members].sort());
  t.deepEqual(groups, [
    [1, 2],
    [3, 4],
  ]);
  t.true(r.body.groups.every((g: { level: string }) => g.level !== 'ambiguous'));
  t.true(r.body.singles.some((s: { id: number }) => s.id === 5));
});

test('two-list mode: matches and not_found, billed for records plus reference', async (t) => {
  const r = await dedupe({ records: [beppe, { id: 'n', first_name: 'Carla', last_name: 'Fontana', address: 'Via Dazio 90', city: 'Alessandria' }], reference: [verdi] });
  t.is(r.status, 200);
  t.is(r.body.matches.length, 1);
  t.is(r.body.matches[0].id, 'b');
  t.is(r.body.matches[0].reference_id, 'a');
  t.is(r.body.matches[0].level, 'certain');
  t.deepEqual(r.body.not_found, [{ id: 'n' }]);
  t.is(r.headers.get('x-service-charged'), '3');
});

test('saved job: GET ?job=, group review, wrong or missing codes; incremental matching joins a saved group', async (t) => {
  const first = await dedupe({ records: [verdi, beppe, anna] });
  const job = first.body.job as string;
  const read = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.is(read.status, 200);
  t.is(read.body.state, 'completed');
  t.is(read.body.groups[0].processed, false);

  const marked = await dedupe({ job, group: 1, processed: true });
  t.is(marked.status, 200);
  t.true(marked.body.processed);
  t.true((await call(server, 'GET', `/api/v1/dedupe?job=${job}`)).body.groups[0].processed);

  t.is((await dedupe({ job, group: 9, processed: true })).body.code, 'group_not_found');
  t.is((await dedupe({ job: 'NOSUCHJOB', group: 1, processed: true })).status, 404);
  t.is((await dedupe({ group: 1, processed: true })).status, 400);
  t.is((await call(server, 'GET', '/api/v1/dedupe')).status, 400);
  t.is((await call(server, 'GET', '/api/v1/dedupe?job=NOSUCHJOB')).status, 404);
  const stranger = await server.newToken('someone-else');
  t.is((await call(server, 'GET', `/api/v1/dedupe?job=${job}`, undefined, { token: stranger })).status, 404);

  const more = await dedupe({
    job,
    records: [
      { id: 'd', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via S. Vitale 12', city: 'Bologna', phone: '3479876543' },
      { id: 'e', first_name: 'Ugo', last_name: 'Bassi', address: 'Via Ugo Bassi 1', city: 'Bologna' },
    ],
  });
  t.is(more.status, 200);
  t.deepEqual(more.body.added, [{ id: 'd', group: 1 }, { id: 'e', group: null }]);
  t.deepEqual(more.body.groups[0].members, ['a', 'b', 'd']);
  // the answer carries what changed; the saved job has the saved single and the new one
  t.deepEqual(more.body.singles.map((s: { id: string }) => s.id), ['e']);
  const after = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.deepEqual(after.body.groups[0].members, ['a', 'b', 'd']);
  t.deepEqual(after.body.singles.map((s: { id: string }) => s.id), ['c', 'e']);
  t.is(after.body.rows, 5);
  // the group grew: it needs a new review
  t.false(more.body.groups[0].processed);
  t.is(more.headers.get('x-service-charged'), '2');
});

test('caps and bad input: 413 over 500 records plus reference, 400 with field paths, never a crash', async (t) => {
  const many = Array.from({ length: 400 }, (_, i) => ({ id: i, last_name: 'Rossi', first_name: 'Mario', city: 'Milano' }));
  const over = await dedupe({ records: many, reference: many.slice(0, 101) });
  t.is(over.status, 413);
  t.is(over.body.code, 'too_many_items');
  const missing = await dedupe({});
  t.is(missing.status, 400);
  t.is(missing.body.details[0].field, 'records');
  const badPhone = await dedupe({ records: [{ phone: { number: 1 } }] });
  t.is(badPhone.status, 400);
  t.true(badPhone.body.details[0].field.startsWith('records.0.phone'));
  const badLevel = await dedupe({ records: [verdi], min_level: 'sure' });
  t.is(badLevel.status, 400);
  t.is(badLevel.body.details[0].field, 'min_level');
});

test('async: up to 100,000 records queued, charged at queuing, read back by the job code', async (t) => {
  const records = Array.from({ length: 600 }, (_, i) => ({ id: i, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));
  const q = await dedupe({ records, async: true });
  t.is(q.status, 200);
  t.is(q.body.state, 'queued');
  t.is(q.body.rows, 600);
  t.is(q.headers.get('x-service-charged'), '600');
  let read;
  for (let i = 0; i < 100; i++) {
    read = await call(server, 'GET', `/api/v1/dedupe?job=${q.body.job}`);
    if (read.body.state === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  t.is(read?.body.state, 'completed');
  t.is(read?.body.groups.length, 300);
});

test('Italian path, keys and values: /deduplica, esteri: rileva, ?lavoro=', async (t) => {
  const r = await call(server, 'POST', '/api/v1/deduplica', { anagrafiche: [verdi, beppe], esteri: 'rileva', lingua: 'it' });
  t.is(r.status, 200);
  t.is(r.body.gruppi[0].livello, 'certo');
  t.is(r.body.gruppi[0].principale.id, 'a');
  const read = await call(server, 'GET', `/api/v1/deduplica?lavoro=${r.body.lavoro}&lingua=it`);
  t.is(read.status, 200);
  t.deepEqual(read.body.gruppi[0].membri, ['a', 'b']);
});

test('two incremental calls on one job at once: each new record is in the saved groups, none lost to the other call', async (t) => {
  const first = await dedupe({ records: [verdi, beppe, anna] });
  const job = first.body.job as string;
  const giuseppe = { id: 'd', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via S. Vitale 12', city: 'Bologna', phone: '3479876543' };
  const peppe = { id: 'f', first_name: 'Peppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' };
  const ugo = { id: 'e', first_name: 'Ugo', last_name: 'Bassi', address: 'Via Ugo Bassi 1', city: 'Bologna' };
  const [one, two] = await Promise.all([dedupe({ job, records: [giuseppe] }), dedupe({ job, records: [peppe, ugo] })]);
  t.is(one.status, 200);
  t.is(two.status, 200);
  t.deepEqual(one.body.added, [{ id: 'd', group: 1 }]);
  t.deepEqual(two.body.added, [{ id: 'f', group: 1 }, { id: 'e', group: null }]);
  const after = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  t.is(after.body.rows, 6);
  t.deepEqual([...after.body.groups[0].members].sort(), ['a', 'b', 'd', 'f']);
  t.deepEqual(after.body.singles.map((s: { id: string }) => s.id).sort(), ['c', 'e']);
});

test('a record added to a saved job groups as it would in a whole-list run of the same records: twenty families one letter apart stay twenty', async (t) => {
  // pairs of Giuseppe and Beppe Verdi0…Verdi19 on Via San Vitale 1…20 (real names on a real street): a
  // surname one character off on the same street is a probable name typo between two records alone
  const families = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));
  const added = { id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' };
  const whole = await dedupe({ records: [...families, added] });
  t.is(whole.status, 200);
  t.is(whole.body.groups.length, 20);
  const saved = await dedupe({ records: families, save: true });
  const more = await dedupe({ job: saved.body.job, records: [added] });
  t.is(more.status, 200);
  t.deepEqual(more.body.added, [{ id: 'n', group: 1 }]);
  t.deepEqual(more.body.removed_groups, []);
  const after = await call(server, 'GET', `/api/v1/dedupe?job=${saved.body.job}`);
  const members = (body: { groups: { members: string[] }[] }) => body.groups.map((g) => [...g.members].sort());
  t.deepEqual(members(after.body), members(whole.body));
});

test('an incremental call that finds the job grown by another writer on every try gives its charge back and answers overloaded', async (t) => {
  // real names on a real street, enough records that each try's match leaves the writer time to write
  const families = Array.from({ length: 200 }, (_, i) => ({ id: `q${i}`, first_name: i % 2 ? 'Beppe' : 'Giuseppe', last_name: `Verdi${Math.floor(i / 2)}`, address: `Via San Vitale ${Math.floor(i / 2) + 1}`, city: 'Bologna' }));
  // an account of its own: the other tests of this file charge the shared one meanwhile
  await createAccount(server.state, 'overloaded');
  await addPack(server.state, 'overloaded', 'dedupe', 1_000);
  const token = (await createToken(server.state, 'overloaded')).token;
  const saved = await dedupe({ records: families, save: true }, token);
  t.is(saved.status, 200);
  const job = saved.body.job as string;
  const available = async () => (await call(server, 'GET', '/api/v1/credit', undefined, { token })).body.counters.dedupe.available as number;
  const before = await available();
  // another writer (as another node's incremental calls would) grows the job's row count all the time
  let grown = 0;
  let writing = true;
  // one update at a time, back to back (on PostgreSQL each waits for the row's lock)
  const writer = (async () => {
    while (writing) {
      await updateSaved(server.state, job, (s) => void (s.rows += 1, grown++));
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  let refused;
  try {
    refused = await dedupe({ job, records: [{ id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' }] }, token);
  } finally {
    writing = false;
    await writer;
  }
  t.true(grown > 0);
  t.is(refused.status, 503, `answered ${String(refused.body.code ?? 'ok')}`);
  t.is(refused.body.code, 'overloaded');
  t.true(refused.body.retry_after >= 1);
  t.truthy(refused.headers.get('retry-after'));
  t.is(await available(), before, 'the charge went back');
  // nothing of the refused call was saved; once the other writer stops, the same call lands
  const rowsNow = (await call(server, 'GET', `/api/v1/dedupe?job=${job}`, undefined, { token })).body.rows as number;
  t.is(rowsNow, families.length + grown);
  const landed = await dedupe({ job, records: [{ id: 'n', first_name: 'Giuseppe', last_name: 'Verdi0', address: 'Via S. Vitale 1', city: 'Bologna' }] }, token);
  t.is(landed.status, 200);
  t.is(await available(), before - 1);
});
