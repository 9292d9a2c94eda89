import type { StateDb } from './db.js';

/**
 * Group commit. Every write of the request path goes through `batchedWrite`: lmdb-js queues the callback
 * with every other write of the same event-loop turn and runs them, one after the other on the main
 * thread, inside ONE write transaction (holding LMDB's writer lock, so across threads and processes the
 * read-modify-write of each callback is atomic), then commits and flushes the whole batch at once on its
 * writer thread. Thirty-two concurrent requests cost one commit and one fsync instead of thirty-two.
 *
 * Two moments matter to a caller:
 * - `decided`: the callback has run inside the transaction, its result is known (a charge taken, or a 402),
 *   nothing is durable yet. Work that the result allows may start here, overlapping the commit;
 * - `durable`: the transaction is committed and flushed to disk. Nothing may leave the process (a response)
 *   that depends on the write before this.
 *
 * The callback must read first and write last, and may throw only before writing (a refusal): lmdb-js
 * does not roll back the writes of a callback (the batch is shared).
 */
export interface BatchedWrite<T> {
  decided: Promise<T>;
  durable: Promise<T>;
}

/**
 * Work that rides along in every batched transaction (e.g. the token usage counters gathered in memory):
 * it runs inside the transaction after the callbacks, and what it returns is called once the commit is
 * durable (or with the error if the commit failed).
 */
export type Rider = () => ((error?: unknown) => void) | undefined;

const riders = new WeakMap<StateDb, Rider[]>();

export function addRider(db: StateDb, rider: Rider): void {
  const list = riders.get(db) ?? [];
  list.push(rider);
  riders.set(db, list);
}

export function batchedWrite<T>(db: StateDb, fn: () => T): BatchedWrite<T> {
  let decide!: (value: T) => void;
  let refuse!: (error: unknown) => void;
  const decided = new Promise<T>((resolve, reject) => {
    decide = resolve;
    refuse = reject;
  });
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  const settle: ((error?: unknown) => void)[] = [];
  // inside another write transaction lmdb-js runs the callback at once and returns its value: wrap it
  const committed = Promise.resolve(
    db.root.transaction(() => {
      try {
        outcome = { ok: true, value: fn() };
        decide(outcome.value);
      } catch (error) {
        // a refusal thrown before any write: the batch itself still commits (riders, other callers)
        outcome = { ok: false, error };
        refuse(error);
      }
      for (const rider of riders.get(db) ?? []) {
        const done = rider();
        if (done) settle.push(done);
      }
    }) as unknown,
  );
  const durable = committed.then(
    async () => {
      // the commit promise of lmdb-js resolves at commit; with overlappingSync the flush to disk may
      // still be running: the durable point is after `flushed`
      await db.root.flushed;
      for (const done of settle) done();
      if (!outcome?.ok) throw outcome?.error ?? new Error('write transaction callback did not run');
      return outcome.value;
    },
    (error: unknown) => {
      for (const done of settle) done(error);
      throw error;
    },
  );
  // a caller that stops at `decided` (a 402) must not leave an unhandled rejection behind
  durable.catch(() => undefined);
  decided.catch(() => undefined);
  return { decided, durable };
}

/** `batchedWrite` when the caller needs only the durable result. */
export function durableWrite<T>(db: StateDb, fn: () => T): Promise<T> {
  return batchedWrite(db, fn).durable;
}
