import type { FastifyReply } from 'fastify';

import { charge, refundDurably, type ChargeTicket, type CreditCharge, type Payer } from '../credit/ledger.js';
import type { StateStore } from '../state/store.js';
import type { Counter } from './capability.js';

/** What a synchronous call costs and who pays it. */
export interface Bill {
  payer: Payer;
  counter: Counter;
  /** Operations; 0 for a call that is counted but free (suggest's second select of a street). */
  units: number;
}

export interface Charged<T> {
  value: T;
  charge: CreditCharge;
}

/**
 * Charge → work → refund: the one place where a synchronous call's credit and its work meet (the
 * capabilities' single and batch calls, dedupe and incremental dedupe, suggest's select), and the only
 * request path that reaches the credit ledger. The charge is decided in the next shared commit: a
 * refusal (402) writes nothing and the work does not run; the work runs while that commit goes to disk
 * and the answer waits until it is there. Work that fails gives its operations back, on disk, before
 * the error leaves. `undo` reverses what the caller did in expectation of the charge (suggest marks the
 * street selected) when the charge is refused or the work fails.
 *
 * Every credit call here is awaited: a state store whose calls are asynchronous changes this function only.
 */
export async function chargedWork<T>(state: StateStore, bill: Bill, work: () => Promise<T>, undo?: () => void | Promise<void>): Promise<Charged<T>> {
  const pending = charge(state, bill.payer, bill.counter, bill.units);
  let decided: { charge: CreditCharge; ticket: ChargeTicket };
  try {
    decided = await pending.decided;
  } catch (error) {
    await undo?.();
    throw error;
  }
  let value: T;
  try {
    value = await work();
  } catch (error) {
    await pending.durable;
    if (bill.units > 0) await refundDurably(state, decided.ticket, bill.units);
    await undo?.();
    throw error;
  }
  await pending.durable;
  return { value, charge: decided.charge };
}

/** The credit headers of every consuming answer. */
export function chargeHeaders(reply: FastifyReply, charge: CreditCharge): void {
  reply.header('X-Service-Charged', String(charge.charged));
  reply.header('X-Service-Available', String(charge.available));
  if (charge.auto_topup > 0) reply.header('X-Service-Auto-Topup', String(charge.auto_topup));
}
