import { isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';

import { resolveCountry } from '../countries/resolve.js';

/**
 * The record's country as a numbering-plan country: country_code first, then the written country (any language,
 * nicknames), both through the one country resolver. Undefined when neither names a country the plan library
 * knows; the caller then reads numbers as Italian.
 */
export function recordCountry(countryCode?: string, country?: string): CountryCode | undefined {
  for (const text of [countryCode, country]) {
    const iso2 = resolveCountry(text)?.iso2;
    if (iso2 && isSupportedCountry(iso2)) return iso2;
  }
  return undefined;
}
