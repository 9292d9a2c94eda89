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
  constructor(private readonly written: string) {}

  get text(): string {
    return this.written;
  }

  /** The result as an object, for what needs one (Italian keys, a batch, a job). */
  object(): ItemResult {
    return JSON.parse(`${this.text}}`) as ItemResult;
  }
}

/**
 * Bytes being written: slices of other buffers and texts (as UTF-8), into one buffer grown as needed. A text is
 * written into room for its longest UTF-8 form (three bytes a UTF-16 unit), not measured first.
 */
export class ByteWriter {
  private buf: Buffer;
  private at = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(Math.max(capacity, 256));
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  /** `from`'s bytes `start` to `end`. */
  slice(from: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.at += from.copy(this.buf, this.at, start, end);
  }

  bytes(from: Buffer): void {
    this.room(from.length);
    this.at += from.copy(this.buf, this.at);
  }

  text(text: string): void {
    this.room(text.length * 3);
    this.at += this.buf.write(text, this.at);
  }

  /** What was written (a view of the writer's buffer). */
  written(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

/**
 * A finished result (as `ResultText`'s text) as the bytes to send: slices of the core's answers, as the core wrote
 * them in UTF-8, and the request's texts between them, each kept as its bytes (`src/contact/answer-bytes.ts`).
 * A synchronous batch writes it as bytes (`sendBatchText`): its text is never a string, which V8 would hold two
 * bytes a character wherever one character is beyond Latin-1 (every foreign postal-form message has a `’`) and
 * decode, measure and encode again on the way to the socket (issue 30). `text` decodes it for anything else.
 */
export class ResultBytes extends ResultText {
  /**
   * @param source the core's answers
   * @param parts in order: a pair of numbers is a slice of `source` (start, end), a Buffer is written as it is
   */
  constructor(
    private readonly source: Buffer,
    private readonly parts: (number | Buffer)[],
  ) {
    super('');
  }

  override get text(): string {
    const w = new ByteWriter(1024);
    this.writeTo(w);
    return w.written().toString('utf8');
  }

  writeTo(w: ByteWriter): void {
    const p = this.parts;
    for (let k = 0; k < p.length; k++) {
      const part = p[k]!;
      if (typeof part === 'number') {
        w.slice(this.source, part, p[k + 1] as number);
        k++;
      } else {
        w.bytes(part);
      }
    }
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
  // sent as bytes (a Buffer is sent as it is, its length its own): Fastify sends a string by asking its UTF-8
  // length (`Buffer.byteLength`, content-length) and then writing it, and a batch's text is two bytes a
  // character wherever one of its characters is beyond Latin-1, where V8 measures it character by character
  // (issue 30: 15.6 M instructions per foreign batch of 500)
  const w = new ByteWriter(results.length * 1500);
  w.text(`{"count":${results.length},"results":[`);
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    w.text(`${i === 0 ? '' : ','}{"id":${JSON.stringify(ids[i])},"result":`);
    if (result instanceof ResultBytes) {
      result.writeTo(w);
      w.text('}}');
    } else {
      w.text(result instanceof ResultText ? `${result.text}}}` : `${JSON.stringify(finish(result))}}`);
    }
  }
  w.text(`],"credit":${creditJson(req, charge)}}`);
  return sendText(req, reply, w.written());
}

/** A text as its UTF-8 bytes (`ByteWriter`: written once, not measured first). */
function utf8(text: string): Buffer {
  const w = new ByteWriter(text.length * 3);
  w.text(text);
  return w.written();
}

/**
 * One of each kept for the life of the process: V8 holds the maps an object takes as its fields are added only
 * while some object has them, so once a request's writers and results are collected the next request's are
 * new maps, and the code optimised for the old ones was thrown away at every full collection and compiled again
 * (`--trace-deopt`: "weak objects"; issue 30, `bench/foreign-service-cost.ts` collects before each request).
 */
export const KEPT: unknown[] = [new ByteWriter(0), new ResultText(''), new ResultBytes(Buffer.alloc(0), [])];

/** The credit object in the request's language, as JSON. */
function creditJson(req: FastifyRequest, charge: CreditCharge): string {
  const { credit } = creditInLanguage({ credit: charge }, req.ctx.language) as { credit: unknown };
  return JSON.stringify(credit);
}

/** An answer written as English JSON text, sent in the request's key set. */
function sendText(req: FastifyRequest, reply: FastifyReply, body: string | Buffer): FastifyReply {
  contentLanguage(req, reply);
  // Italian keys are written over the text; a batch's bytes are decoded for it and encoded again
  const sent = !req.ctx.italian ? body : typeof body === 'string' ? italianJson(body) : utf8(italianJson(body.toString('utf8')));
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(sent);
}
