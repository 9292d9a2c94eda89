import { createHash, randomBytes } from 'node:crypto';

import { ApiError } from '../http/errors.js';
import { isLanguage, type Language } from '../http/language.js';
import type { AccountRecord, StateDb, TokenRecord } from '../state/db.js';

/** Tokens are stored only as their SHA-256: the store never holds a usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.trim()).digest('hex');
}

function newToken(): string {
  return `rk_${randomBytes(24).toString('base64url')}`;
}

export function createAccount(db: StateDb, name: string, language: string = 'en'): AccountRecord {
  const clean = name.trim();
  if (!/^[\w.@-]{1,64}$/.test(clean)) throw new Error(`account name must be 1-64 letters, digits, . _ @ -: ${name}`);
  if (!isLanguage(language)) throw new Error(`unsupported language ${language}`);
  if (db.accounts.get(clean)) throw new Error(`account ${clean} exists already`);
  const record: AccountRecord = { name: clean, language, created: new Date().toISOString() };
  db.accounts.putSync(clean, record);
  return record;
}

export function getAccount(db: StateDb, name: string): AccountRecord | undefined {
  return db.accounts.get(name);
}

export function createToken(db: StateDb, account: string | null, expiry: string | null = null): { token: string; record: TokenRecord } {
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
  db.tokens.putSync(hash, record);
  return { token, record };
}

export function listTokens(db: StateDb, account: string): TokenRecord[] {
  const out: TokenRecord[] = [];
  for (const { value } of db.tokens.getRange()) if (value.account === account) out.push(value);
  return out.sort((a, b) => a.created.localeCompare(b.created));
}

/** Finds a token record by the token itself or by its public id. */
function findToken(db: StateDb, tokenOrId: string): [string, TokenRecord] | undefined {
  const hash = hashToken(tokenOrId);
  const direct = db.tokens.get(hash);
  if (direct) return [hash, direct];
  for (const { key, value } of db.tokens.getRange()) if (value.id === tokenOrId.trim()) return [key, value];
  return undefined;
}

export function revokeToken(db: StateDb, tokenOrId: string): TokenRecord {
  const found = findToken(db, tokenOrId);
  if (!found) throw new Error('no such token');
  const [hash, record] = found;
  const revoked = { ...record, revoked: record.revoked ?? new Date().toISOString() };
  db.tokens.putSync(hash, revoked);
  return revoked;
}

/** A new token for the same account and expiry; the old one stops working at once. */
export function regenerateToken(db: StateDb, tokenOrId: string): { token: string; record: TokenRecord } {
  const old = revokeToken(db, tokenOrId);
  return createToken(db, old.account, old.expiry);
}

export interface Caller {
  tokenId: string;
  tokenHash: string;
  account: AccountRecord | null;
}

/** The caller behind a bearer token, or the 401 that explains why not. Counts the request. */
export function authenticate(db: StateDb, header: string | undefined): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new ApiError('unauthorized');
  const hash = hashToken(match[1]);
  const record = db.tokens.get(hash);
  if (!record) throw new ApiError('token_invalid');
  if (record.revoked) throw new ApiError('token_revoked');
  if (record.expiry && Date.parse(record.expiry) <= Date.now()) {
    throw new ApiError('token_expired', { expiry: record.expiry });
  }
  const now = new Date().toISOString();
  // counted in an asynchronous write transaction: lmdb-js batches these, so the hot path does not
  // wait on disk, and the read-modify-write inside it loses no increment under concurrency
  void db.root.transaction(() => {
    const current = db.tokens.get(hash);
    if (current) db.tokens.put(hash, { ...current, last_used: now, requests: current.requests + 1 });
  });
  const account = record.account ? (db.accounts.get(record.account) ?? null) : null;
  return { tokenId: record.id, tokenHash: hash, account };
}

export function accountLanguage(caller: Caller | undefined): Language | undefined {
  const lang = caller?.account?.language;
  return isLanguage(lang) ? lang : undefined;
}
