import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the email capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const EMAIL_KEYS: KeyTable = {
  fields: {
    corrected_from: 'corretta_da',
    disposable: 'usa_e_getta',
    domain_checked: 'dominio_verificato',
    domain_exists: 'dominio_esiste',
  },
};
