import { ApiError } from '../http/errors.js';
import { doc, type StateStore } from '../state/store.js';

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

export interface DayBudget {
  day: string;
  /** Sessions opened this day. */
  sessions: number;
  /** Of those, sessions with at least one selection. */
  sessions_selected: number;
  /** Charged selections this day. */
  selections: number;
}

const key = (token: string, id: string): string => `${token}/${id.toLowerCase()}`;
const utcDay = (now: number): string => new Date(now).toISOString().slice(0, 10);

function secondsToMidnight(now: number): number {
  const d = new Date(now);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now) / 1000));
}

function budgetOf(stored: DayBudget | undefined, now: number): DayBudget {
  const day = utcDay(now);
  return stored && stored.day === day ? { ...stored } : { day, sessions: 0, sessions_selected: 0, selections: 0 };
}

const live = (s: SuggestSession | undefined, now: number): SuggestSession | undefined => (s && now - s.created <= SESSION_MS ? s : undefined);

/** What a call reads before it works: the live session of this token and UUID (if any) and the token's day budget. */
export interface SessionRead {
  session: SuggestSession | undefined;
  budget: DayBudget | undefined;
}

/** The session and the day budget in one read (one round trip on PostgreSQL): a call reads them once. */
export async function readSession(store: StateStore, token: string, id: string, now = Date.now()): Promise<SessionRead> {
  const [s, budget] = await store.getMany([doc('suggest_sessions', key(token, id)), doc('suggest_budgets', token)]);
  return { session: live(s as SuggestSession | undefined, now), budget: budget as DayBudget | undefined };
}

/** The live session of this token and UUID, or undefined (never opened, or expired). */
export async function findSession(store: StateStore, token: string, id: string, now = Date.now()): Promise<SuggestSession | undefined> {
  return live(await store.get<SuggestSession>('suggest_sessions', key(token, id)), now);
}

function refuse(budget: DayBudget | undefined, s: SuggestSession | undefined, country: string, now: number): void {
  if (s) {
    if (s.country !== country) throw new ApiError('session_country', {}, { session_country: s.country, requested: country });
    if (s.calls >= SESSION_CALLS) throw new ApiError('session_quota', {}, { calls: s.calls, cap: SESSION_CALLS });
    return;
  }
  const b = budgetOf(budget, now);
  const free = DAILY_FREE_SESSIONS + SESSIONS_PER_SELECTION * b.selections;
  if (b.sessions - b.sessions_selected >= free) {
    const retry = secondsToMidnight(now);
    throw new ApiError('session_budget', { retry_after: retry }, { sessions_without_selection: b.sessions - b.sessions_selected, free }, { retry_after: retry });
  }
}

/** The refusals of `enterSession` on what `readSession` read: lets a call fail before doing its work. */
export function checkSession(read: SessionRead, country: string, now = Date.now()): void {
  refuse(read.budget, read.session, country, now);
}

/**
 * Counts one call in the session, opening it when the UUID is new (or its session expired), in
 * one atomic update: 409 for another country, 429 past 30 calls or past the day's free sessions.
 * `offered`: streets this call proposes, remembered in the same update.
 */
export function enterSession(store: StateStore, token: string, id: string, country: string, now = Date.now(), offered: Record<string, OfferedStreet> = {}): Promise<SuggestSession> {
  const k = key(token, id);
  // in the next shared commit on LMDB (src/state/commit.ts); durable before the answer leaves
  return store.update(
    [doc('suggest_sessions', k), doc('suggest_budgets', token)],
    ([stored, budget]) => {
      let s = live(stored as SuggestSession | undefined, now);
      refuse(budget as DayBudget | undefined, s, country, now);
      const write = [];
      if (s) {
        s = { ...s, calls: s.calls + 1, offered: { ...s.offered, ...offered } };
      } else {
        const b = budgetOf(budget as DayBudget | undefined, now);
        b.sessions += 1;
        write.push({ ns: 'suggest_budgets' as const, key: token, doc: b });
        s = { id: id.toLowerCase(), token, country, created: now, calls: 1, offered, selected: [] };
      }
      write.push({ ns: 'suggest_sessions' as const, key: k, doc: s });
      return { result: s, write };
    },
    { batched: true },
  ).durable;
}

/**
 * Marks a street selected. Answers true the first time for this street in this session (the caller
 * charges then), false for a refined repeat. `undo` gives the mark back when the charge failed.
 */
export function markSelected(store: StateStore, s: SuggestSession, streetId: string, now = Date.now()): Promise<boolean> {
  const k = key(s.token, s.id);
  return store.update([doc('suggest_sessions', k), doc('suggest_budgets', s.token)], ([stored, budget]) => {
    const current = stored as SuggestSession | undefined;
    if (!current || current.created !== s.created) return { result: false };
    if (current.selected.includes(streetId)) return { result: false };
    const b = budgetOf(budget as DayBudget | undefined, now);
    if (current.selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected += 1;
    b.selections += 1;
    return {
      result: true,
      write: [
        { ns: 'suggest_budgets', key: s.token, doc: b },
        { ns: 'suggest_sessions', key: k, doc: { ...current, selected: [...current.selected, streetId] } },
      ],
    };
  }).durable;
}

export async function unmarkSelected(store: StateStore, s: SuggestSession, streetId: string, now = Date.now()): Promise<void> {
  const k = key(s.token, s.id);
  await store.update([doc('suggest_sessions', k), doc('suggest_budgets', s.token)], ([stored, budget]) => {
    const current = stored as SuggestSession | undefined;
    if (!current || !current.selected.includes(streetId)) return { result: undefined };
    const selected = current.selected.filter((x) => x !== streetId);
    const b = budgetOf(budget as DayBudget | undefined, now);
    b.selections = Math.max(0, b.selections - 1);
    if (selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected = Math.max(0, b.sessions_selected - 1);
    return {
      result: undefined,
      write: [
        { ns: 'suggest_budgets', key: s.token, doc: b },
        { ns: 'suggest_sessions', key: k, doc: { ...current, selected } },
      ],
    };
  }).durable;
}

/** Drops sessions past their validity (called now and then; they are refused anyway). */
export async function sweepSessions(store: StateStore, now = Date.now()): Promise<number> {
  const expired = (await store.list<SuggestSession>('suggest_sessions')).filter(({ value }) => now - value.created > SESSION_MS);
  if (expired.length === 0) return 0;
  // removed only if still expired when the removal runs (a UUID may have been reopened meanwhile)
  const keys = expired.map(({ key: k }) => doc('suggest_sessions', k));
  await store.update(keys, (stored) => ({
    result: undefined,
    write: keys.filter((_, i) => {
      const s = stored[i] as SuggestSession | undefined;
      return s !== undefined && now - s.created > SESSION_MS;
    }).map((k) => ({ ...k, doc: null })),
  })).durable;
  return expired.length;
}
