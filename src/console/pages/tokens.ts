import type { FastifyPluginAsync } from 'fastify';

import { createToken, listTokens, regenerateToken, revokeToken } from '../../state/tokens.js';
import { internalTokenIds } from '../store.js';
import { tokensPage } from '../views.js';
import { ConsoleError, type ConsoleKit, type SignedIn } from '../kit.js';

/** The tokens page: the account's API tokens, created, revoked and regenerated. */
export const tokensPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { services, state, pageContext, sendPage, page } = kit;
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
};
