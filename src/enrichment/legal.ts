import { foldKey, type ContactData, type LegalFormRow } from '../import/contact-store.js';

/** Markers this short (s.s., sc, sa, ag…) are also words or initials: they count as a name's first word only for forms written before the name (R.T.I., A.T.I.). */
const SHORT_MARKER = 3;
/** Markers of a state (in liquidazione), not of a kind of body. */
const STATE_ONLY = new Set(['IN_LIQUIDAZIONE']);

export interface LegalMarker {
  form: LegalFormRow;
  /** The variant as found, folded. */
  variant: string;
}

/** The legal form a name carries (S.R.L., SOC. COOP., CONDOMINIO, COMUNE DI…); the longest marker wins. */
export function legalFormOf(data: ContactData, ...parts: (string | undefined)[]): LegalMarker | undefined {
  const text = foldKey(parts.filter(Boolean).join(' '));
  if (!text) return undefined;
  const padded = ` ${text} `;
  const words = text.split(' ').length;
  let best: LegalMarker | undefined;
  let state: LegalMarker | undefined;
  for (const form of data.legalForms) {
    for (const variant of form.variants) {
      if (best && variant.length <= best.variant.length) break;
      const compact = variant.replace(/ /g, '');
      const inside = padded.includes(` ${variant} `);
      const first = padded.startsWith(` ${variant} `);
      const found = compact.length <= SHORT_MARKER ? inside && words > 1 && (!first || form.position.startsWith('prefisso')) : inside;
      if (!found) continue;
      if (STATE_ONLY.has(form.form)) state ??= { form, variant };
      else best = { form, variant };
      break;
    }
  }
  return best ?? state;
}

/** subject_type of a legal person: the marker's form in lower case (srl, spa, soc_coop, condominio, pa_comune…). */
export function subjectType(marker: LegalMarker): string {
  return STATE_ONLY.has(marker.form.form) ? 'company' : marker.form.form.toLowerCase();
}
