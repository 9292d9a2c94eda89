/**
 * Every CSV the service hands out (job results, dedupe results, the console's downloads) is written here,
 * so that no cell can start a spreadsheet formula (OWASP, CSV injection): a text cell that begins with
 * `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`, which makes Excel, LibreOffice and Google Sheets read
 * it as text. Two kinds of cell are left as they are, because nothing in them can be run and the `'`
 * would corrupt them for the programs that read the file: numbers (a negative longitude, a score) and a
 * text that is exactly an E.164 phone number (`+` then 7–15 digits, e.g. `+390612345678`). See
 * docs/jobs.md, *CSV and spreadsheets*.
 */
import { stringify, type Stringifier } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r]/;
const E164 = /^\+[1-9]\d{6,14}$/;

/** A text cell as it may go into a CSV: with a leading `'` when a spreadsheet would read it as a formula. */
export function csvSafe(text: string): string {
  return FORMULA_START.test(text) && !E164.test(text) ? `'${text}` : text;
}

/** Text cells neutralised; numbers (and csv-stringify's other types) written as they are. */
const OPTIONS = { cast: { string: csvSafe } };

/** A streamed CSV with a header row. */
export function csvStream(header: string[]): Stringifier {
  return stringify({ ...OPTIONS, header: true, columns: header });
}

/** A whole CSV at once (its first row is the header). */
export function csvText(rows: (string | number)[][]): string {
  return stringifySync(rows, OPTIONS);
}
