import type { Counter } from '../http/capability.js';
import { isoString } from './clock.js';
import type { TrialRecord } from './db.js';
import { doc, type Decision, type DocChange, type StateStore } from './store.js';
import type { ChargeTicket, CreditCharge, Taken } from './ledger.js';

/**
 * Tokens without an account (spec, Security rule 4: only asynchronous jobs and GET /credit need an
 * account) pay their single and batch calls from a trial allowance of their own: operations per counter
 * granted by the operator when the token is created (or later), spent once, never renewed, not shared with
 * any account. No free monthly allowance: a token is not an account, and an operator who hands out
 * account-less tokens decides exactly how much each may verify.
 */

/** Granted to a token created without an account when the operator names no other figures. */
export const DEFAULT_TRIAL: Readonly<Record<Counter, number>> = { contact: 10, dedupe: 20, light: 100 };

export const trialKey = (token: string, counter: Counter | string): string => `${token}/${counter}`;

const COUNTER_NAMES = ['contact', 'dedupe', 'light'] as const;

const emptyTrial = (token: string, counter: string): TrialRecord => ({ token, counter, size: 0, left: 0, used_total: 0, last_used: null });

export async function trialOf(store: StateStore, token: string, counter: Counter): Promise<TrialRecord> {
  return (await store.get<TrialRecord>('trials', trialKey(token, counter))) ?? emptyTrial(token, counter);
}

/** The documents that grant `sizes` to a token (the operator's grant replaces the old one). */
export function trialGrant(token: string, stored: (TrialRecord | undefined)[], sizes: Partial<Record<Counter, number>>): DocChange[] {
  return Object.entries(sizes).map(([counter, size], i) => {
    if (!Number.isInteger(size) || (size as number) < 0) throw new Error(`trial size must be a whole number ≥ 0: ${counter}=${size}`);
    return { ns: 'trials', key: trialKey(token, counter), doc: { ...(stored[i] ?? emptyTrial(token, counter)), size: size as number, left: size as number } };
  });
}

/** Sets what the token may still consume on each named counter (the operator's grant replaces the old one). */
export function grantTrial(store: StateStore, token: string, sizes: Partial<Record<Counter, number>>): Promise<TrialRecord[]> {
  const keys = Object.keys(sizes).map((c) => doc('trials', trialKey(token, c)));
  return store.update(keys, (stored) => {
    const write = trialGrant(token, stored as (TrialRecord | undefined)[], sizes);
    return { result: write.map((w) => w.doc as TrialRecord), write };
  }).durable;
}

/** Every counter's trial of one token. */
export async function trialsOf(store: StateStore, token: string): Promise<TrialRecord[]> {
  const found = await store.getMany(COUNTER_NAMES.map((c) => doc('trials', trialKey(token, c))));
  return COUNTER_NAMES.map((c, i) => (found[i] as TrialRecord | undefined) ?? emptyTrial(token, c));
}

/** A regenerated token keeps what its predecessor had left (regenerating is not a way to a new trial). */
export async function moveTrial(store: StateStore, from: string, to: string): Promise<void> {
  const keys = COUNTER_NAMES.map((c) => doc('trials', trialKey(from, c)));
  await store.update(keys, (stored) => {
    const write: DocChange[] = [];
    for (const r of stored as (TrialRecord | undefined)[]) {
      if (!r || (r.size === 0 && r.used_total === 0)) continue;
      write.push({ ns: 'trials', key: trialKey(to, r.counter), doc: { ...r, token: to } });
      write.push({ ns: 'trials', key: trialKey(from, r.counter), doc: { ...r, left: 0 } });
    }
    return { result: undefined, write };
  }).durable;
}

/** The decision of a charge on a token's trial: takes `units`, or refuses and writes nothing. */
export function takeFromTrial(stored: TrialRecord | undefined, token: string, counter: Counter, units: number, now: Date): Decision<Taken> {
  const r = { ...(stored ?? emptyTrial(token, counter)) };
  if (r.left < units) return { result: { ok: false, counter, needed: units, available: r.left } };
  const write: DocChange[] = [];
  if (units > 0) {
    r.left -= units;
    r.used_total += units;
    r.last_used = isoString(now);
    write.push({ ns: 'trials', key: trialKey(token, counter), doc: r });
  }
  const ticket: ChargeTicket = { account: '', token, counter, month: isoString(now).slice(0, 7), free: units, subscription: 0, packs: [] };
  const charge: CreditCharge = {
    counter,
    charged: units,
    // the trial is the only bucket of such a token: reported as its free operations
    free: { operations: units, remaining: r.left },
    subscription: { operations: 0, remaining: 0 },
    packs: { operations: 0, remaining: 0 },
    available: r.left,
    auto_topup: 0,
    note: null,
  };
  return { result: { ok: true, charge, ticket }, write };
}

/** The decision of a refund to a trial: gives back what a failed call took. */
export function giveToTrial(stored: TrialRecord | undefined, token: string, counter: Counter, units: number): Decision<number> {
  if (units <= 0) return { result: 0 };
  const r = { ...(stored ?? emptyTrial(token, counter)) };
  r.left += units;
  r.used_total = Math.max(0, r.used_total - units);
  return { result: units, write: [{ ns: 'trials', key: trialKey(token, counter), doc: r }] };
}
