import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { parse } from 'csv-parse/sync';

import { defaultSourceDir } from '../../src/config.js';

/** The open data the tests read, as published (../shared/data, or RECAPITO_SOURCE_DIR). */
export const SOURCE = defaultSourceDir();

export type Row = Record<string, string>;

/** A published CSV of the source folder, gunzipped when it ends in .gz, BOM dropped, one object per row. */
export function sourceCsv(rel: string, delimiter = ','): Row[] {
  const raw = readFileSync(path.join(SOURCE, rel));
  const text = (rel.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').replace(/^\uFEFF/, '');
  return parse(text, { columns: true, delimiter, skip_empty_lines: true, relax_quotes: true }) as Row[];
}
