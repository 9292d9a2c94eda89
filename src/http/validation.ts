import secureJson from 'secure-json-parse';
import type { z } from 'zod';

import { ApiError, badRequest, invalidFields, type ValidationIssue } from './errors.js';
import { problem, problemOfIssue, type Problem } from './problems.js';

/** The value at `path` inside `value` (undefined where the path leaves it). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/**
 * Validates with a zod schema; a failure is a 400 naming every field path, the first in the message. The
 * problems are ours, from zod's issue codes (src/http/problems.ts): zod's English messages never reach a client.
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, prefix: (string | number)[] = []): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details: ValidationIssue[] = parsed.error.issues.map((issue) => ({
    field: [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))].join('.') || '(body)',
    problem: problemOfIssue(issue, valueAt(value, issue.path)),
  }));
  throw invalidFields(details);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Limits every request body is held to before any handler sees it (docs/conventions.md, Limits).
 * Deep nesting is refused here because the handlers walk bodies recursively (key mapping, zod):
 * a body nested thousands of levels deep would otherwise overflow the stack.
 */
export const BODY_LIMITS = {
  /**
   * Bytes of one request body; above it 413 payload_too_large, before the body is read when Content-Length says so.
   * An operator who raises the dedupe async cap for million-record lists raises this too (RECAPITO_BODY_LIMIT_MB).
   */
  bytes: (Number(process.env.RECAPITO_BODY_LIMIT_MB) || 64) * 1024 * 1024,
  /** Arrays and objects inside one another; the deepest legitimate body (dedupe addresses) uses 4. */
  depth: 32,
  /** Characters of one string value or key; the longest legitimate field (a website URL) takes 2,000. */
  stringChars: 10_000,
} as const;

function describePath(path: (string | number)[]): string {
  return path.length === 0 ? '(body)' : path.join('.');
}

interface OverLimit {
  path: (string | number)[];
  problem: Problem;
  deep: boolean;
}

/**
 * The first value of `value` (at `depth`) over the depth or string limits, in the order a depth-first walk
 * meets it, its path built only for it (no path or entry object per value: a 100,000-record dedupe body has
 * a million values); null when none. The recursion stops at the depth limit, so the check itself cannot
 * overflow the stack.
 */
function overLimit(value: unknown, depth: number): OverLimit | null {
  if (typeof value === 'string') {
    return value.length > BODY_LIMITS.stringChars ? { path: [], problem: problem('string_too_long', { limit: BODY_LIMITS.stringChars, length: value.length }), deep: false } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= BODY_LIMITS.depth) return { path: [], problem: problem('too_deep', { limit: BODY_LIMITS.depth }), deep: true };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = overLimit(value[i], depth + 1);
      if (found) return (found.path.unshift(i), found);
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (key.length > BODY_LIMITS.stringChars) return { path: [], problem: problem('key_too_long', { limit: BODY_LIMITS.stringChars }), deep: false };
  }
  for (const key in record) {
    const found = overLimit(record[key], depth + 1);
    if (found) return (found.path.unshift(key), found);
  }
  return null;
}

/** Checks a parsed body against the depth and string limits. Returns the 400 to answer, or null. */
export function bodyShapeError(body: unknown): ApiError | null {
  const found = overLimit(body, 0);
  if (!found) return null;
  return invalidFields([{ field: found.deep ? describePath(found.path.slice(0, 3)) + '…' : describePath(found.path), problem: found.problem }]);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const ESCAPES = /\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?|\\u[dD][c-fC-F][0-9a-fA-F]{2}/g;

/**
 * A lone surrogate written as an escape (`"\ud800"`) is valid JSON but no UTF-8: the core's JSON reader
 * refuses it. It becomes U+FFFD, as a lone surrogate in UTF-8 bytes does when the body is decoded.
 * Escaped backslashes are matched first, so `"\\ud800"` (a backslash and text) is left alone.
 */
export function wellFormedEscapes(text: string): string {
  if (!SURROGATE_ESCAPE.test(text)) return text;
  return text.replace(ESCAPES, (m) => (m === '\\\\' || m.length === 12 ? m : '\\ufffd'));
}

/**
 * A JSON request body as the service accepts it: valid JSON (the error says why not), without the keys
 * `__proto__` and `constructor.prototype` (prototype poisoning), within the depth and string limits.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new ApiError('invalid_json');
  let value: unknown;
  try {
    value = secureJson.parse(wellFormedEscapes(text), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype property/.test(error.message)) {
      throw badRequest('proto_keys');
    }
    throw new ApiError('invalid_json');
  }
  const shape = bodyShapeError(value);
  if (shape) throw shape;
  return value;
}
