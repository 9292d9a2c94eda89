import { createHash, randomBytes } from 'node:crypto';

import { DEFAULT_TRIAL, grantTrial, moveTrial } from '../credit/trial.js';
import type { Payer } from '../credit/ledger.js';
import type { Counter } from '../http/capability.js';
import { ApiError } from '../http/errors.js';
import { isLanguage, type Language } from '../http/language.js';
import { addRider, batchedWrite } from '../state/commit.js';
import type { AccountRecord, StateDb, TokenRecord } from '../state/db.js';

/** Tokens are stored only as their SHA-256: the store never holds a usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.trim()).digest('hex');
}

function newToken(): string {
  return `rk_${randomBytes(24).toString('base64url')}`;
}

/**
 * Every process caches what authentication needs (token → record and account) and drops the cache when
 * this counter moves. Whoever changes a token or an account in a way that matters to authentication
 * (revoke, regenerate, an account's language) bumps it, in whatever process it runs (the CLI, another
 * server): the next request of every server reads the new value and looks the token up again.
 */
const GENERATION_KEY = 'auth/generation';

function generation(db: StateDb): number {
  return (db.kv.get(GENERATION_KEY) as number | undefined) ?? 0;
}

/** Call inside the write transaction that changes a token or an account. */
export function bumpAuthGeneration(db: StateDb): void {
  db.kv.put(GENERATION_KEY, generation(db) + 1);
}

export function createAccount(db: StateDb, name: string, language: string = 'en'): AccountRecord {
  const clean = name.trim();
  if (!/^[\w.@-]{1,64}$/.test(clean)) throw new Error(`account name must be 1-64 letters, digits, . _ @ -: ${name}`);
  if (!isLanguage(language)) throw new Error(`unsupported language ${language}`);
  if (db.accounts.get(clean)) throw new Error(`account ${clean} exists already`);
  const record: AccountRecord = { name: clean, language, created: new Date().toISOString() };
  db.root.transactionSync(() => {
    db.accounts.put(clean, record);
    bumpAuthGeneration(db);
  });
  return record;
}

export function getAccount(db: StateDb, name: string): AccountRecord | undefined {
  return db.accounts.get(name);
}

export interface NewTokenOptions {
  expiry?: string | null;
  /** Trial allowance of a token without an account (default DEFAULT_TRIAL); ignored with an account. */
  trial?: Partial<Record<Counter, number>>;
}

export function createToken(db: StateDb, account: string | null, expiryOrOptions: string | null | NewTokenOptions = null): { token: string; record: TokenRecord } {
  const options: NewTokenOptions = typeof expiryOrOptions === 'object' && expiryOrOptions !== null ? expiryOrOptions : { expiry: expiryOrOptions };
  const expiry = options.expiry ?? null;
  if (account !== null && !db.accounts.get(account)) throw new Error(`no account ${account}`);
  if (expiry !== null && Number.isNaN(Date.parse(expiry))) throw new Error(`expiry is not an ISO-8601 date: ${expiry}`);
  const token = newToken();
  const hash = hashToken(token);
  const record: TokenRecord = {
    id: hash.slice(0, 12),
    account,
    created: new Date().toISOString(),
    expiry: expiry === null ? null : new Date(expiry).toISOString(),
    revoked: null,
    last_used: null,
    requests: 0,
  };
  db.root.transactionSync(() => {
    db.tokens.put(hash, record);
    if (account === null) grantTrial(db, record.id, options.trial ?? DEFAULT_TRIAL);
  });
  return { token, record };
}

/** The tokens of an account, or with `null` the tokens without an account. */
export function listTokens(db: StateDb, account: string | null): TokenRecord[] {
  const out: TokenRecord[] = [];
  for (const { value } of db.tokens.getRange()) if (value.account === account) out.push(value);
  return out.sort((a, b) => a.created.localeCompare(b.created));
}

/** Finds a token record by the token itself or by its public id. */
export function findToken(db: StateDb, tokenOrId: string): [string, TokenRecord] | undefined {
  const hash = hashToken(tokenOrId);
  const direct = db.tokens.get(hash);
  if (direct) return [hash, direct];
  for (const { key, value } of db.tokens.getRange()) if (value.id === tokenOrId.trim()) return [key, value];
  return undefined;
}

export function revokeToken(db: StateDb, tokenOrId: string): TokenRecord {
  return db.root.transactionSync(() => {
    const found = findToken(db, tokenOrId);
    if (!found) throw new Error('no such token');
    const [hash, record] = found;
    const revoked = { ...record, revoked: record.revoked ?? new Date().toISOString() };
    db.tokens.put(hash, revoked);
    bumpAuthGeneration(db);
    return revoked;
  });
}

/** A new token for the same account and expiry; the old one stops working at once. */
export function regenerateToken(db: StateDb, tokenOrId: string): { token: string; record: TokenRecord } {
  const old = revokeToken(db, tokenOrId);
  const fresh = createToken(db, old.account, { expiry: old.expiry, trial: {} });
  if (old.account === null) moveTrial(db, old.id, fresh.record.id);
  return fresh;
}

export interface Caller {
  tokenId: string;
  tokenHash: string;
  account: AccountRecord | null;
  /** Whose credit the caller's calls consume: the account, or the token's own trial allowance. */
  payer: Payer;
  /** Settles when this request is counted on disk (requests, last_used): await before answering. */
  counted: () => Promise<void>;
}

interface KnownToken {
  hash: string;
  record: TokenRecord;
  /** `record.expiry` in ms since the epoch; Infinity without expiry. */
  expires: number;
  account: AccountRecord | null;
  payer: Payer;
}

/** Token lookups of one process (see GENERATION_KEY). Unknown tokens are not cached: a flood of them cannot grow it. */
interface TokenCache {
  generation: number;
  byToken: Map<string, KnownToken>;
  /** The generation was read in this event-loop turn (lmdb-js reads one snapshot per turn anyway). */
  fresh: boolean;
}

const CACHE_MAX = 10_000;
const caches = new WeakMap<StateDb, TokenCache>();

function lookup(db: StateDb, token: string): KnownToken | undefined {
  let cache = caches.get(db);
  if (!cache?.fresh) {
    const now = generation(db);
    if (!cache || cache.generation !== now) {
      cache = { generation: now, byToken: new Map(), fresh: true };
      caches.set(db, cache);
    }
    const checked = cache;
    checked.fresh = true;
    setImmediate(() => {
      checked.fresh = false;
    });
  }
  const known = cache.byToken.get(token);
  if (known) return known;
  const hash = hashToken(token);
  const record = db.tokens.get(hash);
  if (!record) return undefined;
  const account = record.account ? (db.accounts.get(record.account) ?? null) : null;
  const expires = record.expiry ? Date.parse(record.expiry) : Infinity;
  const found: KnownToken = { hash, record, expires, account, payer: account ? { account: account.name } : { token: record.id } };
  if (cache.byToken.size >= CACHE_MAX) cache.byToken.clear();
  cache.byToken.set(token, found);
  return found;
}

/**
 * Usage counters (`requests`, `last_used`) gathered in memory and written by the first shared commit
 * that comes (usually the request's own charge): never a commit of their own per request. A request is
 * answered only after the commit that holds its count is on disk, so a crash loses none.
 */
interface UsageRound {
  promise: Promise<void>;
  settle: (error?: unknown) => void;
  /** A commit was asked for this round (an answer is waiting and no charge took the counts along). */
  asked: boolean;
}

interface UsageBuffer {
  pending: Map<string, { requests: number; last_used: string }>;
  /** The round that the next commit will write. */
  round: UsageRound | null;
}

const buffers = new WeakMap<StateDb, UsageBuffer>();

function usageBuffer(db: StateDb): UsageBuffer {
  let buffer = buffers.get(db);
  if (buffer) return buffer;
  const created: UsageBuffer = { pending: new Map(), round: null };
  addRider(db, () => {
    const { pending, round } = created;
    if (!round) return undefined;
    created.pending = new Map();
    created.round = null;
    for (const [hash, use] of pending) {
      const record = db.tokens.get(hash);
      if (record) db.tokens.put(hash, { ...record, last_used: use.last_used, requests: record.requests + use.requests });
    }
    return round.settle;
  });
  buffers.set(db, created);
  return created;
}

/** Counts one request; the answer awaits the returned function's promise before it leaves. */
function countRequest(db: StateDb, hash: string, now: string): () => Promise<void> {
  const buffer = usageBuffer(db);
  const use = buffer.pending.get(hash);
  if (use) {
    use.requests += 1;
    use.last_used = now;
  } else {
    buffer.pending.set(hash, { requests: 1, last_used: now });
  }
  let round = buffer.round;
  if (!round) {
    let settle!: (error?: unknown) => void;
    const promise = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    promise.catch(() => undefined);
    round = buffer.round = { promise, settle, asked: false };
  }
  const mine = round;
  return () => {
    // still pending when the answer is ready (no charge took it along): one commit for the whole round
    if (buffer.round === mine && !mine.asked) {
      mine.asked = true;
      void batchedWrite(db, () => undefined);
    }
    return mine.promise;
  };
}

/** The caller behind a bearer token, or the 401 that explains why not. Counts the request. */
export function authenticate(db: StateDb, header: string | undefined): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new ApiError('unauthorized');
  const known = lookup(db, match[1]);
  if (!known) throw new ApiError('token_invalid');
  const { record } = known;
  if (record.revoked) throw new ApiError('token_revoked');
  if (known.expires <= Date.now()) {
    throw new ApiError('token_expired', { expiry: record.expiry ?? '' });
  }
  const counted = countRequest(db, known.hash, new Date().toISOString());
  return { tokenId: record.id, tokenHash: known.hash, account: known.account, payer: known.payer, counted };
}

export function accountLanguage(caller: Caller | undefined): Language | undefined {
  const lang = caller?.account?.language;
  return isLanguage(lang) ? lang : undefined;
}
