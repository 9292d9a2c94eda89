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

import { createToken, getAccount, listTokens, regenerateToken, revokeToken, TokenLimitError } from '../state/tokens.js';
import { PROJECT_ROOT } from '../config.js';
import type { Counter } from '../http/capability.js';
import type { Services } from '../http/context.js';
import { csvText } from '../http/csv.js';
import { toEnglishInput } from '../http/keys.js';
import { englishCode, outcomeDefinition } from '../http/outcomes.js';
import { isLanguage, languageFromAcceptHeader } from '../http/language.js';
import { getRecords, getSaved } from '../dedupe/store.js';
import type { JobStore } from '../jobs/store.js';
import { ApiClient } from './client.js';
import type { Html } from './html.js';
import {
  addConsoleJob,
  addUsage,
  beginLogin,
  checkPassword,
  clearLoginFailures,
  consoleJob,
  consoleJobs,
  decoyHash,
  getUpload,
  getUser,
  internalTokenIds,
  markSplit,
  noteLogin,
  putUpload,
  sessionSecret,
  sessionStore,
  splitGroups,
  sweepLoginFailures,
  sweepSessions,
  sweepUploads,
  usageKey,
  usageOfMonth,
  type ConsoleJob,
} from './store.js';
import { BATCH_FIELDS, CAPABILITY_PATHS, MAX_UPLOAD_BYTES, TableError, isBatchCapability, itemsOf, suggestCapability, suggestMapping, tableReaders } from './tables.js';
import { consoleLanguage, translator, type ConsoleLanguage, type TextKey } from './texts.js';
import { recordUsage } from './usage.js';
import { creditPage, duplicatesPage, errorPage, listsPage, loginPage, tokensPage, verifyPage, type CounterView, type GroupView, type JobView, type PageContext } from './views.js';

/** A session idles out after 30 minutes without a request, and lasts 12 hours at most. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 3600_000;
/** Failed or not, sign-in attempts per address and e-mail in a minute. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 5;
const COOKIE = 'recapito_console';
/** The sign-in form's CSRF token, signed and bound to a cookie: the sign-in page stores no session. */
const LOGIN_COOKIE = 'recapito_login';
const LOGIN_TOKEN_MS = 2 * 3600_000;
/** Bodies of the console's forms and script calls; the sign-in form's; an upload has its own limit. */
const CONSOLE_BODY_LIMIT = 1024 * 1024;
const LOGIN_BODY_LIMIT = 16 * 1024;

declare module 'fastify' {
  interface Session {
    user?: { email: string; account: string; generation: number; login_at: number };
    lang?: ConsoleLanguage;
  }
}

interface SignedIn {
  email: string;
  account: string;
}

/**
 * A refusal of the console's: its text by key, written in the page's language by the error handler; `said`
 * is a message the API already wrote in the request's language (passed on as it is).
 */
class ConsoleError extends Error {
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
function refusedCall(res: { status: number; body: unknown }, key: TextKey): ConsoleError {
  const message = (res.body as Record<string, unknown> | null)?.message;
  return new ConsoleError(res.status, key, {}, typeof message === 'string' ? message : undefined);
}

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

      // the account's language, read before the handler (the shared store answers asynchronously)
      const accountLanguages = new WeakMap<FastifyRequest, string | undefined>();
      scope.addHook('preHandler', async (req) => {
        const account = req.session.user?.account;
        if (account) accountLanguages.set(req, (await getAccount(services.state, account))?.language);
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

      const apiLanguage = (req: FastifyRequest) => languageOf(req);
      /** An API answer for the page scripts: English keys always, texts in the page's language. */
      const english = (body: unknown, headers: Record<string, unknown>) => (headers['content-language'] === 'it' ? toEnglishInput(body) : body);
      /** A verified record with each outcome code explained on its own (the API gives one line for all). */
      const explained = (body: unknown, language: ConsoleLanguage) => {
        if (!body || typeof body !== 'object' || !Array.isArray((body as { outcome?: unknown }).outcome)) return body;
        const codes = ((body as { outcome: unknown[] }).outcome as string[]).map((code) => {
          const def = outcomeDefinition(englishCode(code));
          return { code, label: def?.label ?? null, reason: def?.reason[language] ?? null };
        });
        return { ...body, codes };
      };

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

      // ---- assets ---------------------------------------------------------------------------------
      scope.get('/assets/:name', async (req, reply) => {
        const asset = assets.get((req.params as { name: string }).name);
        if (!asset) throw new ConsoleError(404, 'no_asset');
        return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
      });

      // ---- sign-in --------------------------------------------------------------------------------
      scope.get('/', async (req, reply) => reply.redirect((await signedIn(req)) ? '/console/verify' : '/console/login', 303));

      /**
       * The sign-in page with its form's token: signed, bound to a cookie of its own (double submit), so an
       * anonymous visit stores no session; a language asked in the URL stays in the form's address.
       */
      const sendLogin = (req: FastifyRequest, reply: FastifyReply, email: string, notice: { kind: 'info' | 'error'; text: string } | undefined, status: number, token?: string) => {
        const csrf = token ?? newLoginToken();
        if (!token) reply.setCookie(LOGIN_COOKIE, csrf, { path: '/console/login', httpOnly: true, sameSite: 'strict', secure: secureFor(req), maxAge: LOGIN_TOKEN_MS / 1000 });
        const ctx = { ...pageContext(req, reply), csrf };
        const asked = (req.query as Record<string, unknown> | undefined)?.lang;
        const action = typeof asked === 'string' && isLanguage(asked) ? `/console/login?lang=${asked}` : '/console/login';
        return sendPage(reply, loginPage(ctx, email, notice, action), status);
      };

      scope.get('/login', async (req, reply) => {
        if (await signedIn(req)) return reply.redirect('/console/verify', 303);
        const t = translator(languageOf(req));
        const q = req.query as Record<string, string | undefined>;
        const notice = q.expired ? { kind: 'info' as const, text: t('session_expired') } : q.out ? { kind: 'info' as const, text: t('signed_out') } : undefined;
        return sendLogin(req, reply, '', notice, 200);
      });

      scope.post(
        '/login',
        {
          bodyLimit: LOGIN_BODY_LIMIT,
          config: {
            rateLimit: {
              max: LOGIN_ATTEMPTS_PER_MINUTE,
              timeWindow: 60_000,
              allowList: () => false,
              keyGenerator: (req: FastifyRequest) => `login:${req.ip}:${String((req.body as Record<string, unknown> | undefined)?.email ?? '').trim().toLowerCase()}`,
              errorResponseBuilder: () => ({ statusCode: 429, code: 'login_limited', message: 'too many sign-in attempts' }),
            },
          },
        },
        async (req, reply) => {
          const body = (req.body ?? {}) as Record<string, unknown>;
          const token = typeof body._csrf === 'string' ? body._csrf : '';
          if (!token || token !== req.cookies?.[LOGIN_COOKIE] || !goodLoginToken(token)) throw new ConsoleError(403, 'csrf_refused');
          const email = String(body.email ?? '').trim();
          const password = String(body.password ?? '');
          const t = translator(languageOf(req));
          // per e-mail, from whatever address: after LOGIN_FREE_FAILURES wrong passwords the e-mail waits,
          // 1 minute doubling to an hour; counted before the password is checked (docs/console.md)
          const waitMs = email ? await beginLogin(state, email) : 0;
          if (waitMs > 0) {
            reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
            return sendLogin(req, reply, email, { kind: 'error', text: t('login_wait', { minutes: Math.ceil(waitMs / 60_000) }) }, 429, token);
          }
          const user = email ? await getUser(state, email) : undefined;
          // the same scrypt work whether or not the user exists: timing tells nothing
          const good = (await checkPassword(password, user?.password ?? (await decoyHash()))) && !!user && !user.disabled;
          if (!good || !user) return sendLogin(req, reply, email, { kind: 'error', text: t('login_failed') }, 401, token);
          await clearLoginFailures(state, email);
          const asked = (req.query as Record<string, unknown> | undefined)?.lang;
          const lang = typeof asked === 'string' && isLanguage(asked) ? consoleLanguage(asked) : req.session.lang;
          await req.session.regenerate(); // a new id at sign-in: a session fixed before cannot be taken over
          if (secureFor(req)) req.session.cookie.secure = true;
          req.session.user = { email: user.email, account: user.account, generation: user.generation, login_at: Date.now() };
          if (lang) req.session.lang = lang;
          await noteLogin(state, user.email, password);
          return reply.redirect('/console/verify', 303);
        },
      );

      scope.post('/logout', async (req, reply) => {
        await req.session.destroy();
        return reply.clearCookie(COOKIE, { path: '/console' }).redirect('/console/login?out=1', 303);
      });

      // ---- verify ---------------------------------------------------------------------------------
      scope.get('/verify', page(async (req, reply, user) => sendPage(reply, verifyPage(pageContext(req, reply, user)))));

      scope.post(
        '/api/suggest',
        page(async (req, reply, user) => {
          const body = req.body;
          if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ConsoleError(400, 'json_object_expected');
          const { _csrf: _ignored, ...payload } = body as Record<string, unknown>;
          const res = await client.call(user.account, 'POST', '/api/v1/suggest', apiLanguage(req), payload);
          return reply.code(res.status).send(explained(english(res.body, res.headers), apiLanguage(req)));
        }),
      );

      scope.post(
        '/api/contact',
        page(async (req, reply, user) => {
          const b = (req.body ?? {}) as Record<string, unknown>;
          const text = (k: string) => (typeof b[k] === 'string' ? (b[k] as string).trim() : '');
          const address = [text('street'), text('house_number')].filter(Boolean).join(' ');
          const item = Object.fromEntries(Object.entries({ address, postcode: text('postcode'), city: text('city'), province: text('province') }).filter(([, v]) => v !== ''));
          const res = await client.call(user.account, 'POST', '/api/v1/contact', apiLanguage(req), item);
          return reply.code(res.status).send(explained(english(res.body, res.headers), apiLanguage(req)));
        }),
      );

      // ---- lists ----------------------------------------------------------------------------------
      // a list's job is read where the jobs live (LMDB, or PostgreSQL shared by every node); a dedupe list
      // is a job too (one unit, its outcomes are groups: the duplicates page), or, saved by a process older
      // than the job system, only its saved dedupe
      const jobView = async (j: ConsoleJob): Promise<JobView> => {
        const record = await jobStore.get(j.job);
        const older = !record && j.capability === 'dedupe' ? await getSaved(state, j.job, j.account) : undefined;
        const now = record?.state ?? older?.state ?? 'failed';
        const outcomes = record && now === 'completed' && j.capability !== 'dedupe' ? { ...record.outcomes } : null;
        return { ...j, state: now, done: record?.done ?? (now === 'completed' ? j.rows : 0), refunded: record?.refunded ?? 0, outcomes };
      };

      scope.get(
        '/lists',
        page(async (req, reply, user) => {
          const ctx = pageContext(req, reply, user);
          return sendPage(reply, listsPage(ctx, await Promise.all((await consoleJobs(state, user.account)).map(jobView))));
        }),
      );

      scope.post(
        '/api/upload',
        { bodyLimit: MAX_UPLOAD_BYTES },
        page(async (req, _reply, user) => {
          const data = req.body;
          if (!Buffer.isBuffer(data)) throw new ConsoleError(400, 'upload_octet_stream');
          const name = String((req.query as Record<string, unknown>).name ?? 'list.csv').slice(0, 200);
          const table = await readers.read(name, data);
          const upload = await putUpload(state, { account: user.account, name, headers: table.headers, rowsJson: table.rowsJson });
          const mappings = Object.fromEntries(Object.keys(BATCH_FIELDS).map((cap) => [cap, suggestMapping(cap, table.headers)]));
          return { ok: true, upload, file: name, rows: table.rowCount, headers: table.headers, preview: table.preview, capability: suggestCapability(table.headers), mappings };
        }),
      );

      scope.post(
        '/api/jobs',
        page(async (req, reply, user) => {
          const b = (req.body ?? {}) as { upload?: unknown; capability?: unknown; mapping?: unknown; action?: unknown };
          const capability = String(b.capability ?? '');
          if (!isBatchCapability(capability)) throw new ConsoleError(400, 'unknown_capability', { capability: String(capability) });
          const upload = await getUpload(state, String(b.upload ?? ''), user.account);
          if (!upload) throw new ConsoleError(404, 'upload_gone');
          const allowed = new Set(BATCH_FIELDS[capability]);
          const mapping: Record<number, string> = {};
          for (const [col, field] of Object.entries((b.mapping ?? {}) as Record<string, unknown>)) {
            if (typeof field === 'string' && allowed.has(field) && Number(col) >= 0 && Number(col) < upload.headers.length) mapping[Number(col)] = field;
          }
          if (Object.values(mapping).filter((f) => f !== 'id').length === 0) throw new ConsoleError(400, 'map_one_column');
          const items = itemsOf(upload, mapping);
          const language = apiLanguage(req);
          const payload: Record<string, unknown> =
            capability === 'dedupe' ? { records: items, async: true } : { items, async: true, ...(capability === 'tax-code' ? { action: String(b.action ?? 'validate') } : {}) };
          const res = await client.call<{ job?: string; lavoro?: string; rows?: number; message?: string; code?: string }>(user.account, 'POST', CAPABILITY_PATHS[capability] ?? '', language, payload);
          if (res.status !== 200) return reply.code(res.status).send(english(res.body, res.headers));
          const job = String(res.body.job ?? res.body.lavoro);
          const named = Object.fromEntries(Object.entries(mapping).map(([col, field]) => [upload.headers[Number(col)] ?? col, field]));
          await addConsoleJob(state, { job, capability, account: user.account, file: upload.name, rows: items.length, created: new Date().toISOString(), mapping: named });
          return { ok: true, job, rows: items.length, credit: (english(res.body, res.headers) as Record<string, unknown>).credit };
        }),
      );

      const ownedJob = async (user: SignedIn, job: string): Promise<ConsoleJob> => {
        const j = await consoleJob(state, user.account, job);
        if (!j) throw new ConsoleError(404, 'no_list', { job });
        return j;
      };

      scope.get(
        '/api/jobs/:job',
        page(async (req, _reply, user) => {
          const view = await jobView(await ownedJob(user, (req.params as { job: string }).job));
          return { ok: true, job: view.job, capability: view.capability, state: view.state, rows: view.rows, done: view.done, refunded: view.refunded, outcomes: view.outcomes };
        }),
      );

      scope.post(
        '/api/jobs/:job/cancel',
        page(async (req, reply, user) => {
          const j = await ownedJob(user, (req.params as { job: string }).job);
          if (j.capability === 'dedupe') throw new ConsoleError(400, 'dedupe_not_cancellable');
          const res = await client.call<{ refunded?: number; rimborsate?: number }>(user.account, 'DELETE', `${CAPABILITY_PATHS[j.capability]}?job=${encodeURIComponent(j.job)}`, apiLanguage(req));
          const refunded = Number(res.body.refunded ?? res.body.rimborsate ?? 0);
          const counter = counters[j.capability];
          // the usage chart shows what was charged on the day the list was started, less what came back
          if (res.status === 200 && refunded > 0 && counter) await addUsage(state, new Map([[usageKey(user.account, j.created.slice(0, 10), counter), -refunded]]));
          return reply.code(res.status).send(english(res.body, res.headers));
        }),
      );

      scope.get(
        '/lists/:capability/:file',
        page(async (req, reply, user) => {
          const { file } = req.params as { capability: string; file: string };
          const j = await ownedJob(user, file.replace(/\.csv$/, ''));
          const res = await client.call(user.account, 'GET', `${CAPABILITY_PATHS[j.capability]}?job=${encodeURIComponent(j.job)}&format=csv`, apiLanguage(req));
          if (res.status !== 200) throw refusedCall(res, 'result_not_ready');
          const base = j.file.replace(/\.(csv|xlsx|txt)$/i, '').replace(/[^\w.-]+/g, '_');
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${base}-${j.capability}-${j.job}.csv"`)
            .send(res.raw);
        }),
      );

      // ---- duplicates -----------------------------------------------------------------------------
      const dedupeJob = async (req: FastifyRequest, user: SignedIn, job: string) => {
        await ownedJob(user, job);
        const res = await client.call(user.account, 'GET', `/api/v1/dedupe?job=${encodeURIComponent(job)}`, apiLanguage(req));
        if (res.status !== 200) throw refusedCall(res, 'dedupe_list_not_found');
        return english(res.body, res.headers) as { state: string; groups?: Omit<GroupView, 'split_at'>[]; singles?: { id: string | number }[] };
      };

      scope.get(
        '/duplicates',
        page(async (req, reply, user) => {
          const ctx = pageContext(req, reply, user);
          const jobs = await consoleJobs(state, user.account, 'dedupe');
          const wanted = String((req.query as Record<string, unknown>).job ?? jobs[0]?.job ?? '');
          let current = null;
          if (wanted) {
            const body = await dedupeJob(req, user, wanted);
            const splits = await splitGroups(state, user.account, wanted);
            const records = new Map((((await getRecords(state, wanted))?.records ?? []) as Record<string, unknown>[]).map((r) => [String(r.id), r]));
            const groups = (body.groups ?? []).map((g) => ({ ...g, split_at: splits[String(g.group)] ?? null }));
            current = { job: wanted, state: body.state, groups, singles: body.singles?.length ?? 0, records };
          }
          return sendPage(reply, duplicatesPage(ctx, jobs, current));
        }),
      );

      scope.post(
        '/duplicates/review',
        page(async (req, reply, user) => {
          const b = (req.body ?? {}) as Record<string, string | undefined>;
          const job = String(b.job ?? '');
          const group = Number(b.group);
          const decision = b.decision === 'split' ? 'split' : 'confirm';
          await ownedJob(user, job);
          // both decisions are the spec's review (the group is processed); a split is also kept here
          const res = await client.call(user.account, 'POST', '/api/v1/dedupe', apiLanguage(req), { job, group, processed: true });
          if (res.status !== 200) throw refusedCall(res, 'review_refused');
          await markSplit(state, user.account, job, group, decision === 'split');
          return reply.redirect(`/console/duplicates?job=${encodeURIComponent(job)}#g-${group}`, 303);
        }),
      );

      scope.get(
        '/duplicates/:file',
        page(async (req, reply, user) => {
          const job = (req.params as { file: string }).file.replace(/\.csv$/, '');
          const body = await dedupeJob(req, user, job);
          const splits = await splitGroups(state, user.account, job);
          reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="duplicates-${job}.csv"`);
          return dedupeExport(((await getRecords(state, job))?.records ?? []) as Record<string, unknown>[], body.groups ?? [], splits);
        }),
      );

      // ---- credit ---------------------------------------------------------------------------------
      scope.get(
        '/credit',
        page(async (req, reply, user) => {
          const ctx = pageContext(req, reply, user);
          const res = await client.call<{ counters: Record<string, Omit<CounterView, 'name'>> }>(user.account, 'GET', '/api/v1/credit', 'en');
          if (res.status !== 200) throw new ConsoleError(res.status, 'credit_unavailable');
          await usage.flush();
          const now = new Date();
          const month = now.toISOString().slice(0, 7);
          const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
          const counterViews = (['contact', 'dedupe', 'light'] as const).map((name) => ({ name, ...(res.body.counters[name] as Omit<CounterView, 'name'>) }));
          return sendPage(reply, creditPage(ctx, counterViews, { month, days, series: await usageOfMonth(state, user.account, month) }));
        }),
      );

      // ---- tokens ---------------------------------------------------------------------------------
      const visibleTokens = async (account: string) => {
        const hidden = await internalTokenIds(state);
        return (await listTokens(services.state, account)).filter((tk) => !hidden.has(tk.id));
      };
      const ownToken = async (user: SignedIn, id: string) => {
        const tk = (await visibleTokens(user.account)).find((x) => x.id === id);
        if (!tk) throw new ConsoleError(404, 'no_token', { id });
        return tk;
      };

      scope.get(
        '/tokens',
        page(async (req, reply, user) => {
          const ctx = pageContext(req, reply, user);
          const revoked = (req.query as Record<string, unknown>).revoked;
          return sendPage(reply, tokensPage(ctx, await visibleTokens(user.account), null, typeof revoked === 'string' ? ctx.t('token_revoked', { id: revoked }) : undefined));
        }),
      );

      scope.post(
        '/tokens/create',
        page(async (req, reply, user) => {
          const expiry = String((req.body as Record<string, unknown>).expiry ?? '').trim();
          if (expiry && !/^\d{4}-\d{2}-\d{2}$/.test(expiry)) throw new ConsoleError(400, 'expiry_form');
          if (expiry && Date.parse(`${expiry}T23:59:59Z`) <= Date.now()) throw new ConsoleError(400, 'expiry_past');
          const { token, record } = await createToken(services.state, user.account, expiry ? `${expiry}T23:59:59Z` : null);
          return sendPage(reply, tokensPage(pageContext(req, reply, user), await visibleTokens(user.account), { token, id: record.id }));
        }),
      );

      scope.post(
        '/tokens/:id/revoke',
        page(async (req, reply, user) => {
          const tk = await ownToken(user, (req.params as { id: string }).id);
          await revokeToken(services.state, tk.id);
          return reply.redirect(`/console/tokens?revoked=${encodeURIComponent(tk.id)}`, 303);
        }),
      );

      scope.post(
        '/tokens/:id/regenerate',
        page(async (req, reply, user) => {
          const tk = await ownToken(user, (req.params as { id: string }).id);
          const { token, record } = await regenerateToken(services.state, tk.id);
          return sendPage(reply, tokensPage(pageContext(req, reply, user), await visibleTokens(user.account), { token, id: record.id }));
        }),
      );
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

const EXPORT_FIELDS = ['last_name', 'first_name', 'address', 'postcode', 'city', 'province', 'country', 'email', 'phone', 'tax_code'];

function flat(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(flat).filter(Boolean).join(' | ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.value !== undefined) return String(o.value);
    return [o.address, o.postcode, o.city, o.province].filter(Boolean).join(', ');
  }
  return String(v);
}

/**
 * The deduplicated list: one row per group kept as one (its merged record, under the main record's id)
 * and the original rows of split groups and of records without duplicates.
 */
export function dedupeExport(records: Record<string, unknown>[], groups: Omit<GroupView, 'split_at'>[], splits: Record<string, string>): string {
  const rows: string[][] = [['id', 'group', 'level', 'review', 'members', ...EXPORT_FIELDS]];
  const grouped = new Set<string>();
  const byId = new Map(records.map((r) => [String(r.id), r]));
  for (const g of groups) {
    const split = splits[String(g.group)] !== undefined;
    const review = split ? 'split' : g.processed ? 'confirmed' : 'unreviewed';
    if (split) continue;
    g.members.forEach((m) => grouped.add(String(m)));
    const merged = g.record;
    const first = (k: string) => flat(merged[k] ?? merged[`${k}s`]);
    rows.push([String(g.main_record.id), String(g.group), g.level, review, g.members.join(' '), ...EXPORT_FIELDS.map(first)]);
  }
  for (const [id, r] of byId) {
    if (grouped.has(id)) continue;
    const group = groups.find((g) => g.members.map(String).includes(id));
    rows.push([id, group ? String(group.group) : '', group?.level ?? '', group ? 'split' : '', '', ...EXPORT_FIELDS.map((k) => flat(r[k]))]);
  }
  return csvText(rows);
}
