import type { FastifyPluginAsync } from 'fastify';

import { usageOfMonth } from '../store.js';
import { creditPage, type CounterView } from '../views.js';
import { ConsoleError, type ConsoleKit } from '../kit.js';

/** The credit page: the account's counters and this month's usage. */
export const creditPages: FastifyPluginAsync<ConsoleKit> = async (scope, kit) => {
  const { state, client, usage, counters, pageContext, sendPage, page } = kit;
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
};
