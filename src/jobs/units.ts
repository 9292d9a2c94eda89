import type { Capability, ProcessContext } from '../http/capability.js';
import { finishResult } from '../http/outcomes.js';
import type { StoredItem, StoredResult } from './store.js';

/**
 * What a job kind runs in a piscina worker for one unit of work: the unit's input as the job service stored or
 * loaded it, the unit's output as the job service commits it. Every kind is one of these, listed in the
 * registry (src/capabilities.ts): a capability's chunk of items, or a whole dedupe.
 */
export type UnitRunner = (input: unknown, ctx: ProcessContext) => Promise<unknown>;

/**
 * A capability's unit: a chunk of stored items run as one batch (objects), each result finished (outcome_label and
 * reason) from the table of every code, as the job's result rows.
 */
export function capabilityUnit(cap: Capability<unknown>): UnitRunner {
  return async (input, ctx) => {
    const stored = input as StoredItem[];
    const results = await cap.run(
      stored.map((s) => s.item),
      ctx,
    );
    if (results.length !== stored.length) throw new Error(`${cap.name} answered ${results.length} results for ${stored.length} items`);
    return results.map((r, i): StoredResult => ({ id: stored[i]?.id, result: finishResult(r, ctx.language) }));
  };
}
