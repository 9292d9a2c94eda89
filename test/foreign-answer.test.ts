/**
 * A batch's foreign answers written from the core's parts (`src/contact/foreign-answer.ts`) are the
 * text the service wrote when it read the core's JSON, presented it and wrote it out again
 * (`JSON.stringify(finishResult(present(…)))`), character for character: on every row of the foreign
 * first tries (country given, detected, written as a name) and of the register countries' eval sets,
 * with and without `postal_form`, in every language and envelope language.
 */
import test from 'ava';

import { evalSets, firstTries } from '../bench/foreign-rows.js';
import { answerText, foreignResult, isForeignParts, isParts, readAnswers } from '../src/contact/answer.js';
import { answerBytes, foreignRecordResult, readAnswerBytes } from '../src/contact/answer-bytes.js';
import { foreignAnswerText } from '../src/contact/foreign-answer.js';
import { capability, present } from '../src/contact/service.js';
import { finishResult } from '../src/http/outcomes.js';
import { LANGUAGES, type Language } from '../src/http/language.js';
import { foldText as fold, native, verifyContactAnswerBytes, verifyContactAnswersSync } from '../src/native.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer;

test.before(async () => {
  // the server opens the test register and the foreign registers the core reads
  server = await startServer();
});

test.after.always(async () => {
  await server?.close();
});

test('a foreign answer written from its parts is the presented result as JSON.stringify writes it', (t) => {
  let compared = 0;
  let formOnly = 0;
  let withLines = 0;
  for (const group of [...firstTries(), ...evalSets(2)]) {
    for (const postal_form of [false, true]) {
      const answers = readAnswers(verifyContactAnswersSync({ items: group.items, options: { foreign: group.foreign, postal_form } }));
      for (const a of answers) {
        if (!isForeignParts(a)) continue;
        for (const language of LANGUAGES) {
          for (const countryLine of ['it', 'en', 'fr'] as Language[]) {
            const text = foreignAnswerText(a, language, postal_form, countryLine, capability.outcomes);
            const r = foreignResult(a);
            const want = JSON.stringify(finishResult(present(r, language, postal_form, countryLine), language, capability.outcomes));
            t.is(text === null ? null : `${text.text}}`, want, `${group.name} ${language}/${countryLine} ${JSON.stringify(r.normalized)}`);
            compared++;
            if (!r.verified_in && r.normalized_postal) formOnly++;
            if (r.postal_lines?.length) withLines++;
          }
        }
      }
    }
  }
  // every kind of answer is among them: verified in a register, the postal form alone, envelopes
  t.true(compared > 5_000, `${compared}`);
  t.true(formOnly > 100, `${formOnly}`);
  t.true(withLines > 100, `${withLines}`);
});

test("a batch's answers written as bytes are the answers written as text, Italian and foreign", async (t) => {
  // the synchronous batch's path (answer-bytes.ts): the core's records as bytes, the request's texts put in
  // as bytes; the text path's answers are the presented results' JSON (the test above)
  let italian = 0;
  let foreign = 0;
  for (const group of [...firstTries(), ...evalSets(2)]) {
    for (const postal_form of [false, true]) {
      const batch = { items: group.items, options: { foreign: group.foreign, postal_form } };
      const texts = readAnswers(verifyContactAnswersSync(batch));
      const records = readAnswerBytes(await verifyContactAnswerBytes(batch));
      t.is(records.length, texts.length);
      for (const [i, a] of texts.entries()) {
        const r = records[i]!;
        for (const language of LANGUAGES) {
          for (const countryLine of ['it', 'en', 'fr'] as Language[]) {
            const bytes = answerBytes(r, language, postal_form, countryLine, capability.outcomes);
            const want = isParts(a) ? answerText(a, language, capability.outcomes) : isForeignParts(a) ? foreignAnswerText(a, language, postal_form, countryLine, capability.outcomes) : null;
            t.is(bytes?.text ?? null, want?.text ?? null, `${group.name} ${language}/${countryLine} ${i}`);
            if (!isParts(a)) t.deepEqual(foreignRecordResult(r), foreignResult(a));
          }
        }
        if (isParts(a)) italian++;
        else foreign++;
      }
    }
  }
  t.true(italian > 20, `${italian}`);
  t.true(foreign > 200, `${foreign}`);
});

test("the countries' fold of an ASCII text is the core's, and a text beyond ASCII is the core's own", (t) => {
  // every string of up to three characters of a tricky alphabet, then longer ones drawn at random
  const alphabet = ['a', 'Z', '0', ' ', '-', ',', '.', '(', '\t', '\n', '\u0001', '_', "'", 'é'];
  const texts: string[] = [''];
  for (let n = 0; n < 3; n++) for (const s of texts.filter((x) => x.length === n)) for (const c of alphabet) texts.push(s + c);
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let i = 0; i < 2_000; i++) texts.push(Array.from({ length: next() % 24 }, () => String.fromCharCode(next() % 128)).join(''));
  texts.push('75001 Paris, France', 'Rue de Rivoli 99', '  Zürich ', 'ÅLESUND', 'Straße');
  for (const text of texts) t.is(fold(text), native.foldText(text), JSON.stringify(text));
});
