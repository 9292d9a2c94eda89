import type { Database } from 'lmdb';

import { ApiError } from '../http/errors.js';
import { durableWrite } from '../state/commit.js';
import type { StateDb } from '../state/db.js';

/** Spec, Limits: sessions valid 10 minutes, 30 calls each (selections included). */
export const SESSION_MS = 10 * 60_000;
export const SESSION_CALLS = 30;
/** Sessions without a selection free per token and UTC day, plus five for every selection. */
export const DAILY_FREE_SESSIONS = 200;
export const SESSIONS_PER_SELECTION = 5;

/** A street offered in the session: what select and the house-number phase need to find it again. */
export interface OfferedStreet {
  cadastral_code: string;
  index: number;
  street_type: string;
  name: string;
  municipality: string;
  province: string;
}

export interface SuggestSession {
  id: string;
  token: string;
  country: string;
  created: number;
  calls: number;
  /** Hint id → street, for every street this session offered. */
  offered: Record<string, OfferedStreet>;
  /** Hint ids of the streets selected (each charged once). */
  selected: string[];
}

interface DayBudget {
  day: string;
  /** Sessions opened this day. */
  sessions: number;
  /** Of those, sessions with at least one selection. */
  sessions_selected: number;
  /** Charged selections this day. */
  selections: number;
}

interface Store {
  sessions: Database<SuggestSession, string>;
  /** Per token: the current UTC day's session counts. */
  budgets: Database<DayBudget, string>;
}

const stores = new WeakMap<StateDb, Store>();

function open(db: StateDb): Store {
  let s = stores.get(db);
  if (!s) {
    s = { sessions: db.root.openDB({ name: 'suggest_sessions' }), budgets: db.root.openDB({ name: 'suggest_budgets' }) };
    stores.set(db, s);
  }
  return s;
}

const key = (token: string, id: string): string => `${token}/${id.toLowerCase()}`;
const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);

function secondsToMidnight(now: number): number {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now) / 1000));
}

function budgetOf(db: StateDb, token: string, now: number): DayBudget {
  const day = utcDay(now);
  const stored = open(db).budgets.get(token);
  return stored && stored.day === day ? { ...stored } : { day, sessions: 0, sessions_selected: 0, selections: 0 };
}

/** The live session of this token and UUID, or undefined (never opened, or expired). */
export function findSession(db: StateDb, token: string, id: string, now = Date.now()): SuggestSession | undefined {
  const s = open(db).sessions.get(key(token, id));
  if (!s || now - s.created > SESSION_MS) return undefined;
  return s;
}

function refuse(db: StateDb, token: string, s: SuggestSession | undefined, country: string, now: number): void {
  if (s) {
    if (s.country !== country) throw new ApiError('session_country', {}, { session_country: s.country, requested: country });
    if (s.calls >= SESSION_CALLS) throw new ApiError('session_quota', {}, { calls: s.calls, cap: SESSION_CALLS });
    return;
  }
  const b = budgetOf(db, token, now);
  const free = DAILY_FREE_SESSIONS + SESSIONS_PER_SELECTION * b.selections;
  if (b.sessions - b.sessions_selected >= free) {
    const retry = secondsToMidnight(now);
    throw new ApiError('session_budget', { retry_after: retry }, { sessions_without_selection: b.sessions - b.sessions_selected, free }, { retry_after: retry });
  }
}

/** The refusals of `enterSession`, read-only: lets a call fail before doing its work. */
export function checkSession(db: StateDb, token: string, id: string, country: string, now = Date.now()): void {
  refuse(db, token, findSession(db, token, id, now), country, now);
}

/**
 * Counts one call in the session, opening it when the UUID is new (or its session expired), in
 * one write transaction: 409 for another country, 429 past 30 calls or past the day's free sessions.
 * `offered`: streets this call proposes, remembered in the same transaction.
 */
export function enterSession(db: StateDb, token: string, id: string, country: string, now = Date.now(), offered: Record<string, OfferedStreet> = {}): Promise<SuggestSession> {
  const { sessions, budgets } = open(db);
  // in the next shared commit (src/state/commit.ts), on disk before the answer leaves
  return durableWrite(db, () => {
    const k = key(token, id);
    let s = sessions.get(k);
    if (s && now - s.created > SESSION_MS) s = undefined;
    refuse(db, token, s, country, now);
    if (s) {
      s = { ...s, calls: s.calls + 1, offered: { ...s.offered, ...offered } };
    } else {
      const b = budgetOf(db, token, now);
      b.sessions += 1;
      budgets.put(token, b);
      s = { id: id.toLowerCase(), token, country, created: now, calls: 1, offered, selected: [] };
    }
    sessions.put(k, s);
    return s;
  });
}

/**
 * Marks a street selected. Answers true the first time for this street in this session (the caller
 * charges then), false for a refined repeat. `undo` gives the mark back when the charge failed.
 */
export function markSelected(db: StateDb, s: SuggestSession, streetId: string, now = Date.now()): boolean {
  const { sessions, budgets } = open(db);
  return db.root.transactionSync(() => {
    const current = sessions.get(key(s.token, s.id));
    if (!current || current.created !== s.created) return false;
    if (current.selected.includes(streetId)) return false;
    const b = budgetOf(db, s.token, now);
    if (current.selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected += 1;
    b.selections += 1;
    budgets.put(s.token, b);
    sessions.put(key(s.token, s.id), { ...current, selected: [...current.selected, streetId] });
    return true;
  });
}

export function unmarkSelected(db: StateDb, s: SuggestSession, streetId: string, now = Date.now()): void {
  const { sessions, budgets } = open(db);
  db.root.transactionSync(() => {
    const current = sessions.get(key(s.token, s.id));
    if (!current || !current.selected.includes(streetId)) return;
    const selected = current.selected.filter((x) => x !== streetId);
    const b = budgetOf(db, s.token, now);
    b.selections = Math.max(0, b.selections - 1);
    if (selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected = Math.max(0, b.sessions_selected - 1);
    budgets.put(s.token, b);
    sessions.put(key(s.token, s.id), { ...current, selected });
  });
}

/** Drops sessions past their validity (called now and then; they are refused anyway). */
export function sweepSessions(db: StateDb, now = Date.now()): number {
  const { sessions } = open(db);
  let n = 0;
  for (const { key: k, value } of sessions.getRange()) {
    if (now - value.created > SESSION_MS) {
      void sessions.remove(k);
      n += 1;
    }
  }
  return n;
}
