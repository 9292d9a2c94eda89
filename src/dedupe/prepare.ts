import parsePhoneNumber, { type CountryCode } from 'libphonenumber-js/max';

import { countryNamedIn, resolveCountry } from '../countries/resolve.js';
import { recordCountry } from '../phone/country.js';
import type { DedupeRecord } from './schema.js';

/**
 * Dedupe records as the core compares them. Two facts are decided here, by their one owner, before
 * the core sees a record (docs/architecture.md, "Who owns each fact"):
 * - the country: `country_code` / `country` (of the record and of each address) become ISO alpha-2
 *   through the country catalogue (`src/countries/resolve.ts`), as for `/contact`; under
 *   `foreign: detect` an address stating no country carries the country its city or the end of its
 *   line names (`country_named`), which the core reads only when the city is not Italian;
 * - the phone: every number becomes E.164 through libphonenumber-js, the library `/phone` uses, read
 *   in the record's country (Italy when it states none). A number the library cannot read stays as
 *   written and the core compares its digits.
 * The record is copied, never changed in place: saved records keep what the caller sent; the merged
 * record of a group shows the phones in E.164.
 */
export function prepareRecords(records: readonly DedupeRecord[], foreign: 'declared' | 'detect' = 'declared'): DedupeRecord[] {
  return records.map((r) => prepareRecord(r, foreign === 'detect'));
}

type Detail = string | number | { type?: string | null; value: string | number; [k: string]: unknown };
type Address = NonNullable<DedupeRecord['addresses']>[number];

const E164 = /^\+[1-9]\d{6,14}$/;
/** Raw number and country → E.164 (or the raw text when unreadable): address books repeat numbers. */
const phones = new Map<string, string>();
const PHONE_CACHE_MAX = 200_000;

/** Separators people write inside a number. */
const SEPARATORS = /[\s.\-/()]/g;
/** An Italian national number (Italy keeps its leading 0 in E.164): `+39` and the digits is its E.164 form. */
const ITALIAN_NATIONAL = /^\d{6,11}$/;

/**
 * The number in E.164 when libphonenumber can read it as a possible number, else as written.
 * Only what is not already canonical is parsed (a parse costs tens of µs): a number already in
 * E.164 but for its spacing, and an Italian national number in an Italian record, are rewritten
 * directly; the rest is parsed once per distinct (country, text).
 */
export function e164(raw: string, country: CountryCode): string {
  const text = raw.trim();
  const compact = text.replace(SEPARATORS, '');
  if (E164.test(compact)) return compact;
  if (country === 'IT' && ITALIAN_NATIONAL.test(compact) && !compact.startsWith('00')) return `+39${compact}`;
  const key = `${country}|${text}`;
  const known = phones.get(key);
  if (known !== undefined) return known;
  let out = text;
  try {
    const pn = parsePhoneNumber(text, country);
    if (pn?.isPossible()) out = pn.number;
  } catch {
    // not a phone number libphonenumber can read: the core compares its digits
  }
  if (phones.size >= PHONE_CACHE_MAX) phones.clear();
  phones.set(key, out);
  return out;
}

function phoneDetail(d: Detail, country: CountryCode): Detail {
  if (typeof d === 'object' && d !== null) return typeof d.value === 'string' || typeof d.value === 'number' ? { ...d, value: e164(String(d.value), country) } : d;
  return e164(String(d), country);
}

interface Place {
  address?: string | number | null;
  city?: string | number | null;
  country?: string | number | null;
  country_code?: string | number | null;
}

const str = (v: string | number | null | undefined): string => (v == null ? '' : String(v));

/**
 * `country_code` as the catalogue names it (`country` stays as written; an unknown country is left
 * alone); with `detect`, the country named by a place that states none.
 */
function countryFields<T extends Place>(r: T, detect: boolean, inherited = false): T {
  const written = str(r.country_code).trim() !== '' ? r.country_code : r.country;
  if (str(written).trim() === '') {
    if (!detect || inherited) return r;
    const named = countryNamedIn(str(r.city), str(r.address));
    return named ? { ...r, country_named: named.iso2 } : r;
  }
  const entry = resolveCountry(str(written));
  return entry ? { ...r, country_code: entry.iso2 } : r;
}

function prepareRecord(record: DedupeRecord, detect: boolean): DedupeRecord {
  const out = { ...countryFields(record, detect) };
  // an address of the list without a country takes the record's (dedupe/record.rs, all_addresses)
  const stated = str(out.country_code).trim() !== '' || str(out.country).trim() !== '';
  // phones are read in the record's country: stated, or (detect) named in its text; else Italy
  const named = (out as { country_named?: string }).country_named;
  const country = recordCountry(str(out.country_code) || named) ?? 'IT';
  if (out.phone != null) out.phone = Array.isArray(out.phone) ? out.phone.map((d) => phoneDetail(d as Detail, country)) : phoneDetail(out.phone as Detail, country);
  if (out.phones) out.phones = out.phones.map((d) => phoneDetail(d as Detail, country));
  if (out.addresses) out.addresses = out.addresses.map((a: Address) => countryFields(a, detect, stated));
  return out;
}
