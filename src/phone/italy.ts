import type { ContactData, SpecialNumberRow } from '../import/contact-store.js';

export type PhoneType = 'toll-free' | 'premium rate' | 'shared cost' | 'public utility';

function longestPrefix<T>(table: Record<string, T>, digits: string, maxLength: number): T | undefined {
  for (let n = Math.min(maxLength, digits.length); n > 0; n--) {
    const hit = table[digits.slice(0, n)];
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** District of an Italian landline: the longest district prefix (02, 011, 0471…) the number starts with. */
export function districtOf(data: ContactData, national: string): string | undefined {
  return longestPrefix(data.districts, national, 5);
}

/** Original assignee of an Italian mobile block (longest prefix; portability is not reflected). */
export function operatorOf(data: ContactData, national: string): string | undefined {
  return longestPrefix(data.mobileOperators, national, 4);
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
  for (const row of data.specialNumbers) {
    if (['fisso', 'mobile', 'fisso_vaticano', 'fisso_san_marino'].includes(row.category)) continue;
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
