import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the enrichment capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const ENRICHMENT_KEYS: KeyTable = {
  fields: {
    profession: 'qualifica',
    salutation: 'saluto',
    education: 'titolo_studio',
    formal_salutation: 'saluto_formale',
    subject_type: 'tipo_soggetto',
    gender_source: 'fonte_sesso',
    title: 'titolo',
    informal_salutation: 'saluto_informale',
  },
  values: {
    subject_type: { natural_person: 'persona_fisica', company: 'societa', organisation: 'organizzazione' },
    gender_source: { written: 'scritto', title: 'titolo', married_name: 'cognome_da_sposata', first_name: 'nome', legal_form: 'forma_giuridica' },
  },
};
