import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createGunzip } from 'node:zlib';

import { parse } from 'csv-parse';

// source.js, not server.js: the cost bench loads another build's addon, not this tree's
import { SOURCE } from '../test/helpers/source.js';

/** Real Bologna house numbers as people would type them, repeated up to `n` rows (job benches). */
export async function bolognaContacts(n: number): Promise<Record<string, unknown>[]> {
  const base: Record<string, unknown>[] = [];
  const rows = createReadStream(path.join(SOURCE, 'it/civici/bologna/civici_2012.csv.gz')).pipe(createGunzip()).pipe(parse({ columns: true }));
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    if (!row.DENOMINAZI || row.CAP === '0') continue;
    base.push({ address: `${row.DENOMINAZI} ${row.NCIVSUB}`, postcode: row.CAP, city: 'Bologna' });
  }
  return Array.from({ length: n }, (_, i) => ({ id: i, ...base[i % base.length] }));
}

/** Every 37th Bologna house number as people type it, up to `n`: the single calls of the HTTP benches. */
export async function bolognaSample(n: number): Promise<{ address: string; postcode: string; city: string }[]> {
  const out: { address: string; postcode: string; city: string }[] = [];
  const rows = createReadStream(path.join(SOURCE, 'it/civici/bologna/civici_2012.csv.gz')).pipe(createGunzip()).pipe(parse({ columns: true }));
  let i = 0;
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    if (i++ % 37 !== 0 || !row.DENOMINAZI || row.CAP === '0') continue;
    out.push({ address: `${row.DENOMINAZI} ${row.NCIVSUB}`, postcode: row.CAP ?? '', city: 'Bologna' });
    if (out.length >= n) break;
  }
  return out;
}
