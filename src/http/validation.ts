import secureJson from 'secure-json-parse';
import type { z } from 'zod';

import { ApiError, type ValidationIssue } from './errors.js';

/** Validates with a zod schema; a failure is a 400 naming every field path, the first in the message. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, prefix: (string | number)[] = []): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details: ValidationIssue[] = parsed.error.issues.map((issue) => ({
    field: [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))].join('.') || '(body)',
    problem: issue.message,
  }));
  const first = details[0] ?? { field: '(body)', problem: 'invalid' };
  throw new ApiError('validation_failed', { field: first.field, problem: first.problem }, details);
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

/**
 * Checks a parsed body against the depth and string limits without recursion (its own stack), so that
 * the check itself cannot overflow. Returns the 400 to answer, or null.
 */
export function bodyShapeError(body: unknown): ApiError | null {
  // each entry knows its parent and its key: the path is built only for the error, not for every value
  interface Entry {
    value: unknown;
    parent: Entry | null;
    key: string | number;
    depth: number;
  }
  const pathOf = (entry: Entry): (string | number)[] => {
    const path: (string | number)[] = [];
    for (let e: Entry | null = entry; e && e.parent; e = e.parent) path.push(e.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ value: body, parent: null, key: '', depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { value, depth } = top;
    if (typeof value === 'string') {
      if (value.length > BODY_LIMITS.stringChars) return fieldError(describePath(pathOf(top)), `is longer than ${BODY_LIMITS.stringChars} characters (${value.length})`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= BODY_LIMITS.depth) return fieldError(describePath(pathOf(top).slice(0, 3)) + '…', `is nested deeper than ${BODY_LIMITS.depth} levels`);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: top, key: i, depth: depth + 1 });
      continue;
    }
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (key.length > BODY_LIMITS.stringChars) return fieldError(describePath(pathOf(top)), `has a key longer than ${BODY_LIMITS.stringChars} characters`);
      stack.push({ value: (value as Record<string, unknown>)[key], parent: top, key, depth: depth + 1 });
    }
  }
  return null;
}

function fieldError(field: string, problem: string): ApiError {
  return new ApiError('validation_failed', { field, problem }, [{ field, problem }]);
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
      throw new ApiError('bad_request', { detail: 'the keys __proto__ and constructor.prototype are refused' });
    }
    throw new ApiError('invalid_json');
  }
  const shape = bodyShapeError(value);
  if (shape) throw shape;
  return value;
}
