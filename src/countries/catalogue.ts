import { createRequire } from 'node:module';

import { LANGUAGES, type Language } from '../http/language.js';
import { native } from '../native.js';

const require = createRequire(import.meta.url);

interface I18nCountries {
  getAlpha2Codes(): Record<string, string>;
  alpha2ToAlpha3(code: string): string | undefined;
  alpha2ToNumeric(code: string): string | undefined;
  getName(code: string, lang: string, options?: { select: 'official' | 'alias' }): string | undefined;
  getNames(lang: string, options: { select: 'all' }): Record<string, string[]>;
}

interface WorldCountry {
  cca2: string;
  cca3: string;
  name: { common: string; official: string; native?: Record<string, { common: string; official: string }> };
  altSpellings?: string[];
}

// i18n-iso-countries: ISO 3166-1 names in all 13 languages; world-countries: official and native names.
const i18n = require('i18n-iso-countries') as I18nCountries;
const world = require('world-countries') as WorldCountry[];

export interface CountryEntry {
  iso2: string;
  iso3: string;
  numeric: string;
  /** Short names in the 13 languages of the service. */
  names: Record<Language, string>;
  short: { en: string; native: string[] };
  long: { en: string; native: string[] };
}

/** Common names that are not the country's name in any language (or are, but of a part). */
const NICKNAMES: Record<string, string[]> = {
  GB: ['UK', 'U.K.', 'Great Britain', 'Gran Bretagna', 'Grande Bretagne', 'Großbritannien', 'Gran Bretaña', 'England', 'Inghilterra', 'Angleterre', 'Scotland', 'Scozia', 'Wales', 'Galles', 'Britain', 'Regno Unito'],
  NL: ['Holland', 'Olanda', 'Hollande', 'Holanda', 'Holland', 'Ολλανδία'],
  US: ['USA', 'U.S.A.', 'US', 'U.S.', 'America', 'Amerika', 'Amérique', 'Stati Uniti', "Stati Uniti d'America", 'Vereinigte Staaten', 'Estados Unidos', 'États-Unis'],
  CH: ['Svizzera', 'Schweiz', 'Suisse', 'Svizra', 'Helvetia', 'Confederazione Elvetica'],
  VA: ['Vaticano', 'Città del Vaticano', 'Holy See', 'Santa Sede', 'Vatican'],
  CZ: ['Czech Republic', 'Repubblica Ceca', 'Tschechien', 'Cechia'],
  KR: ['South Korea', 'Corea del Sud', 'Korea'],
  KP: ['North Korea', 'Corea del Nord'],
  RU: ['Russia', 'Russland', 'Russie'],
  CI: ['Ivory Coast', "Costa d'Avorio"],
  MK: ['Macedonia', 'Macedonia del Nord', 'North Macedonia'],
  MM: ['Burma', 'Birmania'],
  IR: ['Persia'],
  SZ: ['Swaziland'],
  AE: ['UAE', 'Emirati Arabi', 'Emirati'],
  DE: ['Germania', 'BRD', 'Allemagne'],
  GR: ['Grecia', 'Hellas', 'Ellada'],
  BA: ['Bosnia'],
  DO: ['Repubblica Dominicana'],
  TW: ['Taiwan', 'Formosa'],
  SM: ['RSM', 'Repubblica di San Marino'],
};

/** Every name and alias of every country, per language: built once, read for each country. */
const ALIASES = LANGUAGES.map((lang) => i18n.getNames(lang, { select: 'all' }));
const WORLD_BY_ISO2 = new Map(world.map((w) => [w.cca2, w]));

function build(): CountryEntry[] {
  return Object.keys(i18n.getAlpha2Codes())
    .sort()
    .map((iso2) => {
      const w = WORLD_BY_ISO2.get(iso2);
      const names = Object.fromEntries(LANGUAGES.map((l) => [l, i18n.getName(iso2, l) ?? i18n.getName(iso2, 'en') ?? iso2])) as Record<Language, string>;
      const nativeNames = Object.values(w?.name.native ?? {});
      return {
        iso2,
        iso3: i18n.alpha2ToAlpha3(iso2) ?? w?.cca3 ?? '',
        numeric: i18n.alpha2ToNumeric(iso2) ?? '',
        names,
        short: { en: w?.name.common ?? names.en, native: [...new Set(nativeNames.map((n) => n.common))] },
        long: { en: w?.name.official ?? names.en, native: [...new Set(nativeNames.map((n) => n.official))] },
      };
    });
}

export const CATALOGUE: readonly CountryEntry[] = build();

/** Every way a country is written, folded by the core's normaliser, with the country it names. */
function spellings(entry: CountryEntry): string[] {
  const all = [entry.iso2, entry.iso3, ...Object.values(entry.names), entry.short.en, entry.long.en, ...entry.short.native, ...entry.long.native];
  for (const names of ALIASES) all.push(...(names[entry.iso2] ?? []));
  all.push(...(WORLD_BY_ISO2.get(entry.iso2)?.altSpellings ?? []).filter((s) => s.length > 2));
  all.push(...(NICKNAMES[entry.iso2] ?? []));
  return [...new Set(all.map((s) => native.foldText(s)).filter(Boolean))];
}

export const SPELLINGS: ReadonlyMap<string, CountryEntry> = (() => {
  const map = new Map<string, CountryEntry>();
  for (const entry of CATALOGUE) for (const s of spellings(entry)) if (!map.has(s) || s === entry.iso2 || s === entry.iso3) map.set(s, entry);
  return map;
})();
