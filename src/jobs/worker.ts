/**
 * Piscina worker: runs one unit of work of one job and hands its output back. It reads and writes no
 * state: the node's job service loads the unit's input and commits the output (results and progress
 * together), whichever back end holds the jobs (LMDB here, or PostgreSQL shared by several nodes).
 * What a unit is belongs to its job kind, listed in the registry (src/capabilities.ts): no kind is special here.
 */
import { jobUnits } from '../capabilities.js';
import type { Language } from '../http/language.js';
import { openRegister } from '../native.js';

export interface UnitTask {
  /** The job's kind: a registry entry's name. */
  kind: string;
  language: string;
  dataDir: string;
  allowPrivateNetwork: boolean;
  dnsServer?: string;
  input: unknown;
}

export default async function processUnit(task: UnitTask): Promise<unknown> {
  openRegister(task.dataDir);
  const run = await jobUnits(task.kind);
  return run(task.input, { language: task.language as Language, dataDir: task.dataDir, allowPrivateNetwork: task.allowPrivateNetwork, dnsServer: task.dnsServer });
}
