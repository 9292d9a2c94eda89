import type { FastifyRequest } from 'fastify';

import { invalidField } from './errors.js';
import { toEnglishInput } from './keys.js';
import { isPlainObject } from './validation.js';

/**
 * The body prelude of every POST: Italian keys, synonyms and Italian option values become English, and
 * the body must be a JSON object (the parser has already held it to the size, depth and string limits).
 */
export function englishBody(req: FastifyRequest): Record<string, unknown> {
  const body = toEnglishInput(req.body ?? {});
  if (!isPlainObject(body)) throw invalidField('(body)', 'body_object');
  return body;
}
