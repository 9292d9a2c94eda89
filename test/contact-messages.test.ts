/**
 * The message of a contact answer says what was done, no more (issue 34): "verified" only when the registers
 * verified the address; "checked" when the outcome leaves something to check; OpenStreetMap is a collaborative map,
 * not a register. Real server, real register (../shared/data).
 */
import test from 'ava';

import { attributionIn } from '../src/http/attribution.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;

test.before(async () => {
  server = await startServer();
});

test.after.always(async () => {
  await server?.close();
});

async function contact(body: Record<string, unknown>, path = '/api/v1/contact'): Promise<Record<string, unknown>> {
  const res = await call(server, 'POST', path, body);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

const UNKNOWN_CITY = { address: 'Via Roma 1', city: 'Xyzzyville', postcode: '00100' };
const TOO_LITTLE = { address: '', city: 'Bologna' };
const VERIFIED_ADDRESS = { address: 'Via del Faggiolo 5', postcode: '40132', city: 'Bologna', province: 'BO' };

test('CITY_NOT_FOUND and INCOMPLETE_DATA are checked against the Italian registers, not verified; a verified address says so', async (t) => {
  for (const [body, code] of [[UNKNOWN_CITY, 'CITY_NOT_FOUND'], [TOO_LITTLE, 'INCOMPLETE_DATA']] as const) {
    const en = await contact(body);
    t.true((en.outcome as string[]).includes(code), JSON.stringify(en.outcome));
    t.regex(en.message as string, /^Address checked against the Italian registers/, code);
    t.notRegex(en.message as string, /verified/, code);
    const it = await contact({ ...body, lingua: 'it' }, '/api/v1/contatto');
    const message = (it.messaggio ?? it.message) as string;
    t.regex(message, /^Indirizzo controllato sui registri italiani/, code);
    t.notRegex(message, /verificato/, code);
  }
  const ok = await contact(VERIFIED_ADDRESS);
  t.deepEqual(ok.outcome, []);
  t.regex(ok.message as string, /^Address verified against the Italian registers/);
  // the batch and its text path write the same heads
  const batch = await call(server, 'POST', '/api/v1/contact', { items: [UNKNOWN_CITY, VERIFIED_ADDRESS, TOO_LITTLE] });
  const messages = (batch.body.results as { result: { message: string } }[]).map((r) => r.result.message.split('.')[0]);
  t.deepEqual(messages, ['Address checked against the Italian registers', 'Address verified against the Italian registers', 'Address checked against the Italian registers']);
});

test('a foreign register: verified when found, checked when the number is not; OpenStreetMap is never a national register', async (t) => {
  const found = await contact({ address: '14, Rue de Bonnevoie', city: 'Luxembourg', country: 'LU' });
  t.regex(found.message as string, /^Address verified against the national register of its country \(CACLR\)/);
  const notFound = await contact({ address: 'Rue de Bonnevoie 9999', city: 'Luxembourg', country: 'LU' });
  t.true((notFound.outcome as string[]).includes('HOUSE_NUMBER_NOT_FOUND'));
  t.regex(notFound.message as string, /^Address checked against the national register of its country \(CACLR\)/);
  for (const language of ['en', 'it']) {
    const osm = await contact({ address: 'Avenue de la Costa', city: 'Monaco', postcode: '98000', country: 'MC', language });
    const message = (osm.message ?? osm.messaggio) as string;
    t.regex(message, language === 'en' ? /^Address checked against a collaborative map, not an official register \(OpenStreetMap\)/ : /^Indirizzo controllato su una mappa collaborativa, non su un registro ufficiale \(OpenStreetMap\)/);
    t.notRegex(message, /national register|registro nazionale/);
    t.regex(message, /© OpenStreetMap contributors/);
  }
});

test('a locality the register does not list keeps the accent of its type: Località', async (t) => {
  for (const address of ['Loc. Pian di Mare 1', 'localita Pian di Mare 1']) {
    const r = await contact({ address, city: 'Milano' });
    t.true((r.outcome as string[]).includes('LOCALITY_WITHOUT_STREET'), JSON.stringify(r.outcome));
    t.is((r.normalized as { address: string }).address, 'Località Pian di Mare 1', address);
  }
});

test('the registers\' attribution lines open with the answer\'s word for source, their wording kept', async (t) => {
  const words = { en: 'Source', it: 'Fonte', de: 'Quelle', fr: 'Source', el: 'Πηγή' } as const;
  for (const [language, word] of Object.entries(words)) {
    const r = await contact({ ...VERIFIED_ADDRESS, language });
    const message = (r.message ?? r.messaggio) as string;
    // ISTAT's line word for word after the lead word, as its licence asks (CC BY 4.0)
    t.true(message.includes(`${word}: ISTAT – Elenco comuni italiani (novembre 2023), CC BY 4.0`), `${language}: ${message}`);
    t.true(message.includes(`${word}: ANNCSU – `), `${language}: ${message}`);
    if (language !== 'it') t.false(message.includes('Fonte'), `${language}: ${message}`);
  }
  // a batch writes its messages through the same text
  const batch = await call(server, 'POST', '/api/v1/contact', { items: [VERIFIED_ADDRESS, UNKNOWN_CITY] });
  for (const { result } of batch.body.results as { result: { message: string } }[]) t.false(result.message.includes('Fonte'), result.message);
  // and the suggestions' attribution
  const suggest = await call(server, 'POST', '/api/v1/suggest', { session: '0b6f1a2e-3c4d-4e5f-8a9b-0c1d2e3f4a5b', q: 'via del fag', city: 'Bologna' });
  t.is(suggest.status, 200);
  t.regex(suggest.body.attribution as string, /^Source: ANNCSU – /);
  t.false((suggest.body.attribution as string).includes('Fonte'));
  const suggerisci = await call(server, 'POST', '/api/v1/suggest', { session: '1b6f1a2e-3c4d-4e5f-8a9b-0c1d2e3f4a5b', q: 'via del fag', city: 'Bologna', language: 'it' });
  t.regex(suggerisci.body.attribution as string, /^Fonte: ANNCSU – /);
  // and the index's list of every register's line
  const index = await call(server, 'GET', '/api/v1/', undefined, { token: null });
  const lines = index.body.attribution as string[];
  t.true(lines.some((l) => l.startsWith('Source: ISTAT')), lines.join('\n'));
  t.false(lines.some((l) => /^(Fonte|Formati postali):/.test(l)), lines.join('\n'));
});

test('the lead word Fonte is translated whichever register it opens; a publisher\'s own lead word stays', (t) => {
  t.is(attributionIn('Fonte: CTT – Correios de Portugal, códigos postais', 'en'), 'Source: CTT – Correios de Portugal, códigos postais');
  t.is(attributionIn('Fonte: CTT – Correios de Portugal, códigos postais', 'pt'), 'Fonte: CTT – Correios de Portugal, códigos postais');
  t.is(attributionIn('Bron: Basisregistratie Adressen en Gebouwen (BAG), Kadaster', 'en'), 'Bron: Basisregistratie Adressen en Gebouwen (BAG), Kadaster');
  t.is(attributionIn('Formati postali: libaddressinput © Google Inc. (Apache-2.0)', 'de'), 'Postalische Formate: libaddressinput © Google Inc. (Apache-2.0)');
  // a word inside a line is not a lead word
  t.is(attributionIn('Comune di Bologna – Fonte: SIT', 'en'), 'Comune di Bologna – Fonte: SIT');
  t.is(attributionIn(null, 'en'), null);
});
