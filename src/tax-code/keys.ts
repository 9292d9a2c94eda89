import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the tax-code capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const TAX_CODE_KEYS: KeyTable = {
  fields: {
    age: 'eta',
    ambiguous_year: 'anno_ambiguo',
    belfiore_code: 'codice_belfiore',
    birth_country: 'nazione_nascita',
    birth_place: 'comune_nascita',
    birth_place_name: 'luogo_nascita',
    birth_province: 'provincia_nascita',
    born_abroad: 'nato_estero',
    check_digit: 'controllo',
    differences: 'differenze',
    homocode: 'omocodo',
  },
  ours: {
    current_name: 'nome_attuale',
    current_province: 'provincia_attuale',
  },
};
