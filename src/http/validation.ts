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
