import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Counter } from '../http/capability.js';
import { answer, requireAccount, type Services } from '../http/context.js';
import { creditReport } from './report.js';

export const CREDIT_PATHS = ['/api/v1/credit', '/api/v1/credito'];

/** GET /api/v1/credit: the counters report; consumes nothing; needs an account token (403 otherwise). */
export function registerCredit(app: FastifyInstance, services: Services, endpointCounters: Record<string, Counter>): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const account = requireAccount(req);
    // consumes nothing: `outcome` empty (spec: every response carries it)
    return answer(req, reply, { ...(await creditReport(services.state, account, endpointCounters, new Date(), req.ctx.language)), outcome: [] });
  };
  for (const path of CREDIT_PATHS) app.get(path, handler);
}
