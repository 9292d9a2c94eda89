import type { CountryCode, NumberType, PhoneNumber } from 'libphonenumber-js/core';

import type { Capability, ItemResult, ProcessContext } from '../http/capability.js';
import { outcomeTable } from '../http/outcomes.js';
import { say, type Language } from '../http/language.js';
import { contactData, type ContactData } from '../import/contact-store.js';
import { PHONE_OUTCOMES } from './outcomes.js';
import { recordCountry } from './country.js';
import { PHONE_COMMENTS } from './messages.js';
import { districtOf, operatorOf, specialNumber, typeFromLibrary, type PhoneType } from './italy.js';
import { phoneItem, phoneResult, type PhoneItem } from './schema.js';
import { isValidOfType, readNumber, typeOf } from './plan.js';
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

/** One text read by the numbering plan: parsed once, typed (and so validated) at most once. */
interface Reading {
  pn: PhoneNumber | undefined;
  /** Set on first use: the library's type and validity, from one getType. */
  type?: NumberType;
  valid?: boolean;
}

/**
 * The plan's reading of one text, kept for the few texts of the item being verified: the split tries a
 * candidate (parse + validity, the costly part of a call) and the analysis then reads the same number again.
 * Small on purpose: it spares the repeats within a call, it is no cache of numbers across calls.
 */
const recent = new Map<string, Reading>();
const RECENT_MAX = 32;

function reading(text: string, country: CountryCode): Reading {
  const key = country + '|' + text;
  let r = recent.get(key);
  if (!r) {
    if (recent.size >= RECENT_MAX) recent.clear();
    r = { pn: readNumber(text, country) };
    recent.set(key, r);
  }
  return r;
}

/** Validity and type of a reading, computed together once (the library's isValid runs the same type match). */
function typed(r: Reading): boolean {
  if (r.valid === undefined) {
    const pn = r.pn;
    if (!pn) r.valid = false;
    else {
      r.type = typeOf(pn);
      r.valid = isValidOfType(pn, r.type);
    }
  }
  return r.valid;
}

function isValid(text: string, country: CountryCode): boolean {
  return typed(reading(text, country));
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

  let r = reading(text, home);
  let valid = typed(r);
  // Italian short public-utility codes and special numbers the library does not validate
  if (!valid && !international && italianHome) {
    const special = specialNumber(data, digits);
    if (special) {
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
  if (international && r.pn && !valid) {
    const m = /^\+(\d{1,3}?)0(\d+)$/.exec(text);
    if (m) {
      const retry = reading(`+${m[1]}${m[2]}`, home);
      if (typed(retry) && !ITALIAN_PLAN.has(retry.pn?.country ?? '')) [r, valid] = [retry, true];
    }
  }
  const pn = r.pn;
  if (!pn) return { phone: digits, outcome: ['PHONE_INVALID'], form_changed: digits !== written };

  const country = pn.country;
  const callingCode = pn.countryCallingCode;
  const italian = ITALIAN_PLAN.has(country ?? '') || (callingCode === '39' && !country);
  const own = country === home || (italian && italianHome);

  if (!valid) {
    const phone = international ? text : digits;
    if (italian) {
      const code = /^[03]/.test(pn.nationalNumber) ? 'PHONE_LENGTH_ANOMALOUS' : 'PHONE_OUT_OF_PLAN';
      return { phone, outcome: [code], form_changed: phone !== written };
    }
    const code = pn.isPossible() === false ? 'PHONE_LENGTH_ANOMALOUS' : 'PHONE_INVALID';
    return { phone, country_code: country, country_prefix: `+${callingCode}`, outcome: ['PHONE_FOREIGN', code], form_changed: phone !== written };
  }

  const phone = format === 'national' && own ? nationalDigits(pn) : `+${callingCode} ${pn.nationalNumber}`;
  const libType = r.type;
  const type = typeFromLibrary(libType);
  let cls: PhoneClass;
  if (!own) cls = 'foreign';
  else if (type || libType === 'UAN' || libType === 'PERSONAL_NUMBER' || libType === 'VOIP') cls = 'special';
  else if (libType === 'MOBILE') cls = 'mobile';
  else cls = 'landline';

  const result: PhoneNumberResult = {
    phone,
    e164: pn.number,
    // the space in "+49 301234567" is layout, not a change
    form_changed: phone.replace(/ /g, '') !== written,
    class: cls,
    outcome: [],
  };
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
    result.country_prefix = `+${callingCode}`;
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
  // keys written in the answer's order (phone, phone2, phone3, the number's facts, extension, note, outcome)
  const result: Partial<ItemResult> = {
    ok: !first.outcome.some((c) => c === 'PHONE_INVALID' || c === 'PHONE_LENGTH_ANOMALOUS' || c === 'PHONE_OUT_OF_PLAN'),
    phone: first.phone,
  };
  if (numbers[1]) result.phone2 = numbers[1].phone;
  if (numbers[2]) result.phone3 = numbers[2].phone;
  describe(first, result);
  if (split.extension) result.extension = split.extension;
  if (split.note) result.note = split.note;
  result.outcome = outcome;
  if (numbers.length > 1) {
    result.numbers = numbers.map((n) => {
      const one = describe(n, {});
      one.phone = n.phone;
      one.outcome = n.outcome;
      return one;
    });
  }
  if (split.dropped > 0) comments.push(say(PHONE_COMMENTS.numbers_dropped, language, { count: split.dropped }));
  if (comments.length) result.comments = comments;
  return result as ItemResult;
}

/** Writes the facts a number has into `out`, in the answer's key order. */
function describe(n: PhoneNumberResult, out: Record<string, unknown>): Record<string, unknown> {
  if (n.class !== undefined) out.class = n.class;
  if (n.type !== undefined) out.type = n.type;
  if (n.district !== undefined) out.district = n.district;
  if (n.operator !== undefined) out.operator = n.operator;
  if (n.e164 !== undefined) out.e164 = n.e164;
  if (n.country_code !== undefined) out.country_code = n.country_code;
  if (n.country_prefix !== undefined) out.country_prefix = n.country_prefix;
  if (n.national_number !== undefined) out.national_number = n.national_number;
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
  freshResults: true,
  units: countNumbers,
  async run(items: PhoneItem[], ctx: ProcessContext): Promise<ItemResult[]> {
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
