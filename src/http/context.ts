import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Caller } from '../account/tokens.js';
import { accountLanguage } from '../account/tokens.js';
import type { ServiceConfig } from '../config.js';
import type { Payer } from '../credit/ledger.js';
import { creditInLanguage } from '../credit/messages.js';
import type { StateDb } from '../state/db.js';
import type { StateStore } from '../state/store.js';
import { ApiError } from './errors.js';
import { isLanguage, languageFromAcceptHeader, type Language } from './language.js';
import { toItalianOutput } from './keys.js';

/** What every handler knows about the request it serves. */
export interface RequestContext {
  caller?: Caller;
  language: Language;
  /** Italian keys and codes in the answer: language it, or the legacy host without an explicit language. */
  italian: boolean;
  /** The request named its language (body, query or Accept-Language): not the account's or the default. */
  languageNamed?: boolean;
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
  return { caller: undefined, language: 'en', italian: false, languageNamed: false };
}

/**
 * Language, in the order the spec lists: `language` in the body, then the query, then
 * Accept-Language, then the account's language; English otherwise (Italian on the legacy host).
 * Written into the request's context (no second context object per request).
 */
export function negotiate(req: FastifyRequest, config: ServiceConfig): void {
  const legacy = isLegacyHost(req, config);
  const explicit = explicitLanguage(req);
  if (explicit !== undefined && !isLanguage(explicit.trim().toLowerCase())) {
    throw new ApiError('validation_failed', { field: 'language', problem: `one of it en de fr es nl pt sv no fi da is el` }, [
      { field: 'language', problem: 'unsupported language' },
    ]);
  }
  const named = (explicit?.trim().toLowerCase() as Language | undefined) ?? languageFromAcceptHeader(req.headers['accept-language']);
  const ctx = req.ctx;
  const chosen = named ?? accountLanguage(ctx.caller) ?? (legacy ? 'it' : 'en');
  ctx.language = chosen;
  ctx.italian = chosen === 'it' || (legacy && explicit === undefined);
  ctx.languageNamed = named !== undefined;
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
