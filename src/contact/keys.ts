import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the contact capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const CONTACT_KEYS: KeyTable = {
  fields: {
    multiple_postcodes: 'multicap',
    agreement: 'consenso',
    municipality_code: 'comune_codice',
    municipality_code_type: 'comune_codice_tipo',
    normalized_postal: 'normalizzato_postale',
    building: 'edificio',
    canonical_address: 'indirizzo_canonico',
    canonical_city: 'localita_canonica',
    care_of: 'presso',
    city_passes: 'cicli_localita',
    city_type: 'localita_tipo',
    confirmed: 'confermato',
    postcode_check: 'cap_verifica',
    precision: 'precisione',
    preserve_original: 'preserva_originale',
    provincial_capital: 'capoluogo',
    segment_passes: 'cicli_arcostradale',
    foreign_address: 'estero',
    street_passes: 'cicli_toponimo',
    street_proper_name: 'duf',
    sub_address: 'subindirizzo',
    sub_address_confirmed: 'subindirizzo_confermato',
    suffix: 'esponente',
    supported: 'supportato',
    hamlet: 'frazione',
    hints: 'suggerimenti',
    tax_code_outcome: 'codice_fiscale_esito',
    house_number_label: 'civico_label',
    house_number_verified: 'civico_verificato',
    town: 'citta',
    istat_code: 'istat',
    zoned: 'zonato',
  },
  ours: {
    debug: 'diagnosi',
    repairs: 'riparazioni',
    city_match: 'corrispondenza_localita',
    street_step: 'passo_strada',
    edits: 'correzioni',
  },
  outcomeFields: ['tax_code_outcome'],
};
