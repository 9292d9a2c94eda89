import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

import type { Database } from 'lmdb';

import type { StateDb } from '../state/db.js';

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
 * One named database (`console`) with key prefixes, not one per kind: an LMDB environment has a fixed
 * number of named databases (lmdb-js default 12) and the service's modules share them.
 */
interface ConsoleDbs {
  users: Prefixed<ConsoleUser>;
  sessions: Prefixed<StoredSession>;
  kv: Database<unknown, string>;
}

/** The typed view of one key prefix of the console database. */
class Prefixed<T> {
  constructor(
    private readonly db: Database<unknown, string>,
    private readonly prefix: string,
  ) {}
  get(key: string): T | undefined {
    return this.db.get(this.prefix + key) as T | undefined;
  }
  put(key: string, value: T): Promise<boolean> {
    return this.db.put(this.prefix + key, value);
  }
  remove(key: string): Promise<boolean> {
    return this.db.remove(this.prefix + key);
  }
  transaction<R>(action: () => R): Promise<R> {
    return this.db.transaction(action);
  }
  *getRange(): Generator<{ key: string; value: T }> {
    // prefixes end in '/', and '0' is the character after it: the range is exactly this prefix
    for (const { key, value } of this.db.getRange({ start: this.prefix, end: `${this.prefix.slice(0, -1)}0` })) {
      yield { key: key.slice(this.prefix.length), value: value as T };
    }
  }
}

const opened = new WeakMap<StateDb, ConsoleDbs>();

function dbs(db: StateDb): ConsoleDbs {
  let found = opened.get(db);
  if (!found) {
    const kv = db.root.openDB<unknown, string>({ name: 'console' });
    found = { users: new Prefixed<ConsoleUser>(kv, 'user/'), sessions: new Prefixed<StoredSession>(kv, 'session/'), kv };
    opened.set(db, found);
  }
  return found;
}

// ---- passwords ---------------------------------------------------------------------------------

/** OWASP's scrypt floor is N=2^17, r=8, p=1 (128 MiB); 2^15 keeps a login near 100 ms on this 2-core box. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
export const MIN_PASSWORD = 10;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (options.N ?? SCRYPT.N) * (options.r ?? SCRYPT.r);
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
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

export function getUser(db: StateDb, email: string): ConsoleUser | undefined {
  return dbs(db).users.get(normalizeEmail(email));
}

export async function createUser(db: StateDb, account: string, email: string, password: string): Promise<ConsoleUser> {
  const key = normalizeEmail(email);
  if (!validEmail(key)) throw new Error(`not an e-mail address: ${email}`);
  if (!db.accounts.get(account)) throw new Error(`no account ${account}`);
  if (password.length < MIN_PASSWORD) throw new Error(`the password needs at least ${MIN_PASSWORD} characters`);
  if (dbs(db).users.get(key)) throw new Error(`user ${key} exists already`);
  const user: ConsoleUser = { email: key, account, password: await hashPassword(password), created: new Date().toISOString(), disabled: null, generation: 1, last_login: null };
  await dbs(db).users.put(key, user);
  return user;
}

function change(db: StateDb, email: string, edit: (u: ConsoleUser) => ConsoleUser): Promise<ConsoleUser> {
  const key = normalizeEmail(email);
  const users = dbs(db).users;
  return users.transaction(() => {
    const user = users.get(key);
    if (!user) throw new Error(`no user ${key}`);
    const next = edit(user);
    void users.put(key, next);
    return next;
  });
}

/** A new password; sessions opened with the old one stop working; a disabled user is enabled again. */
export async function resetPassword(db: StateDb, email: string, password: string): Promise<ConsoleUser> {
  if (password.length < MIN_PASSWORD) throw new Error(`the password needs at least ${MIN_PASSWORD} characters`);
  const hash = await hashPassword(password);
  return change(db, email, (u) => ({ ...u, password: hash, disabled: null, generation: u.generation + 1 }));
}

export function disableUser(db: StateDb, email: string): Promise<ConsoleUser> {
  return change(db, email, (u) => ({ ...u, disabled: u.disabled ?? new Date().toISOString(), generation: u.generation + 1 }));
}

export function noteLogin(db: StateDb, email: string): Promise<ConsoleUser> {
  return change(db, email, (u) => ({ ...u, last_login: new Date().toISOString() }));
}

export function listUsers(db: StateDb, account?: string): ConsoleUser[] {
  const out: ConsoleUser[] = [];
  for (const { value } of dbs(db).users.getRange()) if (!account || value.account === account) out.push(value);
  return out;
}

// ---- sessions (the @fastify/session store) -------------------------------------------------------

function expiryOf(s: StoredSession): number | null {
  const e = s.cookie?.expires;
  if (e === undefined || e === null) return null;
  return new Date(e).getTime();
}

type Callback<T = void> = (err?: Error | null, value?: T) => void;

/** The callback store @fastify/session asks for, on LMDB; expired sessions are never returned. */
export function sessionStore(db: StateDb) {
  const sessions = dbs(db).sessions;
  return {
    set(id: string, session: StoredSession, done: Callback) {
      sessions.put(id, JSON.parse(JSON.stringify(session)) as StoredSession).then(() => done(), done);
    },
    get(id: string, done: Callback<StoredSession | null>) {
      const s = sessions.get(id);
      const expiry = s ? expiryOf(s) : null;
      if (s && expiry !== null && expiry <= Date.now()) {
        sessions.remove(id).then(() => done(null, null), done);
        return;
      }
      done(null, s ?? null);
    },
    destroy(id: string, done: Callback) {
      sessions.remove(id).then(() => done(), done);
    },
  };
}

/** Removes expired sessions (called on a timer). */
export async function sweepSessions(db: StateDb, now = Date.now()): Promise<number> {
  const sessions = dbs(db).sessions;
  let removed = 0;
  for (const { key, value } of sessions.getRange()) {
    const expiry = expiryOf(value);
    if (expiry !== null && expiry <= now) {
      await sessions.remove(key);
      removed++;
    }
  }
  return removed;
}

// ---- uploads, console jobs, splits ---------------------------------------------------------------

/** Uploaded lists are kept a day: long enough to map columns and start, short enough not to pile up. */
const UPLOAD_TTL_MS = 24 * 3600_000;

export function newId(): string {
  return randomBytes(9).toString('base64url');
}

export async function putUpload(db: StateDb, upload: Omit<UploadRecord, 'id' | 'created'>): Promise<UploadRecord> {
  const record: UploadRecord = { ...upload, id: newId(), created: new Date().toISOString() };
  await dbs(db).kv.put(`upload/${record.id}`, record);
  return record;
}

export function getUpload(db: StateDb, id: string, account: string): UploadRecord | undefined {
  const u = dbs(db).kv.get(`upload/${id}`) as UploadRecord | undefined;
  if (!u || u.account !== account || Date.parse(u.created) + UPLOAD_TTL_MS < Date.now()) return undefined;
  return u;
}

export async function sweepUploads(db: StateDb, now = Date.now()): Promise<void> {
  const kv = dbs(db).kv;
  for (const { key, value } of kv.getRange({ start: 'upload/', end: 'upload0' })) {
    if (Date.parse((value as UploadRecord).created) + UPLOAD_TTL_MS < now) await kv.remove(key);
  }
}

export async function addConsoleJob(db: StateDb, job: ConsoleJob): Promise<void> {
  await dbs(db).kv.put(`job/${job.account}/${job.created}/${job.job}`, job);
}

/** Newest first. */
export function consoleJobs(db: StateDb, account: string, capability?: string): ConsoleJob[] {
  const out: ConsoleJob[] = [];
  for (const { value } of dbs(db).kv.getRange({ start: `job/${account}/`, end: `job/${account}0` })) {
    const j = value as ConsoleJob;
    if (!capability || j.capability === capability) out.push(j);
  }
  return out.reverse();
}

export function consoleJob(db: StateDb, account: string, job: string): ConsoleJob | undefined {
  return consoleJobs(db, account).find((j) => j.job === job);
}

/**
 * Groups a reviewer split (their records are not duplicates). The spec's review only marks a group
 * processed; the split is the console's own decision, kept here and applied to the export.
 */
export function splitGroups(db: StateDb, account: string, job: string): Record<string, string> {
  return (dbs(db).kv.get(`split/${account}/${job}`) as Record<string, string> | undefined) ?? {};
}

export async function markSplit(db: StateDb, account: string, job: string, group: number, split: boolean): Promise<void> {
  const kv = dbs(db).kv;
  await kv.transaction(() => {
    const current = { ...((kv.get(`split/${account}/${job}`) as Record<string, string> | undefined) ?? {}) };
    if (split) current[String(group)] = current[String(group)] ?? new Date().toISOString();
    else delete current[String(group)];
    void kv.put(`split/${account}/${job}`, current);
  });
}

// ---- usage per day ------------------------------------------------------------------------------

/** Operations charged per account, counter and UTC day, as `usage/<account>/<YYYY-MM-DD>/<counter>`. */
export async function addUsage(db: StateDb, entries: Map<string, number>): Promise<void> {
  if (entries.size === 0) return;
  const kv = dbs(db).kv;
  await kv.transaction(() => {
    for (const [key, units] of entries) void kv.put(key, ((kv.get(key) as number | undefined) ?? 0) + units);
  });
}

export function usageKey(account: string, day: string, counter: string): string {
  return `usage/${account}/${day}/${counter}`;
}

/** Usage of one month (`YYYY-MM`): counter → day of month (1-based) → operations. */
export function usageOfMonth(db: StateDb, account: string, month: string): Record<string, Record<number, number>> {
  const out: Record<string, Record<number, number>> = {};
  for (const { key, value } of dbs(db).kv.getRange({ start: `usage/${account}/${month}-`, end: `usage/${account}/${month}.` })) {
    const [, , day = '', counter = ''] = key.split('/');
    const d = Number(day.slice(8, 10));
    (out[counter] ??= {})[d] = value as number;
  }
  return out;
}

// ---- the console's own API tokens ----------------------------------------------------------------

/** Ids of tokens the console made for itself: hidden from the Tokens page, revoked when the process stops. */
export function internalTokenIds(db: StateDb): Set<string> {
  return new Set((dbs(db).kv.get('internal-tokens') as string[] | undefined) ?? []);
}

export async function noteInternalToken(db: StateDb, id: string, add: boolean): Promise<void> {
  const kv = dbs(db).kv;
  await kv.transaction(() => {
    const ids = new Set((kv.get('internal-tokens') as string[] | undefined) ?? []);
    if (add) ids.add(id);
    else ids.delete(id);
    void kv.put('internal-tokens', [...ids]);
  });
}

// ---- the session signing key ---------------------------------------------------------------------

/** The key that signs session cookies: made once and kept, so sessions survive a restart. */
export async function sessionSecret(db: StateDb): Promise<string> {
  const kv = dbs(db).kv;
  const known = kv.get('session-secret') as string | undefined;
  if (known) return known;
  const fresh = randomBytes(48).toString('base64url');
  await kv.ifNoExists('session-secret', () => void kv.put('session-secret', fresh));
  return kv.get('session-secret') as string;
}
