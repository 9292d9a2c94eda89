/**
 * Piscina worker: processes one chunk of one job and commits it. Runs in a worker thread, so it uses
 * the register the process already opened and the state store through its own lmdb-js handle.
 */
import { loadCapability } from '../capabilities.js';
import { finishResult } from '../http/outcomes.js';
import type { Language } from '../http/language.js';
import { openRegister } from '../native.js';
import { openState } from '../state/db.js';
import { chunkItems, chunkResults, commitChunk, getJob } from './store.js';

export interface ChunkTask {
  dataDir: string;
  job: string;
  chunk: number;
  allowPrivateNetwork: boolean;
  dnsServer?: string;
}

export default async function processChunk(task: ChunkTask): Promise<{ committed: boolean; rows: number }> {
  const db = openState(task.dataDir);
  const record = getJob(db, task.job);
  if (!record || record.state === 'cancelled' || record.state === 'failed') return { committed: false, rows: 0 };
  if (chunkResults(db, task.job, task.chunk) !== undefined) return { committed: false, rows: 0 };
  openRegister(task.dataDir);
  const cap = await loadCapability(record.kind);
  const stored = chunkItems(db, task.job, task.chunk);
  const language = record.language as Language;
  const results = await cap.process(
    stored.map((s) => s.item),
    { language, dataDir: task.dataDir, allowPrivateNetwork: task.allowPrivateNetwork, dnsServer: task.dnsServer },
  );
  if (results.length !== stored.length) throw new Error(`${cap.name} answered ${results.length} results for ${stored.length} items`);
  const committed = commitChunk(
    db,
    task.job,
    task.chunk,
    results.map((r, i) => ({ id: stored[i]?.id, result: finishResult(r, language) })),
  );
  return { committed, rows: stored.length };
}
