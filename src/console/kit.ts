/**
 * What every page of the console shares: the session's constants, the refusal it throws, and `ConsoleKit`, the
 * helpers and services `registerConsole` (routes.ts) hands to each page's Fastify plugin (src/console/pages/).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Counter } from '../http/capability.js';
import type { Services } from '../http/context.js';
import type { JobStore } from '../jobs/store.js';
import type { StateStore } from '../state/store.js';
import type { ServiceConfig } from '../config.js';
import type { ApiClient } from './client.js';
import type { Html } from './html.js';
import type { ConsoleJob } from './store.js';
import type { tableReaders } from './tables.js';
import type { ConsoleLanguage, TextKey } from './texts.js';
import type { recordUsage } from './usage.js';
import type { PageContext } from './views.js';

/** A session idles out after 30 minutes without a request, and lasts 12 hours at most. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 3600_000;
/** Failed or not, sign-in attempts per address and e-mail in a minute. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 5;
export const COOKIE = 'recapito_console';
/** The sign-in form's CSRF token, signed and bound to a cookie: the sign-in page stores no session. */
export const LOGIN_COOKIE = 'recapito_login';
export const LOGIN_TOKEN_MS = 2 * 3600_000;
/** Bodies of the console's forms and script calls; the sign-in form's; an upload has its own limit. */
export const CONSOLE_BODY_LIMIT = 1024 * 1024;
export const LOGIN_BODY_LIMIT = 16 * 1024;

declare module 'fastify' {
  interface Session {
    user?: { email: string; account: string; generation: number; login_at: number };
    lang?: ConsoleLanguage;
  }
}

export interface SignedIn {
  email: string;
  account: string;
}

/**
 * A refusal of the console's: its text by key, written in the page's language by the error handler; `said`
 * is a message the API already wrote in the request's language (passed on as it is).
 */
export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly key: TextKey,
    readonly values: Record<string, string | number> = {},
    readonly said?: string,
  ) {
    super(said ?? key);
  }
}

/** The API's message of a refused call the console made, else the console's own text. */
export function refusedCall(res: { status: number; body: unknown }, key: TextKey): ConsoleError {
  const message = (res.body as Record<string, unknown> | null)?.message;
  return new ConsoleError(res.status, key, {}, typeof message === 'string' ? message : undefined);
}

/** A page handler, given the signed-in user (`ConsoleKit.page` sends the others to the sign-in page). */
export type PageHandler = (req: FastifyRequest, reply: FastifyReply, user: SignedIn) => Promise<unknown>;

/** What `registerConsole` gives every page plugin: the node's services and the console's request helpers. */
export interface ConsoleKit {
  services: Services;
  config: ServiceConfig;
  state: StateStore;
  /** The public API, called in-process: every read and write of the account's data goes through it. */
  client: ApiClient;
  usage: ReturnType<typeof recordUsage>;
  readers: ReturnType<typeof tableReaders>;
  jobStore: JobStore;
  counters: Readonly<Record<string, Counter>>;
  assets: ReadonlyMap<string, { body: Buffer; type: string }>;
  newLoginToken(): string;
  goodLoginToken(token: string): boolean;
  secureFor(req: FastifyRequest): boolean;
  /** The console's language (`?lang=` kept in a signed-in session). */
  languageOf(req: FastifyRequest): ConsoleLanguage;
  pageContext(req: FastifyRequest, reply: FastifyReply, user?: SignedIn): PageContext;
  sendPage(reply: FastifyReply, page: Html, status?: number): FastifyReply;
  /** The signed-in user, or null when there is none or the session is no longer good. */
  signedIn(req: FastifyRequest): Promise<SignedIn | null>;
  /** A page: a missing or expired session goes to the sign-in page; script calls get 401. */
  page(handler: PageHandler): (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  apiLanguage(req: FastifyRequest): ConsoleLanguage;
  /** An API answer for the page scripts: English keys always, texts in the page's language. */
  english(body: unknown, headers: Record<string, unknown>): unknown;
  /** A verified record with each outcome code explained on its own (the API gives one line for all). */
  explained(body: unknown, language: ConsoleLanguage): unknown;
  /** The user's account's list `job`, or 404 `no_list`. */
  ownedJob(user: SignedIn, job: string): Promise<ConsoleJob>;
}
