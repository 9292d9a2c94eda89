/**
 * Piscina worker: runs one unit of work of one job and hands its output back. It reads and writes no
 * state: the node's job service loads the unit's input and commits the output (results and progress
 * together), whichever back end holds the jobs (LMDB here, or PostgreSQL shared by several nodes).
 */
import { loadCapability } from '../capabilities.js';
import { runDedupeUnit, type DedupeUnit } from '../dedupe/job.js';
import { finishResult } from '../http/outcomes.js';
import type { Language } from '../http/language.js';
import { openRegister } from '../native.js';
import type { StoredItem, StoredResult } from './store.js';

export interface UnitTask {
  /** A capability name, or `dedupe`. */
  kind: string;
  language: string;
  dataDir: string;
  allowPrivateNetwork: boolean;
  dnsServer?: string;
  input: unknown;
}

export default async function processUnit(task: UnitTask): Promise<unknown> {
  openRegister(task.dataDir);
  if (task.kind === 'dedupe') return runDedupeUnit(task.input as DedupeUnit);
  const cap = await loadCapability(task.kind);
  const stored = task.input as StoredItem[];
  const language = task.language as Language;
  const results = await cap.process(
    stored.map((s) => s.item),
    { language, dataDir: task.dataDir, allowPrivateNetwork: task.allowPrivateNetwork, dnsServer: task.dnsServer },
  );
  if (results.length !== stored.length) throw new Error(`${cap.name} answered ${results.length} results for ${stored.length} items`);
  return results.map((r, i): StoredResult => ({ id: stored[i]?.id, result: finishResult(r, language) }));
}
