import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

import { doc, type StateStore } from '../state/store.js';

/**
 * Console state (people who sign in, their sessions, uploaded lists, the jobs they started, group splits,
 * usage per day) behind plain functions over the service's LMDB environment. Nothing outside this file
 * touches these sub-databases, so a PostgreSQL back end (issue 17) replaces this module alone.
 */

export interface ConsoleUser {
  email: string;
  account: string;
  /** `scrypt$N$r$p$salt$hash`, base64 parts: the parameters travel with the hash so they can be raised later. */
  password: string;
  created: string;
  disabled: string | null;
  /** Bumped by reset and disable: sessions opened before are refused. */
  generation: number;
  last_login: string | null;
}

export interface StoredSession {
  /** @fastify/session's own shape: the cookie (with its expiry) and what we put in it. */
  cookie: { expires?: string | Date | null; originalMaxAge?: number | null };
  [key: string]: unknown;
}

/** A list uploaded and parsed, waiting for its column mapping. */
export interface UploadRecord {
  id: string;
  account: string;
  name: string;
  created: string;
  headers: string[];
  rows: string[][];
}

/**
 * What is stored: the rows as the JSON text the table worker wrote, so the event loop neither copies
 * 100,000 rows out of the worker nor encodes them for the store (issue 33); read back at the mapping step.
 * Uploads stored before kept `rows` itself.
 */
interface StoredUpload extends Omit<UploadRecord, 'rows'> {
  rows_json?: string;
  rows?: string[][];
}

/** A job started from the console, listed on the Lists and Duplicates pages. */
export interface ConsoleJob {
  job: string;
  capability: string;
  account: string;
  file: string;
  rows: number;
  created: string;
  /** English field per target column, as mapped when the job was started; the header of the result CSV. */
  mapping: Record<string, string>;
}

/**
 * Everything lives in the `console` namespace of the state store (LMDB or PostgreSQL, src/state/store.ts)
 * under key prefixes: `user/<email>`, `session/<id>`, `upload/<id>`, `job/<account>/<created>/<job>`,
 * `split/<account>/<job>`, `usage/<account>/<day>/<counter>`, `internal-tokens`, `session-secret`. On
 * PostgreSQL every node signs in, reads uploads and verifies cookies the same way.
 */
const NS = 'console';
const USER = 'user/';
const SESSION = 'session/';

// ---- passwords ---------------------------------------------------------------------------------

/**
 * OWASP's scrypt floor: N=2^17, r=8, p=1 (128 MiB and a few hundred ms a hash). Hashes made with a lower
 * cost (2^15 before issue 33) still verify and are made again at this cost on the next good sign-in.
 */
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
export const MIN_PASSWORD = 10;
/** Hashes computed at once: each holds 128 MiB, so a burst of sign-ins waits rather than multiplying that. */
const HASHES_AT_ONCE = 2;
let hashing = 0;
const hashQueue: (() => void)[] = [];

async function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? SCRYPT.N) * (options.r ?? SCRYPT.r);
  while (hashing >= HASHES_AT_ONCE) await new Promise<void>((resume) => hashQueue.push(resume));
  hashing += 1;
  try {
    return await new Promise((resolve, reject) =>
      scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
    );
  } finally {
    hashing -= 1;
    hashQueue.shift()?.();
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A stored hash made at a lower cost than today's (rehashed on the next good sign-in). */
export function weakerHash(stored: string): boolean {
  const [, n, r, p] = stored.split('$');
  return Number(n) < SCRYPT.N || Number(r) < SCRYPT.r || Number(p) < SCRYPT.p;
}

/** A hash to compare against when the e-mail is unknown: a login costs the same whether the user exists or not. */
let decoy: Promise<string> | undefined;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(12).toString('hex')));

// ---- users ---------------------------------------------------------------------------------------

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function validEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254;
}

export function getUser(store: StateStore, email: string): Promise<ConsoleUser | undefined> {
  return store.get<ConsoleUser>(NS, USER + normalizeEmail(email));
}

export async function createUser(store: StateStore, account: string, email: string, password: string): Promise<ConsoleUser> {
  const key = normalizeEmail(email);
  if (!validEmail(key)) throw new Error(`not an e-mail address: ${email}`);
  if (!(await store.get('accounts', account))) throw new Error(`no account ${account}`);
  if (password.length < MIN_PASSWORD) throw new Error(`the password needs at least ${MIN_PASSWORD} characters`);
  const user: ConsoleUser = { email: key, account, password: await hashPassword(password), created: new Date().toISOString(), disabled: null, generation: 1, last_login: null };
  return store.update([doc(NS, USER + key)], ([existing]) => {
    if (existing) throw new Error(`user ${key} exists already`);
    return { result: user, write: [{ ns: NS, key: USER + key, doc: user }] };
  }).durable;
}

function change(store: StateStore, email: string, edit: (u: ConsoleUser) => ConsoleUser): Promise<ConsoleUser> {
  const key = USER + normalizeEmail(email);
  return store.update([doc(NS, key)], ([stored]) => {
    const user = stored as ConsoleUser | undefined;
    if (!user) throw new Error(`no user ${normalizeEmail(email)}`);
    const next = edit(user);
    return { result: next, write: [{ ns: NS, key, doc: next }] };
  }).durable;
}

/** A new password; sessions opened with the old one stop working; a disabled user is enabled again. */
export async function resetPassword(store: StateStore, email: string, password: string): Promise<ConsoleUser> {
  if (password.length < MIN_PASSWORD) throw new Error(`the password needs at least ${MIN_PASSWORD} characters`);
  const hash = await hashPassword(password);
  const user = await change(store, email, (u) => ({ ...u, password: hash, disabled: null, generation: u.generation + 1 }));
  await clearLoginFailures(store, email); // the operator's reset lifts the sign-in backoff too
  return user;
}

export function disableUser(store: StateStore, email: string): Promise<ConsoleUser> {
  return change(store, email, (u) => ({ ...u, disabled: u.disabled ?? new Date().toISOString(), generation: u.generation + 1 }));
}

/** A good sign-in: noted, and the password hashed again at today's cost when it was stored at a lower one. */
export async function noteLogin(store: StateStore, email: string, password?: string): Promise<ConsoleUser> {
  const user = await getUser(store, email);
  const rehash = password !== undefined && user && weakerHash(user.password) ? await hashPassword(password) : undefined;
  return change(store, email, (u) => ({ ...u, last_login: new Date().toISOString(), ...(rehash && u.password === user?.password ? { password: rehash } : {}) }));
}

// ---- sign-in backoff (per e-mail, whatever address the attempts come from) -------------------------

const FAILURES = 'login-failures/';
/** Wrong passwords for one e-mail before it waits; then 1 minute, doubling each time, 1 hour at most. */
export const LOGIN_FREE_FAILURES = 5;
const BACKOFF_FIRST_MS = 60_000;
const BACKOFF_MAX_MS = 3600_000;
/** A record of failures is forgotten a day after the last one. */
const FAILURES_TTL_MS = 24 * 3600_000;

interface LoginFailures {
  failures: number;
  /** Epoch ms before which a sign-in for this e-mail is refused (0: not waiting). */
  until: number;
  last: number;
}

/**
 * An attempt to sign in as `email`: refused (the milliseconds left to wait) while the e-mail waits, else
 * counted as a failure before the password is checked, so attempts in flight at once cannot slip past the
 * count; a good password then clears it (`clearLoginFailures`). Kept for any e-mail, known or not: the
 * answer tells nothing about who has an account.
 */
export function beginLogin(store: StateStore, email: string, now = Date.now()): Promise<number> {
  const key = FAILURES + normalizeEmail(email);
  return store.update([doc(NS, key)], ([stored]) => {
    const known = stored as LoginFailures | undefined;
    const seen = known && now - known.last < FAILURES_TTL_MS ? known : { failures: 0, until: 0, last: 0 };
    if (seen.until > now) return { result: seen.until - now };
    const failures = seen.failures + 1;
    const wait = failures >= LOGIN_FREE_FAILURES ? Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** (failures - LOGIN_FREE_FAILURES)) : 0;
    const next: LoginFailures = { failures, until: wait ? now + wait : 0, last: now };
    return { result: 0, write: [{ ns: NS, key, doc: next }] };
  }).durable;
}

export function clearLoginFailures(store: StateStore, email: string): Promise<void> {
  return remove(store, [FAILURES + normalizeEmail(email)]);
}

/** Forgets failure records a day old (called on a timer). */
export async function sweepLoginFailures(store: StateStore, now = Date.now()): Promise<void> {
  const old = (await store.list<LoginFailures>(NS, { prefix: FAILURES })).filter(({ value }) => now - value.last >= FAILURES_TTL_MS && value.until <= now);
  await remove(store, old.map((e) => e.key));
}

export async function listUsers(store: StateStore, account?: string): Promise<ConsoleUser[]> {
  return (await store.list<ConsoleUser>(NS, { prefix: USER })).map((e) => e.value).filter((u) => !account || u.account === account);
}

// ---- sessions (the @fastify/session store) -------------------------------------------------------

function expiryOf(s: StoredSession): number | null {
  const e = s.cookie?.expires;
  if (e === undefined || e === null) return null;
  return new Date(e).getTime();
}

type Callback<T = void> = (err?: Error | null, value?: T) => void;

const put = (store: StateStore, key: string, value: unknown): Promise<void> =>
  store.update([], () => ({ result: undefined, write: [{ ns: NS, key, doc: value }] })).durable;

const remove = (store: StateStore, keys: string[]): Promise<void> =>
  keys.length === 0 ? Promise.resolve() : store.update([], () => ({ result: undefined, write: keys.map((key) => ({ ns: NS, key, doc: null })) })).durable;

/** The callback store @fastify/session asks for, on the state store; expired sessions are never returned. */
export function sessionStore(store: StateStore) {
  return {
    set(id: string, session: StoredSession, done: Callback) {
      put(store, SESSION + id, JSON.parse(JSON.stringify(session)) as StoredSession).then(() => done(), done);
    },
    get(id: string, done: Callback<StoredSession | null>) {
      store.get<StoredSession>(NS, SESSION + id).then((s) => {
        const expiry = s ? expiryOf(s) : null;
        if (s && expiry !== null && expiry <= Date.now()) {
          remove(store, [SESSION + id]).then(() => done(null, null), done);
          return;
        }
        done(null, s ?? null);
      }, done);
    },
    destroy(id: string, done: Callback) {
      remove(store, [SESSION + id]).then(() => done(), done);
    },
  };
}

/** Removes expired sessions (called on a timer). */
export async function sweepSessions(store: StateStore, now = Date.now()): Promise<number> {
  const expired = (await store.list<StoredSession>(NS, { prefix: SESSION })).filter(({ value }) => {
    const expiry = expiryOf(value);
    return expiry !== null && expiry <= now;
  });
  await remove(store, expired.map((e) => e.key));
  return expired.length;
}

// ---- uploads, console jobs, splits ---------------------------------------------------------------

/** Uploaded lists are kept a day: long enough to map columns and start, short enough not to pile up. */
const UPLOAD_TTL_MS = 24 * 3600_000;

export function newId(): string {
  return randomBytes(9).toString('base64url');
}

/** Stores an uploaded list (its rows as JSON text, `rowsJson`); the upload's id. */
export async function putUpload(store: StateStore, upload: { account: string; name: string; headers: string[]; rowsJson: string }): Promise<string> {
  const { rowsJson, ...rest } = upload;
  const record: StoredUpload = { ...rest, rows_json: rowsJson, id: newId(), created: new Date().toISOString() };
  await put(store, `upload/${record.id}`, record);
  return record.id;
}

export async function getUpload(store: StateStore, id: string, account: string): Promise<UploadRecord | undefined> {
  const u = await store.get<StoredUpload>(NS, `upload/${id}`);
  if (!u || u.account !== account || Date.parse(u.created) + UPLOAD_TTL_MS < Date.now()) return undefined;
  const { rows_json: rowsJson, rows, ...rest } = u;
  return { ...rest, rows: rowsJson !== undefined ? (JSON.parse(rowsJson) as string[][]) : (rows ?? []) };
}

export async function sweepUploads(store: StateStore, now = Date.now()): Promise<void> {
  const old = (await store.list<StoredUpload>(NS, { prefix: 'upload/' })).filter(({ value }) => Date.parse(value.created) + UPLOAD_TTL_MS < now);
  await remove(store, old.map((e) => e.key));
}

export async function addConsoleJob(store: StateStore, job: ConsoleJob): Promise<void> {
  await put(store, `job/${job.account}/${job.created}/${job.job}`, job);
}

/** Newest first. */
export async function consoleJobs(store: StateStore, account: string, capability?: string): Promise<ConsoleJob[]> {
  const jobs = (await store.list<ConsoleJob>(NS, { prefix: `job/${account}/` })).map((e) => e.value);
  return jobs.filter((j) => !capability || j.capability === capability).reverse();
}

export async function consoleJob(store: StateStore, account: string, job: string): Promise<ConsoleJob | undefined> {
  return (await consoleJobs(store, account)).find((j) => j.job === job);
}

/**
 * Groups a reviewer split (their records are not duplicates). The spec's review only marks a group
 * processed; the split is the console's own decision, kept here and applied to the export.
 */
export async function splitGroups(store: StateStore, account: string, job: string): Promise<Record<string, string>> {
  return (await store.get<Record<string, string>>(NS, `split/${account}/${job}`)) ?? {};
}

export async function markSplit(store: StateStore, account: string, job: string, group: number, split: boolean): Promise<void> {
  const key = `split/${account}/${job}`;
  await store.update([doc(NS, key)], ([stored]) => {
    const current = { ...((stored as Record<string, string> | undefined) ?? {}) };
    if (split) current[String(group)] = current[String(group)] ?? new Date().toISOString();
    else delete current[String(group)];
    return { result: undefined, write: [{ ns: NS, key, doc: current }] };
  }).durable;
}

// ---- usage per day ------------------------------------------------------------------------------

/** Operations charged per account, counter and UTC day, as `usage/<account>/<YYYY-MM-DD>/<counter>`. */
export async function addUsage(store: StateStore, entries: Map<string, number>): Promise<void> {
  if (entries.size === 0) return;
  const keys = [...entries.keys()].map((key) => doc(NS, key));
  // in the shared group commit: a write of its own was a synchronous LMDB commit, flushed to disk on the
  // event loop every two seconds, which stalled every request in flight for one fsync (issue 14)
  await store.update(
    keys,
    (stored) => ({
      result: undefined,
      write: keys.map((k, i) => ({ ...k, doc: ((stored[i] as number | undefined) ?? 0) + (entries.get(k.key) ?? 0) })),
    }),
    { batched: true },
  ).durable;
}

export function usageKey(account: string, day: string, counter: string): string {
  return `usage/${account}/${day}/${counter}`;
}

/** Usage of one month (`YYYY-MM`): counter → day of month (1-based) → operations. */
export async function usageOfMonth(store: StateStore, account: string, month: string): Promise<Record<string, Record<number, number>>> {
  const out: Record<string, Record<number, number>> = {};
  for (const { key, value } of await store.list<number>(NS, { prefix: `usage/${account}/${month}-` })) {
    const [, , day = '', counter = ''] = key.split('/');
    const d = Number(day.slice(8, 10));
    (out[counter] ??= {})[d] = value;
  }
  return out;
}

// ---- the console's own API tokens ----------------------------------------------------------------

/** Ids of tokens the console made for itself: hidden from the Tokens page, revoked when the process stops. */
export async function internalTokenIds(store: StateStore): Promise<Set<string>> {
  return new Set((await store.get<string[]>(NS, 'internal-tokens')) ?? []);
}

export async function noteInternalToken(store: StateStore, id: string, add: boolean): Promise<void> {
  await store.update([doc(NS, 'internal-tokens')], ([stored]) => {
    const ids = new Set((stored as string[] | undefined) ?? []);
    if (add) ids.add(id);
    else ids.delete(id);
    return { result: undefined, write: [{ ns: NS, key: 'internal-tokens', doc: [...ids] }] };
  }).durable;
}

// ---- the session signing key ---------------------------------------------------------------------

/** The key that signs session cookies: made once and kept (shared by every node), so sessions survive a restart. */
export async function sessionSecret(store: StateStore): Promise<string> {
  const fresh = randomBytes(48).toString('base64url');
  return store.update([doc(NS, 'session-secret')], ([known]) =>
    typeof known === 'string' ? { result: known } : { result: fresh, write: [{ ns: NS, key: 'session-secret', doc: fresh }] },
  ).durable;
}
