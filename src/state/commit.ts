import type { StateDb } from './db.js';
import type { UpdateListener } from './store.js';

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
 * One round at a time: the callbacks that arrive once a round's callbacks have run wait until that round
 * is on disk, and then open the next. A transaction queued at once behind the running one made more,
 * smaller rounds; each costs the event loop a writer task of lmdb-js and two wake-ups of other threads,
 * which on the 2-core machine cost more than the shorter wait saved (issue 14: a light call's event loop
 * −2 to −4 µs, its other threads −2.5 µs, at the same or higher req/s; docs/conventions.md).
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

/** A callback of a round and whom to tell its moments. */
interface Task {
  fn: () => unknown;
  listener: UpdateListener<unknown>;
  /** 0: not run yet; 1: decided (`value`); 2: refused (`error`). */
  state: 0 | 1 | 2;
  value: unknown;
  error: unknown;
}

/** The callbacks gathered for the next transaction. */
interface Round {
  tasks: Task[];
  /** The transaction callback has run (later tasks cannot join). */
  ran: boolean;
}

interface Committer {
  riders: Rider[];
  /** The round still taking callbacks (its transaction has not started); null: the next call opens one. */
  open: Round | null;
  /** A round's transaction is queued or committing and not yet on disk: new callbacks wait in `held`. */
  inFlight: boolean;
  /** Callbacks that arrived while a round was in flight: the next round, opened once it is on disk. */
  held: Task[];
}

const committers = new WeakMap<StateDb, Committer>();

function committerOf(db: StateDb): Committer {
  let c = committers.get(db);
  if (!c) {
    c = { riders: [], open: null, inFlight: false, held: [] };
    committers.set(db, c);
  }
  return c;
}

export function addRider(db: StateDb, rider: Rider): void {
  committerOf(db).riders.push(rider);
}

function run(task: Task): void {
  try {
    task.value = task.fn();
    task.state = 1;
  } catch (error) {
    // a refusal thrown before any write: the round itself still commits (riders, other callers)
    task.error = error;
    task.state = 2;
  }
}

/** A listener that throws must not keep the round's other callers waiting: its error is thrown apart. */
function thrownApart(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

function tellDecided(task: Task): void {
  try {
    if (task.state === 1) task.listener.decided(task.value);
    else if (task.state === 2) task.listener.refused(task.error);
  } catch (error) {
    thrownApart(error);
  }
}

function tellDurable(task: Task, error?: unknown): void {
  try {
    task.listener.durable(error);
  } catch (thrown) {
    thrownApart(thrown);
  }
}

function tellDecisions(tasks: Task[]): void {
  for (const task of tasks) tellDecided(task);
}

function openRound(db: StateDb, committer: Committer, tasks: Task[] = []): Round {
  const settle: ((error?: unknown) => void)[] = [];
  const round: Round = { tasks, ran: false };
  const committed = Promise.resolve(
    db.root.transaction(() => {
      // from here on, a new call waits for this round to be on disk, then opens the next
      round.ran = true;
      if (committer.open === round) committer.open = null;
      // the decisions are told after this callback, outside the transaction (work they allow may read and
      // write the store), all in one microtask
      queueMicrotask(() => tellDecisions(tasks));
      for (const task of tasks) run(task);
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
  committer.inFlight = true;
  const flushed: Promise<unknown> = db.root.flushed.then((v) => v);
  flushed.catch(() => undefined);
  committed
    .then(() => flushed)
    .then(
      () => {
        openHeld(db, committer);
        // the riders first: a request count carried by this round is durable before its answer is told
        for (const done of settle) done();
        for (const task of tasks) tellDurable(task);
      },
      (error: unknown) => {
        openHeld(db, committer);
        for (const done of settle) done(error);
        for (const task of tasks) {
          // the transaction failed before this callback ran: nothing was decided, nobody may wait forever
          if (task.state === 0) {
            task.state = 2;
            task.error = error;
            tellDecided(task);
          }
          tellDurable(task, error);
        }
      },
    );
  // called inside another write transaction, lmdb-js ran the callback at once: nothing may join it
  if (!round.ran) committer.open = round;
  return round;
}

/** The round on disk (or failed): the callbacks held meanwhile open the next one. */
function openHeld(db: StateDb, committer: Committer): void {
  committer.inFlight = false;
  if (committer.held.length === 0) return;
  const held = committer.held;
  committer.held = [];
  try {
    openRound(db, committer, held);
  } catch (error) {
    // no transaction could be queued (the store is closing): nobody may wait forever
    for (const task of held) {
      task.state = 2;
      task.error = error;
      tellDecided(task);
      tellDurable(task, error);
    }
  }
}

/**
 * Queues `fn` in the next round; `listener` hears its decision once the round's callbacks have run and its
 * durability once the round is on disk. The request path's door: no promise per write.
 */
export function queueWrite<T>(db: StateDb, fn: () => T, listener: UpdateListener<T>): void {
  const committer = committerOf(db);
  const task: Task = { fn, listener: listener as UpdateListener<unknown>, state: 0, value: undefined, error: undefined };
  if (committer.open === null && committer.inFlight) {
    committer.held.push(task);
    return;
  }
  const round = committer.open ?? openRound(db, committer);
  round.tasks.push(task);
  // the round ran at once (inside another write transaction): so does this callback
  if (round.ran) {
    run(task);
    queueMicrotask(() => tellDecided(task));
  }
}

/** `queueWrite` with its two moments as promises. */
export function batchedWrite<T>(db: StateDb, fn: () => T): BatchedWrite<T> {
  let decide!: (value: T) => void;
  let refuse!: (error: unknown) => void;
  const decided = new Promise<T>((resolve, reject) => {
    decide = resolve;
    refuse = reject;
  });
  let finish!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const durable = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  queueWrite(db, fn, {
    decided: (value) => {
      outcome = { ok: true, value };
      decide(value);
    },
    refused: (error) => {
      outcome = { ok: false, error };
      refuse(error);
    },
    durable: (error) => {
      if (error !== undefined) fail(error);
      else if (!outcome) fail(new Error('write transaction callback did not run'));
      else if (!outcome.ok) fail(outcome.error);
      else finish(outcome.value);
    },
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
