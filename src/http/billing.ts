import type { FastifyReply } from 'fastify';

import { charge, refundDurably, type ChargeTicket, type CreditCharge, type Payer } from '../state/ledger.js';
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
 * The charge's moments arrive as callbacks (one promise per call, the one returned): every request pays
 * this path, and a promise pair with its `then` chains cost the event loop more than the charge itself.
 */
export function chargedWork<T>(state: StateStore, bill: Bill, work: () => Promise<T>, undo?: () => void | Promise<void>): Promise<Charged<T>> {
  return new Promise<Charged<T>>((resolve, reject) => {
    let taken: { charge: CreditCharge; ticket: ChargeTicket } | undefined;
    let worked: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
    /** The charge's commit: undefined while on its way, then null (on disk) or the commit's error. */
    let commit: { error: unknown } | null | undefined;
    // the answer leaves once both the work and the commit are done
    const settle = () => {
      if (worked === undefined || commit === undefined || taken === undefined) return;
      if (commit !== null) reject(commit.error);
      else if (worked.ok) resolve({ value: worked.value, charge: taken.charge });
      else failed(state, bill, taken.ticket, worked.error, undo).then(resolve, reject);
    };
    charge(state, bill.payer, bill.counter, bill.units, {
      decided: (decided) => {
        taken = decided;
        let running: Promise<T>;
        try {
          running = work();
        } catch (error) {
          running = Promise.reject(error);
        }
        running.then(
          (value) => {
            worked = { ok: true, value };
            settle();
          },
          (error: unknown) => {
            worked = { ok: false, error };
            settle();
          },
        );
      },
      refused: (error) => {
        undone(undo, error).then(resolve, reject);
      },
      durable: (error) => {
        commit = error === undefined ? null : { error };
        settle();
      },
    });
  });
}

/** The work failed, its charge on disk: the operations given back (on disk), the caller's step undone, the error thrown. */
async function failed(state: StateStore, bill: Bill, ticket: ChargeTicket, error: unknown, undo?: () => void | Promise<void>): Promise<never> {
  if (bill.units > 0) await refundDurably(state, ticket, bill.units);
  return undone(undo, error);
}

/** The caller's step undone, then `error` thrown (an error of `undo` instead, as an `await undo()` would). */
async function undone(undo: (() => void | Promise<void>) | undefined, error: unknown): Promise<never> {
  await undo?.();
  throw error;
}

/** The credit headers of every consuming answer (in lower case, as Fastify keeps them: no lower-casing per call). */
export function chargeHeaders(reply: FastifyReply, charge: CreditCharge): void {
  reply.header('x-service-charged', String(charge.charged));
  reply.header('x-service-available', String(charge.available));
  if (charge.auto_topup > 0) reply.header('x-service-auto-topup', String(charge.auto_topup));
}
