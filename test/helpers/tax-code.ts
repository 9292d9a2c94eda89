import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Check character of a tax code from its first 15 characters, by the codice-fiscale-js peer (dev dependency). */
export function codiceFiscale(first15: string): string {
  const { CodiceFiscale } = require('codice-fiscale-js') as { CodiceFiscale: { getCheckCode(code: string): string } };
  return `${first15}${CodiceFiscale.getCheckCode(first15)}`;
}
