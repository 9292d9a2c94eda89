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
