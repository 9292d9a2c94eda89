import { foldText as fold } from '../native.js';
import { CATALOGUE, SPELLINGS, type CountryEntry } from './catalogue.js';

/**
 * `country` written any way, in every endpoint: an ISO code, a name in any of the 13 languages or
 * the country's own, or a common nickname (UK, Holland, USA, Svizzera, Ελλάδα...). One resolver.
 */
export function resolveCountry(text: string | undefined | null): CountryEntry | undefined {
  if (!text) return undefined;
  return countryFolded(fold(text));
}

/** The country of a folded text (`fold`). */
function countryFolded(key: string): CountryEntry | undefined {
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
 * A country written at the end of a text: the whole text, or its last words (`75001 Paris France`,
 * `10117 Berlin, Germania`) — names of four letters and more, or an alpha-3 code in capitals
 * (`USA`); never a two-letter word (`Milano MI`: an Italian province code is not a country).
 * `rest` is the text without it.
 */
export function countryAtEnd(text: string | undefined): { country: CountryEntry; rest: string } | undefined {
  const t = (text ?? '').trim();
  const whole = fold(t);
  if (whole.length >= 4) {
    const country = countryFolded(whole);
    if (country) return { country, rest: '' };
  }
  const words = t.split(/\s+/);
  for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
    const tail = words.slice(-k).join(' ').replace(/^[,(]+|[,.)]+$/g, '');
    const folded = fold(tail);
    if (folded.length < 4 && !/^[A-Z]{3}$/.test(tail)) continue;
    const country = countryFolded(folded);
    if (country) return { country, rest: words.slice(0, -k).join(' ').replace(/[\s,;-]+$/, '') };
  }
  return undefined;
}

/**
 * `foreign: detect`: a country written as the city, at its end (`75001 Paris France`), or as the
 * last part of the address line (`Rue de Rivoli 10, Francia`). The core reads it only once the
 * city is not an Italian municipality (and no Italian province is written).
 */
export function countryNamedIn(city: string | undefined, address: string | undefined): CountryEntry | undefined {
  const found = countryAtEnd(city) ?? lineCountry(address);
  return found?.country;
}

/**
 * A country at the end of an address line: its last part after a comma or a dash, or the last words
 * of a last part that holds a postcode and a place (`…, 75001 Paris France`) — never the end of a
 * street's name (`Corso Francia`, `Avenue de France`), nor a city after its postcode that bears the
 * country's name (`…, L-1260 Luxembourg`).
 */
function lineCountry(address: string | undefined): { country: CountryEntry; rest: string } | undefined {
  const parts = (address ?? '').split(/[,;]|\s-\s/);
  if (parts.length < 2) return undefined;
  const last = parts[parts.length - 1] ?? '';
  const found = countryAtEnd(last);
  if (!found) return undefined;
  // after a postcode alone the name is the city (`L-1260 Luxembourg`, `98000 Monaco`)
  return found.rest === '' || (/\d/.test(found.rest) && /\s/.test(found.rest)) ? found : undefined;
}

/**
 * The city field and the address line without a trailing name of country `iso2` (`…, Paris,
 * France` → `…, Paris`): the country is a field of its own, and the core reads the rest into
 * street, postcode and city. A city field that is the country's name alone stays when the country
 * is stated elsewhere (`stated`: the country field, or the end of the line): the core's reader takes
 * it as the city only when the line names no other place (Luxembourg, Monaco, San Marino, Singapore
 * are cities too).
 */
export function withoutCountryName<T extends { city?: string | null; address?: string | null }>(fields: T, iso2: string, stated: boolean): T {
  const out = { ...fields };
  const line = lineCountry(out.address ?? '');
  const city = countryAtEnd(out.city ?? '');
  const elsewhere = stated || line?.country.iso2 === iso2;
  if (city && city.country.iso2 === iso2 && !(city.rest === '' && elsewhere)) out.city = city.rest;
  if (line && line.country.iso2 === iso2 && out.address) {
    const cut = out.address.search(/(?:[,;]|\s-\s)[^,;]*$/);
    const head = out.address.slice(0, cut).trim();
    out.address = line.rest ? `${head}, ${line.rest}` : head;
  }
  return out;
}

/** The catalogue filtered by `q`: a code, or the start of any word of any name. */
export function searchCountries(q: string | undefined): CountryEntry[] {
  if (!q || !q.trim()) return [...CATALOGUE];
  const exact = resolveCountry(q);
  const key = fold(q);
  const hits = new Set<CountryEntry>(exact ? [exact] : []);
  if (key.length >= 2) {
    for (const [spelling, entry] of SPELLINGS) {
      if (spelling.startsWith(key) || spelling.includes(` ${key}`)) hits.add(entry);
    }
  }
  return [...hits];
}
