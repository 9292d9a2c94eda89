/**
 * The registers' attribution lines in the answer's language. The lines are stored as the import wrote them
 * (`Fonte: ANNCSU – … , CC BY 4.0`, crates/core/src/register/import): what a licence requires — the source's
 * name, its authors, the licence — stays word for word; only the word `Fonte` that introduces it is the
 * answer's ("Source: ANNCSU – …" in English), whichever register's line it opens (Portugal's CTT too). A line
 * with its publisher's own lead word (`Bron: BAG, Kadaster`, `Lähde: Posti Oy`) stays as it is.
 */
import type { Language, Texts } from './language.js';

export const SOURCE: Texts = {
  it: 'Fonte', en: 'Source', de: 'Quelle', fr: 'Source', es: 'Fuente', nl: 'Bron', pt: 'Fonte', sv: 'Källa',
  no: 'Kilde', fi: 'Lähde', da: 'Kilde', is: 'Heimild', el: 'Πηγή',
};

export const POSTAL_FORMATS: Texts = {
  it: 'Formati postali', en: 'Postal formats', de: 'Postalische Formate', fr: 'Formats postaux', es: 'Formatos postales',
  nl: 'Postformaten', pt: 'Formatos postais', sv: 'Postformat', no: 'Postformater', fi: 'Postiosoitteiden muodot',
  da: 'Postformater', is: 'Póstsnið', el: 'Ταχυδρομικές μορφές',
};

/** A line's Italian lead word, at its start or after the `. ` or `; ` before it in a message. */
const LEAD = /(^|[.;] )(Fonte|Formati postali): /g;

/**
 * One or more attribution lines (joined by `; `, or in a message after its head) with their lead word in
 * `language`; `write` writes the word as the text around it is written (JSON string content for the core's
 * Latin-1 answers, src/contact/answer.ts).
 */
export function attributionIn(text: string, language: Language, write?: (word: string) => string): string;
export function attributionIn(text: string | null, language: Language, write?: (word: string) => string): string | null;
export function attributionIn(text: string | null, language: Language, write: (word: string) => string = (w) => w): string | null {
  if (text === null || language === 'it') return text;
  return text.replace(LEAD, (_, before: string, word: string) => `${before}${write((word === 'Fonte' ? SOURCE : POSTAL_FORMATS)[language])}: `);
}
