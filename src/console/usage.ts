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
  // the counter of an endpoint, found once per endpoint name (issue 14): read from the request's own path,
  // because Fastify's `req.routeOptions` builds a new object of a dozen fields on every read
  const counterOfName = new Map<string, string | null>();
  const counterOf = (url: string): string | null => {
    if (!url.startsWith('/api/v1/')) return null;
    let end = url.length;
    for (let i = 8; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 47 /* / */ || c === 63 /* ? */) {
        end = i;
        break;
      }
    }
    const name = url.slice(8, end);
    let counter = counterOfName.get(name);
    if (counter === undefined) {
      counter = counters[ALIASES[name] ?? name] ?? null;
      // a charged answer came from a real endpoint, so the names are few; bounded all the same
      if (counterOfName.size < 1_000) counterOfName.set(name, counter);
    }
    return counter;
  };
  // the UTC day, computed again only when it ends
  let day = '';
  let dayEnds = 0;
  const today = (): string => {
    const now = Date.now();
    if (now >= dayEnds) {
      day = new Date(now).toISOString().slice(0, 10);
      dayEnds = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)) + 1);
    }
    return day;
  };
  // a callback hook: no promise per response
  app.addHook('onResponse', (req, reply, done) => {
    const account = req.ctx?.caller?.account?.name;
    if (!account || reply.statusCode !== 200) return done();
    const charged = Number(reply.getHeader('x-service-charged') ?? 0);
    const counter = charged ? counterOf(req.url) : null;
    if (counter) {
      const key = usageKey(account, today(), counter);
      pending.set(key, (pending.get(key) ?? 0) + charged);
    }
    done();
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
