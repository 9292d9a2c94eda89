import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import test from 'ava';
import { parse } from 'csv-parse/sync';

import { capability } from '../src/enrichment/service.js';
import type { ItemResult } from '../src/http/capability.js';
import type { Language } from '../src/http/language.js';
import { LANGUAGES } from '../src/http/language.js';
import { labelOf } from '../src/http/outcomes.js';
import { contactData } from '../src/import/contact-store.js';
import { native } from '../src/native.js';
import { contactDataDir } from './helpers/light.js';
import { SOURCE } from './helpers/source.js';

let dataDir = '';

test.before(async () => {
  dataDir = await contactDataDir();
});

async function rows(...p: string[]): Promise<Record<string, string>[]> {
  return parse(await readFile(path.join(SOURCE, 'contact', ...p), 'utf8'), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<string, string>[];
}

test('the dictionaries come from the core\'s import and need no street register', async (t) => {
  t.false(existsSync(path.join(dataDir, 'register')), 'a data dir of dictionaries alone');
  const data = contactData(dataDir);
  t.true(data.imported);
  // every title row of the published file, with the gender forms of its own columns
  const titles = await rows('names', 'it_titles.csv');
  t.deepEqual(data.titles.map((r) => [r.id, r.abbrM, r.abbrF]), titles.map((r) => [r.id, r.abbr_m, r.abbr_f]));
  t.is(data.legalForms.length, (await rows('legal', 'it_legal_form_markers.csv')).length);
  const clear = (await rows('names', 'it_hypocoristics.csv')).filter((r) => (r.genere === 'M' || r.genere === 'F') && r.ambiguo !== '1');
  t.true(clear.length > 50);
  for (const r of clear) t.is(data.hypocoristics[native.foldText(r.forma_breve!)] as string | undefined, r.genere, r.forma_breve);
});

async function enrichAll(items: Record<string, unknown>[], language: Language = 'it'): Promise<ItemResult[]> {
  return capability.run(items.map((i) => capability.item.parse(i)), { language, dataDir, allowPrivateNetwork: false });
}

async function enrich(item: Record<string, unknown>, language: Language = 'it'): Promise<ItemResult> {
  const [r] = await enrichAll([item], language);
  if (!r) throw new Error('no result');
  return r;
}

test('first-name gender agrees with the independent births file on its clear names', async (t) => {
  // the service leans on the administrators' register; the births file is a second, independent source
  const births = (await rows('names', 'it_firstnames_gender_births_italiatools.csv')).filter((r) => {
    const m = Number(r.male_weight);
    const f = Number(r.female_weight);
    return r.gender_signal === '1' && m + f >= 50 && Math.max(m, f) / (m + f) >= 0.98;
  });
  t.true(births.length > 300, `${births.length} names`);
  const results = await enrichAll(births.map((r) => ({ last_name: 'Rossi', first_name: r.name })));
  let agree = 0;
  let decided = 0;
  results.forEach((r, i) => {
    const row = births[i]!;
    const expected = Number(row.male_weight) > Number(row.female_weight) ? 'M' : 'F';
    if (r.gender) decided++;
    if (r.gender === expected) agree++;
  });
  t.true(decided / births.length >= 0.97, `decided ${decided}/${births.length}`);
  t.true(agree / decided >= 0.98, `agree ${agree}/${decided}`);
});

test('every unambiguous hypocoristic gives its gender', async (t) => {
  const forms = (await rows('names', 'it_hypocoristics.csv')).filter((r) => r.ambiguo === '0' && (r.genere === 'M' || r.genere === 'F'));
  const results = await enrichAll(forms.map((r) => ({ last_name: 'Bianchi', first_name: r.forma_breve })));
  let agree = 0;
  results.forEach((r, i) => {
    if (r.gender === forms[i]!.genere) agree++;
  });
  t.true(agree / forms.length >= 0.95, `${agree}/${forms.length}`);
});

test('written gender: words, letters, titles, X organisation, G family', async (t) => {
  for (const [gender, expected] of [['male', 'M'], ['Maschio', 'M'], ['f', 'F'], ['female', 'F'], ['Sig.ra', 'F'], ['Dott.ssa', 'F'], ['Sig.', 'M'], ['G', 'G']] as const) {
    const r = await enrich({ last_name: 'Rossi', first_name: 'Kim', gender });
    t.is(r.gender, expected, gender);
    t.is(r.gender_source, 'written');
  }
  const org = await enrich({ last_name: 'Acme', gender: 'X' });
  t.deepEqual(org.outcome, ['LEGAL_PERSON']);
  t.is(org.subject_type, 'organisation');
  const family = await enrich({ last_name: 'ROSSI', gender: 'G' });
  t.is(family.formal_salutation, 'Gentile Famiglia Rossi');
  t.deepEqual(family.outcome, ['ENRICHED']);
});

test('every legal-form marker makes a legal person of its type', async (t) => {
  const forms = await rows('legal', 'it_legal_form_markers.csv');
  let typed = 0;
  for (const row of forms) {
    const variant = row.varianti!.split('|')[0]!;
    const prefix = /^prefisso/.test(row.posizione_tipica ?? '');
    const name = prefix ? `${variant} Rossi Bianchi` : `Rossi Bianchi ${variant}`;
    const r = await enrich({ last_name: name });
    t.deepEqual(r.outcome, ['LEGAL_PERSON'], name);
    t.is(labelOf(r.outcome, capability.outcomes), 'ok');
    if (r.subject_type === (row.forma === 'IN_LIQUIDAZIONE' ? 'company' : row.forma!.toLowerCase())) typed++;
  }
  // a few first variants are shared by two forms (scarl: cooperative or consortium): the longest marker decides
  t.true(typed >= forms.length - 4, `${typed}/${forms.length}`);
  t.is((await enrich({ last_name: 'Rossi Mario & C. S.n.c.' })).subject_type, 'snc');
  t.is((await enrich({ last_name: 'Rossi', first_name: 'Mario' })).subject_type, 'natural_person');
});

test('title from profession or education, feminine forms, Italian formal salutation', async (t) => {
  const professions = (await rows('names', 'it_professioni_titoli.csv')).filter((r) => r.abbr_m && r.abbr_f);
  for (const p of professions) {
    const man = await enrich({ last_name: 'ROSSI', first_name: 'GIUSEPPE', profession: p.professione });
    t.is(man.title, p.abbr_m, p.professione);
    const woman = await enrich({ last_name: 'ROSSI', first_name: 'FRANCESCA', profession: p.professione_f || p.professione });
    t.is(woman.title, p.abbr_f, p.professione_f);
  }
  const dott = await enrich({ last_name: 'Verdi', first_name: 'Giulia', education: 'Laurea magistrale' });
  t.is(dott.title, 'Dott.ssa');
  t.is(dott.formal_salutation, 'Gentile Dott.ssa Verdi');
  t.is((await enrich({ last_name: 'Neri', first_name: 'Luca', profession: 'avvocato' })).formal_salutation, 'Egregio Avv. Neri');
  t.is((await enrich({ last_name: 'Neri', first_name: 'Luca', education: 'diploma' })).title, null);
});

test('salutations follow the request language in all 13', async (t) => {
  const seen = new Set<string>();
  for (const language of LANGUAGES) {
    const man = await enrich({ last_name: 'ROSSI', first_name: 'MARIO' }, language);
    const woman = await enrich({ last_name: 'ROSSI', first_name: 'MARIA' }, language);
    t.true(String(man.formal_salutation).endsWith('Rossi'), language);
    t.true(String(woman.informal_salutation).endsWith('Maria'), language);
    t.not(man.formal_salutation, woman.formal_salutation, language);
    seen.add(String(man.formal_salutation));
  }
  t.is(seen.size, LANGUAGES.length);
  t.is((await enrich({ last_name: 'Rossi', first_name: 'Mario' }, 'de')).formal_salutation, 'Sehr geehrter Herr Rossi');
});

test('married form "X in Y": a woman, both surnames in detail', async (t) => {
  const r = await enrich({ last_name: 'BIANCHI IN ROSSI', first_name: 'LUCIA' });
  t.is(r.gender, 'F');
  t.deepEqual(r.detail, { birth_surname: 'Bianchi', married_surname: 'Rossi' });
  const noName = await enrich({ last_name: 'Bianchi in Rossi' });
  t.is(noName.gender, 'F');
  t.is(noName.gender_source, 'married_name');
  t.deepEqual(noName.outcome, ['PARTIAL'], 'first name missing');
});

test('PARTIAL when the first name is missing or says nothing', async (t) => {
  t.deepEqual((await enrich({ last_name: 'Rossi' })).outcome, ['PARTIAL']);
  const unknown = await enrich({ last_name: 'Rossi', first_name: 'Xqzvw' });
  t.deepEqual(unknown.outcome, ['PARTIAL']);
  t.is(unknown.gender, null);
  t.is(unknown.formal_salutation, 'Gentile Xqzvw Rossi');
  const initial = await enrich({ last_name: 'Rossi', first_name: 'M.' });
  t.deepEqual(initial.outcome, ['PARTIAL']);
  t.is(initial.informal_salutation, null, 'nobody is greeted by an initial');
  const empty = await enrich({});
  t.false(empty.ok as boolean);
  t.is(capability.batchCap, 2000);
});

test('over HTTP: Italian alias and keys, salutations in the request language', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer();
  try {
    const it = await call(server, 'POST', '/api/v1/arricchimento', { cognome: 'BIANCHI IN ROSSI', nome: 'MARIA', qualifica: 'avvocato', lingua: 'it' });
    t.is(it.status, 200);
    t.is(it.body.sesso, 'F');
    t.is(it.body.titolo, 'Avv.');
    t.is(it.body.saluto_formale, 'Gentile Avv. Bianchi in Rossi');
    t.deepEqual(it.body.esito, ['ARRICCHITO']);
    const en = await call(server, 'POST', '/api/v1/enrichment', { language: 'en', items: [{ last_name: 'Rossi', first_name: 'Mario' }, { last_name: 'Rossi S.p.A.' }] });
    t.is(en.body.results[0].result.formal_salutation, 'Dear Mr Rossi');
    t.deepEqual(en.body.results[1].result.outcome, ['LEGAL_PERSON']);
    t.is(en.headers.get('x-service-charged'), '2');
  } finally {
    await server.close();
  }
});

test('comments in every language: each text is its own, none left in English', async (t) => {
  const items = [
    { last_name: 'Rossi', first_name: 'Mario', gender: 'boh' },
    { last_name: 'BIANCHI IN ROSSI', first_name: 'MARIO', gender: 'M' },
    { last_name: 'Rossi', first_name: 'M.' },
    { last_name: 'Rossi', first_name: 'Maria', gender: 'M' },
  ];
  const english = (await enrichAll(items, 'en')).map((r) => r.comments as string[]);
  t.deepEqual(english, [['gender "boh" not understood'], ['married form "in" written for a man'], ['first name is an initial'], ['first name usually female']]);
  for (const language of LANGUAGES.filter((l) => l !== 'en')) {
    const comments = (await enrichAll(items, language)).map((r) => r.comments as string[]);
    comments.forEach((c, i) => {
      t.is(c.length, 1, `${language} ${i}`);
      t.not(c[0], english[i]![0], `${language} ${i}`);
    });
    t.true(comments[0]![0]!.includes('boh'), language);
  }
});

test('over HTTP: comments in English and Italian', async (t) => {
  const { call, startServer } = await import('./helpers/server.js');
  const server = await startServer();
  try {
    const en = await call(server, 'POST', '/api/v1/enrichment', { last_name: 'Rossi', first_name: 'Maria', gender: 'M' });
    t.deepEqual(en.body.comments, ['first name usually female']);
    const it = await call(server, 'POST', '/api/v1/arricchimento', { cognome: 'Rossi', nome: 'Maria', sesso: 'M', lingua: 'it' });
    t.deepEqual(it.body.commenti, ['nome di solito femminile']);
    t.is(it.body.fonte_sesso, 'scritto', 'enumerated values in Italian too');
    const org = await call(server, 'POST', '/api/v1/arricchimento', { cognome: 'Acme', sesso: 'X', lingua: 'it' });
    t.is(org.body.tipo_soggetto, 'organizzazione');
    const byHeader = await call(server, 'POST', '/api/v1/arricchimento', { cognome: 'Rossi', nome: 'M.' }, { headers: { 'accept-language': 'it-IT' } });
    t.deepEqual(byHeader.body.commenti, ['il nome è un’iniziale']);
  } finally {
    await server.close();
  }
});
