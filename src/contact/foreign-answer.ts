/**
 * A foreign address's finished answer for a synchronous batch, written from the core's parts
 * (`ForeignParts`, `foreign::answer_text` in crates/core) as text: the text `JSON.stringify` gives for
 * `finishResult(present(result))` (service.ts), without parsing the core's JSON into objects, copying
 * them to present them and writing them out again (issue 30: with detected and named rows answered
 * abroad, that was most of the service's own cost of a foreign batch). What depends on the request is
 * put into the cuts: the outcome without `FOREIGN` for clients other than Italian ones, the country's
 * name (or envelope line with `postal_form`), the envelope's country line and lines, the message, the
 * outcome's label and reason. `null` where `present` would not find the country by its code: the
 * caller then presents the result read whole.
 */
import type { CountryEntry } from '../countries/catalogue.js';
import { countryByCode } from '../countries/resolve.js';
import { attributionIn } from '../http/attribution.js';
import type { Language } from '../http/language.js';
import { labelOf, reasonOf, type OutcomeTable } from '../http/outcomes.js';
import { KEPT, ResultText } from '../http/result-text.js';
import type { ForeignParts } from './answer.js';
import { FORM_ONLY, FORM_ONLY_REASON, MAP_CHECKED, REGISTER_CHECKED, REGISTER_VERIFIED, verifiedOutcome } from './texts.js';

/** A bounded memo: answers repeat a few countries, outcomes and registers. Emptied when full. */
const MEMO_CAP = 10_000;
function remembered<T>(memo: Map<string, T>, key: string, make: () => T): T {
  let v = memo.get(key);
  if (v === undefined) {
    v = make();
    if (memo.size >= MEMO_CAP) memo.clear();
    memo.set(key, v);
  }
  return v;
}

/** The country's name in the language and its envelope line, as JSON values (`present`'s `name` and `line`). */
interface CountryTexts {
  name: string;
  line: string;
  /** The envelope's lines when the core wrote none: `,"lines":[line]`. */
  lineAlone: string;
  /** The end of the envelope's lines after the core's: `,line]`. */
  lineLast: string;
}
const countries = new Map<string, CountryTexts | null>();

function countryTexts(code: string, language: Language, countryLine: Language, coreName: string): CountryTexts | null {
  return remembered(countries, `${code}|${language}|${countryLine}|${coreName}`, () => {
    const country: CountryEntry | undefined = countryByCode(code);
    // `present` rewrites normalized.country_code to the catalogue's code: the text keeps the core's
    if (!country || country.iso2 !== code) return null;
    const name = country.names[language] ?? (JSON.parse(coreName) as string);
    const line = JSON.stringify((country.names[countryLine] ?? name).toUpperCase());
    return { name: JSON.stringify(name), line, lineAlone: `${LINES}[${line}]`, lineLast: `,${line}]` };
  });
}

/** The outcome without what the language leaves out, as JSON, and its label and reason (`finishResult`, or the form-only ones of `present`). */
interface Finish {
  outcome: string;
  /** `,"outcome_label":…,"reason":…` */
  end: string;
}
const finishes = new Map<string, Finish>();

function finishOf(codes: string, language: Language, formOnly: boolean, table: OutcomeTable): Finish {
  return remembered(finishes, `${language}|${formOnly ? 1 : 0}|${codes}`, () => {
    const all = codes === '' ? [] : codes.split(',');
    const foreignless = all.filter((c) => c !== 'FOREIGN');
    // FOREIGN leads the outcome for Italian clients only (spec rule 6)
    const outcome = language === 'it' ? all : foreignless;
    let label: string;
    let reason: string;
    if (formOnly) {
      // only the form was worked: at least a warning, and the reason says so before the codes' own
      label = labelOf(all, table) === 'error' ? 'error' : 'warning';
      reason = foreignless.length ? `${FORM_ONLY_REASON[language]}; ${reasonOf(foreignless, language, table)}` : FORM_ONLY_REASON[language];
    } else {
      label = labelOf(outcome, table);
      reason = reasonOf(outcome, language, table);
    }
    return { outcome: JSON.stringify(outcome), end: `,"outcome_label":${JSON.stringify(label)},"reason":${JSON.stringify(reason)}` };
  });
}

/** `,"message":…` as `present` writes it. */
const messages = new Map<string, string>();

function messageOf(p: ForeignHead, language: Language): string {
  return remembered(messages, `${language}|${p.foreignCodes}|${p.verifiedIn}|${p.attribution}`, () => {
    let message: string;
    if (p.verifiedIn) {
      // OpenStreetMap stands in where a country publishes no register (the core names such registers "OpenStreetMap…")
      const codes = p.foreignCodes === '' ? [] : p.foreignCodes.split(',');
      const head = p.verifiedIn.startsWith('OpenStreetMap') ? MAP_CHECKED : verifiedOutcome(codes) ? REGISTER_VERIFIED : REGISTER_CHECKED;
      message = `${head[language]} (${p.verifiedIn}). ${attributionIn(p.attribution, language)}.`;
    } else {
      message = FORM_ONLY[language];
    }
    return `,"message":${JSON.stringify(message)}`;
  });
}

/** The key of the envelope's lines. */
const LINES = ',"lines":';

/** A foreign record's fields other than its slices (`ForeignParts` without `slices`). */
export type ForeignHead = Omit<ForeignParts, 'slices'>;

/**
 * Where a foreign answer is written: the core's twelve slices by number (as text or as bytes) and the request's
 * texts between them (each one of a few remembered strings: `answer-bytes.ts` keeps their bytes by them).
 */
export interface ForeignOut {
  /** Slice `k`; `open`: without its last character (the `]` of the envelope's lines). */
  slice(k: number, open?: boolean): void;
  empty(k: number): boolean;
  text(text: string): void;
}

/**
 * The finished answer without its closing brace (as `answerText`'s) written to `out`, or false (nothing written)
 * where `present` would not find the country by its code: see the module.
 */
export function writeForeignAnswer(p: ForeignHead, coreName: string, out: ForeignOut, language: Language, postalForm: boolean, countryLine: Language, table: OutcomeTable): boolean {
  const country = countryTexts(p.code, language, countryLine, coreName);
  if (country === null) return false;
  const postal = !out.empty(5);
  const finish = finishOf(p.foreignCodes, language, !p.verifiedIn && postal, table);
  out.slice(0);
  out.text(finish.outcome);
  out.slice(2);
  out.text(postalForm ? country.line : country.name);
  out.slice(4);
  if (postal) {
    // the envelope: its lines in the country's order, then the country line
    out.text(country.line);
    out.slice(6);
    if (out.empty(9)) {
      out.text(country.lineAlone);
    } else {
      out.text(LINES);
      out.slice(9, true);
      out.text(country.lineLast);
    }
  }
  out.slice(7);
  out.slice(10);
  out.text(messageOf(p, language));
  out.text(finish.end);
  return true;
}

/** A foreign answer written as one string. */
class TextOut implements ForeignOut {
  written = '';
  constructor(private readonly slices: string[]) {}
  slice(k: number, open = false): void {
    const s = this.slices[k]!;
    this.written += open ? s.slice(0, -1) : s;
  }
  empty(k: number): boolean {
    return this.slices[k] === '';
  }
  text(text: string): void {
    this.written += text;
  }
}

// one kept for the life of the process (see `KEPT` in result-text.ts)
KEPT.push(new TextOut([]));

/** The finished answer's text without its closing brace (as `answerText`'s), or null: see the module. */
export function foreignAnswerText(p: ForeignParts, language: Language, postalForm: boolean, countryLine: Language, table: OutcomeTable): ResultText | null {
  const out = new TextOut(p.slices);
  return writeForeignAnswer(p, p.slices[3]!, out, language, postalForm, countryLine, table) ? new ResultText(out.written) : null;
}
