import type { FastifyReply, FastifyRequest } from 'fastify';

import type { CreditCharge } from '../credit/ledger.js';
import { creditInLanguage } from '../credit/messages.js';
import type { ItemResult } from './capability.js';
import { contentLanguage } from './context.js';

/**
 * A single call's finished result (outcome_label and reason included) as JSON text, without its closing
 * brace so that the credit can follow: what a capability whose core writes its answers hands over
 * (`Capability.single`), so that the answer is not parsed into objects and written out again (issue 14).
 * The text is exactly what `JSON.stringify` gives for the result the capability would otherwise return.
 */
export class ResultText {
  constructor(readonly text: string) {}

  /** The result as an object, for what needs one (Italian keys, a batch, a job). */
  object(): ItemResult {
    return JSON.parse(`${this.text}}`) as ItemResult;
  }
}

/**
 * Sends a single call's answer in English keys: the result's text and the credit, the bytes that `answer`
 * sends for `{ ...result, credit }` (same headers: Fastify sends a string whose content type is set as it is).
 */
export function sendResultText(req: FastifyRequest, reply: FastifyReply, result: ResultText, charge: CreditCharge): FastifyReply {
  contentLanguage(req, reply);
  const { credit } = creditInLanguage({ credit: charge }, req.ctx.language) as { credit: unknown };
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(`${result.text},"credit":${JSON.stringify(credit)}}`);
}
