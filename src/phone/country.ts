import { createRequire } from 'node:module';

import countries from 'i18n-iso-countries';
import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';

const require = createRequire(import.meta.url);
const LOCALES = ['en', 'it', 'de', 'fr', 'es'] as const;
for (const l of LOCALES) countries.registerLocale(require(`i18n-iso-countries/langs/${l}.json`) as countries.LocaleData);

/**
 * The record's country as a numbering-plan country: country_code first (ISO2 or ISO3), then the written country.
 * Undefined when neither names a country the plan library knows; the caller then reads numbers as Italian.
 */
export function recordCountry(countryCode?: string, country?: string): CountryCode | undefined {
  const code = countryCode?.trim().toUpperCase();
  if (code) {
    const iso2 = code.length === 3 ? countries.alpha3ToAlpha2(code) : code;
    if (iso2 && isSupportedCountry(iso2)) return iso2;
  }
  const name = country?.trim();
  if (name) {
    if (/^[A-Za-z]{2,3}$/.test(name)) return recordCountry(name);
    for (const l of LOCALES) {
      const iso2 = countries.getAlpha2Code(name, l);
      if (iso2 && isSupportedCountry(iso2)) return iso2;
    }
  }
  return undefined;
}
