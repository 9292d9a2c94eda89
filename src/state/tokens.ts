import { createHash, randomBytes } from 'node:crypto';

import { DEFAULT_TRIAL, moveTrial, trialGrant, trialKey } from './trial.js';
import type { Payer } from './ledger.js';
import type { Counter } from '../http/capability.js';
import { ApiError } from '../http/errors.js';
import { isLanguage, type Language } from '../http/language.js';
import { isoNow } from './clock.js';
import type { AccountRecord, TokenKind, TokenRecord, TrialRecord } from './db.js';
import { doc, type DocChange, type StateStore } from './store.js';

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
 * (revoke, regenerate, an account's language) bumps it in the same atomic update, in whatever process it
 * runs (the CLI, another node): every request reads the counter (see `generationNow`) and so a revoke on
 * one node is refused by every node from the next request on.
 */
const GENERATION_KEY = 'auth/generation';
const GENERATION = doc('kv', GENERATION_KEY);

/** The change that bumps the generation, given the document read in the same update. */
function bumped(stored: unknown): DocChange {
  return { ...GENERATION, doc: ((stored as number | undefined) ?? 0) + 1 };
}

export async function createAccount(store: StateStore, name: string, language: string = 'en'): Promise<AccountRecord> {
  const clean = name.trim();
  if (!/^[\w.@-]{1,64}$/.test(clean)) throw new Error(`account name must be 1-64 letters, digits, . _ @ -: ${name}`);
  if (!isLanguage(language)) throw new Error(`unsupported language ${language}`);
  const record: AccountRecord = { name: clean, language, created: new Date().toISOString() };
  const written = store.update([doc('accounts', clean), GENERATION], ([existing, generation]) => {
    if (existing) throw new Error(`account ${clean} exists already`);
    return { result: record, write: [{ ns: 'accounts', key: clean, doc: record }, bumped(generation)] };
  });
  generationMoved(store);
  return written.durable;
}

export function getAccount(store: StateStore, name: string): Promise<AccountRecord | undefined> {
  return store.get<AccountRecord>('accounts', name);
}

export async function listAccounts(store: StateStore): Promise<AccountRecord[]> {
  return (await store.list<AccountRecord>('accounts')).map((e) => e.value);
}

export interface NewTokenOptions {
  expiry?: string | null;
  /** Trial allowance of a token without an account (default DEFAULT_TRIAL); ignored with an account. */
  trial?: Partial<Record<Counter, number>>;
  /** `suggest`: a token for a widget proxy, refused by every endpoint but autocomplete (default `full`). */
  kind?: TokenKind;
  /** With `kind: 'suggest'`: charged selects a UTC day (none: no cap beyond the credit). */
  dailySelects?: number;
  /** The console's own token (src/console/client.ts): outside the account's limit and not counted in it. */
  internal?: boolean;
}

/**
 * Live tokens (neither revoked nor expired) one account may hold: every token has its own rate limits, so
 * unlimited tokens would multiply them. RECAPITO_MAX_TOKENS_PER_ACCOUNT, default 10 (docs/operations.md).
 */
export function maxTokensPerAccount(): number {
  const value = Number(process.env.RECAPITO_MAX_TOKENS_PER_ACCOUNT ?? 10);
  if (!Number.isInteger(value) || value < 1) throw new Error(`RECAPITO_MAX_TOKENS_PER_ACCOUNT must be a whole number ≥ 1, not ${process.env.RECAPITO_MAX_TOKENS_PER_ACCOUNT}`);
  return value;
}

/** A token refused because its account holds the most live tokens allowed (409 in the console). */
export class TokenLimitError extends Error {
  readonly statusCode = 409;
  constructor(
    account: string,
    readonly max: number,
  ) {
    super(`account ${account} has ${max} live tokens, the most allowed (RECAPITO_MAX_TOKENS_PER_ACCOUNT): revoke one first`);
  }
}

/** A token counted against its account's limit: a customer's, neither revoked nor expired. */
const counts = (t: TokenRecord, now: number): boolean => !t.internal && t.revoked === null && (t.expiry === null || Date.parse(t.expiry) > now);

/**
 * The live tokens of an account, one document read and written inside the update that creates or revokes a
 * token: the limit is decided on it under the update's lock, so tokens made at the same moment (two
 * console tabs, two nodes) cannot pass it, as they could when the count was read beside the update.
 * Expired tokens are dropped when it is read; internal tokens are never in it.
 */
interface LiveToken {
  id: string;
  expiry: string | null;
}
const liveEntry = (account: string) => doc('kv', `account-tokens/${account}`);

/** The list for an account whose tokens predate it: built from its tokens, once, by the next create. */
async function liveTokensBeforeIndex(store: StateStore, account: string): Promise<LiveToken[]> {
  if ((await store.get<LiveToken[]>('kv', liveEntry(account).key)) !== undefined) return [];
  const now = Date.now();
  return (await listTokens(store, account)).filter((t) => counts(t, now)).map((t) => ({ id: t.id, expiry: t.expiry }));
}

export async function createToken(store: StateStore, account: string | null, expiryOrOptions: string | null | NewTokenOptions = null): Promise<{ token: string; record: TokenRecord }> {
  const options: NewTokenOptions = typeof expiryOrOptions === 'object' && expiryOrOptions !== null ? expiryOrOptions : { expiry: expiryOrOptions };
  const expiry = options.expiry ?? null;
  if (account !== null && !(await getAccount(store, account))) throw new Error(`no account ${account}`);
  if (expiry !== null && Number.isNaN(Date.parse(expiry))) throw new Error(`expiry is not an ISO-8601 date: ${expiry}`);
  const kind = options.kind ?? 'full';
  const daily = options.dailySelects;
  if (daily !== undefined && (kind !== 'suggest' || !Number.isInteger(daily) || daily < 1)) throw new Error('a daily cap on selects is for suggest tokens, a whole number ≥ 1');
  const limited = account !== null && !options.internal ? account : null;
  const max = limited === null ? 0 : maxTokensPerAccount();
  const seed = limited === null ? [] : await liveTokensBeforeIndex(store, limited);
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
    ...(kind === 'suggest' ? { kind } : {}),
    ...(daily === undefined ? {} : { daily_selects: daily }),
    ...(options.internal ? { internal: true } : {}),
  };
  const trial = account === null ? (options.trial ?? DEFAULT_TRIAL) : {};
  const trialKeys = Object.keys(trial).map((c) => doc('trials', trialKey(record.id, c)));
  const held = limited === null ? [] : [liveEntry(limited)];
  await store.update([...trialKeys, ...held], (stored) => {
    const write: DocChange[] = [{ ns: 'tokens', key: hash, doc: record }, { ...idEntry(record.id), doc: hash }, ...trialGrant(record.id, stored.slice(0, trialKeys.length) as (TrialRecord | undefined)[], trial)];
    if (limited !== null) {
      const now = Date.now();
      const live = ((stored[trialKeys.length] as LiveToken[] | undefined) ?? seed).filter((t) => t.expiry === null || Date.parse(t.expiry) > now);
      if (live.length >= max) throw new TokenLimitError(limited, max);
      write.push({ ...liveEntry(limited), doc: [...live, { id: record.id, expiry: record.expiry }] });
    }
    return { result: undefined, write };
  }).durable;
  return { token, record };
}

/**
 * Public id → token hash, one small document per token written with the token, so that the CLI and
 * the console find a token by its id with one read instead of listing every token. Tokens created
 * before the index existed are indexed once, by the first lookup that misses (INDEXED marks it done).
 */
const idEntry = (id: string) => doc('kv', `token-id/${id}`);
const INDEXED = doc('kv', 'token-id/indexed');

async function indexTokenIds(store: StateStore): Promise<void> {
  const all = await store.list<TokenRecord>('tokens');
  await store.update([INDEXED], () => ({ result: undefined, write: [...all.map(({ key, value }) => ({ ...idEntry(value.id), doc: key })), { ...INDEXED, doc: true }] })).durable;
}

async function hashOfId(store: StateStore, id: string): Promise<string | undefined> {
  const hash = await store.get<string>('kv', idEntry(id).key);
  if (hash !== undefined || (await store.get<boolean>('kv', INDEXED.key))) return hash;
  await indexTokenIds(store);
  return store.get<string>('kv', idEntry(id).key);
}

/** The tokens of an account, or with `null` the tokens without an account. */
export async function listTokens(store: StateStore, account: string | null): Promise<TokenRecord[]> {
  const out = (await store.list<TokenRecord>('tokens')).map((e) => e.value).filter((t) => t.account === account);
  return out.sort((a, b) => a.created.localeCompare(b.created));
}

/** Finds a token record by the token itself or by its public id. */
export async function findToken(store: StateStore, tokenOrId: string): Promise<[string, TokenRecord] | undefined> {
  const hash = hashToken(tokenOrId);
  const direct = await store.get<TokenRecord>('tokens', hash);
  if (direct) return [hash, direct];
  const byId = await hashOfId(store, tokenOrId.trim());
  const record = byId === undefined ? undefined : await store.get<TokenRecord>('tokens', byId);
  return byId !== undefined && record ? [byId, record] : undefined;
}

export async function revokeToken(store: StateStore, tokenOrId: string): Promise<TokenRecord> {
  const found = await findToken(store, tokenOrId);
  if (!found) throw new Error('no such token');
  const [hash, { account }] = found;
  const held = account === null ? [] : [liveEntry(account)];
  const written = store.update([doc('tokens', hash), GENERATION, ...held], ([stored, generation, live]) => {
    const record = stored as TokenRecord | undefined;
    if (!record) throw new Error('no such token');
    const revoked = { ...record, revoked: record.revoked ?? new Date().toISOString() };
    const write: DocChange[] = [{ ns: 'tokens', key: hash, doc: revoked }, bumped(generation)];
    if (account !== null && live !== undefined) write.push({ ...liveEntry(account), doc: (live as LiveToken[]).filter((t) => t.id !== record.id) });
    return { result: revoked, write };
  });
  generationMoved(store);
  return written.durable;
}

/** A new token for the same account and expiry; the old one stops working at once. */
export async function regenerateToken(store: StateStore, tokenOrId: string): Promise<{ token: string; record: TokenRecord }> {
  const old = await revokeToken(store, tokenOrId);
  const fresh = await createToken(store, old.account, { expiry: old.expiry, trial: {}, kind: old.kind, dailySelects: old.daily_selects });
  if (old.account === null) await moveTrial(store, old.id, fresh.record.id);
  return fresh;
}

export interface Caller {
  tokenId: string;
  tokenHash: string;
  account: AccountRecord | null;
  /** Whose credit the caller's calls consume: the account, or the token's own trial allowance. */
  payer: Payer;
  /** `suggest` tokens call autocomplete only, with `dailySelects` charged selects a UTC day (null: no cap). */
  kind: TokenKind;
  dailySelects: number | null;
  /** Settles when this request is counted on disk (requests, last_used): await before answering; null when it is already. */
  counted: () => Promise<void> | null;
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
}

const CACHE_MAX = 10_000;
const caches = new WeakMap<StateStore, TokenCache>();

/** Reads of the generation counter of one store: at most one on its way, and one queued behind it. */
interface GenerationReads {
  inflight: Promise<number> | null;
  next: Promise<number> | null;
}

const reads = new WeakMap<StateStore, GenerationReads>();

function startRead(store: StateStore, r: GenerationReads): Promise<number> {
  const read = store.get<number>('kv', GENERATION_KEY).then((v) => v ?? 0);
  r.inflight = read;
  void read.finally(() => {
    if (r.inflight === read) r.inflight = null;
  }).catch(() => undefined);
  return read;
}

/**
 * LMDB: the generation read in this event-loop turn. lmdb-js reads one snapshot per turn anyway, and a
 * read per request (a native call, often renewing the read transaction) was a third of what
 * authenticating a cached token cost. A generation this process moves is read again at once.
 */
interface TurnRead {
  generation: number;
  fresh: boolean;
}

const turnReads = new WeakMap<StateStore, TurnRead>();

function generationMoved(store: StateStore): void {
  turnReads.delete(store);
}

function generationThisTurn(store: StateStore, getNow: NonNullable<StateStore['getNow']>): number {
  const known = turnReads.get(store);
  if (known?.fresh) return known.generation;
  const read: TurnRead = { generation: getNow<number>('kv', GENERATION_KEY) ?? 0, fresh: true };
  turnReads.set(store, read);
  setImmediate(() => {
    read.fresh = false;
  });
  return read.generation;
}

/**
 * The generation as of a moment after this call began: a read already on its way may have started
 * before a revoke this request must see, so a request joins the next read, never an older one.
 * Concurrent requests share reads: at most two per round trip, however many requests wait. Where the
 * store reads without I/O (LMDB), the counter is read at once, with no promise (once per turn).
 */
function generationNow(store: StateStore): number | Promise<number> {
  if (store.getNow) return generationThisTurn(store, store.getNow);
  let r = reads.get(store);
  if (!r) {
    r = { inflight: null, next: null };
    reads.set(store, r);
  }
  const state = r;
  if (!state.inflight) return startRead(store, state);
  if (!state.next) {
    state.next = state.inflight
      .catch(() => undefined)
      .then(() => {
        state.next = null;
        return startRead(store, state);
      });
  }
  return state.next;
}

/** The cache of the current generation (a new, empty one when the generation moved). */
function cacheAt(store: StateStore, generation: number): TokenCache {
  let cache = caches.get(store);
  if (!cache || cache.generation !== generation) {
    cache = { generation, byToken: new Map() };
    caches.set(store, cache);
  }
  return cache;
}

async function load(store: StateStore, token: string, cache: TokenCache): Promise<KnownToken | undefined> {
  const hash = hashToken(token);
  const record = await store.get<TokenRecord>('tokens', hash);
  if (!record) return undefined;
  const account = record.account ? ((await getAccount(store, record.account)) ?? null) : null;
  const expires = record.expiry ? Date.parse(record.expiry) : Infinity;
  const found: KnownToken = { hash, record, expires, account, payer: account ? { account: account.name } : { token: record.id } };
  // the cache may have been replaced while this looked up: store only into the current generation's
  if (caches.get(store) === cache) {
    if (cache.byToken.size >= CACHE_MAX) cache.byToken.clear();
    cache.byToken.set(token, found);
  }
  return found;
}

/** A token known to this process at the current generation: answered at once when cached (and the generation read without I/O). */
function lookup(store: StateStore, token: string): KnownToken | undefined | Promise<KnownToken | undefined> {
  const inCache = (generation: number) => {
    const cache = cacheAt(store, generation);
    return cache.byToken.get(token) ?? load(store, token, cache);
  };
  const generation = generationNow(store);
  return typeof generation === 'number' ? inCache(generation) : generation.then(inCache);
}

/** The autocomplete endpoint, English and Italian: all that a suggest-only token may call (src/suggest/route.ts serves it). */
export const SUGGEST_PATHS = ['/api/v1/suggest', '/api/v1/suggerisci'] as const;

const SUGGEST_ROUTES: ReadonlySet<string> = new Set(SUGGEST_PATHS);

/**
 * The caller of a known token, or the 401 that explains why not; a suggest token on another route than
 * autocomplete is 403 (`route`: the route the router matched). Counts the request.
 */
function callerOf(store: StateStore, known: KnownToken | undefined, route: string | undefined): Caller {
  if (!known) throw new ApiError('token_invalid');
  const { record } = known;
  if (record.revoked) throw new ApiError('token_revoked');
  if (known.expires <= Date.now()) {
    throw new ApiError('token_expired', { expiry: record.expiry ?? '' });
  }
  const kind = record.kind ?? 'full';
  if (kind === 'suggest' && route !== undefined && !SUGGEST_ROUTES.has(route)) throw new ApiError('token_scope', { path: SUGGEST_PATHS[0] });
  const counted = store.countRequest(known.hash, isoNow());
  return { tokenId: record.id, tokenHash: known.hash, account: known.account, payer: known.payer, kind, dailySelects: record.daily_selects ?? null, counted };
}

/**
 * The caller behind a bearer token, or the 401 that explains why not (thrown). Counts the request. A
 * cached token on LMDB is answered at once, without a promise: the request path's hook goes on in the
 * same turn.
 */
export function authenticateNow(store: StateStore, header: string | undefined, route?: string): Caller | Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) throw new ApiError('unauthorized');
  const found = lookup(store, match[1]);
  return found instanceof Promise ? found.then((known) => callerOf(store, known, route)) : callerOf(store, found, route);
}

/** `authenticateNow` as a promise. */
export async function authenticate(store: StateStore, header: string | undefined, route?: string): Promise<Caller> {
  return authenticateNow(store, header, route);
}

interface DailySelects {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  used: number;
}

const selectsDoc = (tokenId: string) => doc('kv', `daily-selects/${tokenId}`);

/**
 * Takes one of a suggest token's daily charged selects (the 429 `select_cap` when the day's are used up,
 * with the seconds to the next UTC midnight); gives back the function that returns it when the select is
 * not charged after all. Nothing to take for a token without a cap. One document per token, its day and
 * count: a new day starts again at zero.
 */
export async function takeDailySelect(store: StateStore, caller: Caller, now = new Date()): Promise<(() => Promise<void>) | undefined> {
  const cap = caller.dailySelects;
  if (cap === null) return undefined;
  const key = selectsDoc(caller.tokenId);
  const day = now.toISOString().slice(0, 10);
  await store.update([key], ([stored]) => {
    const today = stored as DailySelects | undefined;
    const used = today?.day === day ? today.used : 0;
    if (used >= cap) {
      const retryAfter = Math.max(1, Math.ceil((Date.parse(`${day}T00:00:00Z`) + 86_400_000 - now.getTime()) / 1000));
      throw new ApiError('select_cap', { max: cap, retry_after: retryAfter }, null, { retry_after: retryAfter });
    }
    return { result: undefined, write: [{ ...key, doc: { day, used: used + 1 } satisfies DailySelects }] };
  }).durable;
  return async () => {
    await store.update([key], ([stored]) => {
      const today = stored as DailySelects | undefined;
      if (today?.day !== day || today.used === 0) return { result: undefined };
      return { result: undefined, write: [{ ...key, doc: { day, used: today.used - 1 } satisfies DailySelects }] };
    }).durable;
  };
}

export function accountLanguage(caller: Caller | undefined): Language | undefined {
  const lang = caller?.account?.language;
  return isLanguage(lang) ? lang : undefined;
}
