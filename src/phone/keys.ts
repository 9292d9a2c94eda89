import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the phone capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const PHONE_KEYS: KeyTable = {
  fields: {
    national_number: 'nazionale',
    operator: 'operatore',
    phone2: 'telefono2',
    phone3: 'telefono3',
    country_prefix: 'prefisso_paese',
    e164: 'formato_e164',
    extension: 'estensione',
  },
};
