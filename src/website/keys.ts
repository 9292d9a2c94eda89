import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the website capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const WEBSITE_KEYS: KeyTable = {
  fields: {
    network: 'rete',
    certificate_ok: 'certificato_ok',
    reachable: 'raggiungibile',
    redirects: 'redirect',
    final_url: 'url_finale',
    url_normalized: 'url_normalizzato',
    website: 'sito',
    website2: 'sito2',
    website3: 'sito3',
    websites: 'siti',
  },
};
