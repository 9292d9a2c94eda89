import { ApiError } from '../http/errors.js';
import { doc, type DocChange, type StateStore } from '../state/store.js';

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

/**
 * The sessions and day budgets of one LMDB store as this process last decided them. On LMDB (one node) this
 * process is the only writer of sessions, so a document read once stays true: a keystroke reads and decodes
 * nothing, and writes nothing itself. What a call changes (its count, the streets it offers, a session
 * opened and the day's budget) is written within FLUSH_MS, each changed document once, in a group commit
 * of its own, and at a graceful stop. A selection is written through and durable before its charge, so
 * that a street is never charged twice. A crash therefore loses at most the last second's counts, opened
 * sessions and offered streets (the calls and sessions are forgiven; a street offered in that second must
 * be typed again before it can be selected), never a charge or a selection. PostgreSQL (several nodes)
 * has no book: every call reads and updates the shared documents under lock.
 */
interface Book {
  store: StateStore;
  /** Session key → its document as last decided here. */
  sessions: Map<string, SuggestSession>;
  /** Token → its day budget as last decided here (null: none stored). */
  budgets: Map<string, DayBudget | null>;
  /** Documents (`sessionId`, `budgetId`) changed here and not yet written. */
  dirty: Set<string>;
  /** Documents with a write in flight: kept, so that no read sees the store behind it. */
  writing: Map<string, number>;
  flushTimer: NodeJS.Timeout | undefined;
}

/** How long a change may stay in memory only. */
const FLUSH_MS = 1_000;
/** Documents kept per store; past this, the least recently used written ones are dropped (and read again). */
const BOOK_SESSIONS = 5_000;
const BOOK_BUDGETS = 20_000;

const books = new WeakMap<StateStore, Book>();

function bookOf(store: StateStore): Book | undefined {
  if (store.backend !== 'lmdb' || !store.getNow) return undefined;
  let book = books.get(store);
  if (!book) {
    book = { store, sessions: new Map(), budgets: new Map(), dirty: new Set(), writing: new Map(), flushTimer: undefined };
    books.set(store, book);
  }
  return book;
}

const SESSION_ID = 's';
const BUDGET_ID = 'b';
const sessionId = (k: string): string => `${SESSION_ID}${k}`;
const budgetId = (token: string): string => `${BUDGET_ID}${token}`;

function bookSession(book: Book, k: string): SuggestSession | undefined {
  let s = book.sessions.get(k);
  if (s === undefined) {
    s = book.store.getNow?.<SuggestSession>('suggest_sessions', k);
    if (s) remember(book, book.sessions, k, s, sessionId, BOOK_SESSIONS);
  }
  return s;
}

function bookBudget(book: Book, token: string): DayBudget | undefined {
  let b = book.budgets.get(token);
  if (b === undefined) {
    b = book.store.getNow?.<DayBudget>('suggest_budgets', token) ?? null;
    remember(book, book.budgets, token, b, budgetId, BOOK_BUDGETS);
  }
  return b ?? undefined;
}

/** Keeps a document as the latest (most recently used last), dropping the oldest written ones past `cap`. */
function remember<T>(book: Book, map: Map<string, T>, k: string, value: T, id: (k: string) => string, cap: number): void {
  map.delete(k);
  map.set(k, value);
  if (map.size <= cap) return;
  for (const old of map.keys()) {
    if (map.size <= cap * 0.9) break;
    if (book.writing.has(id(old)) || book.dirty.has(id(old))) continue;
    map.delete(old);
  }
  // what could not be dropped is waiting for its write: write now
  if (map.size > cap) void flush(book);
}

/**
 * Writes the named documents (`sessionId`, `budgetId`) as the book holds them when the next group commit
 * runs (a later change in the meantime rides along); durable when the promise settles. A failed write
 * drops them from the book, so that the next call reads what the store has.
 */
function write(book: Book, ids: string[]): Promise<void> {
  for (const id of ids) book.writing.set(id, (book.writing.get(id) ?? 0) + 1);
  const written = book.store.update(
    [],
    () => {
      const changes: DocChange[] = [];
      for (const id of ids) {
        book.dirty.delete(id);
        const k = id.slice(1);
        const value = id[0] === SESSION_ID ? book.sessions.get(k) : book.budgets.get(k);
        if (value) changes.push({ ns: id[0] === SESSION_ID ? 'suggest_sessions' : 'suggest_budgets', key: k, doc: value });
      }
      return { result: undefined, write: changes };
    },
    { batched: true },
  ).durable;
  const done = () => {
    for (const id of ids) {
      const n = (book.writing.get(id) ?? 1) - 1;
      if (n > 0) book.writing.set(id, n);
      else book.writing.delete(id);
    }
  };
  return written.then(done, (error: unknown) => {
    done();
    for (const id of ids) {
      book.dirty.delete(id);
      if (id[0] === SESSION_ID) book.sessions.delete(id.slice(1));
      else book.budgets.delete(id.slice(1));
    }
    throw error;
  });
}

/** Writes every change held in memory only (a failure drops those documents from the book). */
function flush(book: Book): Promise<void> {
  if (book.flushTimer) clearTimeout(book.flushTimer);
  book.flushTimer = undefined;
  if (book.dirty.size === 0) return Promise.resolve();
  return write(book, [...book.dirty]).catch(() => undefined);
}

function changed(book: Book, ids: string[]): void {
  for (const id of ids) book.dirty.add(id);
  if (!book.flushTimer) {
    book.flushTimer = setTimeout(() => void flush(book), FLUSH_MS);
    book.flushTimer.unref();
  }
}

/** Writes what this process holds in memory only (the service's shutdown). */
export function flushSessions(store: StateStore): Promise<void> {
  const book = books.get(store);
  return book ? flush(book) : Promise.resolve();
}

/**
 * The session and the day budget in one read (one round trip on PostgreSQL): a call reads them once. On
 * LMDB the book answers at once, without a promise (a keystroke's await and tick fewer, issue 14).
 */
export function readSession(store: StateStore, token: string, id: string, now = Date.now()): SessionRead | Promise<SessionRead> {
  const book = bookOf(store);
  if (book) return { session: live(bookSession(book, key(token, id)), now), budget: bookBudget(book, token) };
  return store.getMany([doc('suggest_sessions', key(token, id)), doc('suggest_budgets', token)]).then(([s, budget]) => ({
    session: live(s as SuggestSession | undefined, now),
    budget: budget as DayBudget | undefined,
  }));
}

/** The live session of this token and UUID, or undefined (never opened, or expired). */
export async function findSession(store: StateStore, token: string, id: string, now = Date.now()): Promise<SuggestSession | undefined> {
  const book = bookOf(store);
  if (book) return live(bookSession(book, key(token, id)), now);
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

function sameOffered(a: OfferedStreet | undefined, b: OfferedStreet): boolean {
  return (
    a !== undefined &&
    a.cadastral_code === b.cadastral_code &&
    a.index === b.index &&
    a.street_type === b.street_type &&
    a.name === b.name &&
    a.municipality === b.municipality &&
    a.province === b.province
  );
}

/**
 * `{ ...s, calls: s.calls + 1, offered }`, written as a copy loop: each keystroke copies the session the
 * previous one made, and there the loop costs 0.15 µs against the spread's 0.21 (CPU time, issue 14).
 */
function counted(s: SuggestSession, offered: Record<string, OfferedStreet>): SuggestSession {
  const next: Record<string, unknown> = {};
  for (const field in s) if (Object.hasOwn(s, field)) next[field] = s[field as keyof SuggestSession];
  next.calls = s.calls + 1;
  next.offered = offered;
  return next as unknown as SuggestSession;
}

/**
 * One call counted in a session (opened when `stored` is not live): the new session, and the budget to
 * write when a session opens. Throws the refusals.
 */
function decideEnter(
  stored: SuggestSession | undefined,
  budget: DayBudget | undefined,
  token: string,
  id: string,
  country: string,
  now: number,
  offered: Record<string, OfferedStreet>,
  ownOffered: boolean,
): { session: SuggestSession; budget?: DayBudget } {
  const s = live(stored, now);
  refuse(budget, s, country, now);
  if (s) {
    let news = false;
    for (const hint in offered) {
      const street = offered[hint] as OfferedStreet;
      const known = s.offered[hint];
      // the streets phase's answers are kept and shared: a street offered again is usually the same object
      if (known === street || sameOffered(known, street)) continue;
      news = true;
      break;
    }
    if (!news) return { session: counted(s, s.offered) };
    // a session's streets grow to hundreds: the book adds to its own map instead of copying it per call
    return { session: counted(s, ownOffered ? Object.assign(s.offered, offered) : { ...s.offered, ...offered }) };
  }
  const b = budgetOf(budget, now);
  b.sessions += 1;
  // the call's streets may be a kept answer shared by other calls: the session's map is its own
  return { session: { id: id.toLowerCase(), token, country, created: now, calls: 1, offered: { ...offered }, selected: [] }, budget: b };
}

/**
 * Counts one call in the session, opening it when the UUID is new (or its session expired), in
 * one atomic update: 409 for another country, 429 past 30 calls or past the day's free sessions.
 * `offered`: streets this call proposes, remembered in the same update. On LMDB decided in the book at
 * once and written within FLUSH_MS (see `Book`), and answered without a promise; a refusal is a rejected promise.
 */
export function enterSession(store: StateStore, token: string, id: string, country: string, now = Date.now(), offered: Record<string, OfferedStreet> = {}): SuggestSession | Promise<SuggestSession> {
  const k = key(token, id);
  const book = bookOf(store);
  if (book) {
    let d: ReturnType<typeof decideEnter>;
    try {
      d = decideEnter(bookSession(book, k), bookBudget(book, token), token, id, country, now, offered, true);
    } catch (error) {
      return Promise.reject(error);
    }
    remember(book, book.sessions, k, d.session, sessionId, BOOK_SESSIONS);
    if (d.budget) remember(book, book.budgets, token, d.budget, budgetId, BOOK_BUDGETS);
    changed(book, d.budget ? [sessionId(k), budgetId(token)] : [sessionId(k)]);
    return d.session;
  }
  // PostgreSQL: one transaction under lock, committed before the answer leaves
  return store.update(
    [doc('suggest_sessions', k), doc('suggest_budgets', token)],
    ([stored, budget]) => {
      const d = decideEnter(stored as SuggestSession | undefined, budget as DayBudget | undefined, token, id, country, now, offered, false);
      const write: DocChange[] = d.budget ? [{ ns: 'suggest_budgets', key: token, doc: d.budget }] : [];
      write.push({ ns: 'suggest_sessions', key: k, doc: d.session });
      return { result: d.session, write };
    },
    { batched: true },
  ).durable;
}

/** A selection's change of a session and its day budget; undefined when there is none to make. */
type SelectionChange = { session: SuggestSession; budget: DayBudget } | undefined;

function decideSelect(current: SuggestSession | undefined, budget: DayBudget | undefined, s: SuggestSession, streetId: string, now: number): SelectionChange {
  if (!current || current.created !== s.created) return undefined;
  if (current.selected.includes(streetId)) return undefined;
  const b = budgetOf(budget, now);
  if (current.selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected += 1;
  b.selections += 1;
  return { session: { ...current, selected: [...current.selected, streetId] }, budget: b };
}

function decideUnselect(current: SuggestSession | undefined, budget: DayBudget | undefined, streetId: string, now: number): SelectionChange {
  if (!current || !current.selected.includes(streetId)) return undefined;
  const selected = current.selected.filter((x) => x !== streetId);
  const b = budgetOf(budget, now);
  b.selections = Math.max(0, b.selections - 1);
  if (selected.length === 0 && utcDay(current.created) === b.day) b.sessions_selected = Math.max(0, b.sessions_selected - 1);
  return { session: { ...current, selected }, budget: b };
}

/** Applies a selection's change (durably) and answers whether there was one. */
async function changeSelection(store: StateStore, s: SuggestSession, decide: (current: SuggestSession | undefined, budget: DayBudget | undefined) => SelectionChange): Promise<boolean> {
  const k = key(s.token, s.id);
  const book = bookOf(store);
  if (book) {
    const change = decide(bookSession(book, k), bookBudget(book, s.token));
    if (!change) return false;
    remember(book, book.sessions, k, change.session, sessionId, BOOK_SESSIONS);
    remember(book, book.budgets, s.token, change.budget, budgetId, BOOK_BUDGETS);
    // durable before the caller charges: a selection lost in a crash would charge its street again
    await write(book, [sessionId(k), budgetId(s.token)]);
    return true;
  }
  return store.update([doc('suggest_sessions', k), doc('suggest_budgets', s.token)], ([stored, budget]) => {
    const change = decide(stored as SuggestSession | undefined, budget as DayBudget | undefined);
    if (!change) return { result: false };
    return {
      result: true,
      write: [
        { ns: 'suggest_budgets', key: s.token, doc: change.budget },
        { ns: 'suggest_sessions', key: k, doc: change.session },
      ],
    };
  }).durable;
}

/**
 * Marks a street selected. Answers true the first time for this street in this session (the caller
 * charges then), false for a refined repeat. `undo` gives the mark back when the charge failed.
 */
export function markSelected(store: StateStore, s: SuggestSession, streetId: string, now = Date.now()): Promise<boolean> {
  return changeSelection(store, s, (current, budget) => decideSelect(current, budget, s, streetId, now));
}

export async function unmarkSelected(store: StateStore, s: SuggestSession, streetId: string, now = Date.now()): Promise<void> {
  await changeSelection(store, s, (current, budget) => decideUnselect(current, budget, streetId, now));
}

/** Drops sessions past their validity (called now and then; they are refused anyway). */
export async function sweepSessions(store: StateStore, now = Date.now()): Promise<number> {
  const book = books.get(store);
  if (book) {
    // written counts first, so that the store holds what the book does; then the book forgets the expired
    await flush(book);
    for (const [k, s] of book.sessions) if (now - s.created > SESSION_MS && !book.writing.has(sessionId(k)) && !book.dirty.has(sessionId(k))) book.sessions.delete(k);
  }
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
