/**
 * libphonenumber-js's reading of a number, with its regular expressions compiled once.
 *
 * The library builds `new RegExp('^(?:' + pattern + ')$')` on every match (its `matchesEntirely`) and walks its
 * metadata arrays on every call: parsing an Italian number and typing it compiled about 25 expressions (the
 * type patterns run twice, once to tell Italy from the Vatican inside `parse` and once in `getType`). Here the
 * same steps read the same metadata through the library's own `Metadata` accessors, and each pattern is
 * compiled the first time it is used. The library stays the authority: every step below is a copy of one of
 * its functions (named in each comment), and any text outside the plain case (an IDD prefix, a national
 * prefix to strip, a calling code written without `+`) is handed to the library's parser itself.
 * `bench/phone-answers.ts` and test/phone-plan.test.ts compare the two.
 */
import { Metadata, PhoneNumber, parsePhoneNumberWithError, type CountryCode, type NumberType } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/metadata.max.json';

/** The accessors of the library's Metadata its type declarations leave out. */
interface PlanMetadata {
  selectNumberingPlan(plan: string): void;
  hasCallingCode(code: string): boolean;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
  nationalNumberPattern(): string;
  leadingDigits(): string | undefined;
  IDDPrefix(): string | undefined;
  hasTypes(): boolean;
  type(type: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
  numberingPlan: { callingCode(): string; nationalPrefixForParsing(): string | undefined };
}

const plans = new Metadata(metadata) as unknown as PlanMetadata;

/** `matchesEntirely`'s expression, compiled once per pattern (the metadata holds a few thousand). */
const whole = new Map<string, RegExp>();
function matchesEntirely(text: string, pattern: string): boolean {
  let re = whole.get(pattern);
  if (!re) whole.set(pattern, (re = new RegExp('^(?:' + pattern + ')$')));
  return re.test(text);
}

type KnownType = Exclude<NumberType, undefined>;

interface TypeRule {
  type: KnownType;
  pattern: string;
  lengths: number[] | undefined;
}

/** What `getNumberType` reads of one plan, taken from the metadata once. */
interface PlanRules {
  national: string;
  fixedLine: TypeRule | undefined;
  /** `metadata.type('MOBILE')` is defined. */
  hasMobile: boolean;
  /** The mobile pattern was dropped as a duplicate of the fixed-line one. */
  mobileAsFixed: boolean;
  mobile: TypeRule | undefined;
  /** `NON_FIXED_LINE_PHONE_TYPES`, in the library's order, those with a pattern. */
  others: TypeRule[];
  leadingDigits: RegExp | undefined;
  callingCode: string;
  /** A national prefix the library would try to strip: such numbers are read by the library. */
  nationalPrefix: boolean;
  idd: RegExp;
}

const OTHER_TYPES: KnownType[] = ['MOBILE', 'PREMIUM_RATE', 'TOLL_FREE', 'SHARED_COST', 'VOIP', 'PERSONAL_NUMBER', 'PAGER', 'UAN', 'VOICEMAIL'];

function rule(type: KnownType): TypeRule | undefined {
  const definition = plans.type(type);
  const pattern = definition?.pattern();
  return definition && pattern ? { type, pattern, lengths: definition.possibleLengths() } : undefined;
}

const rulesByPlan = new Map<string, PlanRules>();
function rulesOf(plan: string): PlanRules {
  let rules = rulesByPlan.get(plan);
  if (!rules) {
    plans.selectNumberingPlan(plan);
    const mobile = plans.type('MOBILE');
    const leading = plans.leadingDigits();
    rules = {
      national: plans.nationalNumberPattern(),
      fixedLine: rule('FIXED_LINE'),
      hasMobile: Boolean(mobile),
      mobileAsFixed: Boolean(mobile) && mobile!.pattern() === '',
      mobile: rule('MOBILE'),
      others: OTHER_TYPES.map(rule).filter((r): r is TypeRule => r !== undefined),
      // getCountryByNationalNumber: `nationalNumber.search(leadingDigits) === 0`
      leadingDigits: leading ? new RegExp(leading) : undefined,
      callingCode: plans.numberingPlan.callingCode(),
      nationalPrefix: Boolean(plans.numberingPlan.nationalPrefixForParsing()),
      // stripIddPrefix: `number.search(new RegExp(IDDPrefix)) === 0`
      idd: new RegExp(plans.IDDPrefix() as string),
    };
    rulesByPlan.set(plan, rules);
  }
  return rules;
}

/** isNumberTypeEqualTo. */
function isType(nationalNumber: string, r: TypeRule | undefined): boolean {
  if (!r) return false;
  if (r.lengths && r.lengths.indexOf(nationalNumber.length) < 0) return false;
  return matchesEntirely(nationalNumber, r.pattern);
}

/**
 * The last number typed: telling Italy from the Vatican types an Italian number in Italy's plan, and `getType`
 * then asks for the very same type (one entry, the number being read: no memory of numbers across calls).
 */
let last = { nationalNumber: '', plan: '', type: undefined as NumberType | undefined };

/** getNumberType: the type of a national number in a plan (a country, or a calling code for its main country). */
export function numberType(nationalNumber: string, plan: string): NumberType | undefined {
  if (nationalNumber === last.nationalNumber && plan === last.plan) return last.type;
  const type = typeIn(nationalNumber, plan);
  last = { nationalNumber, plan, type };
  return type;
}

function typeIn(nationalNumber: string, plan: string): NumberType | undefined {
  const r = rulesOf(plan);
  if (!matchesEntirely(nationalNumber, r.national)) return undefined;
  if (isType(nationalNumber, r.fixedLine)) {
    if (r.mobileAsFixed || !r.hasMobile) return 'FIXED_LINE_OR_MOBILE';
    return isType(nationalNumber, r.mobile) ? 'FIXED_LINE_OR_MOBILE' : 'FIXED_LINE';
  }
  for (const other of r.others) if (isType(nationalNumber, other)) return other.type;
  return undefined;
}

/** A number's type as `PhoneNumber.getType()` gives it. */
export function typeOf(pn: PhoneNumber): NumberType | undefined {
  const plan = pn.country || pn.countryCallingCode;
  return plan ? numberType(pn.nationalNumber, plan) : undefined;
}

/** getCountryByCallingCode / getCountryByNationalNumber: the first country of the code the number belongs to. */
function countryOf(callingCode: string, nationalNumber: string): string | undefined {
  const countries = plans.getCountryCodesForCallingCode(callingCode);
  if (!countries) return undefined;
  if (countries.length === 1) return countries[0];
  for (const country of countries) {
    const leading = rulesOf(country).leadingDigits;
    if (leading) {
      if (nationalNumber.search(leading) === 0) return country;
    } else if (numberType(nationalNumber, country)) return country;
  }
  return undefined;
}

/** parse()'s bounds on a national (significant) number: MIN_LENGTH_FOR_NSN, MAX_LENGTH_FOR_NSN. */
const MIN_NSN = 2;
const MAX_NSN = 17;
/** extractCountryCallingCode: calling codes have at most 3 digits. */
const MAX_CALLING_CODE = 3;

/** The constructor `parse` itself calls (calling code, national number); the declarations list only the E.164 one. */
const NumberOfPlan = PhoneNumber as unknown as new (callingCode: string, nationalNumber: string, json: typeof metadata) => PhoneNumber;

function numberOf(callingCode: string, nationalNumber: string, country: string | undefined): PhoneNumber | undefined {
  if (nationalNumber.length < MIN_NSN || nationalNumber.length > MAX_NSN) return undefined;
  const pn = new NumberOfPlan(callingCode, nationalNumber, metadata);
  if (country) pn.country = country as CountryCode;
  return pn;
}

/**
 * The plain cases of `parsePhoneNumberWithError(text, { defaultCountry, extract: false })`: undefined where the
 * library throws, null where the text is not plain enough to be read here.
 */
export function readPlain(text: string, defaultCountry: CountryCode): PhoneNumber | undefined | null {
  if (text.startsWith('+')) {
    // extractCountryCallingCode: "+0…" has no calling code; then the shortest code the metadata knows
    if (text.length < 2 || text[1] === '0') return null;
    for (let i = 2; i - 1 <= MAX_CALLING_CODE && i <= text.length; i++) {
      const code = text.slice(1, i);
      if (!plans.hasCallingCode(code)) continue;
      const countries = plans.getCountryCodesForCallingCode(code);
      // non-geographic codes (+800, +881…) and plans with a national prefix: the library
      if (!countries || rulesOf(code).nationalPrefix) return null;
      const national = text.slice(i);
      if (national.length < MIN_NSN) return undefined;
      return numberOf(code, national, countryOf(code, national));
    }
    return null;
  }
  const rules = rulesOf(defaultCountry);
  // an IDD prefix, a calling code without its +, a national prefix: the library
  if (rules.nationalPrefix || text.search(rules.idd) === 0 || text.startsWith(rules.callingCode)) return null;
  return numberOf(rules.callingCode, text, countryOf(rules.callingCode, text) ?? defaultCountry);
}

const PLAIN = /^\+?\d+$/;

/**
 * libphonenumber-js's `parsePhoneNumberWithError(text, { defaultCountry, extract: false })` with max metadata;
 * undefined where it throws. `text` holds digits with at most a leading +.
 */
export function readNumber(text: string, defaultCountry: CountryCode): PhoneNumber | undefined {
  let plain: PhoneNumber | undefined | null = null;
  try {
    if (PLAIN.test(text)) plain = readPlain(text, defaultCountry);
  } catch {
    // a plan the metadata does not know: the library says what that is
    plain = null;
  }
  return plain !== null ? plain : readByLibrary(text, defaultCountry);
}

/**
 * Plans whose metadata has no number-type patterns: for them the library's isValid is the national pattern alone,
 * for every other plan it is "getType() is defined". The max metadata types every plan today (the set is empty),
 * so one getType answers both validity and type; the set keeps that exact if a metadata update drops a plan's types.
 */
const PLANS_WITHOUT_TYPES: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  for (const plan of [...Object.keys(metadata.countries), ...Object.keys(metadata.nonGeographic ?? {})]) {
    plans.selectNumberingPlan(plan);
    if (!plans.hasTypes()) out.add(plan);
  }
  return out;
})();

/** The library's `isValid` of a number whose `getType` is `type`, without running the type patterns again. */
export function isValidOfType(pn: PhoneNumber, type: NumberType): boolean {
  return type !== undefined || (PLANS_WITHOUT_TYPES.has(pn.country ?? pn.countryCallingCode) && pn.isValid());
}

/** The library's own parser: the texts `readPlain` leaves to it, and the tests that compare the two readings. */
export function readByLibrary(text: string, defaultCountry: CountryCode): PhoneNumber | undefined {
  try {
    return parsePhoneNumberWithError(text, { defaultCountry, extract: false }, metadata);
  } catch {
    // not a number in this plan (too short, too long, no country): no reading
    return undefined;
  }
}
