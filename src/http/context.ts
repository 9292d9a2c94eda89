import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Caller } from '../state/tokens.js';
import { accountLanguage } from '../state/tokens.js';
import type { ServiceConfig } from '../config.js';
import type { Payer } from '../state/ledger.js';
import { creditInLanguage } from './credit-text.js';
import type { StateDb } from '../state/db.js';
import type { StateStore } from '../state/store.js';
import { ApiError, invalidField } from './errors.js';
import { isLanguage, languageFromAcceptHeader, LANGUAGES, type Language } from './language.js';
import { toItalianOutput } from './keys.js';

/** What every handler knows about the request it serves. */
export interface RequestContext {
  caller?: Caller;
  language: Language;
  /** Italian keys and codes in the answer: language it, or the legacy host without an explicit language. */
  italian: boolean;
  /** `negotiate` ran: the language above is the request's (an error before it reads the language itself). */
  negotiated?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
  }
}

export interface Services {
  config: ServiceConfig;
  /** Node-local LMDB environment: the jobs' chunks and results (i17-jobs moves them to PostgreSQL). */
  db: StateDb;
  /** Shared state (accounts, tokens, credit, sessions...): LMDB or PostgreSQL (src/state/store.ts). */
  state: StateStore;
}

/** `language` (or `lingua`) of a JSON object body or of the query: the body first. */
function explicitLanguage(req: FastifyRequest): string | undefined {
  const fromBody = namedIn(req.body);
  return fromBody !== undefined ? fromBody : namedIn(req.query);
}

function namedIn(source: unknown): string | undefined {
  if (!source || typeof source !== 'object' || Array.isArray(source)) return undefined;
  const v = (source as Record<string, unknown>).language ?? (source as Record<string, unknown>).lingua;
  return v === undefined ? undefined : String(v);
}

function isLegacyHost(req: FastifyRequest, config: ServiceConfig): boolean {
  if (config.legacyHosts.length === 0) return false;
  const host = (req.headers.host ?? '').split(':')[0]?.toLowerCase() ?? '';
  return config.legacyHosts.includes(host);
}

/** The context a request starts with, before its body is read: one shape for every request. */
export function startContext(): RequestContext {
  return { caller: undefined, language: 'en', italian: false, negotiated: false };
}

interface Chosen {
  language: Language;
  italian: boolean;
}

/**
 * The order of the spec: `language` in the body, then the query, then Accept-Language, then the account's
 * language; English otherwise. On the legacy host a request without `language` (body or query) is Italian
 * throughout — keys, codes and texts — so that its keys and its texts never disagree. `strict`: an
 * unsupported explicit language is a 400 (an error answer ignores it instead).
 */
function choose(req: FastifyRequest, config: ServiceConfig, strict: boolean): Chosen {
  const legacy = isLegacyHost(req, config);
  let explicit = explicitLanguage(req)?.trim().toLowerCase();
  if (explicit !== undefined && !isLanguage(explicit)) {
    if (strict) throw invalidField('language', 'language', { values: LANGUAGES.join(', ') });
    explicit = undefined;
  }
  if (legacy && explicit === undefined) return { language: 'it', italian: true };
  const language = (explicit as Language | undefined) ?? languageFromAcceptHeader(req.headers['accept-language']) ?? accountLanguage(req.ctx?.caller) ?? 'en';
  return { language, italian: language === 'it' };
}

/** The language of an error answer: the request's when it was negotiated, else read as far as the request allows. */
export function errorLanguage(req: FastifyRequest, config: ServiceConfig): { language: Language; italian: boolean } {
  if (req.ctx?.negotiated) return req.ctx;
  return choose(req, config, false);
}

/**
 * Language, in the order the spec lists: `language` in the body, then the query, then
 * Accept-Language, then the account's language; English otherwise (Italian on the legacy host).
 * Written into the request's context (no second context object per request).
 */
export function negotiate(req: FastifyRequest, config: ServiceConfig): void {
  const chosen = choose(req, config, true);
  const ctx = req.ctx;
  ctx.language = chosen.language;
  ctx.italian = chosen.italian;
  ctx.negotiated = true;
}

/** The answer's language header: in lower case, as Fastify stores and sends it (no lower-casing per call). */
export function contentLanguage(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('content-language', req.ctx.language);
}

/** Sends a body in the request's language and key set. */
export function answer(req: FastifyRequest, reply: FastifyReply, body: unknown, status = 200): FastifyReply {
  contentLanguage(req, reply);
  const localised = creditInLanguage(body, req.ctx.language);
  return reply.code(status).send(req.ctx.italian ? toItalianOutput(localised) : localised);
}

/** Whose credit a consuming call takes: the account, or the trial allowance of a token without one. */
export function requirePayer(req: FastifyRequest): Payer {
  const payer = req.ctx.caller?.payer;
  if (!payer) throw new ApiError('unauthorized');
  return payer;
}

/** Asynchronous jobs, saved results and GET /credit: only for a token that belongs to an account (spec, Security 4). */
export function requireAccount(req: FastifyRequest): string {
  const account = req.ctx.caller?.account?.name;
  if (!account) throw new ApiError('account_required');
  return account;
}
