import { verifyContactAnswers, verifyContactAnswersSync, type ContactInput, type VerifyOptions } from '../native.js';
import { readAnswers, type CoreAnswer } from './answer.js';

/**
 * Single contacts that arrive in the same event-loop turn, verified on the libuv pool as one batch per set
 * of options: one hand-off and one answer buffer for all of them, instead of either a hand-off per call
 * (it cost more than the ~30 µs verification, issue 14) or the verification itself on the event loop.
 * The batch is sent from a `setImmediate`, which runs once the turn's I/O callbacks (and the promise
 * continuations they started) are done, so every call answered in that turn joins it. The core verifies
 * each item on its own (`address::verify`), so an answer does not depend on its companions; batches this
 * small run on the pool thread that took them, without rayon (`address::verify_batch`). Each answer comes
 * as the parts of its text (`answer.ts`): these are single calls.
 */
interface Waiting {
  options: Required<VerifyOptions>;
  items: ContactInput[];
  resolve: ((result: CoreAnswer) => void)[];
  reject: ((error: unknown) => void)[];
}

/** Only contacts with identical options share a batch: the core takes one set of options per batch. */
const waiting = new Map<string, Waiting>();
let flushScheduled = false;

/** Contacts with the same key can be verified in one call to the core (every option it takes, `debug` too). */
export function optionsKey(o: Required<VerifyOptions>): string {
  return `${o.precision}|${o.preserve_original}|${o.postal_form}|${o.foreign}|${o.debug}`;
}

/** Verifies one contact in the current turn's batch of contacts with the same options. */
export function verifyInTurn(item: ContactInput, options: Required<VerifyOptions>): Promise<CoreAnswer> {
  const key = optionsKey(options);
  let group = waiting.get(key);
  if (group === undefined) {
    group = { options, items: [], resolve: [], reject: [] };
    waiting.set(key, group);
  }
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flush);
  }
  const g = group;
  g.items.push(item);
  return new Promise<CoreAnswer>((resolve, reject) => {
    g.resolve.push(resolve);
    g.reject.push(reject);
  });
}

function flush(): void {
  flushScheduled = false;
  for (const g of waiting.values()) {
    if (g.items.length === 1) {
      // a turn with one contact (light traffic): verified here, on the event loop, which the hand-off
      // and the wake-up would cost more than the verification itself (bench/contact-loop.ts, one call
      // per turn: ~21 µs on the event loop here, against ~25–29 there plus ~27 µs on the pool)
      settleAlone(g);
      continue;
    }
    verifyContactAnswers({ items: g.items, options: g.options }).then(
      (text) => {
        let results: CoreAnswer[];
        try {
          results = readAnswers(text);
        } catch (error) {
          for (const reject of g.reject) reject(error);
          return;
        }
        for (let i = 0; i < g.resolve.length; i++) (g.resolve[i] as (r: CoreAnswer) => void)(results[i] as CoreAnswer);
      },
      (error: unknown) => {
        for (const reject of g.reject) reject(error);
      },
    );
  }
  waiting.clear();
}

function settleAlone(g: Waiting): void {
  let result: CoreAnswer;
  try {
    result = readAnswers(verifyContactAnswersSync({ items: g.items, options: g.options }))[0] as CoreAnswer;
  } catch (error) {
    (g.reject[0] as (e: unknown) => void)(error);
    return;
  }
  (g.resolve[0] as (r: CoreAnswer) => void)(result);
}
