import type { KeyTable } from '../http/keys.js';

/**
 * The Italian of the suggest capability's own fields and values (spec, Versioning): registered by
 * src/capabilities.ts, merged with every other table by `useKeys` (src/http/keys.ts), which answers and
 * reads them for every endpoint alike.
 */
export const SUGGEST_KEYS: KeyTable = {
  fields: {
    phase: 'fase',
    session: 'sessione',
  },
  values: {
    phase: { streets: 'vie', house_numbers: 'civici' },
  },
};
