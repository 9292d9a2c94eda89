import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifySession, { type SessionStore } from '@fastify/session';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { getAccount, TokenLimitError } from '../state/tokens.js';
import { PROJECT_ROOT } from '../config.js';
import type { Counter } from '../http/capability.js';
import type { Services } from '../http/context.js';
import { toEnglishInput } from '../http/keys.js';
import { englishCode, outcomeDefinition } from '../http/outcomes.js';
import { isLanguage, languageFromAcceptHeader } from '../http/language.js';
import type { JobStore } from '../jobs/store.js';
import type { StateStore } from '../state/store.js';
import { ApiClient } from './client.js';
import type { Html } from './html.js';
import { consoleJob, getUser, sessionSecret, sessionStore, sweepLoginFailures, sweepSessions, sweepUploads, type ConsoleJob } from './store.js';
import { MAX_UPLOAD_BYTES, TableError, tableReaders } from './tables.js';
import { consoleLanguage, translator, type ConsoleLanguage } from './texts.js';
import { COOKIE, CONSOLE_BODY_LIMIT, ConsoleError, LOGIN_TOKEN_MS, SESSION_IDLE_MS, SESSION_MAX_MS, type ConsoleKit, type SignedIn } from './kit.js';
import { recordUsage } from './usage.js';
import { errorPage, type PageContext } from './views.js';
import { assetsPages } from './pages/assets.js';
import { signInPages } from './pages/sign-in.js';
import { verifyPages } from './pages/verify.js';
import { listsPages } from './pages/lists.js';
import { duplicatesPages } from './pages/duplicates.js';
import { creditPages } from './pages/credit.js';
import { tokensPages } from './pages/tokens.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Static files, read once: the console's own and the charting library from node_modules (no CDN). */
function loadAssets(): Map<string, { body: Buffer; type: string }> {
  // assets live beside the TypeScript sources; from dist/ the sources are found through the project root
  const dir = [path.join(here, 'assets'), path.join(PROJECT_ROOT, 'src', 'console', 'assets')].find((d) => {
    try {
      readFileSync(path.join(d, 'widget.js'));
      return true;
    } catch {
      return false;
    }
  });
  if (!dir) throw new Error('console assets not found');
  const files: [string, string, string][] = [
    ['console.css', path.join(dir, 'console.css'), 'text/css; charset=utf-8'],
    ['console.js', path.join(dir, 'console.js'), 'text/javascript; charset=utf-8'],
    ['widget.js', path.join(dir, 'widget.js'), 'text/javascript; charset=utf-8'],
    ['chart.umd.min.js', path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js') /* the UMD build beside the package's main file */, 'text/javascript; charset=utf-8'],
  ];
  return new Map(files.map(([name, file, type]) => [name, { body: readFileSync(file), type }]));
}

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

function isLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1'].includes(host);
}

/** The console's pages, one Fastify plugin each, in the order their routes are registered. */
const PAGES = [assetsPages, signInPages, verifyPages, listsPages, duplicatesPages, creditPages, tokensPages];

export interface ConsoleHandle {
  close(): Promise<void>;
}

/**
 * The web console under /console and the widget at /widget/v1/autocomplete.js. Every read and write of
 * the account's data goes through the public API (ApiClient) except the token list, which the API
 * does not expose (the operator CLI and the console are the account area).

 */
export async function registerConsole(app: FastifyInstance, services: Services, counters: Record<string, Counter>, jobStore: JobStore): Promise<ConsoleHandle> {
  const { config } = services;
  const assets = loadAssets();
  const client = new ApiClient(app, services.state);
  const usage = recordUsage(app, services.state, counters);
  const state = services.state;
  const secret = await sessionSecret(state);
  // Behind a TLS proxy the cookie must be Secure; on a loopback-only listener (development, tests)
  // browsers would drop a Secure cookie sent over http. RECAPITO_CONSOLE_SECURE_COOKIE=1|0 decides.
  const secureEnv = process.env.RECAPITO_CONSOLE_SECURE_COOKIE;
  const secure = secureEnv === undefined ? !isLoopback(config.host) : secureEnv === '1';
  // on loopback behind a TLS proxy (RECAPITO_TRUST_PROXY naming it), a request the proxy says came over https
  // gets a Secure cookie too; unless RECAPITO_CONSOLE_SECURE_COOKIE=0 says never
  const secureFor = (req: FastifyRequest): boolean => secure || (secureEnv !== '0' && req.protocol === 'https');
  const readers = tableReaders();
  const loginMac = (issued: string, nonce: string) => createHmac('sha256', `login-form:${secret}`).update(`${issued}.${nonce}`).digest('base64url');
  const newLoginToken = (): string => {
    const issued = String(Date.now());
    const nonce = randomBytes(16).toString('base64url');
    return `${issued}.${nonce}.${loginMac(issued, nonce)}`;
  };
  const goodLoginToken = (token: string): boolean => {
    const [issued = '', nonce = '', mac = ''] = token.split('.');
    const want = Buffer.from(loginMac(issued, nonce));
    const got = Buffer.from(mac);
    return got.length === want.length && timingSafeEqual(got, want) && Date.now() - Number(issued) < LOGIN_TOKEN_MS;
  };

  const sweeper = setInterval(() => {
    void sweepSessions(state).catch(() => undefined);
    void sweepUploads(state).catch(() => undefined);
    void sweepLoginFailures(state).catch(() => undefined);
  }, 10 * 60_000);
  sweeper.unref();

  const widget = assets.get('widget.js');
  app.get('/widget/v1/autocomplete.js', async (_req, reply) =>
    reply.header('content-type', widget?.type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(widget?.body),
  );

  await app.register(
    async (scope) => {
      await sessionPlugins(scope, state, secret, secure);
      const requests = requestHelpers(scope, state, secureFor);
      errorPages(scope, requests);

      const ownedJob = async (user: SignedIn, job: string): Promise<ConsoleJob> => {
        const j = await consoleJob(state, user.account, job);
        if (!j) throw new ConsoleError(404, 'no_list', { job });
        return j;
      };

      const { languageOf, pageContext, sendPage, signedIn, page } = requests;
      const kit: ConsoleKit = {
        services, config, state, client, usage, readers, jobStore, counters, assets, newLoginToken, goodLoginToken, secureFor,
        languageOf, pageContext, sendPage, signedIn, page, apiLanguage: languageOf, english, explained, ownedJob,
      };
      // one Fastify plugin per page (src/console/pages/), each under this scope's session, hooks and error pages
      for (const pages of PAGES) await scope.register(pages, kit);
    },
    { prefix: '/console' },
  );

  return {
    close: async () => {
      clearInterval(sweeper);
      await readers.close();
      await usage.stop();
      await client.close();
    },
  };
}

/** The session, CSRF, body-limit and security-header machinery every console request passes through. */
async function sessionPlugins(scope: FastifyInstance, state: StateStore, secret: string, secure: boolean): Promise<void> {
  await scope.register(fastifyCookie);
  await scope.register(fastifySession, {
    secret,
    cookieName: COOKIE,
    // our LMDB store keeps the session as plain JSON; @fastify/session rebuilds its Session from it
    store: sessionStore(state) as unknown as SessionStore,
    saveUninitialized: false,
    rolling: true,
    cookie: { path: '/console', httpOnly: true, sameSite: 'strict', secure, maxAge: SESSION_IDLE_MS },
  });
  await scope.register(fastifyCsrf, {
    sessionPlugin: '@fastify/session',
    getToken: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      const fromBody = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body._csrf : undefined;
      return (typeof fromBody === 'string' ? fromBody : undefined) ?? (req.headers['x-csrf-token'] as string | undefined);
    },
  });
  await scope.register(fastifyFormbody);
  scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) => done(null, body));
  // a route's own limit wins over its parser's: every console route without one gets the small default
  scope.addHook('onRoute', (route) => {
    route.bodyLimit ??= CONSOLE_BODY_LIMIT;
  });

  scope.addHook('onSend', async (_req, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  // every form and every script call that changes something carries the session's CSRF token (the
  // sign-in form its own signed one: there is no session before it)
  scope.addHook('preHandler', (req, reply, done) => {
    if ((req.method === 'POST' || req.method === 'DELETE') && req.routeOptions.url !== '/console/login') scope.csrfProtection(req, reply, done);
    else done();
  });
}

/** What a console request needs to know about itself: its language, its page context, its signed-in user. */
interface RequestHelpers {
  errorLanguageOf(req: FastifyRequest): ConsoleLanguage;
  languageOf(req: FastifyRequest): ConsoleLanguage;
  csrfOf(req: FastifyRequest, reply: FastifyReply): string;
  pageContext(req: FastifyRequest, reply: FastifyReply, user?: SignedIn): PageContext;
  sendPage(reply: FastifyReply, page: Html, status?: number): FastifyReply;
  signedIn(req: FastifyRequest): Promise<SignedIn | null>;
  page: ConsoleKit['page'];
}

/**
 * The request helpers of the console's scope, and the hooks that feed them: the account's language read before
 * the handler, and the session checked before any body is read.
 */
function requestHelpers(scope: FastifyInstance, state: StateStore, secureFor: (req: FastifyRequest) => boolean): RequestHelpers {
  // the account's language, read before the handler (the shared store answers asynchronously)
  const accountLanguages = new WeakMap<FastifyRequest, string | undefined>();
  scope.addHook('preHandler', async (req) => {
    const account = req.session.user?.account;
    if (account) accountLanguages.set(req, (await getAccount(state, account))?.language);
  });

  /**
   * The console's language: `?lang=`, the session's, Accept-Language, the account's. Reads only: an error page
   * asks it too, where the session may not be read yet.
   */
  const errorLanguageOf = (req: FastifyRequest): ConsoleLanguage => {
    const asked = (req.query as Record<string, unknown> | undefined)?.lang;
    if (typeof asked === 'string' && isLanguage(asked)) return consoleLanguage(asked);
    if (req.session?.lang) return req.session.lang;
    const header = languageFromAcceptHeader(req.headers['accept-language']);
    return consoleLanguage(header ?? accountLanguages.get(req));
  };

  /** The console's language (`errorLanguageOf`); a choice by `?lang=` is kept in a signed-in session. */
  const languageOf = (req: FastifyRequest): ConsoleLanguage => {
    const language = errorLanguageOf(req);
    const asked = (req.query as Record<string, unknown> | undefined)?.lang;
    // a visitor who has not signed in keeps the choice in the URL: no session is stored for it
    if (typeof asked === 'string' && isLanguage(asked) && req.session.user) req.session.lang = language;
    return language;
  };

  /** The session's CSRF token, made only for a signed-in session: an anonymous page view stores nothing. */
  const csrfOf = (req: FastifyRequest, reply: FastifyReply): string => (req.session?.user ? reply.generateCsrf() : '');

  const pageContext = (req: FastifyRequest, reply: FastifyReply, user?: SignedIn): PageContext => {
    const language = languageOf(req);
    return { t: translator(language), language, csrf: csrfOf(req, reply), path: req.url.split('?')[0] ?? '/console/', user };
  };

  const sendPage = (reply: FastifyReply, page: Html, status = 200) => reply.code(status).header('content-type', 'text/html; charset=utf-8').send(page.value);

  /** Requests whose session was already checked (before the body): the page handler asks no second time. */
  const checked = new WeakMap<FastifyRequest, SignedIn | null>();
  /** The signed-in user, or null when there is none or the session is no longer good. */
  const signedIn = async (req: FastifyRequest): Promise<SignedIn | null> => {
    if (checked.has(req)) return checked.get(req) ?? null;
    const s = req.session.user;
    if (!s) return null;
    const user = await getUser(state, s.email);
    if (!user || user.disabled || user.generation !== s.generation || Date.now() - s.login_at > SESSION_MAX_MS) return null;
    return { email: user.email, account: user.account };
  };

  const hadSession = (req: FastifyRequest) => typeof req.cookies?.[COOKIE] === 'string';

  /** What a request without a good session gets: 401 for the page scripts, the sign-in page for a page. */
  const refuseSignedOut = (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/console/api/')) return reply.code(401).send({ ok: false, code: 'session_expired', message: translator(languageOf(req))('session_expired') });
    const expired = hadSession(req) ? '?expired=1' : '';
    return reply.redirect(`/console/login${expired}`, 303);
  };

  // onRequest, after the session is loaded and before any body is read: a request that sends one (a form,
  // a script call, an upload) needs a good session, the sign-in form aside. Nobody signed out makes the
  // server read 32 MiB (issue 33). The Secure cookie is decided here too, on the proxy's word if trusted.
  scope.addHook('onRequest', async (req, reply) => {
    if (req.session && secureFor(req)) req.session.cookie.secure = true;
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || req.routeOptions.url === '/console/login') return;
    const user = await signedIn(req);
    checked.set(req, user);
    if (!user) return refuseSignedOut(req, reply);
  });

  /** Pages: a missing or expired session goes to the sign-in page; script calls get 401. */
  const page =
    (handler: (req: FastifyRequest, reply: FastifyReply, user: SignedIn) => Promise<unknown>) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const user = await signedIn(req);
      if (!user) return refuseSignedOut(req, reply);
      return handler(req, reply, user);
    };

  return { errorLanguageOf, languageOf, csrfOf, pageContext, sendPage, signedIn, page };
}

/** An API answer for the page scripts: English keys always, texts in the page's language. */
function english(body: unknown, headers: Record<string, unknown>): unknown {
  return headers['content-language'] === 'it' ? toEnglishInput(body) : body;
}

/** A verified record with each outcome code explained on its own (the API gives one line for all). */
function explained(body: unknown, language: ConsoleLanguage): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { outcome?: unknown }).outcome)) return body;
  const codes = ((body as { outcome: unknown[] }).outcome as string[]).map((code) => {
    const def = outcomeDefinition(englishCode(code));
    return { code, label: def?.label ?? null, reason: def?.reason[language] ?? null };
  });
  return { ...body, codes };
}

/** Errors and unknown paths of the console: a page in its language, or the page scripts' JSON answer. */
function errorPages(scope: FastifyInstance, { errorLanguageOf, languageOf, csrfOf, sendPage }: RequestHelpers): void {
  scope.setErrorHandler((error: FastifyError, req, reply) => {
    const isApi = req.url.startsWith('/console/api/');
    const language = errorLanguageOf(req);
    const t = translator(language);
    let status = error instanceof ConsoleError ? error.status : (error.statusCode ?? 500);
    let message = error.message;
    if (error instanceof ConsoleError) {
      message = error.said ?? t(error.key, error.values);
    } else if (error instanceof TokenLimitError) {
      message = t('token_limit', { max: error.max });
    } else if (error.code === 'login_limited') {
      // the per-address sign-in limit (the rate limit's own answer carries no language)
      message = t('login_limited');
    } else if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
      status = 403;
      message = t('csrf_refused');
    } else if (error instanceof TableError) {
      status = 400;
      message = t(error.key, error.values);
    } else if (status >= 500 && status !== 503) {
      console.error(error);
      message = t('error');
    }
    if (isApi) return reply.code(status).send({ ok: false, code: error.code ?? 'console_error', message });
    const ctx: PageContext = { t: translator(language), language, csrf: csrfOf(req, reply), path: req.url.split('?')[0] ?? '/console/' };
    return sendPage(reply, errorPage(ctx, status, message), status);
  });
  scope.setNotFoundHandler((req, reply) => {
    const language = languageOf(req);
    const t = translator(language);
    if (req.url.startsWith('/console/api/')) return reply.code(404).send({ ok: false, code: 'not_found', message: t('not_found') });
    return sendPage(reply, errorPage({ t, language, csrf: csrfOf(req, reply), path: req.url.split('?')[0] ?? '' }, 404, t('not_found')), 404);
  });
}
