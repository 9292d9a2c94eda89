import { lmdbStore } from './lmdb.js';
import { migrate, postgresStore } from './postgres.js';
import type { StateStore } from './store.js';

/** Where the state lives: `RECAPITO_STATE_URL` (postgres://…) or, without it, LMDB in the data dir. */
export function stateUrlFromEnv(): string | undefined {
  const url = process.env.RECAPITO_STATE_URL?.trim();
  return url ? url : undefined;
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** Stores already open in this process, by data dir or URL: every module of one service shares one. */
const opened = new Map<string, StateStore>();

/**
 * The state store the service and the CLI use: PostgreSQL when `stateUrl` names one (the schema migrated
 * first, see ./postgres.ts), else LMDB under `<dataDir>/state`.
 */
export async function openStore(dataDir: string, stateUrl: string | undefined = stateUrlFromEnv()): Promise<StateStore> {
  if (stateUrl !== undefined && !isPostgresUrl(stateUrl)) throw new Error(`RECAPITO_STATE_URL must be a postgres:// URL (got ${String(stateUrl).split(':')[0]}:…)`);
  const name = stateUrl ?? `lmdb:${dataDir}`;
  const known = opened.get(name);
  if (known) return known;
  let store: StateStore;
  if (stateUrl) {
    await migrate(stateUrl);
    store = postgresStore(stateUrl);
  } else {
    store = lmdbStore(dataDir);
  }
  let closing: Promise<void> | undefined;
  const shared: StateStore = {
    ...store,
    // the service and its tests may both close the one store: once
    close: () => {
      if (opened.get(name) === shared) opened.delete(name);
      closing ??= store.close();
      return closing;
    },
  };
  opened.set(name, shared);
  return shared;
}
