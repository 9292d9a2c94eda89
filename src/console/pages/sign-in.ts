import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { isLanguage } from '../../http/language.js';
import { beginLogin, checkPassword, clearLoginFailures, decoyHash, getUser, noteLogin } from '../store.js';
import { consoleLanguage, translator } from '../texts.js';
import { loginPage } from '../views.js';
import { ConsoleError, type ConsoleKit, COOKIE, LOGIN_ATTEMPTS_PER_MINUTE, LOGIN_BODY_LIMIT, LOGIN_COOKIE, LOGIN_TOKEN_MS } from '../kit.js';

/** Sign-in and sign-out: the form with its own signed token (no session before it), the per-address limit, the session made on success. */
export const signInPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { config, state, newLoginToken, goodLoginToken, secureFor, languageOf, pageContext, sendPage, signedIn, page } = kit;
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
};
