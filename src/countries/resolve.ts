import { native } from '../native.js';
import { CATALOGUE, SPELLINGS, type CountryEntry } from './catalogue.js';

/**
 * `country` written any way, in every endpoint: an ISO code, a name in any of the 13 languages or
 * the country's own, or a common nickname (UK, Holland, USA, Svizzera, Ελλάδα...). One resolver.
 */
export function resolveCountry(text: string | undefined | null): CountryEntry | undefined {
  if (!text) return undefined;
  const key = native.foldText(text);
  if (!key) return undefined;
  return SPELLINGS.get(key) ?? SPELLINGS.get(key.replace(/^(THE|LA|LE|IL|DIE|EL|LO) /, ''));
}

/** The catalogue entry of an ISO code the core returned (a lookup, not a second resolution). */
export function countryByCode(code: string | undefined | null): CountryEntry | undefined {
  const key = code?.trim().toUpperCase();
  if (!key || !/^[A-Z]{2,3}$/.test(key)) return undefined;
  const entry = SPELLINGS.get(key);
  return entry && (entry.iso2 === key || entry.iso3 === key) ? entry : undefined;
}

/**
 * `foreign: detect`: a country written as the city, or as the last part of the address line
 * (`Rue de Rivoli 10, Francia`). The core reads it only once the city is not an Italian
 * municipality; texts under four letters are left alone (`Ro`, `Ome` are towns, not codes).
 */
export function countryNamedIn(city: string | undefined, address: string | undefined): CountryEntry | undefined {
  const tail = (address ?? '').split(/[,-]/).pop() ?? '';
  for (const text of [city ?? '', tail]) {
    if (native.foldText(text).length < 4) continue;
    const country = resolveCountry(text);
    if (country) return country;
  }
  return undefined;
}

/** The catalogue filtered by `q`: a code, or the start of any word of any name. */
export function searchCountries(q: string | undefined): CountryEntry[] {
  if (!q || !q.trim()) return [...CATALOGUE];
  const exact = resolveCountry(q);
  const key = native.foldText(q);
  const hits = new Set<CountryEntry>(exact ? [exact] : []);
  if (key.length >= 2) {
    for (const [spelling, entry] of SPELLINGS) {
      if (spelling.startsWith(key) || spelling.includes(` ${key}`)) hits.add(entry);
    }
  }
  return [...hits];
}
