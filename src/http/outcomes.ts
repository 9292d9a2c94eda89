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

/** The codes one capability can answer, each with its definition: a plain value each capability exports. */
export type OutcomeTable = Readonly<Record<string, OutcomeDefinition>>;

/** The two codes every capability shares: nothing to report, and the marker before the changed fields. */
export const COMMON_OUTCOMES: OutcomeTable = {
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
};

/**
 * The shared codes and the given tables as one: what a capability passes to `finishResult`. A code
 * defined twice differently is a programming error, found when the module loads.
 */
export function outcomeTable(...tables: OutcomeTable[]): OutcomeTable {
  const merged: Record<string, OutcomeDefinition> = { ...COMMON_OUTCOMES };
  for (const table of tables) {
    for (const [code, def] of Object.entries(table)) {
      const known = merged[code];
      if (known && known.it !== def.it) throw new Error(`outcome ${code} defined twice differently`);
      merged[code] = def;
    }
  }
  return merged;
}

/**
 * Every code the service answers: the capabilities' tables merged, given once at start by the registry
 * (`useOutcomes`, called by src/capabilities.ts), for what reads codes without knowing the capability
 * (Italian output keys, CSV columns, the console, the job worker). src/http lists no capability itself.
 */
let every: { table: OutcomeTable; fromItalian: Map<string, string> } | undefined;

/** The table of every code (the registry's `allOutcomes`), installed before any answer is written. */
export function useOutcomes(table: OutcomeTable): void {
  every = { table, fromItalian: new Map(Object.entries(table).map(([code, def]) => [def.it, code])) };
}

function installed(): { table: OutcomeTable; fromItalian: Map<string, string> } {
  if (!every) throw new Error('no outcome table: import src/capabilities.js (the registry) first');
  return every;
}

/** Every code the service answers (installed by the registry). */
export function allOutcomes(): OutcomeTable {
  return installed().table;
}

export function outcomeDefinition(code: string): OutcomeDefinition | undefined {
  return installed().table[code];
}

export function italianCode(code: string): string {
  return installed().table[code]?.it ?? code;
}

export function englishCode(code: string): string {
  return installed().fromItalian.get(code) ?? code;
}

const SEVERITY: Record<OutcomeLabel, number> = { ok: 0, modified: 1, warning: 2, error: 3 };

/** error beats warning beats modified beats ok. Codes listed after MODIFIED only say what changed. */
export function labelOf(outcome: readonly string[], table: OutcomeTable): OutcomeLabel {
  let label: OutcomeLabel = 'ok';
  const modifiedAt = outcome.indexOf('MODIFIED');
  for (let i = 0; i < outcome.length; i++) {
    const l: OutcomeLabel = modifiedAt >= 0 && i >= modifiedAt ? 'modified' : (table[outcome[i] as string]?.label ?? 'warning');
    if (SEVERITY[l] > SEVERITY[label]) label = l;
  }
  return label;
}

/** One line: the reasons of the conditions, then of the changes, in the request language. */
export function reasonOf(outcome: readonly string[], language: Language, table: OutcomeTable): string {
  if (outcome.length === 0) return table.OK?.reason[language] ?? 'OK';
  const modifiedAt = outcome.indexOf('MODIFIED');
  const conditions = modifiedAt >= 0 ? outcome.slice(0, modifiedAt) : outcome;
  const changes = modifiedAt >= 0 ? outcome.slice(modifiedAt + 1) : [];
  const parts = conditions.map((c) => table[c]?.reason[language] ?? c);
  if (modifiedAt >= 0) {
    const head = table.MODIFIED?.reason[language] ?? 'Modified';
    const fields = changes.map((c) => table[c]?.reason[language] ?? c);
    parts.push(fields.length ? `${head}: ${fields.join(', ')}` : head);
  }
  return parts.join('; ');
}

/**
 * A copy of a result's own fields into a new object, in their order. Not `{ ...result, … }`: V8 builds an
 * object spread followed by more fields through its slow path, about ten times the cost of this loop (~2 µs
 * a result, measured by i14-path), and a single call's answer was built that way twice.
 */
export function copyFields(result: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in result) if (Object.hasOwn(result, key)) out[key] = result[key];
  return out;
}

/**
 * outcome_label and reason filled from the outcome codes when the capability left them out, from the
 * capability's table (the job worker, which knows only the job's kind, reads them from every table).
 * The result is not changed (a capability may keep it in a memo); a result already complete is returned as it is.
 */
export function finishResult(result: ItemResult, language: Language, table: OutcomeTable = allOutcomes()): ItemResult {
  if (isFinished(result)) return result;
  return completeInto(copyFields(result), result, language, table) as ItemResult;
}

/** The result carries its outcome, label and reason already: nothing to finish. */
export function isFinished(result: ItemResult): boolean {
  return result.outcome_label !== undefined && result.reason !== undefined && result.outcome !== undefined;
}

/**
 * `finishResult` written into `out`, a copy of `result`'s fields the caller made (and may add to), or
 * `result` itself when nothing else holds it: the single call's answer is this object with its credit.
 */
export function completeInto(out: Record<string, unknown>, result: ItemResult, language: Language, table: OutcomeTable): Record<string, unknown> {
  const outcome = result.outcome ?? [];
  // assigned in this order, so that a field the result lacked comes last, as `{ ...result, outcome, outcome_label, reason }` put it
  out.outcome = outcome;
  out.outcome_label = result.outcome_label ?? labelOf(outcome, table);
  out.reason = result.reason ?? reasonOf(outcome, language, table);
  return out;
}
