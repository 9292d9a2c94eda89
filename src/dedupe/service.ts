import type { ItemResult } from '../http/capability.js';
import type { Language } from '../http/language.js';
import { finishResult, outcomeTable } from '../http/outcomes.js';
import { dedupe, dedupeIncremental, dedupeJson, type Foreign, type GroupsResult, type IncrementalResult, type PairOut, type RunInput, type RunResult } from '../native.js';
import { DEDUPE_OUTCOMES, explain } from './outcomes.js';
import { prepareRecords } from './prepare.js';
import type { DedupeRecord, MinLevel } from './schema.js';

/** The core's answers (generated from `recapito_core::dedupe`): one list, or a list against a reference. */
export type CoreGroups = GroupsResult;
export type CoreResult = RunResult;

/** A saved one-list result with the changes of an incremental call applied. */
export function mergeIncremental(saved: CoreGroups, change: IncrementalResult): CoreGroups {
  const replaced = new Set([...change.groups.map((g) => g.group), ...change.removed_groups]);
  const grouped = new Set(change.groups.flatMap((g) => g.member_index));
  return {
    min_level: saved.min_level,
    groups: [...saved.groups.filter((g) => !replaced.has(g.group)), ...change.groups].sort((a, b) => a.group - b.group),
    singles: [...saved.singles.filter((s) => !grouped.has(s.index)), ...change.singles].sort((a, b) => a.index - b.index),
  };
}

export function isGroups(r: CoreResult): r is CoreGroups {
  return 'groups' in r;
}

export interface CompareInput {
  records: DedupeRecord[];
  reference?: DedupeRecord[] | null;
  min_level: MinLevel;
  foreign: Foreign;
}

/** The core's request: records prepared (prepare.ts), options as given. */
function runInput(input: CompareInput): RunInput {
  return {
    records: prepareRecords(input.records, input.foreign),
    reference: input.reference ? prepareRecords(input.reference, input.foreign) : undefined,
    min_level: input.min_level,
    foreign: input.foreign,
  };
}

/** The whole comparison runs in the Rust core on the libuv pool, off the JS thread. */
export async function compare(input: CompareInput): Promise<CoreResult> {
  return dedupe(runInput(input));
}

/** `compare`, its answer as the core's JSON text: an asynchronous job stores it without decoding it. */
export async function compareText(input: CompareInput): Promise<string> {
  return (await dedupeJson(runInput(input))).toString('utf8');
}

/** New records against a saved one-list result: only pairs with a new record are scored. */
export async function matchNew(saved: { records: DedupeRecord[]; result: CoreGroups; min_level: MinLevel; foreign: Foreign }, newRecords: DedupeRecord[]): Promise<IncrementalResult> {
  return dedupeIncremental({
    records: prepareRecords(saved.records, saved.foreign),
    groups: saved.result.groups,
    new_records: prepareRecords(newRecords, saved.foreign),
    min_level: saved.min_level,
    foreign: saved.foreign,
  });
}

const pair = (p: PairOut, language: Language) => ({ a: p.a, b: p.b, level: p.level, score: p.score, reasons: p.reasons, explanations: explain(p.reasons, language) });

/** A single record's outcome: only the internal duplicate is the core's to say. */
const OUTCOMES = outcomeTable(DEDUPE_OUTCOMES);

/** The public form of a result: English keys, no core indexes, reasons explained in the request language. */
export function present(result: CoreResult, language: Language, processed: Record<string, string> = {}): Record<string, unknown> {
  if (!isGroups(result)) {
    return {
      min_level: result.min_level,
      count: { records: result.matches.length + result.not_found.length, matches: result.matches.length, not_found: result.not_found.length },
      matches: result.matches.map((m) => ({
        id: m.id,
        reference_id: m.reference_id,
        level: m.level,
        score: m.score,
        reasons: m.reasons,
        explanations: explain(m.reasons, language),
        others: m.others.map((o) => ({ reference_id: o.reference_id, level: o.level, score: o.score })),
      })),
      not_found: result.not_found.map((n) => ({ id: n.id })),
    };
  }
  return {
    min_level: result.min_level,
    count: { records: result.groups.reduce((s, g) => s + g.members.length, 0) + result.singles.length, groups: result.groups.length, singles: result.singles.length },
    groups: result.groups.map((g) => ({
      group: g.group,
      members: g.members,
      level: g.level,
      reasons: g.reasons,
      explanations: explain(g.reasons, language),
      processed: processed[String(g.group)] !== undefined,
      processed_at: processed[String(g.group)] ?? null,
      main_record: { id: g.main_record.id, reason: g.main_record.reason, explanation: explain([g.main_record.reason], language)[0] },
      record: g.record,
      pairs: g.pairs.map((p) => pair(p, language)),
    })),
    singles: result.singles.map((s) => {
      const finished: ItemResult = finishResult({ outcome: s.outcome }, language, OUTCOMES);
      return { id: s.id, outcome: finished.outcome, outcome_label: finished.outcome_label, reason: finished.reason, ...(s.record ? { record: s.record } : {}) };
    }),
  };
}
