import type { FastifyReply, FastifyRequest } from 'fastify';

import type { CreditCharge } from '../state/ledger.js';
import { creditInLanguage } from './credit-text.js';
import type { ItemResult } from './capability.js';
import { contentLanguage } from './context.js';
import { italianJson } from './keys.js';

/**
 * A single call's finished result (outcome_label and reason included) as JSON text, without its closing
 * brace so that the credit can follow: what a capability whose core writes its answers hands over
 * (`Capability.run` with `'text'`), so that the answer is not parsed into objects and written out again (issue 14).
 * The text is what `JSON.stringify` gives for the result the capability would otherwise return, except that
 * characters beyond Latin-1 are written as `\uXXXX` escapes (`latin1Json`): the same value, read back.
 */
export class ResultText {
  constructor(readonly text: string) {}

  /** The result as an object, for what needs one (Italian keys, a batch, a job). */
  object(): ItemResult {
    return JSON.parse(`${this.text}}`) as ItemResult;
  }
}

/** A character beyond Latin-1 (U+0100 and up; each half of a surrogate pair on its own). */
const BEYOND_LATIN1 = /[\u0100-\uffff]/g;

/**
 * `JSON.stringify(value)` with every character beyond Latin-1 written as its `\uXXXX` escape, as the core
 * writes its answers (`js_json` in crates/core/src/address/answer.rs): V8 keeps a string one byte a character
 * only while every character is Latin-1, and one `–` or `’` makes a whole answer two bytes a character in
 * every copy on its way to the socket and in its UTF-8 encoding there (issue 14: +5–7 % single contact calls
 * a second). The escape is JSON: the value read back is the same. For texts built once and kept.
 */
export function latin1Json(value: unknown): string {
  return JSON.stringify(value).replace(BEYOND_LATIN1, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Sends a single call's answer: the result's text and the credit, the value that `answer` sends for
 * `{ ...result, credit }` (same headers: Fastify sends a string whose content type is set as it is), with
 * Italian keys and codes worked on the text where the request asks for them (`italianJson`).
 */
export function sendResultText(req: FastifyRequest, reply: FastifyReply, result: ResultText, charge: CreditCharge): FastifyReply {
  return sendText(req, reply, `${result.text},"credit":${creditJson(req, charge)}}`);
}

/**
 * Sends a synchronous batch's answer as text: the value `answer` sends for `{ count, results: [{ id, result }],
 * credit }`, each result's finished text written as it is (an object result finished by `finish` and
 * serialised), so that 500 results are not parsed into objects and written out again.
 */
export function sendBatchText(req: FastifyRequest, reply: FastifyReply, results: (ItemResult | ResultText)[], ids: unknown[], finish: (result: ItemResult) => ItemResult, charge: CreditCharge): FastifyReply {
  let text = `{"count":${results.length},"results":[`;
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    const written = result instanceof ResultText ? `${result.text}}` : JSON.stringify(finish(result));
    text += `${i === 0 ? '' : ','}{"id":${JSON.stringify(ids[i])},"result":${written}}`;
  }
  return sendText(req, reply, `${text}],"credit":${creditJson(req, charge)}}`, true);
}

/**
 * A text as its UTF-8 bytes, written once into room for its longest form (three bytes a UTF-16 unit) instead
 * of measured first: Fastify sends a string by asking its UTF-8 length (`Buffer.byteLength`, content-length)
 * and then writing it, and a batch's text is two bytes a character wherever one of its characters is beyond
 * Latin-1 (every foreign postal-form message holds a `’`), where V8 measures it character by character
 * (issue 30: 15.6 M instructions per foreign batch of 500). A Buffer is sent as it is, its length its own.
 */
function utf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafe(text.length * 3);
  return bytes.subarray(0, bytes.write(text, 'utf8'));
}

/** The credit object in the request's language, as JSON. */
function creditJson(req: FastifyRequest, charge: CreditCharge): string {
  const { credit } = creditInLanguage({ credit: charge }, req.ctx.language) as { credit: unknown };
  return JSON.stringify(credit);
}

/** An answer written as English JSON text, sent in the request's key set. */
function sendText(req: FastifyRequest, reply: FastifyReply, text: string, large = false): FastifyReply {
  contentLanguage(req, reply);
  const keyed = req.ctx.italian ? italianJson(text) : text;
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(large ? utf8(keyed) : keyed);
}
