import type { StateDb } from './db.js';

/**
 * Group commit. Every write of the request path goes through `batchedWrite`. The callbacks that arrive
 * while no commit is being decided gather in one round; the round is ONE lmdb-js asynchronous
 * transaction: when lmdb-js runs it (on the main thread, holding LMDB's writer lock, so across threads
 * and processes the read-modify-write of each callback is atomic), the callbacks run one after the other,
 * then the riders, then lmdb-js commits and flushes the whole round at once on its writer thread.
 * Thirty-two concurrent requests cost one transaction, one commit and one fsync instead of thirty-two.
 * (One lmdb-js transaction per round rather than one per callback: the per-transaction work of lmdb-js
 * — instruction buffer, writer-thread wake-up, result promises — is paid once per round.)
 *
 * Two moments matter to a caller:
 * - `decided`: the callback has run inside the transaction, its result is known (a charge taken, or a 402),
 *   nothing is durable yet. Work that the result allows may start here, overlapping the commit;
 * - `durable`: the transaction is committed and flushed to disk. Nothing may leave the process (a response)
 *   that depends on the write before this.
 *
 * The callback must read first and write last, and may throw only before writing (a refusal): lmdb-js
 * does not roll back the writes of a callback (the transaction is shared).
 */
export interface BatchedWrite<T> {
  decided: Promise<T>;
  durable: Promise<T>;
}

/**
 * Work that rides along once in every round (the token usage counters gathered in memory, the documents
 * the round's callbacks wrote): it runs inside the transaction after the callbacks, and what it returns
 * is called once the commit is durable (or with the error if the commit failed).
 */
export type Rider = () => ((error?: unknown) => void) | undefined;

/** A callback of a round: `run` inside the transaction, or `fail` when the transaction never ran it. */
interface Task {
  run: () => void;
  fail: (error: unknown) => void;
}

/** The callbacks gathered for the next transaction, and how its commit ended. */
interface Round {
  tasks: Task[];
  /** The transaction callback has run (later tasks cannot join). */
  ran: boolean;
  /** Settles when the round's transaction is committed and flushed. */
  durable: Promise<void>;
}

interface Committer {
  riders: Rider[];
  /** The round still taking callbacks (its transaction has not started); null: the next call opens one. */
  open: Round | null;
}

const committers = new WeakMap<StateDb, Committer>();

function committerOf(db: StateDb): Committer {
  let c = committers.get(db);
  if (!c) {
    c = { riders: [], open: null };
    committers.set(db, c);
  }
  return c;
}

export function addRider(db: StateDb, rider: Rider): void {
  committerOf(db).riders.push(rider);
}

function openRound(db: StateDb, committer: Committer): Round {
  const tasks: Task[] = [];
  const settle: ((error?: unknown) => void)[] = [];
  const round: Round = { tasks, ran: false, durable: Promise.resolve() };
  const committed = Promise.resolve(
    db.root.transaction(() => {
      // from here on, a new call opens the next round (a transaction queued behind this one)
      round.ran = true;
      if (committer.open === round) committer.open = null;
      for (const task of tasks) task.run();
      for (const rider of committer.riders) {
        const done = rider();
        if (done) settle.push(done);
      }
    }) as unknown,
  );
  // With overlappingSync the commit promise resolves before the flush to disk. `flushed` of lmdb-js is
  // read when `then` is called: called now, it is the flush of the transaction just queued (read after
  // the commit, it would be the flush of a newer round and every answer would wait one fsync more).
  // `.then` is called here, synchronously: `Promise.resolve(thenable)` would call it a microtask later.
  const flushed: Promise<unknown> = db.root.flushed.then((v) => v);
  flushed.catch(() => undefined);
  round.durable = committed.then(
    async () => {
      await flushed;
      for (const done of settle) done();
    },
    (error: unknown) => {
      for (const done of settle) done(error);
      for (const task of tasks) task.fail(error);
      throw error;
    },
  );
  round.durable.catch(() => undefined);
  // called inside another write transaction, lmdb-js ran the callback at once: nothing may join it
  if (!round.ran) committer.open = round;
  return round;
}

export function batchedWrite<T>(db: StateDb, fn: () => T): BatchedWrite<T> {
  const committer = committerOf(db);
  const round = committer.open ?? openRound(db, committer);
  let decide!: (value: T) => void;
  let refuse!: (error: unknown) => void;
  const decided = new Promise<T>((resolve, reject) => {
    decide = resolve;
    refuse = reject;
  });
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  round.tasks.push({
    run: () => {
      try {
        outcome = { ok: true, value: fn() };
        decide(outcome.value);
      } catch (error) {
        // a refusal thrown before any write: the round itself still commits (riders, other callers)
        outcome = { ok: false, error };
        refuse(error);
      }
    },
    // the transaction failed before this callback ran: nothing was decided, nobody may wait forever
    fail: (error) => {
      if (!outcome) refuse(error);
    },
  });
  // the round ran at once (inside another write transaction): so does this callback
  if (round.ran) round.tasks[round.tasks.length - 1]?.run();
  const durable = round.durable.then(() => {
    if (!outcome) throw new Error('write transaction callback did not run');
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  });
  // a caller that stops at `decided` (a 402) must not leave an unhandled rejection behind
  durable.catch(() => undefined);
  decided.catch(() => undefined);
  return { decided, durable };
}

/** `batchedWrite` when the caller needs only the durable result. */
export function durableWrite<T>(db: StateDb, fn: () => T): Promise<T> {
  return batchedWrite(db, fn).durable;
}
