import { type ContactData, type LegalFormRow } from '../import/contact-store.js';
import { native } from '../native.js';

/** Markers this short (s.s., sc, sa, ag…) are also words or initials: they count as a name's first word only for forms written before the name (R.T.I., A.T.I.). */
const SHORT_MARKER = 3;
/** Markers of a state (in liquidazione), not of a kind of body. */
const STATE_ONLY = new Set(['IN_LIQUIDAZIONE']);

export interface LegalMarker {
  form: LegalFormRow;
  /** The variant as found, folded. */
  variant: string;
}

interface MarkerIndex {
  /** Folded variant → the first form (file order) that lists it. */
  byVariant: Map<string, LegalFormRow>;
  longestWords: number;
}

const indexes = new WeakMap<ContactData, MarkerIndex>();

function indexOf(data: ContactData): MarkerIndex {
  let index = indexes.get(data);
  if (!index) {
    const byVariant = new Map<string, LegalFormRow>();
    let longestWords = 1;
    for (const form of data.legalForms) {
      for (const v of form.variants) {
        if (!byVariant.has(v)) byVariant.set(v, form);
        longestWords = Math.max(longestWords, v.split(' ').length);
      }
    }
    index = { byVariant, longestWords };
    indexes.set(data, index);
  }
  return index;
}

/** The legal form a name carries (S.R.L., SOC. COOP., CONDOMINIO, COMUNE DI…): every run of words looked up, the longest marker wins. */
export function legalFormOf(data: ContactData, ...parts: (string | undefined)[]): LegalMarker | undefined {
  const text = native.foldText(parts.filter(Boolean).join(' '));
  if (!text) return undefined;
  const { byVariant, longestWords } = indexOf(data);
  const words = text.split(' ');
  let best: LegalMarker | undefined;
  let state: LegalMarker | undefined;
  for (let start = 0; start < words.length; start++) {
    for (let n = Math.min(longestWords, words.length - start); n >= 1; n--) {
      const variant = words.slice(start, start + n).join(' ');
      const form = byVariant.get(variant);
      if (!form) continue;
      if (variant.replace(/ /g, '').length <= SHORT_MARKER && (words.length < 2 || (start === 0 && !form.position.startsWith('prefisso')))) continue;
      if (STATE_ONLY.has(form.form)) state ??= { form, variant };
      else if (!best || variant.length > best.variant.length) best = { form, variant };
      break;
    }
  }
  return best ?? state;
}

/** subject_type of a legal person: the marker's form in lower case (srl, spa, soc_coop, condominio, pa_comune…). */
export function subjectType(marker: LegalMarker): string {
  return STATE_ONLY.has(marker.form.form) ? 'company' : marker.form.form.toLowerCase();
}
