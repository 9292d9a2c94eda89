import type { FastifyInstance } from 'fastify';

import type { StateStore } from '../state/store.js';
import { addUsage, usageKey } from './store.js';

/** Italian endpoint names → the English capability name the credit report's endpoint map uses. */
const ALIASES: Record<string, string> = {
  contatto: 'contact', deduplica: 'dedupe', codicefiscale: 'tax-code', arricchimento: 'enrichment', telefono: 'phone', sito: 'website', suggerisci: 'suggest',
};

/**
 * Operations charged per account, counter and UTC day, for the Credit page's chart: the ledger keeps
 * monthly totals only. Read from the `X-Service-Charged` header every consuming answer carries,
 * summed in memory and written every few seconds in one transaction, off the request path.
 * (What a job refunds later is not subtracted: the chart shows what was charged on that day.)
 */
export function recordUsage(app: FastifyInstance, db: StateStore, counters: Record<string, string>): { flush(): Promise<void>; stop(): Promise<void> } {
  let pending = new Map<string, number>();
  app.addHook('onResponse', async (req, reply) => {
    const charged = Number(reply.getHeader('x-service-charged') ?? 0);
    const account = req.ctx?.caller?.account?.name;
    if (!charged || !account || reply.statusCode !== 200) return;
    const name = /^\/api\/v1\/([\w-]+)/.exec(req.url)?.[1] ?? '';
    const counter = counters[ALIASES[name] ?? name];
    if (!counter) return;
    const key = usageKey(account, new Date().toISOString().slice(0, 10), counter);
    pending.set(key, (pending.get(key) ?? 0) + charged);
  });
  const flush = async () => {
    const batch = pending;
    pending = new Map();
    await addUsage(db, batch);
  };
  const timer = setInterval(() => void flush(), 2000);
  timer.unref();
  return {
    flush,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
