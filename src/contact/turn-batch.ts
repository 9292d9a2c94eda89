import { verifyContactAnswers, verifyContactAnswersSync, type ContactInput, type VerifyOptions } from '../native.js';
import { readAnswers, type CoreAnswer } from './answer.js';

/**
 * Single contacts that arrive in the same event-loop turn, verified as one batch per set of options: one
 * call to the core and one answer text for all of them. The batch is verified from a `setImmediate`, which
 * runs once the turn's I/O callbacks (and the promise continuations they started) are done, so every call
 * answered in that turn joins it. The core verifies each item on its own (`address::verify`), so an answer
 * does not depend on its companions. Each answer comes as the parts of its text (`answer.ts`).
 *
 * On the event loop, not the libuv pool (issue 14): at 32 connections the calls of a turn arrive together
 * (a turn's batch held all 32 in ~90 % of turns), and one pool thread verifying 32 warm contacts (~27 µs
 * each) made every answer wait ~0.9 ms for it, while the event loop sat idle (72 % busy) and the pool thread
 * took the second core from the clients. Verified here, the loop spends ~6 µs more a call and is ~91 % busy:
 * 12.9–13.0k → 14.8–15.2k calls/s on the 2-core machine (bench/http-cpu.ts contact). A turn with
 * `ON_LOOP_BELOW` contacts or more (hundreds of connections) goes to the pool, where the core verifies it on
 * all cores and the loop is not held for milliseconds. A place seen for the first time, whose first contact
 * may load its streets from disk, goes to the pool alone (`service.ts`, `warmPlaces`).
 */
const ON_LOOP_BELOW = 64;

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
  for (const g of waiting.values()) settle(g);
  waiting.clear();
}

function settle(g: Waiting): void {
  if (g.items.length >= ON_LOOP_BELOW) {
    verifyContactAnswers({ items: g.items, options: g.options }).then(
      (text) => answer(g, text),
      (error: unknown) => refuse(g, error),
    );
    return;
  }
  let text: string;
  try {
    text = verifyContactAnswersSync({ items: g.items, options: g.options });
  } catch (error) {
    refuse(g, error);
    return;
  }
  answer(g, text);
}

function answer(g: Waiting, text: string): void {
  let results: CoreAnswer[];
  try {
    results = readAnswers(text);
  } catch (error) {
    refuse(g, error);
    return;
  }
  for (let i = 0; i < g.resolve.length; i++) (g.resolve[i] as (r: CoreAnswer) => void)(results[i] as CoreAnswer);
}

function refuse(g: Waiting, error: unknown): void {
  for (const reject of g.reject) reject(error);
}
