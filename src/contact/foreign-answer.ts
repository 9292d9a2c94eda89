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
import { ResultText } from '../http/result-text.js';
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
}
const countries = new Map<string, CountryTexts | null>();

function countryTexts(code: string, language: Language, countryLine: Language, coreName: string): CountryTexts | null {
  return remembered(countries, `${code}|${language}|${countryLine}|${coreName}`, () => {
    const country: CountryEntry | undefined = countryByCode(code);
    // `present` rewrites normalized.country_code to the catalogue's code: the text keeps the core's
    if (!country || country.iso2 !== code) return null;
    const name = country.names[language] ?? (JSON.parse(coreName) as string);
    return { name: JSON.stringify(name), line: JSON.stringify((country.names[countryLine] ?? name).toUpperCase()) };
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

function messageOf(p: ForeignParts, language: Language): string {
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

/** The finished answer's text without its closing brace (as `answerText`'s), or null: see the module. */
export function foreignAnswerText(p: ForeignParts, language: Language, postalForm: boolean, countryLine: Language, table: OutcomeTable): ResultText | null {
  const s = p.slices;
  const country = countryTexts(p.code, language, countryLine, s[3]!);
  if (country === null) return null;
  const postal = s[5] !== '';
  const finish = finishOf(p.foreignCodes, language, !p.verifiedIn && postal, table);
  let text = `${s[0]}${finish.outcome}${s[2]}${postalForm ? country.line : country.name}${s[4]}`;
  if (postal) {
    // the envelope: its lines in the country's order, then the country line
    const lines = s[9] === '' ? `[${country.line}]` : `${s[9]!.slice(0, -1)},${country.line}]`;
    text += `${country.line}${s[6]},"lines":${lines}`;
  }
  return new ResultText(`${text}${s[7]}${s[10]}${messageOf(p, language)}${finish.end}`);
}
