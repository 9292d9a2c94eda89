import type { Counter } from '../http/capability.js';
import type { StateDb, TrialRecord } from '../state/db.js';
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

const trialKey = (token: string, counter: Counter | string): string => `${token}/${counter}`;

export function trialOf(db: StateDb, token: string, counter: Counter): TrialRecord {
  return db.trials.get(trialKey(token, counter)) ?? { token, counter, size: 0, left: 0, used_total: 0, last_used: null };
}

/** Sets what the token may still consume on each named counter (the operator's grant replaces the old one). */
export function grantTrial(db: StateDb, token: string, sizes: Partial<Record<Counter, number>>): TrialRecord[] {
  return db.root.transactionSync(() =>
    Object.entries(sizes).map(([counter, size]) => {
      if (!Number.isInteger(size) || (size as number) < 0) throw new Error(`trial size must be a whole number ≥ 0: ${counter}=${size}`);
      const r = { ...trialOf(db, token, counter as Counter), size: size as number, left: size as number };
      db.trials.put(trialKey(token, counter), r);
      return r;
    }),
  );
}

/** Every counter's trial of one token. */
export function trialsOf(db: StateDb, token: string): TrialRecord[] {
  return (['contact', 'dedupe', 'light'] as const).map((c) => trialOf(db, token, c));
}

/** A regenerated token keeps what its predecessor had left (regenerating is not a way to a new trial). */
export function moveTrial(db: StateDb, from: string, to: string): void {
  db.root.transactionSync(() => {
    for (const r of trialsOf(db, from)) {
      if (r.size === 0 && r.used_total === 0) continue;
      db.trials.put(trialKey(to, r.counter), { ...r, token: to });
      db.trials.put(trialKey(from, r.counter), { ...r, left: 0 });
    }
  });
}

/** Inside a write transaction: takes `units` from the token's trial, or refuses and writes nothing. */
export function takeFromTrial(db: StateDb, token: string, counter: Counter, units: number, now: Date): Taken {
  const r = trialOf(db, token, counter);
  if (r.left < units) return { ok: false, counter, needed: units, available: r.left };
  if (units > 0) {
    r.left -= units;
    r.used_total += units;
    r.last_used = now.toISOString();
    db.trials.put(trialKey(token, counter), r);
  }
  const ticket: ChargeTicket = { account: '', token, counter, month: now.toISOString().slice(0, 7), free: units, subscription: 0, packs: [] };
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
  return { ok: true, charge, ticket };
}

/** Inside a write transaction: gives back to the trial what a failed call took. */
export function giveToTrial(db: StateDb, token: string, counter: Counter, units: number): number {
  if (units <= 0) return 0;
  const r = trialOf(db, token, counter);
  r.left += units;
  r.used_total = Math.max(0, r.used_total - units);
  db.trials.put(trialKey(token, counter), r);
  return units;
}
