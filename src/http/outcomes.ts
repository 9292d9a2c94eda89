import type { ItemResult } from './capability.js';
import type { Language, Texts } from './language.js';

export type OutcomeLabel = 'ok' | 'modified' | 'warning' | 'error';

/** What the service knows about one outcome code: its Italian form, its weight and its reason. */
export interface OutcomeDefinition {
  /** The same code as older Italian clients know it (word for word, e.g. LOCALITA_NON_TROVATA). */
  it: string;
  /** How serious it is; `modified` for the MODIFIED marker and the changed-field codes after it. */
  label: OutcomeLabel;
  /** One-line explanation in every language. */
  reason: Texts;
}

const registry = new Map<string, OutcomeDefinition>();
const fromItalian = new Map<string, string>();

/** Each capability declares its codes once (in `<capability>/outcomes.ts`). */
export function defineOutcomes(defs: Record<string, OutcomeDefinition>): void {
  for (const [code, def] of Object.entries(defs)) {
    const known = registry.get(code);
    if (known && known.it !== def.it) throw new Error(`outcome ${code} defined twice differently`);
    registry.set(code, def);
    fromItalian.set(def.it, code);
  }
}

export function outcomeDefinition(code: string): OutcomeDefinition | undefined {
  return registry.get(code);
}

export function italianCode(code: string): string {
  return registry.get(code)?.it ?? code;
}

export function englishCode(code: string): string {
  return fromItalian.get(code) ?? code;
}

const SEVERITY: Record<OutcomeLabel, number> = { ok: 0, modified: 1, warning: 2, error: 3 };

/** error beats warning beats modified beats ok. Codes listed after MODIFIED only say what changed. */
export function labelOf(outcome: readonly string[]): OutcomeLabel {
  let label: OutcomeLabel = 'ok';
  const modifiedAt = outcome.indexOf('MODIFIED');
  outcome.forEach((code, i) => {
    const def = registry.get(code);
    const l: OutcomeLabel = modifiedAt >= 0 && i >= modifiedAt ? 'modified' : (def?.label ?? 'warning');
    if (SEVERITY[l] > SEVERITY[label]) label = l;
  });
  return label;
}

/** One line: the reasons of the conditions, then of the changes, in the request language. */
export function reasonOf(outcome: readonly string[], language: Language): string {
  if (outcome.length === 0) return registry.get('OK')?.reason[language] ?? 'OK';
  const modifiedAt = outcome.indexOf('MODIFIED');
  const conditions = modifiedAt >= 0 ? outcome.slice(0, modifiedAt) : outcome;
  const changes = modifiedAt >= 0 ? outcome.slice(modifiedAt + 1) : [];
  const parts = conditions.map((c) => registry.get(c)?.reason[language] ?? c);
  if (modifiedAt >= 0) {
    const head = registry.get('MODIFIED')?.reason[language] ?? 'Modified';
    const fields = changes.map((c) => registry.get(c)?.reason[language] ?? c);
    parts.push(fields.length ? `${head}: ${fields.join(', ')}` : head);
  }
  return parts.join('; ');
}

/** outcome_label and reason are filled from the outcome codes when the capability left them out. */
export function finishResult(result: ItemResult, language: Language): ItemResult {
  const outcome = result.outcome ?? [];
  return {
    ...result,
    outcome,
    outcome_label: result.outcome_label ?? labelOf(outcome),
    reason: result.reason ?? reasonOf(outcome, language),
  };
}

// The two codes every capability shares: nothing to report, and the marker before the changed fields.
defineOutcomes({
  OK: {
    it: 'OK',
    label: 'ok',
    reason: {
      en: 'Nothing to report', it: 'Nessuna segnalazione', de: 'Nichts zu melden', fr: 'Rien à signaler', es: 'Nada que señalar',
      nl: 'Niets te melden', pt: 'Nada a assinalar', sv: 'Inget att anmärka', no: 'Ingenting å melde', fi: 'Ei huomautettavaa',
      da: 'Intet at bemærke', is: 'Ekkert að athuga', el: 'Τίποτα προς αναφορά',
    },
  },
  MODIFIED: {
    it: 'MODIFICATO',
    label: 'modified',
    reason: {
      en: 'Corrected', it: 'Corretto', de: 'Korrigiert', fr: 'Corrigé', es: 'Corregido', nl: 'Gecorrigeerd', pt: 'Corrigido',
      sv: 'Korrigerat', no: 'Korrigert', fi: 'Korjattu', da: 'Rettet', is: 'Leiðrétt', el: 'Διορθώθηκε',
    },
  },
});
