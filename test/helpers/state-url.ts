import { openStore } from '../../src/state/open.js';
import type { StateStore } from '../../src/state/store.js';
import { createDatabase } from './postgres.js';

/**
 * With RECAPITO_STATE_URL set (`npm run test:pg`, which starts the harness cluster), every test server
 * gets a database of its own on that cluster, so tests stay as independent as their LMDB data dirs.
 * Without it: undefined, LMDB.
 */
export async function freshStateUrl(): Promise<string | undefined> {
  const base = process.env.RECAPITO_STATE_URL?.trim();
  if (!base) return undefined;
  return createDatabase(base, `t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`);
}

/**
 * The state a test shares with the `recapito serve` processes it starts: a fresh PostgreSQL database
 * under `npm run test:pg` (its URL passed to the processes in `env`), else the data dir's LMDB.
 */
export async function processState(dataDir: string): Promise<{ state: StateStore; env: Record<string, string> }> {
  const url = await freshStateUrl();
  return { state: await openStore(dataDir, url), env: url ? { RECAPITO_STATE_URL: url } : {} };
}
