import type { FastifyReply, FastifyRequest } from 'fastify';

import { creditState } from '../state/ledger.js';
import type { Counter } from './capability.js';
import { errorLanguage, type Services } from './context.js';
import { ApiError, ERROR_MESSAGES, type ValidationIssue } from './errors.js';
import { fieldName, italianValue } from './keys.js';
import type { Language } from './language.js';
import { isProblem, PROBLEMS, textIn, wordIn, type Problem } from './problems.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The counter a route charges: its error answers carry that counter's state (nothing charged). */
    counter?: Counter;
  }
}

/** Values of these names are words of ours (`WORDS`), written in the message's language. */
const WORD_VALUES = new Set(['class', 'counter', 'mode', 'state']);

/** A field path in the message's language: Italian field names in Italian (`items.3.tax_code` → `elementi.3.codice_fiscale`). */
export function fieldIn(path: string, language: Language): string {
  if (language !== 'it') return path;
  if (path === '(body)') return '(corpo)';
  return path
    .split('.')
    .map((segment) => fieldName(segment, true))
    .join('.');
}

function fill(template: string, values: Readonly<Record<string, unknown>>, language: Language, field: string): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    if (!(name in values)) return m;
    const value = values[name];
    if (isProblem(value)) return problemText(value, language, field);
    if (name === 'field') return fieldIn(String(value), language);
    if (name === 'values' && language === 'it') {
      const leaf = field.split('.').pop() ?? '';
      return String(value)
        .split(', ')
        .map((v) => italianValue(leaf, v))
        .join(', ');
    }
    if (typeof value === 'string' && WORD_VALUES.has(name)) return wordIn(value, language);
    return String(value);
  });
}

/** A problem written in `language` (the field it is about decides the Italian names of enumerated values). */
export function problemText(p: Problem, language: Language, field = ''): string {
  return fill(textIn(PROBLEMS[p.problem], language), p.values ?? {}, language, field);
}

/** The error's one-line message in `language`. */
export function errorMessage(error: ApiError, language: Language): string {
  const field = typeof error.params.field === 'string' ? error.params.field : '';
  const message = fill(ERROR_MESSAGES[error.code][language], error.params, language, field);
  const also = error.params.also;
  return isProblem(also) ? `${message}; ${problemText(also, language, field)}` : message;
}

/** `details` as sent: a validation's problems written in `language`, its fields in the client's key set. */
function detailsOf(error: ApiError, language: Language, italianKeys: boolean): unknown {
  if (error.code !== 'validation_failed' || !Array.isArray(error.details)) return error.details ?? null;
  return (error.details as ValidationIssue[]).map((issue) => ({
    field: fieldIn(issue.field, italianKeys ? 'it' : 'en'),
    problem: isProblem(issue.problem) ? problemText(issue.problem, language, issue.field) : String(issue.problem),
  }));
}

const RETRY_CODES = new Set(['rate_limited', 'session_budget', 'too_many_jobs', 'overloaded', 'storage_unavailable']);

/**
 * The one error body (docs/conventions.md, Error body): its message in the request's language (also when the
 * request was refused before its body was read: a 401 follows `?language=` and Accept-Language), `outcome`
 * empty, and `credit` — the state of the counter the route charges, nothing charged — where the caller is
 * known and the route charges one; null otherwise. The keys stay English for every client.
 */
export async function sendError(services: Services, req: FastifyRequest, reply: FastifyReply, error: ApiError): Promise<FastifyReply> {
  const { language, italian } = errorLanguage(req, services.config);
  if (RETRY_CODES.has(error.code)) reply.header('Retry-After', String(error.extra.retry_after ?? 60));
  reply.header('Content-Language', language);
  const payer = req.ctx?.caller?.payer;
  const counter = req.routeOptions?.config?.counter;
  let credit = null;
  if (payer && counter && error.code !== 'storage_unavailable' && error.code !== 'overloaded') {
    credit = await creditState(services.state, payer, counter).catch(() => null);
  }
  const body = { ok: false, code: error.code, message: errorMessage(error, language), details: detailsOf(error, language, italian), outcome: [], credit, ...error.extra };
  return reply.code(error.status).send(body);
}
