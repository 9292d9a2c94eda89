import { randomUUID } from 'node:crypto';

import type { Counter } from '../http/capability.js';
import { ApiError } from '../http/errors.js';
import { problem } from '../http/problems.js';
import type { CreditRecord, TrialRecord } from './db.js';
import { isoString } from './clock.js';
import { doc, updateListened, type Decision, type DocChange, type DocKey, type StateStore, type UpdateListener } from './store.js';
import { giveToTrial, takeFromTrial, trialKey } from './trial.js';

export const COUNTERS: readonly Counter[] = ['contact', 'dedupe', 'light'];

/** Free operations a month (spec, Limits), reset on the 1st. */
export const FREE_MONTHLY: Record<Counter, number> = { contact: 50, dedupe: 100, light: 500 };

/** Price of one operation bought in a pack, in euro: what the auto top-up cap is measured against. */
export const UNIT_PRICE_EUR: Record<Counter, number> = { contact: 0.02, dedupe: 0.01, light: 0.002 };

export interface Bucket {
  operations: number;
  remaining: number;
}

/** The `credit` object of every consuming response. */
export interface CreditCharge {
  counter: Counter;
  charged: number;
  free: Bucket;
  subscription: Bucket;
  packs: Bucket;
  available: number;
  auto_topup: number;
  note: string | null;
}

/** Where a charge was taken from, so that a refund gives back exactly the same operations. */
export interface ChargeTicket {
  /** The paying account; '' when a token without an account paid from its trial allowance (`token`). */
  account: string;
  /** Public id of the account-less token whose trial allowance paid (all of it counted in `free`). */
  token?: string;
  counter: Counter;
  month: string;
  free: number;
  subscription: number;
  packs: { id: string; n: number }[];
}

// from the UTC fields, not toISOString: a charge reads the month twice and toISOString was a visible cost
const month = (now: Date): string => {
  const m = now.getUTCMonth() + 1;
  return `${now.getUTCFullYear()}-${m < 10 ? '0' : ''}${m}`;
};
const day = (d: Date): string => d.toISOString().slice(0, 10);

export function nextMonthFirst(now: Date): string {
  return day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
}

export function creditKey(account: string, counter: Counter): string {
  return `${account}/${counter}`;
}

function fresh(account: string, counter: Counter, now: Date): CreditRecord {
  return {
    account,
    counter,
    month: month(now),
    free_used: 0,
    subscription: null,
    packs: [],
    auto_topup: { active: false, size: 0, monthly_cap_eur: 0, spent_month_eur: 0 },
    used_month: 0,
    used_total: 0,
    last_used: null,
    bought_ever: false,
  };
}

type Pack = CreditRecord['packs'][number];

const copyPack = (p: Pack): Pack => ({ id: p.id, size: p.size, left: p.left, bought_on: p.bought_on, auto: p.auto, price_eur: p.price_eur });

/**
 * A deep copy of a credit record (every nested object is a plain record of scalars), field by field: a
 * spread that then replaces the nested fields (`{ ...r, packs: … }`) took V8's slow path, 2–3× the time.
 */
function copyOf(r: CreditRecord): CreditRecord {
  const s = r.subscription;
  const a = r.auto_topup;
  return {
    account: r.account,
    counter: r.counter,
    month: r.month,
    free_used: r.free_used,
    subscription: s ? { size: s.size, left: s.left, activated_on: s.activated_on, renews_on: s.renews_on } : null,
    packs: r.packs.map(copyPack),
    auto_topup: { active: a.active, size: a.size, monthly_cap_eur: a.monthly_cap_eur, spent_month_eur: a.spent_month_eur },
    used_month: r.used_month,
    used_total: r.used_total,
    last_used: r.last_used,
    bought_ever: r.bought_ever,
    ...(r.packs_retired ? { packs_retired: r.packs_retired } : {}),
  };
}

/** The record as it stands today: a new month resets the allowance; a due subscription renews. */
export function currentOf(stored: CreditRecord | undefined, account: string, counter: Counter, now = new Date()): CreditRecord {
  // a copy: the decision may change it, the caller's document stays as read (by hand: structuredClone
  // was the costliest step of a charge)
  const r: CreditRecord = stored ? copyOf(stored) : fresh(account, counter, now);
  const thisMonth = month(now);
  if (r.month !== thisMonth) {
    r.month = thisMonth;
    r.free_used = 0;
    r.used_month = 0;
    r.auto_topup.spent_month_eur = 0;
  }
  const today = r.subscription ? day(now) : '';
  while (r.subscription && r.subscription.renews_on <= today) {
    r.subscription.left = r.subscription.size;
    r.subscription.renews_on = nextMonthFirst(new Date(`${r.subscription.renews_on}T00:00:00Z`));
  }
  return r;
}

/** An account's counter as it stands today (read only). */
export async function current(store: StateStore, account: string, counter: Counter, now = new Date()): Promise<CreditRecord> {
  return currentOf(await store.get<CreditRecord>('credits', creditKey(account, counter)), account, counter, now);
}

export function availableOf(r: CreditRecord): number {
  return freeLeft(r) + (r.subscription?.left ?? 0) + r.packs.reduce((s, p) => s + p.left, 0);
}

function freeLeft(r: CreditRecord): number {
  return Math.max(0, FREE_MONTHLY[r.counter as Counter] - r.free_used);
}

/** What one pack of `size` operations costs, in euro. */
export function packPrice(counter: Counter, size: number): number {
  return Math.round(size * UNIT_PRICE_EUR[counter] * 100) / 100;
}

export function retiredPackKey(account: string, counter: Counter, pack: string): string {
  return `${account}/${counter}/${pack}`;
}

/** Packs ever bought on a counter: those in the record and those retired from it. */
export function packsBought(r: CreditRecord): number {
  return r.packs.length + (r.packs_retired ?? 0);
}

/**
 * Moves the spent packs out of `r` (changed in place) to `credit_packs`, one document per pack under a key
 * of its own (written, never read by a charge: no lock to share): an auto top-up account buys packs all
 * year, and every charge copies and encodes its record, which grew by a pack per top-up for ever (300
 * spent packs: a charge's event loop 11 → 26 µs, bench/charge-cpu.ts). A refund reads them back.
 */
function retireSpent(r: CreditRecord, account: string, counter: Counter): DocChange[] {
  if (!r.packs.some((p) => p.left === 0)) return [];
  const moved: DocChange[] = [];
  r.packs = r.packs.filter((p) => {
    if (p.left > 0) return true;
    moved.push({ ns: 'credit_packs', key: retiredPackKey(account, counter, p.id), doc: p });
    return false;
  });
  r.packs_retired = (r.packs_retired ?? 0) + moved.length;
  return moved;
}

/** A retired pack back in the record (a refund gives to it), in the order of purchase the charges take. */
function restorePack(r: CreditRecord, pack: Pack): Pack {
  const restored = copyPack(pack);
  const at = r.packs.findIndex((p) => p.bought_on > restored.bought_on);
  r.packs.splice(at < 0 ? r.packs.length : at, 0, restored);
  r.packs_retired = Math.max(0, (r.packs_retired ?? 0) - 1);
  return restored;
}

/** Who pays for a call: an account's counters, or the trial allowance of a token without an account. */
export type Payer = { account: string } | { token: string };

export function payerName(payer: Payer): string {
  return 'account' in payer ? payer.account : `token ${payer.token}`;
}

/** What a charge attempt decided inside its transaction: taken (and written), or refused (nothing written). */
export type Taken = { ok: true; charge: CreditCharge; ticket: ChargeTicket } | Refused;

/** A charge refused: what it needed and had; `topup_cap` when an active auto top-up was stopped by its monthly cap (euro). */
export interface Refused {
  ok: false;
  counter: Counter;
  needed: number;
  available: number;
  topup_cap?: number;
}

/** The 402; after an auto top-up stopped by its monthly cap, the message and `details.auto_topup` say it failed. */
export function paymentRequired(refused: Omit<Refused, 'ok'>): ApiError {
  const { counter, needed, available, topup_cap: cap } = refused;
  if (cap === undefined) return new ApiError('payment_required', { counter, needed, available }, { counter, needed, available });
  return new ApiError('payment_required', { counter, needed, available, also: problem('topup_cap', { cap }) }, { counter, needed, available, auto_topup: 'monthly_cap_reached' });
}

/**
 * Takes `units` operations from an account in the order free → subscription → packs → auto top-up. Runs
 * inside a write transaction (the caller's): reads the record, decides, and writes only when the whole
 * call is covered, so that a refusal writes nothing and two callers racing for the last unit never both get it.
 */
function takeFromAccount(stored: CreditRecord | undefined, account: string, counter: Counter, units: number, now: Date): Decision<Taken> {
  const r = currentOf(stored, account, counter, now);
  const before = availableOf(r);
  const ticket: ChargeTicket = { account, counter, month: r.month, free: 0, subscription: 0, packs: [] };
  let need = units;
  const take = (have: number): number => {
    const n = Math.min(have, need);
    need -= n;
    return n;
  };
  ticket.free = take(freeLeft(r));
  r.free_used += ticket.free;
  if (r.subscription) {
    ticket.subscription = take(r.subscription.left);
    r.subscription.left -= ticket.subscription;
  }
  for (const p of r.packs) {
    if (need === 0) break;
    const n = take(p.left);
    if (n > 0) {
      p.left -= n;
      ticket.packs.push({ id: p.id, n });
    }
  }
  let bought = 0;
  const a = r.auto_topup;
  while (need > 0 && a.active && a.size > 0) {
    const price = packPrice(counter, a.size);
    if (a.spent_month_eur + price > a.monthly_cap_eur + 1e-9) break;
    const pack = { id: randomUUID().slice(0, 8), size: a.size, left: a.size, bought_on: isoString(now), auto: true, price_eur: price };
    a.spent_month_eur = Math.round((a.spent_month_eur + price) * 100) / 100;
    r.packs.push(pack);
    r.bought_ever = true;
    bought += 1;
    const n = take(pack.left);
    pack.left -= n;
    ticket.packs.push({ id: pack.id, n });
  }
  // refused: nothing is written, so report what the stored record holds
  if (need > 0) return { result: { ok: false, counter, needed: units, available: before, ...(a.active && a.size > 0 ? { topup_cap: a.monthly_cap_eur } : {}) } };
  if (units > 0) {
    r.used_month += units;
    r.used_total += units;
    r.last_used = isoString(now);
  }
  const packsTaken = ticket.packs.reduce((s, p) => s + p.n, 0);
  const charge: CreditCharge = {
    counter,
    charged: units,
    free: { operations: ticket.free, remaining: freeLeft(r) },
    subscription: { operations: ticket.subscription, remaining: r.subscription?.left ?? 0 },
    packs: { operations: packsTaken, remaining: r.packs.reduce((s, p) => s + p.left, 0) },
    available: availableOf(r),
    auto_topup: bought,
    note: bought > 0 ? `auto top-up bought ${bought} pack(s) of ${a.size}` : null,
  };
  const retired = ticket.packs.length > 0 ? retireSpent(r, account, counter) : [];
  return { result: { ok: true, charge, ticket }, write: [{ ns: 'credits', key: creditKey(account, counter), doc: r }, ...retired] };
}

/**
 * The charge for whoever pays, as one atomic update of the paying document (the account's counter, or
 * the token's trial): decided under the document's lock, written only when the whole call is covered.
 */
function takeDecision(payer: Payer, counter: Counter, units: number, now: Date): { keys: DocKey[]; decide: (docs: unknown[]) => Decision<Taken> } {
  if ('account' in payer) {
    return { keys: [doc('credits', creditKey(payer.account, counter))], decide: ([stored]) => takeFromAccount(stored as CreditRecord | undefined, payer.account, counter, units, now) };
  }
  return { keys: [doc('trials', trialKey(payer.token, counter))], decide: ([stored]) => takeFromTrial(stored as TrialRecord | undefined, payer.token, counter, units, now) };
}

/**
 * A charge in a write of its own: 402 and nothing written when the credit does not cover the whole
 * call. For jobs and the operator; request paths use `charge`, which shares commits on LMDB.
 */
export async function consume(store: StateStore, account: string, counter: Counter, units: number, now = new Date()): Promise<{ charge: CreditCharge; ticket: ChargeTicket }> {
  return consumeFor(store, { account }, counter, units, now);
}

export async function consumeFor(store: StateStore, payer: Payer, counter: Counter, units: number, now = new Date()): Promise<{ charge: CreditCharge; ticket: ChargeTicket }> {
  const { keys, decide } = takeDecision(payer, counter, units, now);
  const taken = await store.update(keys, decide).durable;
  if (!taken.ok) throw paymentRequired(taken);
  return taken;
}

/**
 * The `credit` object of an answer that charged nothing (an error, a keystroke of suggest): the payer's
 * counter as it stands, read through the same decision as a charge of 0 operations (nothing written).
 */
export async function creditState(store: StateStore, payer: Payer, counter: Counter, now = new Date()): Promise<CreditCharge> {
  const { keys, decide } = takeDecision(payer, counter, 0, now);
  const taken = decide(await store.getMany(keys)).result;
  if (!taken.ok) throw paymentRequired(taken);
  return taken.charge;
}

/** Told the moments of a request's charge (see `UpdateListener`); refused with the 402 when not covered. */
export type ChargeListener = UpdateListener<{ charge: CreditCharge; ticket: ChargeTicket }>;

/**
 * The charge of a request, in the next shared (group) commit: exact and atomic like `consume`, but
 * concurrent requests share one commit and one fsync. Work may start when the listener hears `decided`;
 * the response waits for `durable`. A refusal throws inside the decision: nothing of it is written.
 */
export function charge(store: StateStore, payer: Payer, counter: Counter, units: number, listener: ChargeListener, now = new Date()): void {
  const { keys, decide } = takeDecision(payer, counter, units, now);
  updateListened(
    store,
    keys,
    (docs) => {
      const decision = decide(docs);
      if (!decision.result.ok) throw paymentRequired(decision.result);
      return { result: decision.result, write: decision.write };
    },
    listener,
  );
}

/** Gives back up to `units` of a ticket to the buckets they came from, in one atomic update. */
function give(store: StateStore, ticket: ChargeTicket, units: number, now: Date, batched: boolean): Promise<number> {
  if (ticket.token !== undefined) {
    const token = ticket.token;
    return store.update([doc('trials', trialKey(token, ticket.counter))], ([stored]) => giveToTrial(stored as TrialRecord | undefined, token, ticket.counter, Math.min(units, ticket.free)), { batched }).durable;
  }
  const key = creditKey(ticket.account, ticket.counter);
  // a pack of the ticket may have been spent and retired since: read where it would be
  const retiredKeys = ticket.packs.map((t) => doc('credit_packs', retiredPackKey(ticket.account, ticket.counter, t.id)));
  return store.update(
    [doc('credits', key), ...retiredKeys],
    ([stored, ...retiredDocs]) => {
      const r = currentOf(stored as CreditRecord | undefined, ticket.account, ticket.counter, now);
      const restored: DocChange[] = [];
      let left = units;
      const back = (max: number): number => {
        const n = Math.min(max, left);
        left -= n;
        return n;
      };
      for (let i = ticket.packs.length - 1; i >= 0; i--) {
        const t = ticket.packs[i] as { id: string; n: number };
        let pack = r.packs.find((p) => p.id === t.id);
        const retired = retiredDocs[i] as Pack | undefined;
        if (!pack && retired) {
          pack = restorePack(r, retired);
          restored.push({ ns: 'credit_packs', key: retiredPackKey(ticket.account, ticket.counter, t.id), doc: null });
        }
        if (pack) pack.left += back(t.n);
      }
      if (r.subscription) r.subscription.left = Math.min(r.subscription.size, r.subscription.left + back(ticket.subscription));
      if (ticket.month === r.month) r.free_used = Math.max(0, r.free_used - back(ticket.free));
      const given = units - left;
      r.used_month = Math.max(0, r.used_month - given);
      r.used_total = Math.max(0, r.used_total - given);
      return { result: given, write: [{ ns: 'credits', key, doc: r }, ...restored] };
    },
    { batched },
  ).durable;
}

/**
 * Gives back operations that were charged but not processed (a failed call, a stopped job): to the
 * packs and subscription they came from, and to the free allowance when still in the same month.
 */
export async function refund(store: StateStore, ticket: ChargeTicket, units: number, now = new Date()): Promise<number> {
  if (units <= 0) return 0;
  return give(store, ticket, units, now, false);
}

/** `refund` in the next shared commit (LMDB); resolves once it is durable. */
export function refundDurably(store: StateStore, ticket: ChargeTicket, units: number, now = new Date()): Promise<number> {
  if (units <= 0) return Promise.resolve(0);
  return give(store, ticket, units, now, true);
}

/** One operator change of an account's counter, atomically. */
function changeCounter(store: StateStore, account: string, counter: Counter, now: Date, change: (r: CreditRecord) => void): Promise<CreditRecord> {
  const key = creditKey(account, counter);
  return store.update([doc('credits', key)], ([stored]) => {
    const r = currentOf(stored as CreditRecord | undefined, account, counter, now);
    change(r);
    return { result: r, write: [{ ns: 'credits', key, doc: r }] };
  }).durable;
}

export function addPack(store: StateStore, account: string, counter: Counter, size: number, now = new Date()): Promise<CreditRecord> {
  return changeCounter(store, account, counter, now, (r) => {
    r.packs.push({ id: randomUUID().slice(0, 8), size, left: size, bought_on: now.toISOString(), auto: false, price_eur: packPrice(counter, size) });
    r.bought_ever = true;
  });
}

export function subscribe(store: StateStore, account: string, counter: Counter, size: number, now = new Date()): Promise<CreditRecord> {
  return changeCounter(store, account, counter, now, (r) => {
    r.subscription = { size, left: size, activated_on: day(now), renews_on: nextMonthFirst(now) };
    r.bought_ever = true;
  });
}

export function setAutoTopup(store: StateStore, account: string, counter: Counter, size: number, capEur: number, active = true, now = new Date()): Promise<CreditRecord> {
  return changeCounter(store, account, counter, now, (r) => {
    r.auto_topup = { ...r.auto_topup, active, size, monthly_cap_eur: capEur };
  });
}
