import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { open, type Database, type RootDatabase } from 'lmdb';

/**
 * Service state (accounts, tokens, credits, jobs, sessions) in one LMDB environment under
 * `<data-dir>/state`. lmdb-js serialises write transactions across threads and processes, which is
 * what makes credit consumption exact under concurrency.
 */
export interface StateDb {
  root: RootDatabase;
  accounts: Database<AccountRecord, string>;
  tokens: Database<TokenRecord, string>;
  credits: Database<CreditRecord, string>;
  /** Trial allowances of tokens without an account, by `<token id>/<counter>`. */
  trials: Database<TrialRecord, string>;
  jobs: Database<JobRecord, string>;
  jobChunks: Database<unknown[], string>;
  jobResults: Database<unknown[], string>;
  kv: Database<unknown, string>;
}

export interface AccountRecord {
  name: string;
  language: string;
  created: string;
}

export interface TokenRecord {
  /** Public id (first characters of the hash): what lists show, never the token. */
  id: string;
  account: string | null;
  created: string;
  expiry: string | null;
  revoked: string | null;
  last_used: string | null;
  requests: number;
  /** `suggest`: the autocomplete endpoint only (a widget proxy's token, docs/widget.md); absent: every endpoint. */
  kind?: TokenKind;
  /** Suggest tokens: charged selects a UTC day; absent: no cap beyond the credit. */
  daily_selects?: number;
  /** The console's own token for an account (src/console/client.ts): not counted against the account's limit. */
  internal?: boolean;
}

/** What a token may call: `full` every endpoint (the default), `suggest` only autocomplete. */
export type TokenKind = 'full' | 'suggest';

export interface CreditRecord {
  account: string;
  counter: string;
  /** YYYY-MM of the free allowance and the monthly figures below. */
  month: string;
  free_used: number;
  subscription: { size: number; left: number; activated_on: string; renews_on: string } | null;
  packs: { id: string; size: number; left: number; bought_on: string; auto: boolean; price_eur: number }[];
  auto_topup: { active: boolean; size: number; monthly_cap_eur: number; spent_month_eur: number };
  used_month: number;
  used_total: number;
  last_used: string | null;
  bought_ever: boolean;
  /**
   * Spent packs moved out of `packs` to `credit_packs` (`<account>/<counter>/<pack id>`), so that a charge
   * does not copy and encode every pack ever bought (src/state/ledger.ts, `retireSpent`): `packs` holds the
   * packs with operations left. Absent: none.
   */
  packs_retired?: number;
}

/** What a token without an account may consume on one counter: granted by the operator, never renewed. */
export interface TrialRecord {
  token: string;
  counter: string;
  /** Operations granted (the last grant). */
  size: number;
  left: number;
  used_total: number;
  last_used: string | null;
}

export interface JobRecord {
  job: string;
  kind: string;
  account: string;
  language: string;
  italian: boolean;
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  rows: number;
  done: number;
  chunks: number;
  chunks_done: number;
  chunk_size: number;
  created: string;
  updated: string;
  counter: string;
  charged: number;
  refunded: number;
  outcomes: { ok: number; modified: number; to_check: number; unresolved: number };
  error: string | null;
  /** Units per chunk, to give back exactly what was not processed. */
  chunk_units: number[];
}

const opened = new Map<string, StateDb>();

/**
 * The state holds session ids, the console's cookie secret, password and token hashes and uploaded lists:
 * its folder is 0700 and its files 0600 (the owner alone), whatever the umask, also when a data dir made
 * before (0644, issue 33) is opened again. The folder is private before LMDB makes a file in it.
 */
function privateState(dir: string, files: boolean): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (files) for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isFile()) chmodSync(path.join(dir, entry.name), 0o600);
}

export function openState(dataDir: string): StateDb {
  const dir = path.join(dataDir, 'state');
  const known = opened.get(dir);
  if (known) return known;
  privateState(dir, false);
  // maxDbs: lmdb-js allows 12 named databases by default; the service has about a dozen already
  const root = open({ path: dir, compression: false, maxDbs: 32 });
  privateState(dir, true);
  const db: StateDb = {
    root,
    accounts: root.openDB({ name: 'accounts' }),
    tokens: root.openDB({ name: 'tokens' }),
    credits: root.openDB({ name: 'credits' }),
    trials: root.openDB({ name: 'trials' }),
    jobs: root.openDB({ name: 'jobs' }),
    jobChunks: root.openDB({ name: 'job_chunks' }),
    jobResults: root.openDB({ name: 'job_results' }),
    kv: root.openDB({ name: 'kv' }),
  };
  opened.set(dir, db);
  return db;
}

export async function closeState(dataDir: string): Promise<void> {
  const dir = path.join(dataDir, 'state');
  const db = opened.get(dir);
  if (!db) return;
  opened.delete(dir);
  await db.root.close();
}
