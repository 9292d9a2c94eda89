import { countryByCode, countryNamedIn, resolveCountry, withoutCountryName } from '../countries/resolve.js';
import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { attributionIn } from '../http/attribution.js';
import { labelOf, outcomeTable, reasonOf } from '../http/outcomes.js';
import type { Language } from '../http/language.js';
import type { ResultText } from '../http/result-text.js';
import { verifyContactAnswerBytes, verifyContactAnswers, type ContactInput, type ContactResult, type VerifyOptions } from '../native.js';
import { answerBytes, foreignRecordResult, readAnswerBytes } from './answer-bytes.js';
import { answerText, foreignResult, isForeignParts, isParts, presentedObject, readAnswers, type CoreAnswer } from './answer.js';
import { foreignAnswerText } from './foreign-answer.js';
import { CONTACT_OUTCOMES } from './outcomes.js';
import { CONTACT_BATCH_OPTIONS, contactItem, contactResult, type ContactItem } from './schema.js';
import { CITY_TYPE, FORM_ONLY, FORM_ONLY_REASON, MAP_CHECKED, REGISTER_CHECKED, REGISTER_VERIFIED, verifiedOutcome } from './texts.js';
import { optionsKey, verifyInTurn } from './turn-batch.js';

function blank(s: string | undefined): boolean {
  return s === undefined || s.trim() === '';
}

/**
 * The core's input: the country resolved here, by the owner of country names
 * (`src/countries/resolve.ts`); the core reads only the ISO alpha-2 code (`address/country.rs`).
 */
export function nativeContact(item: ContactItem): ContactInput {
  const { id: _id, foreign: _f, postal_form: _p, preserve_original: _o, precision: _r, debug: _d, ...fields } = item;
  let out: ContactInput = { ...fields };
  const written = blank(item.country_code) ? item.country : item.country_code;
  if (!blank(written)) {
    const country = resolveCountry(written);
    out.country_code = country?.iso2 ?? '';
    out.country = country ? country.iso2 : written;
    // `…, 75001 Paris, France` with country FR: the country line is not part of the place
    if (country && country.iso2 !== 'IT') out = withoutCountryName(out, country.iso2, true);
  } else if (item.foreign === 'detect') {
    const named = countryNamedIn(item.city, item.address);
    if (named) {
      out.country_named = named.iso2;
      if (named.iso2 !== 'IT') out = withoutCountryName(out, named.iso2, false);
    }
  }
  return out;
}

export function nativeOptions(item: ContactItem): Required<VerifyOptions> {
  return {
    precision: item.precision ?? 3,
    preserve_original: item.preserve_original ?? false,
    postal_form: item.postal_form ?? false,
    foreign: item.foreign ?? 'declared',
    debug: item.debug ?? false,
  };
}

/**
 * A foreign address's result in the request language: the country's name, the envelope's country line,
 * the message with the foreign register's attribution. (An Italian address's answer is written by the
 * core in parts and completed in `answer.ts`.)
 */
export function present(r: ContactResult, language: Language, postalForm = false, countryLine: Language = language): ItemResult {
  const { attribution, verified_in: verifiedIn, postal_lines: postalLines, ...data } = r;
  // FOREIGN leads the outcome for Italian clients only (spec rule 6)
  const outcome = language === 'it' ? r.outcome : r.outcome.filter((c) => c !== 'FOREIGN');
  const result: ItemResult = { ...data, outcome };
  // the core answers with the ISO code the catalogue gave it: a lookup, not a second resolution
  const country = countryByCode(r.normalized.country_code);
  if (country) {
    const name = country.names[language] ?? r.normalized.country;
    // UPU: the envelope's country line in capitals, in the language of the country of origin
    // (Italian), or in the language the request names
    const line = (country.names[countryLine] ?? name).toUpperCase();
    result.normalized = { ...r.normalized, country_code: country.iso2, country: postalForm ? line : name };
    if (r.normalized_postal) {
      result.normalized_postal = { ...r.normalized_postal, country_code: country.iso2, country: line };
      (result.normalized_postal as Record<string, unknown>).lines = [...(postalLines ?? []), line];
    }
  }
  // OpenStreetMap stands in where a country publishes no register (the core names such registers "OpenStreetMap…")
  const head = verifiedIn?.startsWith('OpenStreetMap') ? MAP_CHECKED : verifiedOutcome(r.outcome) ? REGISTER_VERIFIED : REGISTER_CHECKED;
  result.message = verifiedIn ? `${head[language]} (${verifiedIn}). ${attributionIn(attribution.join('; '), language)}.` : FORM_ONLY[language];
  if (!verifiedIn && r.normalized_postal) {
    // only the form was worked: at least a warning, and the reason says so before the codes' own
    result.outcome_label = labelOf(r.outcome, OUTCOMES) === 'error' ? 'error' : 'warning';
    const codes = r.outcome.filter((c) => c !== 'FOREIGN');
    result.reason = codes.length ? `${FORM_ONLY_REASON[language]}; ${reasonOf(codes, language, OUTCOMES)}` : FORM_ONLY_REASON[language];
  }
  if (r.city_type) {
    const texts = CITY_TYPE[r.city_type.label];
    result.city_type = { provincial_capital: r.city_type.provincial_capital, label: texts ? texts[language] : null };
  }
  return result;
}

/**
 * Places (country, city and postcode as written) whose contacts this process has verified. The first
 * contact of a place may load its municipality's streets (or a foreign register's) from disk, and the
 * process's first contact loads the city names. Measured in a fresh process on the test register, 11,200
 * single calls over 394 municipalities written 32 ways: first loads took up to 76 ms of CPU (186 ms wall
 * under load). Such a contact goes to the pool alone, so that the batch of its turn (`turn-batch.ts`) does
 * not wait for the load; a warm contact takes 20–300 µs. Capped: past the cap, new places keep going alone.
 */
const warmPlaces = new Set<string>();
const WARM_PLACES_CAP = 50_000;

/** The place of a contact as written, or null when it names none apart from the address line. */
function placeOf(item: ContactItem): string | null {
  if (blank(item.city) && blank(item.postcode)) return null;
  return `${item.country_code ?? ''}|${item.country ?? ''}|${item.city ?? ''}|${item.postcode ?? ''}`.toLowerCase();
}

/**
 * One contact, off the event loop: a known place joins the batch of the contacts of the same event-loop
 * turn and options (one hand-off to the pool for all of them, issue 14), a place seen for the first time
 * goes alone (`warmPlaces`). The answer in parts (`answer.ts`), or whole for a foreign address.
 */
function verifyOne(item: ContactItem, options: Required<VerifyOptions>): Promise<CoreAnswer> {
  const input = nativeContact(item);
  const place = placeOf(item);
  if (place !== null && warmPlaces.has(place)) return verifyInTurn(input, options);
  return verifyContactAnswers({ items: [input], options }).then((text) => {
    if (place !== null && warmPlaces.size < WARM_PLACES_CAP) warmPlaces.add(place);
    return readAnswers(text)[0] as CoreAnswer;
  });
}

/** A core's answer as `run` gives objects (a batch's, a job's, suggest's): the presented object, unfinished. */
function presented(r: CoreAnswer, language: Language, postalForm: boolean, countryLine: Language): ItemResult {
  return isParts(r) ? presentedObject(r, language) : present(foreignResult(r), language, postalForm, countryLine);
}

/**
 * A core's answer shaped for the caller: with `text`, an Italian address as finished text (`answerText`: the
 * single call's measured speed, issue 14) and a foreign one too (`foreignAnswerText`: issue 30's throughput),
 * save where the catalogue lacks the country's code; else the presented object. A function of the module, not
 * a closure made per request: V8 holds a function's optimised code only weakly once the closures that ran it
 * are gone, so a closure made per request and called for every item was optimised again, inlining what it
 * calls, in request after request (issue 30: 40–80 M instructions of the optimising compiler per batch of 500,
 * `bench/foreign-service-cost.ts` with a collection before each request).
 */
function shaped(r: CoreAnswer, options: Required<VerifyOptions>, language: Language, countryLine: Language, text: boolean): ItemResult | ResultText {
  if (!text) return presented(r, language, options.postal_form, countryLine);
  if (isParts(r)) return answerText(r, language, OUTCOMES);
  return (isForeignParts(r) ? foreignAnswerText(r, language, options.postal_form, countryLine, OUTCOMES) : null) ?? present(foreignResult(r), language, options.postal_form, countryLine);
}

/**
 * The one way into contact verification (single, batch, job, suggest): one contact alone goes by `verifyOne`
 * (the turn's batch, or the pool for a place seen first), more by `verifyBatch`. Objects, or with `'text'`
 * finished text (`shaped`). Not an async function: the turn batch's own promise is handed on, without one
 * more promise and tick per call.
 */
function runContacts(items: ContactItem[], ctx: ProcessContext, form?: 'text'): Promise<(ItemResult | ResultText)[]> {
  const language = ctx.language;
  const countryLine = countryLineOf(ctx);
  const text = form === 'text';
  if (items.length === 1) {
    const item = items[0] as ContactItem;
    const options = nativeOptions(item);
    return verifyOne(item, options).then((r) => [shaped(r, options, language, countryLine, text)]);
  }
  return verifyBatch(items, language, countryLine, text);
}

/**
 * The core's answers of a batch, each shaped (`shaped`): one call to the core per set of options, in request
 * order. Plain loops, no closure per request called for every item (see `shaped`).
 */
async function verifyBatch(items: ContactItem[], language: Language, countryLine: Language, text: boolean): Promise<(ItemResult | ResultText)[]> {
  const groups = new Map<string, { options: Required<VerifyOptions>; at: number[] }>();
  for (let i = 0; i < items.length; i++) {
    const options = nativeOptions(items[i] as ContactItem);
    const key = optionsKey(options);
    let g = groups.get(key);
    if (g === undefined) {
      g = { options, at: [] };
      groups.set(key, g);
    }
    g.at.push(i);
  }
  const results = new Array<ItemResult | ResultText>(items.length);
  for (const { options, at } of groups.values()) {
    const inputs = new Array<ContactInput>(at.length);
    for (let k = 0; k < at.length; k++) inputs[k] = nativeContact(items[at[k] as number] as ContactItem);
    if (text) {
      // a synchronous batch: its answers are sent as bytes (`answer-bytes.ts`)
      const records = readAnswerBytes(await verifyContactAnswerBytes({ items: inputs, options }));
      for (let k = 0; k < records.length; k++) {
        const r = records[k]!;
        results[at[k] as number] = answerBytes(r, language, options.postal_form, countryLine, OUTCOMES) ?? present(foreignRecordResult(r), language, options.postal_form, countryLine);
      }
      continue;
    }
    const out = readAnswers(await verifyContactAnswers({ items: inputs, options }));
    for (let k = 0; k < out.length; k++) results[at[k] as number] = shaped(out[k] as CoreAnswer, options, language, countryLine, text);
  }
  return results;
}

/**
 * UPU: the country line in the language of the country of origin (Italian) or in a language known
 * internationally (English, French): the answer's own language when it is one of these, else English — never
 * a language other than the answer's where the answer's will do (docs/foreign.md).
 */
const ENVELOPE_LANGUAGES: ReadonlySet<Language> = new Set(['it', 'en', 'fr']);

function countryLineOf(ctx: ProcessContext): Language {
  return ENVELOPE_LANGUAGES.has(ctx.language) ? ctx.language : 'en';
}

/** What a contact's `outcome` can say (its `tax_code_outcome` holds the tax code's codes, mapped by key). */
const OUTCOMES = outcomeTable(CONTACT_OUTCOMES);

export const capability: Capability<ContactItem> = {
  name: 'contact',
  paths: ['/api/v1/contact', '/api/v1/contatto'],
  outcomes: OUTCOMES,
  counter: 'contact',
  batchCap: 500,
  asyncAllowed: true,
  item: contactItem,
  result: contactResult,
  batchOptions: CONTACT_BATCH_OPTIONS,
  units: () => 1,
  run: runContacts as Capability<ContactItem>['run'],
  textAnswers: true,
  csvColumns: [
    'address=normalized.address',
    'postcode=normalized.postcode',
    'city=normalized.city',
    'province=normalized.province',
    'country=normalized.country',
    'country_code=normalized.country_code',
    'municipality',
    'district',
    'address_key',
    'latitude=geo.lat',
    'longitude=geo.lon',
    'geo_precision=geo.precision',
    'geo_source=geo.source',
    'geo_dataset=geo.dataset',
    'istat_code=territory.istat_code',
    'cadastral_code=territory.cadastral_code',
    'street_id=territory.street_id',
    'postcode_confirmed=postcode_check.confirmed',
    'care_of',
    'tax_code',
    'tax_code_outcome',
  ],
};
