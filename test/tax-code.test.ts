import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

import test from 'ava';
import { parse } from 'csv-parse/sync';

import type { ItemResult } from '../src/http/capability.js';
import type { Language } from '../src/http/language.js';
import { italianCode, labelOf } from '../src/http/outcomes.js';
import { native, openRegister } from '../src/native.js';
import { NOTE_TEXTS } from '../src/tax-code/messages.js';
import { taxCodeItem } from '../src/tax-code/schema.js';
import { capability, processTaxCodes } from '../src/tax-code/service.js';
import { call, startServer, type TestServer, waitFor } from './helpers/server.js';
import { SOURCE, sourceCsv as csvGz } from './helpers/source.js';

// The peer ships CommonJS exporting `{ CodiceFiscale }`; its typings describe a default export.
type Peer = typeof import('codice-fiscale-js').default;
const { CodiceFiscale } = createRequire(import.meta.url)('codice-fiscale-js') as { CodiceFiscale: Peer };

let dataDir = '';
let server: TestServer;

test.before(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'recapito-tax-code-'));
  await native.importRegister(await registerSubset(dataDir), dataDir);
  openRegister(dataDir, true);
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Municipalities and countries are all the tax code needs: a source folder holding just those. */
async function registerSubset(dir: string): Promise<string> {
  const subset = path.join(dir, 'source');
  await mkdir(path.join(subset, 'it'), { recursive: true });
  for (const folder of ['comuni', 'esteri']) await symlink(path.join(SOURCE, 'it', folder), path.join(subset, 'it', folder));
  return subset;
}

type Row = Record<string, string>;

const ANPR = () => csvGz('it/comuni/anpr_archivio_comuni.csv.gz', ',');
const ISTAT = () => csvGz('it/comuni/istat_elenco_comuni_2023-11.csv.gz', ';');

async function run(action: string, items: Record<string, unknown>[], language: Language = 'en'): Promise<ItemResult[]> {
  return processTaxCodes(items.map((i) => taxCodeItem.parse({ action, ...i })), language);
}

async function one(action: string, item: Record<string, unknown>, language: Language = 'en'): Promise<ItemResult> {
  const [r] = await run(action, [item], language);
  if (!r) throw new Error('no result');
  return r;
}

const partOf = (r: ItemResult) => ((r.notes as string[] | undefined) ?? []).some((n) => n.includes('was part of the municipality'));

const HOMOCODE = 'LMNPQRSTUV';
const NUMERIC = [6, 7, 9, 10, 12, 13, 14];
const withCheck = (first15: string) => first15 + CodiceFiscale.getCheckCode(first15);
const today = new Date();
const iso = (d: Date) => d.toISOString().slice(0, 10);

test('name parts and check character agree with codice-fiscale-js on real Italian names', async (t) => {
  const names = (file: string) =>
    readFileSync(path.join(SOURCE, 'contact', 'names', file), 'utf8')
      .split('\n')
      .map((l) => l.split(',')[0]!.trim())
      .filter((n) => /^[A-Za-z]{2,}( [A-Za-z]+)?$/.test(n));
  const surnames = names('it_surnames_cognomix.txt').filter((_, i) => i % 40 === 0);
  const firsts = names('it_firstnames_gender_births_italiatools.csv').filter((_, i) => i % 60 === 1);
  t.true(surnames.length > 300 && firsts.length > 300);
  const items = surnames.map((s, i) => ({
    last_name: s,
    first_name: firsts[i % firsts.length]!,
    gender: i % 2 ? 'F' : 'M',
    birth_date: `${(i % 28) + 1}/${(i % 12) + 1}/${1930 + (i % 90)}`,
    birth_place: 'Roma (RM)',
  }));
  const results = await run('generate', items);
  results.forEach((r, i) => {
    const item = items[i]!;
    const code = r.tax_code as string;
    t.is(r.outcome[0], 'GENERATED');
    t.is(code.slice(0, 3), CodiceFiscale.surnameCode(item.last_name), item.last_name);
    t.is(code.slice(3, 6), CodiceFiscale.nameCode(item.first_name), item.first_name);
    t.is(code[15], CodiceFiscale.getCheckCode(code.slice(0, 15)));
    t.true(CodiceFiscale.check(code));
  });
});

test('all 128 homocode variants decode to the same person', async (t) => {
  const base = await one('generate', { last_name: 'Esposito', first_name: 'Gennaro', gender: 'M', birth_date: '1975-09-30', birth_place: 'Napoli' });
  const code = base.tax_code as string;
  const variants: string[] = [];
  for (let mask = 0; mask < 128; mask++) {
    const chars = code.slice(0, 15).split('');
    NUMERIC.forEach((pos, bit) => {
      if (mask & (1 << bit)) chars[pos] = HOMOCODE[Number(chars[pos])]!;
    });
    variants.push(withCheck(chars.join('')));
  }
  t.is(new Set(variants).size, 128);
  const results = await run('extract', variants.map((tax_code) => ({ tax_code })), 'de');
  results.forEach((r, mask) => {
    t.true(r.ok, variants[mask]);
    t.deepEqual(r.outcome, []);
    t.is(r.homocode, mask !== 0);
    t.is(r.birth_date, '1975-09-30');
    t.is(r.gender, 'M');
    t.is(r.place, 'Napoli');
    t.is(r.cadastral_code, code.slice(11, 15));
    if (mask !== 0) {
      t.is(r.decoded, code.slice(0, 15) + variants[mask]!.slice(15));
      t.true((r.notes as string[]).some((n) => n.startsWith('Omocodia')), JSON.stringify(r.notes));
    }
  });
  const cmp = await run('compare', variants.map((tax_code) => ({ tax_code, last_name: 'Esposito', first_name: 'Gennaro', gender: 'maschio', birth_date: '30.09.1975', birth_place: 'Napoli (NA)' })));
  for (const r of cmp) t.deepEqual(r.outcome, ['MATCH']);
});

test('29 February exists only in leap years', async (t) => {
  const person = { last_name: 'Greco', first_name: 'Lucia', gender: 'F', birth_place: 'Torino' };
  const leap = [2000, 2024, 1996].filter((y) => new Date(Date.UTC(y, 1, 29)).getUTCDate() === 29);
  const common = [1900, 2023, 1997].filter((y) => new Date(Date.UTC(y, 1, 29)).getUTCDate() !== 29);
  t.deepEqual([leap.length, common.length], [3, 3]);
  for (const y of leap) {
    const g = await one('generate', { ...person, birth_date: `29/02/${y}` });
    t.true(g.ok, String(y));
    const e = await one('extract', { tax_code: g.tax_code });
    t.is(e.birth_date, `${y}-02-29`);
  }
  for (const y of common) {
    const g = await one('generate', { ...person, birth_date: `${y}-02-29` });
    t.deepEqual([g.ok, g.error, g.outcome], [false, 'birth_date', ['INCOMPLETE_DATA']], String(y));
  }
  // A code saying 29 February of a year whose 19xx and 20xx are both common years.
  const g = await one('generate', { ...person, birth_date: '1996-02-29' });
  const code = withCheck(`${(g.tax_code as string).slice(0, 6)}23${(g.tax_code as string).slice(8, 15)}`);
  const v = await one('validate', { tax_code: code });
  t.deepEqual([v.ok, v.error, v.outcome], [false, 'date', ['TAX_CODE_INVALID', 'TAX_CODE_DATE_INVALID']]);
});

test('the century: future years go back 100 years, both possible within a lifetime is flagged', async (t) => {
  const yy = today.getUTCFullYear() % 100;
  const two = (n: number) => String(n).padStart(2, '0');
  const base = (await one('generate', { last_name: 'Conti', first_name: 'Marco', gender: 'M', birth_date: '1990-01-05', birth_place: 'Firenze' })).tax_code as string;
  const at = (y: number) => withCheck(`${base.slice(0, 6)}${two(y)}${base.slice(8, 15)}`);
  const next = await one('extract', { tax_code: at((yy + 1) % 100) });
  t.is(next.birth_date, `19${two((yy + 1) % 100)}-01-05`);
  t.false(next.ambiguous_year);
  const recent = await one('extract', { tax_code: at(yy - 5) }, 'it');
  t.is(recent.birth_date, `20${two(yy - 5)}-01-05`);
  t.true(recent.ambiguous_year);
  t.true((recent.notes as string[]).some((n) => n.includes(`19${two(yy - 5)}`)));
  t.is(recent.age, today.getUTCFullYear() - (2000 + yy - 5) - (iso(today).slice(5) < '01-05' ? 1 : 0));
});

test('suppressed municipalities: generated for a birth date when they existed, named and flagged on extract', async (t) => {
  const rows = ANPR();
  const byCode = new Map<string, Row[]>();
  for (const r of rows) byCode.set(r.CODCATASTALE!, [...(byCode.get(r.CODCATASTALE!) ?? []), r]);
  const suppressed = [...byCode.entries()]
    .filter(([, rs]) => rs.every((r) => r.STATO === 'C') && rs.some((r) => r.DATACESSAZIONE! > '2000-01-01'))
    .filter(([, rs]) => new Set(rs.map((r) => r.DENOMINAZIONE_IT)).size === 1);
  t.true(suppressed.length > 50);
  let checked = 0;
  for (const [code, rs] of suppressed.filter((_, i) => i % 5 === 0)) {
    const last = rs.reduce((a, b) => (a.DATACESSAZIONE! > b.DATACESSAZIONE! ? a : b));
    const from = last.DATAISTITUZIONE! > '1990-01-01' ? last.DATAISTITUZIONE! : '1990-01-01';
    // Another municipality alive on that date may bear the same name: then the province decides.
    const typed = `${last.DENOMINAZIONE_IT} (${last.SIGLAPROVINCIA})`;
    const g = await one('generate', { last_name: 'Ferri', first_name: 'Ugo', gender: 'M', birth_date: from, birth_place: typed });
    if (!g.ok) {
      t.fail(`${typed} ${from}: ${g.error}`);
      continue;
    }
    t.is(g.cadastral_code, code, typed);
    const e = await one('extract', { tax_code: g.tax_code });
    t.is((e.place as string).toUpperCase(), last.DENOMINAZIONE_IT!.toUpperCase());
    t.true((e.notes as string[]).some((n) => n.includes('no longer exists')), typed);
    const after = new Date(Date.parse(last.DATACESSAZIONE!) + 2 * 86_400_000);
    // A new municipality may have taken the same name (Longarone after its 2014 merger).
    const namesake = rows.some(
      (r) => r.CODCATASTALE !== code && r.DENOMINAZIONE_IT === last.DENOMINAZIONE_IT && r.DATAISTITUZIONE! <= iso(after) && iso(after) <= r.DATACESSAZIONE!,
    );
    if (after < today && !namesake) {
      const late = await one('generate', { last_name: 'Ferri', first_name: 'Ugo', gender: 'M', birth_date: iso(after), birth_place: typed });
      if (late.ok) {
        // Merged into a municipality whose name holds it (Abetone → Abetone Cutigliano): that one, said so.
        t.not(late.cadastral_code, code);
        t.true(native.foldText(late.place as string).includes(native.foldText(last.DENOMINAZIONE_IT!)), `${typed} → ${late.place}`);
        t.true(partOf(late), typed);
      } else {
        t.is(late.error, 'birth_place', `${typed} after ${last.DATACESSAZIONE}`);
      }
    }
    checked++;
  }
  t.true(checked > 10);
});

test('renamed municipalities keep their code; the name of the time comes back on extract', async (t) => {
  const rows = ANPR();
  const byCode = new Map<string, Row[]>();
  for (const r of rows) byCode.set(r.CODCATASTALE!, [...(byCode.get(r.CODCATASTALE!) ?? []), r]);
  let checked = 0;
  for (const [code, rs] of byCode) {
    const now = rs.find((r) => r.STATO === 'A');
    if (!now || now.DATAISTITUZIONE! < '1950-01-01') continue;
    const before = rs.find((r) => r.STATO === 'C' && r.DATACESSAZIONE! < now.DATAISTITUZIONE! && r.DATAISTITUZIONE! < '1949-12-31');
    // An accent or a bilingual form added to the same name (Emarèse, Duino Aurisina-Devin Nabrežina) is no renaming.
    const [old, current] = [native.foldText(before?.DENOMINAZIONE_IT ?? ''), native.foldText(now.DENOMINAZIONE_IT!)];
    if (!before || current.startsWith(old) || old.startsWith(current)) continue;
    // Born under the old name, typed with today's name and province.
    const day = before.DATACESSAZIONE! > '1950-01-01' ? '1949-12-31' : before.DATACESSAZIONE!;
    // Two digits that could be this century would be read as this century.
    if (day < before.DATAISTITUZIONE! || Number(day.slice(2, 4)) <= today.getUTCFullYear() % 100) continue;
    const g = await one('generate', { last_name: 'Sala', first_name: 'Rita', gender: 'F', birth_date: day, birth_place: `${now.DENOMINAZIONE_IT} ${now.SIGLAPROVINCIA}` });
    if (!g.ok) continue; // the name may be shared with another municipality of that date
    t.is(g.cadastral_code, code, now.DENOMINAZIONE_IT);
    const e = await one('extract', { tax_code: g.tax_code });
    t.is((e.place as string).toUpperCase(), before.DENOMINAZIONE_IT!.toUpperCase());
    t.is((e.current_name as string).toUpperCase(), now.DENOMINAZIONE_IT!.toUpperCase());
    checked++;
  }
  t.true(checked > 20, `checked ${checked}`);
});

test('foreign and former countries, in several languages', async (t) => {
  const deleted = JSON.parse(readFileSync(path.join(SOURCE, 'it/esteri/codicefiscale_deleted-countries.json'), 'utf8')) as {
    code: string;
    name: string;
    date_created: string;
    date_deleted: string;
  }[];
  const anpr = parse(readFileSync(path.join(SOURCE, 'it/esteri/anpr_stati_esteri.csv'), 'utf8'), { columns: true }) as Row[];
  const person = { last_name: 'Novak', first_name: 'Jan', gender: 'M' };
  for (const c of deleted) {
    const mid = new Date((Date.parse(c.date_created) + Date.parse(c.date_deleted)) / 2);
    const g = await one('generate', { ...person, birth_date: iso(mid), birth_place: c.name });
    t.is(g.cadastral_code, c.code, c.name);
    t.true(g.born_abroad as boolean);
    const e = await one('extract', { tax_code: g.tax_code });
    t.is(e.birth_country, g.place);
    t.true((e.notes as string[]).some((n) => n.includes('no longer exists')));
    const late = await one('generate', { ...person, birth_date: iso(new Date(Date.parse(c.date_deleted) + 86_400_000 * 400)), birth_place: c.name });
    t.is(late.error, 'birth_place', c.name);
  }
  const germany = anpr.find((r) => r.CODISO3166_1_ALPHA3 === 'DEU')!.CODAT;
  for (const typed of ['Germania', 'Germany', 'Allemagne', 'Deutschland', 'Alemania']) {
    const g = await one('generate', { ...person, birth_date: '1970-01-01', birth_place: typed });
    t.is(g.cadastral_code, germany, typed);
    t.is(g.country_code, 'DE');
  }
  const italy = await one('generate', { ...person, birth_date: '1970-01-01', birth_place: 'Italia' });
  t.is(italy.error, 'birth_place');
});

test('every check code, its short error and its Italian form', async (t) => {
  const good = (await one('generate', { last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-01-01', birth_place: 'Roma' })).tax_code as string;
  const unknownPlace = ['Y999', 'Y998', 'Y997'][0]!;
  const cases: [string, string[], string | undefined][] = [
    ['', ['TAX_CODE_EMPTY'], 'empty'],
    [good.slice(0, 12), ['TAX_CODE_INVALID', 'TAX_CODE_LENGTH_WRONG'], 'length'],
    ['1' + good.slice(1), ['TAX_CODE_INVALID', 'TAX_CODE_FORMAT_WRONG'], 'format'],
    [good.slice(0, 9) + 'O' + good.slice(10), ['TAX_CODE_INVALID', 'TAX_CODE_FORMAT_WRONG'], 'homocode'],
    [withCheck(good.slice(0, 8) + 'Z' + good.slice(9, 15)), ['TAX_CODE_INVALID', 'TAX_CODE_MONTH_WRONG'], 'month'],
    [withCheck(good.slice(0, 9) + '35' + good.slice(11, 15)), ['TAX_CODE_INVALID', 'TAX_CODE_DATE_INVALID'], 'date'],
    [withCheck(good.slice(0, 11) + unknownPlace), ['TAX_CODE_INVALID', 'TAX_CODE_PLACE_UNKNOWN'], 'place'],
    [good.slice(0, 15) + (good[15] === 'A' ? 'B' : 'A'), ['TAX_CODE_INVALID', 'TAX_CODE_CHECK_DIGIT_WRONG'], 'check_digit'],
    [good.slice(0, 8) + 'Z' + good.slice(9, 15), ['TAX_CODE_INVALID', 'TAX_CODE_CHECK_DIGIT_MISSING', 'TAX_CODE_MONTH_WRONG'], 'check_digit'],
    [good.slice(0, 15), ['MODIFIED', 'TAX_CODE'], undefined],
    [` ${good.slice(0, 8).toLowerCase()} ${good.slice(8)} `, ['MODIFIED', 'TAX_CODE_FORM'], undefined],
    [good, [], undefined],
  ];
  for (const [code, outcome, error] of cases) {
    const r = await one('validate', { tax_code: code });
    t.deepEqual(r.outcome, outcome, code);
    t.is(r.error, error, code);
    t.is(r.ok, error === undefined, code);
    t.is(labelOf(r.outcome, capability.outcomes), error ? 'error' : outcome.length ? 'modified' : 'ok');
    for (const c of outcome) t.regex(italianCode(c), /^[A-Z_]+$/);
  }
  // Rebuilt: the check character; an O typed for a 0 in the day, confirmed by the written check character.
  const wrongCheck = await one('validate', { tax_code: good.slice(0, 15) + (good[15] === 'A' ? 'B' : 'A') });
  t.is(wrongCheck.suggestion, good);
  const letterO = await one('validate', { tax_code: good.slice(0, 9) + 'O' + good.slice(10) }, 'it');
  t.is(letterO.suggestion, good);
  t.is(letterO.error, 'omocodo');
  t.is(italianCode('TAX_CODE_INVALID'), 'CODICE_FISCALE_NON_VALIDO');
  t.is(italianCode('GENERATED'), 'GENERATO');
  t.is(italianCode('MATCH'), 'CORRISPONDE');
  t.is(italianCode('MISMATCH'), 'NON_CORRISPONDE');
  const completed = await one('validate', { tax_code: good.slice(0, 15) }, 'fr');
  t.is(completed.tax_code, good);
});

test('generate names each missing or unresolved datum, in English and Italian', async (t) => {
  const istat = ISTAT();
  const nameCol = 'Denominazione in italiano';
  const count = new Map<string, Row[]>();
  for (const r of istat) count.set(r[nameCol]!, [...(count.get(r[nameCol]!) ?? []), r]);
  const [shared, rows] = [...count.entries()].find(([, rs]) => rs.length === 2)!;
  const full = { last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-01-01', birth_place: 'Roma' };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ ...full, last_name: undefined }, 'last_name', 'cognome'],
    [{ ...full, first_name: '' }, 'first_name', 'nome'],
    [{ ...full, gender: undefined }, 'gender', 'sesso'],
    [{ ...full, gender: 'boh' }, 'gender', 'sesso'],
    [{ ...full, birth_date: '31/04/1980' }, 'birth_date', 'data_nascita'],
    [{ ...full, birth_place: 'Atlantide' }, 'birth_place', 'comune_nascita'],
    [{ ...full, birth_place: shared }, 'ambiguous_place', 'luogo_ambiguo'],
    [{ ...full, last_name: 'Иванов' }, 'last_name_non_latin', 'cognome_non_latino'],
    [{ ...full, first_name: 'Γιώργος' }, 'first_name_non_latin', 'nome_non_latino'],
  ];
  for (const [item, en, it] of cases) {
    const r = await one('generate', item);
    t.deepEqual([r.ok, r.error, r.outcome], [false, en, ['INCOMPLETE_DATA']], en);
    t.true((r.reason as string).includes(':'), en);
    t.is((await one('genera', item, 'it')).error, it);
  }
  const amb = await one('generate', { ...full, birth_place: shared });
  const options = amb.options as { cadastral_code: string; province: string }[];
  t.deepEqual(options.map((o) => o.cadastral_code).sort(), rows.map((r) => r['Codice Catastale del comune']).sort());
  for (const o of options) {
    const g = await one('generate', { ...full, birth_place: `${shared} (${o.province})` });
    t.is(g.cadastral_code, o.cadastral_code);
  }
});

test('generate, validate and extract round-trip over real municipalities with every date form', async (t) => {
  const istat = ISTAT().filter((_, i) => i % 8 === 0);
  const forms = [
    (d: string) => d,
    (d: string) => `${d.slice(8)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
    (d: string) => `${d.slice(8)}.${d.slice(5, 7)}.${d.slice(0, 4)}`,
    (d: string) => `${d.slice(8)}-${d.slice(5, 7)}-${d.slice(2, 4)}`,
  ];
  const placeForms = [(n: string, p: string) => `${n} (${p})`, (n: string, p: string) => `${n} ${p}`, (n: string, p: string) => `${n}, ${p}`];
  const items = istat.map((r, i) => {
    const date = `19${String(30 + (i % 60)).padStart(2, '0')}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    return {
      row: r,
      date,
      item: {
        last_name: 'Bruno',
        first_name: 'Chiara',
        gender: 'femmina',
        birth_date: forms[i % forms.length]!(date),
        birth_place: placeForms[i % placeForms.length]!(r['Denominazione in italiano']!, r['Sigla automobilistica']!),
      },
    };
  });
  t.true(items.length > 900);
  const generated = await run('generate', items.map((x) => x.item));
  const anpr = new Map<string, Row[]>();
  for (const r of ANPR()) anpr.set(r.CODCATASTALE!, [...(anpr.get(r.CODCATASTALE!) ?? []), r]);
  let merged = 0;
  let unresolved = 0;
  const failures: string[] = [];
  const codes: string[] = [];
  generated.forEach((g, i) => {
    const { row, item } = items[i]!;
    // A municipality born after the date (a merger) has no code then: the generator says so.
    const existed = (anpr.get(row['Codice Catastale del comune']!) ?? []).some((r) => r.DATAISTITUZIONE! <= items[i]!.date && items[i]!.date <= r.DATACESSAZIONE!);
    if (!g.ok) {
      // Only a municipality that did not exist on the date (a later merger) may go unresolved, or
      // ambiguous between the predecessors that share its name.
      if (existed || !['birth_place', 'ambiguous_place'].includes(g.error as string)) failures.push(`${item.birth_place}: ${g.error}`);
      unresolved++;
      return;
    }
    const own = row['Codice Catastale del comune']!;
    if (partOf(g)) {
      // The municipality did not exist on the date: the one it was part of then, by the ANPR archive.
      const then = (anpr.get(g.cadastral_code as string) ?? []).find((r) => r.DATAISTITUZIONE! <= items[i]!.date && items[i]!.date <= r.DATACESSAZIONE!);
      const name = native.foldText(row['Denominazione in italiano']!);
      const gap = !(anpr.get(own) ?? []).some((r) => r.DATAISTITUZIONE! <= items[i]!.date && items[i]!.date <= r.DATACESSAZIONE!);
      if (!then || !native.foldText(then.DENOMINAZIONE_IT!).includes(name) || !gap) failures.push(`${item.birth_place} → part of ${g.cadastral_code}`);
      merged++;
    } else if (g.cadastral_code !== own) failures.push(`${item.birth_place} → ${g.cadastral_code}`);
    codes.push(g.tax_code as string);
  });
  t.deepEqual(failures, []);
  t.true(merged > 0 && unresolved > 0, `${merged} ${unresolved}`);
  t.true(codes.length > 800, `${codes.length}`);
  const extracted = await run('extract', codes.map((tax_code) => ({ tax_code })));
  let k = 0;
  generated.forEach((g, i) => {
    if (!g.ok) return;
    const e = extracted[k++]!;
    t.true(e.ok);
    t.is(e.birth_date, items[i]!.date);
    t.is(e.gender, 'F');
    t.is(e.cadastral_code, g.cadastral_code);
  });
});

test('compare lists differences; a name difference abroad carries the transliteration note', async (t) => {
  const it = (await one('generate', { last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-01-01', birth_place: 'Roma' })).tax_code;
  const same = await one('compare', { tax_code: it, last_name: 'ROSSI', first_name: 'mario', gender: 'male', birth_date: '01/01/1980', birth_place: 'Roma RM' });
  t.deepEqual([same.outcome, same.differences], [['MATCH'], []]);
  const diff = await one('compare', { tax_code: it, last_name: 'Bianchi', first_name: 'Mario', gender: 'F', birth_date: '1980-01-02' }, 'it');
  t.deepEqual(diff.outcome, ['MISMATCH']);
  t.deepEqual(diff.differences, ['cognome', 'sesso', 'data_nascita']);
  t.deepEqual([diff.notes, diff.comments], [[], []]);
  const abroad = (await one('generate', { last_name: 'Kowalczyk', first_name: 'Anna', gender: 'F', birth_date: '1985-03-03', birth_place: 'Polonia' })).tax_code;
  const translit = await one('compare', { tax_code: abroad, last_name: 'Kovalchik', first_name: 'Anna', gender: 'F', birth_date: '1985-03-03' });
  t.deepEqual(translit.differences, ['last_name']);
  t.deepEqual(translit.notes, [NOTE_TEXTS.transliteration!.en]);
  const nothing = await one('compare', { tax_code: abroad });
  t.deepEqual([nothing.outcome, nothing.error], [['INCOMPLETE_DATA'], 'personal_data']);
  t.is(nothing.reason, 'Too little information: no personal data to compare with the tax code');
  const niente = await one('compare', { tax_code: abroad }, 'it');
  t.deepEqual([niente.outcome, niente.error], [['INCOMPLETE_DATA'], 'dati_persona']);
  t.is(niente.reason, 'Dati insufficienti: mancano i dati della persona da confrontare con il codice fiscale');
});

test('HTTP: one item, English; Italian alias, keys and codes; charged one light operation', async (t) => {
  const g = await call(server, 'POST', '/api/v1/tax-code', { action: 'generate', last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-01-01', birth_place: 'Roma (RM)' });
  t.is(g.status, 200);
  t.deepEqual(g.body.outcome, ['GENERATED']);
  t.is(g.body.outcome_label, 'ok');
  t.is(g.body.reason, 'Tax code generated');
  t.true(CodiceFiscale.check(g.body.tax_code));
  t.is(g.headers.get('x-service-charged'), '1');
  const code = g.body.tax_code as string;
  const it = await call(server, 'POST', '/api/v1/codicefiscale', { azione: 'estrai', codice_fiscale: code.slice(0, 15).toLowerCase(), lingua: 'it' });
  t.is(it.status, 200);
  t.deepEqual(it.body.esito, ['MODIFICATO', 'CODICE_FISCALE', 'CODICE_FISCALE_FORMA']);
  t.is(it.body.codice_fiscale, code);
  t.is(it.body.data_nascita, '1980-01-01');
  t.is(it.body.sesso, 'M');
  t.is(it.body.luogo, 'Roma');
  t.is(it.body.provincia, 'RM');
  const wrong = await call(server, 'POST', '/api/v1/codicefiscale', { azione: 'valida', codice_fiscale: code.slice(0, 15) + (code[15] === 'A' ? 'B' : 'A'), lingua: 'it' });
  t.deepEqual(wrong.body.esito, ['CODICE_FISCALE_NON_VALIDO', 'CODICE_FISCALE_CONTROLLO_ERRATO']);
  t.is(wrong.body.errore, 'controllo');
  t.is(wrong.body.suggerimento, code);
  const nonLatin = await call(server, 'POST', '/api/v1/codicefiscale', { azione: 'genera', cognome: 'Петров', nome: 'Ivan', sesso: 'M', data_nascita: '1980-01-01', comune_nascita: 'Russia', lingua: 'it' });
  t.is(nonLatin.body.errore, 'cognome_non_latino');
  t.deepEqual(nonLatin.body.esito, ['DATI_INCOMPLETI']);
});

test('HTTP: a batch keeps order and ids, the action applies to all, the cap is 2,000', async (t) => {
  const base = (await one('generate', { last_name: 'Verdi', first_name: 'Giuseppe', gender: 'M', birth_date: '10/10/1913', birth_place: 'Busseto' })).tax_code as string;
  const items = Array.from({ length: 300 }, (_, i) => ({ id: `row-${i}`, tax_code: i % 3 === 0 ? base.slice(0, 15) + 'Z' : base }));
  const r = await call(server, 'POST', '/api/v1/tax-code', { action: 'valida', items });
  t.is(r.status, 200);
  t.is(r.body.count, 300);
  t.is(r.headers.get('x-service-charged'), '300');
  r.body.results.forEach((x: { id: string; result: ItemResult }, i: number) => {
    t.is(x.id, `row-${i}`);
    t.is(x.result.ok, i % 3 !== 0 || base[15] === 'Z');
  });
  const tooMany = await call(server, 'POST', '/api/v1/tax-code', { action: 'validate', items: Array.from({ length: 2001 }, () => ({ tax_code: base })) });
  t.is(tooMany.status, 413);
  const badAction = await call(server, 'POST', '/api/v1/tax-code', { action: 'guess', tax_code: base });
  t.is(badAction.status, 400);
  t.is(badAction.body.field ?? badAction.body.details?.[0]?.field, 'action');
});

test('HTTP: an asynchronous job gives the same answers, readable as JSON and CSV', async (t) => {
  const items = Array.from({ length: 40 }, (_, i) => ({
    id: `p${i}`,
    last_name: 'Romano',
    first_name: i % 2 ? 'Giulia' : 'Luca',
    gender: i % 2 ? 'F' : 'M',
    birth_date: `${(i % 28) + 1}/0${(i % 9) + 1}/19${50 + i}`,
    birth_place: i % 4 === 0 ? 'Cecoslovacchia' : 'Bologna',
  }));
  const queued = await call(server, 'POST', '/api/v1/tax-code', { async: true, action: 'generate', items });
  t.is(queued.status, 200);
  const job = queued.body.job as string;
  const done = await waitFor(() => call(server, 'GET', `/api/v1/tax-code?job=${job}`), (r) => r.body.state === 'completed');
  t.is(done.body.state, 'completed');
  const direct = await run('generate', items);
  t.deepEqual(
    done.body.results.map((r: { result?: ItemResult; tax_code?: string }) => r.result?.tax_code ?? r.tax_code),
    direct.map((r) => r.tax_code),
  );
  const csv = await call(server, 'GET', `/api/v1/tax-code?job=${job}&format=csv`);
  t.is(csv.status, 200);
  const lines = String(csv.body).trim().split('\n');
  t.is(lines.length, 41);
  t.true(lines[0]!.includes('tax_code'));
});

/** The ANPR archive's periods of one cadastral code. */
function periodsOf(rows: Row[], cadastral: string): Row[] {
  return rows.filter((r) => r.CODCATASTALE === cadastral).sort((a, b) => a.DATAISTITUZIONE!.localeCompare(b.DATAISTITUZIONE!));
}

test('HTTP: extract names a place as on the birth date, with the province of that date, and comments say what it is today', async (t) => {
  const anpr = await ANPR();
  // Casagiove in 1942: part of Caserta, then in the province of Napoli (the archive's period before the date)
  const casagiove = periodsOf(anpr, 'B860');
  const before = casagiove.filter((p) => p.DATACESSAZIONE! < '1942-03-10').pop()!;
  const today = casagiove.find((p) => p.STATO === 'A')!;
  const gen = await call(server, 'POST', '/api/v1/tax-code', { action: 'generate', last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1942-03-10', birth_place: 'B860' });
  const code = gen.body.tax_code as string;
  t.true(CodiceFiscale.check(code));
  const en = await call(server, 'POST', '/api/v1/tax-code', { action: 'extract', tax_code: code });
  t.is(en.status, 200);
  t.is(en.body.place, 'Casagiove');
  t.is(en.body.province, before.SIGLAPROVINCIA);
  t.is(en.body.province, 'NA');
  t.is(en.body.current_province, today.SIGLAPROVINCIA);
  t.deepEqual(en.body.comments, [
    'On the birth date Casagiove was part of another municipality, in the province of Napoli (NA); a municipality again since 1946-11-12',
    'Today Casagiove is a municipality in the province of Caserta (CE)',
  ]);
  const it = await call(server, 'POST', '/api/v1/codicefiscale', { azione: 'estrai', codice_fiscale: code, lingua: 'it' });
  t.is(it.body.luogo, 'Casagiove');
  t.is(it.body.provincia, 'NA');
  t.is(it.body.provincia_attuale, 'CE');
  t.deepEqual(it.body.commenti, [
    'Alla data di nascita Casagiove faceva parte di un altro comune, in provincia di Napoli (NA); è tornato comune il 1946-11-12',
    'Oggi Casagiove è un comune della provincia di Caserta (CE)',
  ]);
  // Nuxis in 1930: not yet a municipality, its territory in the province of Cagliari; today Sud Sardegna
  const nuxis = (await call(server, 'POST', '/api/v1/tax-code', { action: 'generate', last_name: 'Rossi', first_name: 'Maria', gender: 'F', birth_date: '1930-06-01', birth_place: 'F991' })).body.tax_code as string;
  const n = await call(server, 'POST', '/api/v1/tax-code', { action: 'extract', tax_code: nuxis, language: 'it' });
  t.is(n.body.luogo, 'Nuxis');
  t.is(n.body.provincia, 'CA');
  t.is(n.body.provincia_attuale, periodsOf(anpr, 'F991').find((p) => p.STATO === 'A')!.SIGLAPROVINCIA);
  t.regex(n.body.commenti[0], /^Alla data di nascita Nuxis non era ancora un comune: .* provincia di Cagliari \(CA\)/);
  t.is(n.body.commenti[1], 'Oggi Nuxis è un comune della provincia di Sud Sardegna (SU)');
  // a place unchanged since the birth date: nothing to comment
  const roma = await call(server, 'POST', '/api/v1/tax-code', { action: 'extract', tax_code: (await one('generate', { last_name: 'Rossi', first_name: 'Mario', gender: 'M', birth_date: '1980-01-01', birth_place: 'Roma' })).tax_code });
  t.deepEqual(roma.body.comments, []);
  t.is(roma.body.current_province, undefined);
  // every language has its text
  for (const language of ['de', 'fr', 'el'] as const) {
    const r = await call(server, 'POST', '/api/v1/tax-code', { action: 'extract', tax_code: code, language });
    t.is(r.body.comments.length, 2);
    t.not(r.body.comments[0], en.body.comments[0], language);
    t.true(r.body.comments[0].includes('Napoli (NA)'), language);
  }
});

test('HTTP: the OpenAPI document shows the result fields, the new ones included', async (t) => {
  const r = await call(server, 'GET', '/api/v1/openapi.json', undefined, { token: null });
  const schemas = r.body.components.schemas;
  for (const field of ['comments', 'current_province', 'current_name', 'notes', 'province', 'outcome', 'reason']) t.truthy(schemas.TaxCodeResult.properties[field], field);
  t.truthy(schemas.PhoneResult.properties.national_number);
  t.truthy(schemas.PhoneResult.properties.comments);
  t.truthy(schemas.EnrichmentResult.properties.comments);
  t.truthy(schemas.WebsiteResult.properties.note);
  t.truthy(schemas.Credit.properties.note);
  t.is(r.body.paths['/api/v1/tax-code'].post.responses['200'].content['application/json'].schema.oneOf[0].allOf[0].$ref, '#/components/schemas/TaxCodeResult');
});
