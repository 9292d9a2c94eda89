/**
 * An Italian address's answer as text: the core writes each result's JSON in parts (`address::answer` in
 * crates/core), cut where the request language's texts go, and this module puts them in: the country's
 * name, the city type's label, the message's head, and for a single call the outcome's label and reason.
 * So a single call answers without parsing the core's JSON into objects, copying them to present them and
 * writing them out again (issue 14); a batch or a job reads the text as the object it answers. A foreign
 * address comes in parts of its own (`ForeignParts`): a batch's answer is written from them by
 * `foreign-answer.ts`, anything else reads them whole and presents them with `present` (service.ts).
 */
import type { ItemResult } from '../http/capability.js';
import { labelOf, reasonOf, type OutcomeTable } from '../http/outcomes.js';
import { attributionIn } from '../http/attribution.js';
import { latin1Json, ResultText } from '../http/result-text.js';
import { LANGUAGES, type Language } from '../http/language.js';
import type { ContactResult } from '../native.js';
import { CHECKED, CITY_TYPE, italyEntry, VERIFIED, verifiedOutcome } from './texts.js';

/** Ends every field of the core's records (`address::answer::FIELD`). */
const FIELD = '\u0001';
/** Fields per record. */
const FIELDS = 7;

/** One result of the core, cut where the language's texts go (the record's fields, in order). */
export interface AnswerParts {
  /** The outcome codes joined by commas. */
  codes: string;
  /** The city type's label key (`provincial_capital`, `municipality`…), empty without a city type. */
  cityType: string;
  /** The JSON text up to `normalized.country`'s value. */
  head: string;
  /** From after the country's name up to `city_type.label`'s value, or to the end. */
  middle: string;
  /** After the label, or nothing. */
  rest: string;
  /** The message after its head, as JSON string content (the attribution lines). */
  message: string;
}

/**
 * A foreign address's result in parts (`foreign::answer_text` in crates/core): its JSON text in twelve
 * consecutive slices, cut where `foreign-answer.ts` puts in what depends on the request.
 */
export interface ForeignParts {
  /** The outcome codes joined by commas. */
  foreignCodes: string;
  /** `normalized.country_code` as the core wrote it. */
  code: string;
  /** The register the record was verified in, or nothing. */
  verifiedIn: string;
  /** The attribution lines joined by `; `. */
  attribution: string;
  /** The result's JSON, joined: up to the outcome, the outcome, up to `normalized.country`, its value, up to `normalized_postal.country`, its value, up to the end of `normalized_postal`, up to `postal_lines`, its key, its value, up to `attribution`, the rest. */
  slices: string[];
}

/** A core's answer for one contact: its parts, a foreign address's parts, or a foreign address's whole result (for `present`). */
export type CoreAnswer = AnswerParts | ForeignParts | ContactResult;

export function isParts(a: CoreAnswer): a is AnswerParts {
  return typeof (a as AnswerParts).codes === 'string';
}

export function isForeignParts(a: CoreAnswer): a is ForeignParts {
  return typeof (a as ForeignParts).foreignCodes === 'string';
}

/** A foreign address's whole result: read from its parts, or as the core wrote it whole. */
export function foreignResult(a: ForeignParts | ContactResult): ContactResult {
  return isForeignParts(a) ? (JSON.parse(a.slices.join('')) as ContactResult) : a;
}

/** Fields of a foreign record after its kind (`foreign::answer_text`: four, then the slices). */
const FOREIGN_FIELDS = 16;

/** The records of a batch, in order. */
export function readAnswers(text: string): CoreAnswer[] {
  const f = text.split(FIELD);
  const out: CoreAnswer[] = [];
  for (let i = 0; i < f.length - 1; ) {
    const kind = f[i];
    if (kind === 'P') {
      out.push({ codes: f[i + 1]!, cityType: f[i + 2]!, head: f[i + 3]!, middle: f[i + 4]!, rest: f[i + 5]!, message: f[i + 6]! });
      i += FIELDS;
    } else if (kind === 'F') {
      out.push({ foreignCodes: f[i + 1]!, code: f[i + 2]!, verifiedIn: f[i + 3]!, attribution: f[i + 4]!, slices: f.slice(i + 5, i + 1 + FOREIGN_FIELDS) });
      i += 1 + FOREIGN_FIELDS;
    } else {
      out.push(JSON.parse(f[i + 1]!) as ContactResult);
      i += FIELDS;
    }
  }
  return out;
}

/** The texts of one language, as JSON (a value) or JSON string content (the message's head). */
export interface LanguageTexts {
  country: string;
  messageHead: string;
  /** The head when the outcome leaves something to check (`CHECKED`). */
  checkedHead: string;
  cityTypes: Map<string, string>;
}

function languageTexts(language: Language): LanguageTexts {
  const italy = italyEntry();
  if (!italy) throw new Error('the country catalogue has no IT');
  return {
    country: latin1Json(italy.names[language]),
    messageHead: latin1Json(VERIFIED[language]).slice(1, -1),
    checkedHead: latin1Json(CHECKED[language]).slice(1, -1),
    cityTypes: new Map(Object.entries(CITY_TYPE).map(([key, texts]) => [key, latin1Json(texts[language])])),
  };
}

let texts: Map<Language, LanguageTexts> | null = null;
export function textsOf(language: Language): LanguageTexts {
  texts ??= new Map(LANGUAGES.map((l) => [l, languageTexts(l)]));
  return texts.get(language)!;
}

/**
 * `,"outcome_label":…,"reason":…` of an outcome in a language, remembered: answers repeat a few
 * combinations of codes. Bounded; emptied when full.
 */
const finishes = new Map<string, string>();
const FINISHES_CAP = 10_000;

export function finish(codes: string, language: Language, table: OutcomeTable): string {
  const key = `${language}|${codes}`;
  let text = finishes.get(key);
  if (text === undefined) {
    const outcome = codes === '' ? [] : codes.split(',');
    text = `,"outcome_label":${latin1Json(labelOf(outcome, table))},"reason":${latin1Json(reasonOf(outcome, language, table))}`;
    if (finishes.size >= FINISHES_CAP) finishes.clear();
    finishes.set(key, text);
  }
  return text;
}

/** Whether an outcome's codes (joined by commas) leave the address verified, remembered: answers repeat a few. */
const verifiedCodes = new Map<string, boolean>();

export function verified(codes: string): boolean {
  let v = verifiedCodes.get(codes);
  if (v === undefined) {
    v = verifiedOutcome(codes === '' ? [] : codes.split(','));
    if (verifiedCodes.size >= FINISHES_CAP) verifiedCodes.clear();
    verifiedCodes.set(codes, v);
  }
  return v;
}

/** A word as JSON string content, Latin-1 as the core writes (the attribution's lead word). */
export const content = (word: string): string => latin1Json(word).slice(1, -1);

/** The presented result's text in a language, without its closing brace: the country's name, the city type's label (null for a kind without texts, as `present`), the message (verified, or only checked when the outcome leaves something to check). */
function presentedText(p: AnswerParts, language: Language): string {
  const t = textsOf(language);
  const label = p.cityType === '' ? '' : (t.cityTypes.get(p.cityType) ?? 'null');
  const head = verified(p.codes) ? t.messageHead : t.checkedHead;
  return `${p.head}${t.country}${p.middle}${label}${p.rest},"message":"${head}${attributionIn(p.message, language, content)}"`;
}

/** The single call's finished result: the presented text, then outcome_label and reason. */
export function answerText(p: AnswerParts, language: Language, table: OutcomeTable): ResultText {
  return new ResultText(presentedText(p, language) + finish(p.codes, language, table));
}

/** The result as `present` gives it, unfinished (a batch or a job finishes it in its own language). */
export function presentedObject(p: AnswerParts, language: Language): ItemResult {
  return new ResultText(presentedText(p, language)).object();
}
