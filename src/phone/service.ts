import parsePhoneNumber, { type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';

import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { outcomeTable } from '../http/outcomes.js';
import { say, type Language } from '../http/language.js';
import { contactData, type ContactData } from '../import/contact-store.js';
import { PHONE_OUTCOMES } from './outcomes.js';
import { recordCountry } from './country.js';
import { PHONE_COMMENTS } from './messages.js';
import { districtOf, operatorOf, specialNumber, typeFromLibrary, type PhoneType } from './italy.js';
import { phoneItem, phoneResult, type PhoneItem } from './schema.js';
import { splitPhoneField } from './split.js';

export type PhoneClass = 'mobile' | 'landline' | 'special' | 'foreign';

/** What the service found about one number. */
export interface PhoneNumberResult {
  phone: string;
  class?: PhoneClass;
  type?: PhoneType;
  district?: string;
  operator?: string;
  e164?: string;
  country_code?: string;
  country_prefix?: string;
  national_number?: string;
  outcome: string[];
  form_changed: boolean;
}

/** Numbering plans read as Italy's: the Vatican shares +39 and the 06 698 block. */
const ITALIAN_PLAN = new Set<string>(['IT', 'VA']);

/**
 * The plan's reading of one text, kept for the few texts of the item being verified: the split tries a
 * candidate (parse + isValid, the costly part of a call) and the analysis then reads the same number again.
 * Small on purpose: it spares the repeats within a call, it is no cache of numbers across calls.
 */
const recent = new Map<string, { pn: PhoneNumber | undefined; valid?: boolean }>();
const RECENT_MAX = 32;

function reading(text: string, country: CountryCode): { pn: PhoneNumber | undefined; valid?: boolean } {
  const key = `${country}|${text}`;
  let r = recent.get(key);
  if (!r) {
    let pn: PhoneNumber | undefined;
    try {
      pn = parsePhoneNumber(text, country);
    } catch {
      pn = undefined;
    }
    if (recent.size >= RECENT_MAX) recent.clear();
    r = { pn };
    recent.set(key, r);
  }
  return r;
}

function parse(text: string, country: CountryCode): PhoneNumber | undefined {
  return reading(text, country).pn;
}

function isValid(text: string, country: CountryCode): boolean {
  const r = reading(text, country);
  r.valid ??= r.pn?.isValid() ?? false;
  return r.valid;
}

/** A number written with 00 or + is international; 39 written without the plus is Italy's code when nothing else fits. */
function readDigits(raw: string, home: CountryCode): { text: string; international: boolean } {
  let text = raw.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  if (text.startsWith('00')) text = '+' + text.slice(2);
  if (!text.startsWith('+') && home === 'IT' && text.startsWith('39') && text.length >= 8) {
    const rest = text.slice(2);
    if (!isValid(text, 'IT') && isValid(rest, 'IT')) text = '+39' + rest;
  }
  return { text, international: text.startsWith('+') };
}

function formatted(pn: PhoneNumber, home: CountryCode, format: 'national' | 'international'): string {
  const own = pn.country === home || (ITALIAN_PLAN.has(home) && ITALIAN_PLAN.has(pn.country ?? ''));
  if (format === 'national' && own) return nationalDigits(pn);
  return `+${pn.countryCallingCode} ${pn.nationalNumber}`;
}

/** The number as dialled inside its country, trunk prefix included (030…, 0212…), digits only. */
function nationalDigits(pn: PhoneNumber): string {
  // Italy has no trunk prefix: its leading 0 is part of the number, and formatting is the costly part
  if (pn.countryCallingCode === '39') return pn.nationalNumber;
  return pn.formatNational().replace(/\D/g, '');
}

export function analyseNumber(
  raw: string,
  home: CountryCode,
  format: 'national' | 'international',
  data: ContactData,
): PhoneNumberResult {
  const { text, international } = readDigits(raw, home);
  const digits = text.replace(/\D/g, '');
  const italianHome = ITALIAN_PLAN.has(home);
  const written = raw.trim();

  if (digits.length < 3) return { phone: written || digits, outcome: ['PHONE_INVALID'], form_changed: false };

  let pn = parse(text, home);
  let valid = isValid(text, home);
  // Italian short public-utility codes and special numbers the library does not validate
  if (!international && italianHome) {
    const special = specialNumber(data, digits);
    if (special && !valid) {
      const service = special.type === 'public utility';
      return {
        phone: digits,
        class: 'special',
        ...(special.type ? { type: special.type } : {}),
        national_number: digits,
        outcome: [service ? 'PHONE_SERVICE' : 'PHONE_SPECIAL'],
        form_changed: digits !== written,
      };
    }
  }

  // a trunk zero written after the country code (+44 (0)20…) belongs to the national form only
  if (international && pn && !valid) {
    const m = /^\+(\d{1,3}?)0(\d+)$/.exec(text);
    if (m) {
      const retry = parse(`+${m[1]}${m[2]}`, home);
      if (retry?.isValid() && !ITALIAN_PLAN.has(retry.country ?? '')) [pn, valid] = [retry, true];
    }
  }
  if (!pn) return { phone: digits, outcome: ['PHONE_INVALID'], form_changed: digits !== written };

  const country = pn.country;
  const italian = ITALIAN_PLAN.has(country ?? '') || (pn.countryCallingCode === '39' && !country);
  const own = country === home || (italian && italianHome);
  const phone = formatted(pn, home, format);
  const base = {
    phone,
    e164: pn.number,
    // the space in "+49 301234567" is layout, not a change
    form_changed: phone.replace(/ /g, '') !== written,
  };

  if (!valid) {
    const national = italian ? pn.nationalNumber : '';
    let code = 'PHONE_INVALID';
    if (italian) code = /^[03]/.test(national) ? 'PHONE_LENGTH_ANOMALOUS' : 'PHONE_OUT_OF_PLAN';
    else if (pn.isPossible() === false) code = 'PHONE_LENGTH_ANOMALOUS';
    return {
      phone: international ? text : digits,
      ...(italian ? {} : { country_code: country, country_prefix: `+${pn.countryCallingCode}` }),
      outcome: italian ? [code] : ['PHONE_FOREIGN', code],
      form_changed: (international ? text : digits) !== written,
    };
  }

  const libType = pn.getType();
  const type = typeFromLibrary(libType);
  let cls: PhoneClass;
  if (!own) cls = 'foreign';
  else if (type || libType === 'UAN' || libType === 'PERSONAL_NUMBER' || libType === 'VOIP') cls = 'special';
  else if (libType === 'MOBILE') cls = 'mobile';
  else cls = 'landline';

  const result: PhoneNumberResult = { ...base, class: cls, outcome: [] };
  if (type) result.type = type;
  if (italian) {
    const national = pn.nationalNumber;
    if (libType === 'MOBILE') {
      const operator = operatorOf(data, national);
      if (operator) result.operator = operator;
    } else if (libType === 'FIXED_LINE' || libType === 'FIXED_LINE_OR_MOBILE') {
      const district = districtOf(data, national);
      if (district) result.district = district;
    }
  } else {
    result.outcome.push('PHONE_FOREIGN');
    if (country) result.country_code = country;
    result.country_prefix = `+${pn.countryCallingCode}`;
  }
  // the national significant number as libphonenumber defines it: no trunk prefix (German 030 1234567 → 301234567);
  // Italy's leading 0 is part of its numbers, not a trunk prefix
  if (own) result.national_number = pn.nationalNumber;
  if (type === 'toll-free' || type === 'premium rate' || type === 'shared cost' || libType === 'PERSONAL_NUMBER' || libType === 'UAN')
    result.outcome.push('PHONE_SPECIAL');
  return result;
}

/** Row outcome: conditions in order of first appearance, then MODIFIED PHONE_FORM when any number was rewritten. */
function rowOutcome(numbers: PhoneNumberResult[], withExtension: boolean, split: boolean): string[] {
  const conditions: string[] = [];
  for (const n of numbers) for (const c of n.outcome) if (!conditions.includes(c)) conditions.push(c);
  if (withExtension) conditions.push('PHONE_WITH_EXTENSION');
  const changed = split || numbers.some((n) => n.form_changed);
  return changed ? [...conditions, 'MODIFIED', 'PHONE_FORM'] : conditions;
}

const completeFor = (home: CountryCode) => (digits: string) => {
  const { text } = readDigits(digits, home);
  return isValid(text, home);
};

/**
 * The field split into numbers, once per item: billing (`countNumbers`, before the charge) and the
 * verification read the same split, and the split runs the numbering plan (the costly part of a call).
 */
const splits = new WeakMap<PhoneItem, { resolved: CountryCode | undefined; split: ReturnType<typeof splitPhoneField> }>();

function splitOf(item: PhoneItem, field: string): { resolved: CountryCode | undefined; split: ReturnType<typeof splitPhoneField> } {
  let known = splits.get(item);
  if (!known) {
    const resolved = recordCountry(item.country_code, item.country);
    known = { resolved, split: splitPhoneField(field, completeFor(resolved ?? 'IT')) };
    splits.set(item, known);
  }
  return known;
}

export function verifyPhone(item: PhoneItem, data: ContactData, language: Language): ItemResult {
  const field = item.phone?.trim() ?? '';
  const { resolved, split } = field ? splitOf(item, field) : { resolved: recordCountry(item.country_code, item.country), split: undefined };
  const home = resolved ?? 'IT';
  const comments: string[] = [];
  if (!resolved && (item.country_code?.trim() || item.country?.trim())) comments.push(say(PHONE_COMMENTS.country_not_recognised, language));
  const format = item.format ?? 'national';
  if (!field || !split) return { ok: false, phone: '', outcome: ['PHONE_EMPTY'] };

  if (split.numbers.length === 0) {
    return { ok: false, phone: field, outcome: ['PHONE_INVALID'], ...(split.note ? { note: split.note } : {}) };
  }
  const numbers = split.numbers.map((n) => analyseNumber(n, home, format, data));
  const first = numbers[0]!;
  const outcome = rowOutcome(numbers, Boolean(split.extension || split.note), numbers.length > 1);
  const result: ItemResult = {
    ok: !first.outcome.some((c) => c === 'PHONE_INVALID' || c === 'PHONE_LENGTH_ANOMALOUS' || c === 'PHONE_OUT_OF_PLAN'),
    phone: first.phone,
    ...(numbers[1] ? { phone2: numbers[1].phone } : {}),
    ...(numbers[2] ? { phone3: numbers[2].phone } : {}),
    ...describe(first),
    ...(split.extension ? { extension: split.extension } : {}),
    ...(split.note ? { note: split.note } : {}),
    outcome,
  };
  if (numbers.length > 1) {
    result.numbers = numbers.map((n) => ({ ...describe(n), phone: n.phone, outcome: n.outcome }));
  }
  if (split.dropped > 0) comments.push(say(PHONE_COMMENTS.numbers_dropped, language, { count: split.dropped }));
  if (comments.length) result.comments = comments;
  return result;
}

function describe(n: PhoneNumberResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['class', 'type', 'district', 'operator', 'e164', 'country_code', 'country_prefix', 'national_number'] as const) {
    if (n[key] !== undefined) out[key] = n[key];
  }
  return out;
}

/** Numbers a field holds (billing units): the same split the verification uses, at most 3. */
export function countNumbers(item: PhoneItem): number {
  const field = item.phone?.trim() ?? '';
  if (!field) return 0;
  return splitOf(item, field).split.numbers.length;
}

const OUTCOMES = outcomeTable(PHONE_OUTCOMES);

export const capability: Capability<PhoneItem> = {
  name: 'phone',
  paths: ['/api/v1/phone', '/api/v1/telefono'],
  outcomes: OUTCOMES,
  counter: 'light',
  batchCap: 5000,
  asyncAllowed: true,
  item: phoneItem,
  batchOptions: ['format', 'country_code', 'country'],
  units: countNumbers,
  async process(items: PhoneItem[], ctx: ProcessContext): Promise<ItemResult[]> {
    const data = contactData(ctx.dataDir);
    return items.map((item) => {
      try {
        return verifyPhone(item, data, ctx.language);
      } catch {
        return { ok: false, phone: item.phone ?? '', outcome: ['PHONE_INVALID'] };
      }
    });
  },
  result: phoneResult,
  csvColumns: [
    'id', 'phone', 'phone2', 'phone3', 'class', 'type', 'district', 'operator', 'e164', 'country_code',
    'national_number', 'extension', 'outcome', 'outcome_label', 'reason',
  ],
};
