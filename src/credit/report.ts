import type { Counter } from '../http/capability.js';
import type { Language } from '../http/language.js';
import type { CreditRecord } from '../state/db.js';
import type { StateStore } from '../state/store.js';
import { COUNTERS, FREE_MONTHLY, availableOf, current, nextMonthFirst, packPrice, packsBought } from '../state/ledger.js';
import { warningText, type CounterWarning } from '../http/credit-text.js';

export type CounterState = 'never_used' | 'free' | 'free_used_up' | 'active' | 'awaiting_renewal' | 'used_up';

export function stateOf(r: CreditRecord): CounterState {
  const available = availableOf(r);
  if (!r.bought_ever) {
    if (r.used_total === 0 && r.free_used === 0) return 'never_used';
    return available > 0 ? 'free' : 'free_used_up';
  }
  if (available > 0) return 'active';
  return r.subscription ? 'awaiting_renewal' : 'used_up';
}

/** Warning when less than a tenth of what the counter had this month is left (never for unused counters). */
function warningOf(r: CreditRecord, state: CounterState): CounterWarning | null {
  const available = availableOf(r);
  if (state === 'never_used') return null;
  if (available === 0) {
    // a pack the monthly cap no longer allows is not promised
    if (r.auto_topup.active) return r.auto_topup.spent_month_eur + packPrice(r.counter as Counter, r.auto_topup.size) > r.auto_topup.monthly_cap_eur + 1e-9 ? 'auto_topup_cap' : 'auto_topup_next';
    return state === 'awaiting_renewal' ? 'awaiting_renewal' : 'nothing_left';
  }
  const month = FREE_MONTHLY[r.counter as Counter] + (r.subscription?.size ?? 0) + r.packs.reduce((s, p) => s + p.left, 0);
  return available < month / 10 ? 'low' : null;
}

export function counterReport(r: CreditRecord, now = new Date(), language: Language = 'en') {
  const state = stateOf(r);
  const freeSize = FREE_MONTHLY[r.counter as Counter];
  return {
    available: availableOf(r),
    free: { remaining: Math.max(0, freeSize - r.free_used), size: freeSize, reset_on: nextMonthFirst(now) },
    subscription: r.subscription
      ? { left: r.subscription.left, size: r.subscription.size, activated_on: r.subscription.activated_on, renews_on: r.subscription.renews_on }
      : null,
    packs: {
      left: r.packs.reduce((s, p) => s + p.left, 0),
      active_packs: r.packs.filter((p) => p.left > 0).map((p) => ({ size: p.size, left: p.left, activated_on: p.bought_on, origin: p.auto ? 'auto_topup' : 'purchase' })),
      bought: packsBought(r),
    },
    auto_topup: { ...r.auto_topup },
    usage: { used: r.used_month, total: r.used_total, last_used: r.last_used },
    state,
    warning: warningText(warningOf(r, state), language),
  };
}

export type CounterReport = ReturnType<typeof counterReport>;

/** GET /api/v1/credit: every counter, what needs a top-up, and which counter each endpoint uses. */
export async function creditReport(store: StateStore, account: string, endpointCounters: Record<string, Counter>, now = new Date(), language: Language = 'en') {
  const records = await Promise.all(COUNTERS.map((c) => current(store, account, c, now)));
  const counters = Object.fromEntries(COUNTERS.map((c, i) => [c, counterReport(records[i] as CreditRecord, now, language)])) as Record<Counter, CounterReport>;
  const needs_topup = COUNTERS.filter((c) => counters[c].available === 0 || counters[c].warning !== null && counters[c].state !== 'never_used');
  return { ok: true, account, counters, needs_topup, endpoint: endpointCounters };
}
