import type { ContactData, SpecialNumberRow } from '../import/contact-store.js';

export type PhoneType = 'toll-free' | 'premium rate' | 'shared cost' | 'public utility';

/** A prefix table ready for longest-prefix lookups: only the prefix lengths it holds are tried, longest first. */
interface PrefixTable {
  byPrefix: Map<string, string>;
  lengths: number[];
}

/** The plan's prefix tables of one data dir's dictionaries, built on first use and kept while the dictionaries live. */
interface ItalianTables {
  districts: PrefixTable;
  operators: PrefixTable;
  /** Special-number rows the library leaves to the curated table (geographic and mobile rows dropped). */
  specials: SpecialNumberRow[];
}

/** Rows of the curated table that are ordinary geographic or mobile numbers: the library reads those. */
const LIBRARY_CATEGORIES = new Set(['fisso', 'mobile', 'fisso_vaticano', 'fisso_san_marino']);

const tables = new WeakMap<ContactData, ItalianTables>();

function prefixTable(table: Record<string, string | undefined>, maxLength: number): PrefixTable {
  const byPrefix = new Map<string, string>();
  for (const [prefix, value] of Object.entries(table)) if (value !== undefined) byPrefix.set(prefix, value);
  const lengths = [...new Set([...byPrefix.keys()].map((k) => k.length))].filter((n) => n > 0 && n <= maxLength).sort((a, b) => b - a);
  return { byPrefix, lengths };
}

function tablesOf(data: ContactData): ItalianTables {
  let t = tables.get(data);
  if (!t) {
    t = {
      districts: prefixTable(data.districts, 5),
      operators: prefixTable(data.mobileOperators, 4),
      specials: data.specialNumbers.filter((row) => !LIBRARY_CATEGORIES.has(row.category)),
    };
    tables.set(data, t);
  }
  return t;
}

function longestPrefix(table: PrefixTable, digits: string): string | undefined {
  for (const n of table.lengths) {
    if (n > digits.length) continue;
    const hit = table.byPrefix.get(digits.slice(0, n));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** District of an Italian landline: the longest district prefix (02, 011, 0471…) the number starts with. */
export function districtOf(data: ContactData, national: string): string | undefined {
  return longestPrefix(tablesOf(data).districts, national);
}

/** Original assignee of an Italian mobile block (longest prefix; portability is not reflected). */
export function operatorOf(data: ContactData, national: string): string | undefined {
  return longestPrefix(tablesOf(data).operators, national);
}

const CATEGORY_TYPE: Record<string, PhoneType> = {
  emergenza: 'public utility',
  pubblica_utilita: 'public utility',
  numero_verde: 'toll-free',
  sovrapprezzo: 'premium rate',
  sovrapprezzo_storico: 'premium rate',
  addebito_ripartito: 'shared cost',
};

/**
 * Italian special numbers the numbering-plan library does not validate (short public-utility codes, 803/841/847
 * short forms): the curated table, by prefix and digit count. Geographic and mobile rows are left to the library.
 */
export function specialNumber(
  data: ContactData,
  national: string,
): { row: SpecialNumberRow; type: PhoneType | undefined } | undefined {
  let best: SpecialNumberRow | undefined;
  for (const row of tablesOf(data).specials) {
    if (!national.startsWith(row.prefix) || !row.lengths.includes(national.length)) continue;
    if (!best || row.prefix.length > best.prefix.length) best = row;
  }
  return best ? { row: best, type: CATEGORY_TYPE[best.category] } : undefined;
}

/** The library's number types, as the spec names them. */
export function typeFromLibrary(type: string | undefined): PhoneType | undefined {
  switch (type) {
    case 'TOLL_FREE':
      return 'toll-free';
    case 'PREMIUM_RATE':
      return 'premium rate';
    case 'SHARED_COST':
      return 'shared cost';
    default:
      return undefined;
  }
}
