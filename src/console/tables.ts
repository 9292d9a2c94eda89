import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

import { englishKey } from '../http/keys.js';
import type { TextKey } from './texts.js';

/** Rows a console list may have: the asynchronous cap of the API. */
export const MAX_ROWS = 100_000;
/** Bytes of an uploaded file. */
export const MAX_UPLOAD_BYTES = 32 * 1024 * 1024;

export interface Table {
  headers: string[];
  rows: string[][];
}

/** A file refused, by the key of its console text (written in the page's language by the error handler). */
export class TableError extends Error {
  constructor(
    readonly key: TextKey,
    readonly values: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

/**
 * A table as the reader hands it over: headers, the row count, the first rows, and every row as JSON text
 * (one string crosses from the worker and goes to the store as it is: copying 100,000 rows of strings
 * out of a worker took the event loop ~2 s on this machine, encoding them for LMDB ~0.4 s).
 */
export interface ReadTable {
  headers: string[];
  rowCount: number;
  preview: string[][];
  rowsJson: string;
}

/** The first rows shown with the mapping. */
const PREVIEW_ROWS = 5;

export function readTableOf(table: Table): ReadTable {
  return { headers: table.headers, rowCount: table.rows.length, preview: table.rows.slice(0, PREVIEW_ROWS), rowsJson: JSON.stringify(table.rows) };
}

/** A read cut short because the service is stopping: 503, the file can be sent again (to another node). */
class ReaderStopped extends Error {
  readonly statusCode = 503;
  constructor() {
    super('the service is stopping: send the file again in a moment');
  }
}

/** Batch capabilities the console runs, with the fields a column can map to (English, as the API takes them). */
export const BATCH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  contact: ['id', 'address', 'house_number', 'postcode', 'city', 'province', 'country', 'tax_code', 'last_name', 'first_name', 'gender', 'birth_date'],
  dedupe: ['id', 'last_name', 'first_name', 'address', 'house_number', 'postcode', 'city', 'province', 'country', 'gender', 'email', 'phone', 'tax_code', 'birth_date'],
  'tax-code': ['id', 'tax_code', 'last_name', 'first_name', 'gender', 'birth_date', 'birth_place'],
  phone: ['id', 'phone', 'country'],
  email: ['id', 'email'],
  website: ['id', 'website'],
  enrichment: ['id', 'last_name', 'first_name', 'gender', 'profession', 'education'],
};

export const CAPABILITY_PATHS: Readonly<Record<string, string>> = {
  contact: '/api/v1/contact',
  dedupe: '/api/v1/dedupe',
  'tax-code': '/api/v1/tax-code',
  phone: '/api/v1/phone',
  email: '/api/v1/email',
  website: '/api/v1/website',
  enrichment: '/api/v1/enrichment',
};

export const isBatchCapability = (name: string): boolean => Object.hasOwn(BATCH_FIELDS, name);

/**
 * Headers office lists carry that the API's own synonyms (src/http/keys.ts: Italian field names, zip,
 * surname, phone_number...) do not cover. Folded: lower case, no accents, spaces and dots as `_`.
 */
const HEADER_SYNONYMS: Readonly<Record<string, string>> = {
  via: 'address', strada: 'address', street: 'address', address_line: 'address', indirizzo_completo: 'address', recapito: 'address', ubicazione: 'address',
  numero_civico: 'house_number', n_civico: 'house_number', civ: 'house_number', house_no: 'house_number', number: 'house_number', numero: 'house_number', nr: 'house_number', n: 'house_number',
  c_a_p: 'postcode', codice_postale: 'postcode', post_code: 'postcode',
  comune: 'city', citta: 'city', town: 'city', localita: 'city', paese: 'city', municipality: 'city',
  prov: 'province', sigla_provincia: 'province', pr: 'province', county: 'province', state: 'province',
  stato: 'country', nation: 'country', nazione: 'country',
  cod_fiscale: 'tax_code', c_f: 'tax_code', fiscal_code: 'tax_code', codice_fiscale: 'tax_code', taxcode: 'tax_code',
  ragione_sociale: 'last_name', denominazione: 'last_name', company: 'last_name', name: 'first_name', firstname: 'first_name', lastname: 'last_name',
  sex: 'gender', genere: 'gender',
  data_di_nascita: 'birth_date', nato_il: 'birth_date', birthdate: 'birth_date', birthday: 'birth_date',
  luogo_di_nascita: 'birth_place', nato_a: 'birth_place', comune_di_nascita: 'birth_place',
  tel: 'phone', cellulare: 'phone', cell: 'phone', mobile: 'phone', telefono_cellulare: 'phone', fax: 'phone', numero_di_telefono: 'phone',
  posta_elettronica: 'email', indirizzo_email: 'email', email_address: 'email', pec: 'email',
  sito_web: 'website', web: 'website', url: 'website', homepage: 'website', www: 'website',
  professione: 'profession', job_title: 'profession', titolo_di_studio: 'education',
  codice: 'id', code: 'id', key: 'id', identificativo: 'id', id_cliente: 'id', customer_id: 'id',
};

function fold(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The API field a header names, or null. */
export function fieldOfHeader(header: string): string | null {
  const folded = fold(header);
  if (!folded) return null;
  const viaApi = englishKey(folded);
  const known = new Set(Object.values(BATCH_FIELDS).flat());
  if (known.has(viaApi)) return viaApi;
  const mine = HEADER_SYNONYMS[folded];
  return mine ?? null;
}

/** Column index → field, for the fields a capability takes; each field used once, the first column wins. */
export function suggestMapping(capability: string, headers: string[]): Record<number, string> {
  const allowed = new Set(BATCH_FIELDS[capability] ?? []);
  const taken = new Set<string>();
  const out: Record<number, string> = {};
  headers.forEach((h, i) => {
    const field = fieldOfHeader(h);
    if (field && allowed.has(field) && !taken.has(field)) {
      taken.add(field);
      out[i] = field;
    }
  });
  return out;
}

/** The capability whose fields the headers cover best (ties: the order of BATCH_FIELDS). */
export function suggestCapability(headers: string[]): string {
  const fields = new Set(headers.map(fieldOfHeader).filter((f): f is string => f !== null && f !== 'id'));
  let best = 'contact';
  let bestScore = -1;
  for (const [cap, allowed] of Object.entries(BATCH_FIELDS)) {
    const covered = allowed.filter((f) => fields.has(f)).length;
    // a list with names and addresses and contact details is a dedupe list; with addresses only, contact
    const score = covered * 10 - allowed.length;
    if (covered > 0 && score > bestScore) {
      best = cap;
      bestScore = score;
    }
  }
  return best;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
    if ('hyperlink' in value) return String(value.hyperlink);
    return '';
  }
  return String(value);
}

/** Reads rows until the cap: one row past MAX_ROWS (the header included) is enough to refuse the file. */
const ROWS_READ = MAX_ROWS + 2;

function tooManyRows(): TableError {
  return new TableError('table_too_many_rows', { max: MAX_ROWS });
}

/**
 * The first sheet of a workbook, streamed: exceljs' WorkbookReader parses the sheet XML as the zip
 * inflates it, row by row, and reading stops at the row cap. Cells are taken from each row's own values
 * (never the sheet's column count, which exceljs recomputes by walking every row: quadratic, issue 33).
 */
async function readXlsx(data: Buffer): Promise<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  const rows: string[][] = [];
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets += 1;
      for await (const row of sheet) {
        const values = (row as ExcelJS.Row).values as ExcelJS.CellValue[];
        const cells: string[] = [];
        for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]).trim());
        if (cells.some((v) => v !== '')) rows.push(cells);
        if (rows.length >= ROWS_READ) throw tooManyRows();
      }
      break; // the first sheet only
    }
  } catch (error) {
    if (error instanceof TableError) throw error;
    throw new TableError('table_bad_xlsx');
  }
  if (sheets === 0) throw new TableError('table_no_sheet');
  return rows;
}

function readCsv(data: Buffer): string[][] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  // Italian spreadsheets save CSV with semicolons; the first line's count decides
  const delimiter = [';', '\t', ','].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best), ',');
  try {
    // `to`: the parser stops at the cap instead of reading every record of an oversized file
    return parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, to: ROWS_READ }) as string[][];
  } catch (error) {
    throw new TableError('table_bad_csv');
  }
}

/** A CSV or XLSX file as a header row and data rows of strings, read on the calling thread (the table worker's work). */
export async function parseTable(name: string, data: Buffer): Promise<Table> {
  if (data.length === 0) throw new TableError('table_empty');
  if (data.length > MAX_UPLOAD_BYTES) throw new TableError('table_too_large', { mb: MAX_UPLOAD_BYTES / 1024 / 1024 });
  const isZip = data[0] === 0x50 && data[1] === 0x4b;
  const lower = name.toLowerCase();
  if (lower.endsWith('.xls')) throw new TableError('table_xls');
  const all = isZip || lower.endsWith('.xlsx') ? await readXlsx(data) : readCsv(data);
  const [headers, ...rows] = all;
  if (!headers || headers.every((h) => h === '')) throw new TableError('table_no_headers');
  if (rows.length === 0) throw new TableError('table_no_rows');
  if (rows.length > MAX_ROWS) throw tooManyRows();
  const width = headers.length;
  return { headers: headers.map((h, i) => h || `column ${i + 1}`), rows: rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')) };
}

/** Tables read at once; more uploads wait their turn (each reader holds its file and its rows). */
const READERS = 2;
/** A reader's heap: a file that inflates past it (a zip bomb, a sheet of endless columns) is refused, not the process. */
const READER_HEAP_MB = 512;
/** A read that takes longer is stopped (100,000 rows take a few seconds). */
const READ_TIMEOUT_MS = 120_000;

function readInWorker(name: string, data: Buffer, running: Set<Worker>): Promise<ReadTable> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./table-worker.js', import.meta.url), { workerData: { name, data }, resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB } });
    running.add(worker);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      running.delete(worker);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(new TableError('table_slow'))), READ_TIMEOUT_MS);
    worker.once('message', (answer: { table?: ReadTable; error?: string; tableError?: { key: TextKey; values: Record<string, string | number> } }) =>
      settle(() => (answer.table ? resolve(answer.table) : reject(answer.tableError ? new TableError(answer.tableError.key, answer.tableError.values) : new Error(answer.error)))),
    );
    worker.once('error', (error: Error & { code?: string }) => settle(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TableError('table_unreadable_size') : error)));
    worker.once('exit', () => settle(() => reject(new ReaderStopped())));
  });
}

export interface TableReaders {
  /**
   * A CSV or XLSX file as a header row and data rows of strings; the first row is the header. Read in a
   * worker thread (at most READERS at once, the others wait their turn): a large workbook never holds
   * the event loop, so every other request (and SIGTERM) is answered while it is read.
   */
  read(name: string, data: Buffer): Promise<ReadTable>;
  /** Stops the readers at work (the service is closing). */
  close(): Promise<void>;
}

export function tableReaders(): TableReaders {
  const running = new Set<Worker>();
  const waiting: (() => void)[] = [];
  let closed = false;
  return {
    async read(name, data) {
      while (running.size >= READERS && !closed) await new Promise<void>((resume) => waiting.push(resume));
      if (closed) throw new ReaderStopped();
      try {
        return await readInWorker(name, data, running);
      } finally {
        waiting.shift()?.();
      }
    },
    async close() {
      closed = true;
      await Promise.all([...running].map((w) => w.terminate()));
      waiting.splice(0).forEach((resume) => resume());
    },
  };
}

/**
 * The API items of a list under a mapping (column index → field). A separate house-number column is
 * joined to the address, as people write it; the row number is the id when no column is the id.
 */
export function itemsOf(table: Table, mapping: Record<number, string>): Record<string, string | number>[] {
  const pairs = Object.entries(mapping).map(([col, field]) => [Number(col), field] as const);
  return table.rows.map((row, r) => {
    const item: Record<string, string | number> = {};
    for (const [col, field] of pairs) {
      const value = row[col]?.trim() ?? '';
      if (value !== '') item[field] = value;
    }
    if (item.house_number !== undefined) {
      item.address = item.address !== undefined ? `${item.address} ${item.house_number}` : String(item.house_number);
      delete item.house_number;
    }
    if (item.id === undefined) item.id = r + 1;
    return item;
  });
}
