import { type ContactData, type TitleRow } from '../import/contact-store.js';
import { native } from '../native.js';

export type Gender = 'M' | 'F' | 'X' | 'G';

/** Share of male bearers above which (or of female bearers) a first name decides the gender. */
const DECISIVE_SHARE = 0.9;
/** Records under which a name's counts are noise. */
const MIN_WEIGHT = 3;

const WRITTEN: Record<string, Gender> = {
  M: 'M', MALE: 'M', MASCHIO: 'M', MASCHILE: 'M', UOMO: 'M', MAN: 'M', MR: 'M', HERR: 'M', MONSIEUR: 'M', H: 'M',
  F: 'F', FEMALE: 'F', FEMMINA: 'F', FEMMINILE: 'F', DONNA: 'F', WOMAN: 'F', MRS: 'F', MS: 'F', MISS: 'F', FRAU: 'F',
  MADAME: 'F', D: 'F',
  X: 'X', G: 'G',
};

/** A title written where a gender or a name was expected, and the gender it implies (when its forms differ). */
export function titleOf(data: ContactData, written: string): { title: TitleRow; gender?: 'M' | 'F' } | undefined {
  const key = native.foldText(written);
  if (!key) return undefined;
  for (const title of data.titles) {
    if (!title.forms.includes(key)) continue;
    const masculine = [title.abbrM, ...title.nameM.split('/')].map((s) => native.foldText(s)).filter(Boolean);
    const feminine = [title.abbrF, ...title.nameF.split('/')].map((s) => native.foldText(s)).filter(Boolean);
    const isM = masculine.includes(key);
    const isF = feminine.includes(key);
    if (isM && !isF) return { title, gender: 'M' };
    if (isF && !isM) return { title, gender: 'F' };
    if (isM && isF) return { title };
    // other written variants (sig.ra, sigra, dott.ssa…): the Italian feminine endings
    if (!masculine.length) return { title, gender: 'F' };
    if (!feminine.length) return { title, gender: 'M' };
    return { title, gender: /(RA|SSA|NA| A)$/.test(key) ? 'F' : 'M' };
  }
  return undefined;
}

/** The gender field as people fill it: M/F, male/female and their Italian words, a title, X (organisation), G (family or couple). */
export function writtenGender(data: ContactData, written: string | undefined): { gender?: Gender; title?: TitleRow } {
  if (!written?.trim()) return {};
  const key = native.foldText(written);
  const direct = WRITTEN[key];
  if (direct) return { gender: direct };
  const t = titleOf(data, written);
  if (t) return { ...(t.gender ? { gender: t.gender } : {}), title: t.title };
  return {};
}

/**
 * Gender of a first name from the Italian dictionaries: the whole (compound) name, a short form,
 * the name without its apostrophes (the one folding splits at them, and registry names write
 * accents as apostrophes: `DE'SIRE'E` is `DESIREE`), then its first word.
 */
export function firstNameGender(data: ContactData, firstName: string): 'M' | 'F' | undefined {
  const key = native.foldText(firstName);
  if (!key) return undefined;
  const words = key.split(' ');
  const unaccented = native.foldText(firstName.replace(/['’`´]/g, ''));
  const joined = unaccented !== key ? [unaccented] : [];
  for (const candidate of [key, ...joined, words[0] ?? '']) {
    const g = data.names[candidate];
    if (g && g.weight >= MIN_WEIGHT) {
      if (g.male >= DECISIVE_SHARE) return 'M';
      if (g.male <= 1 - DECISIVE_SHARE) return 'F';
      return undefined;
    }
    const short = data.hypocoristics[candidate];
    if (short) return short;
  }
  return undefined;
}
