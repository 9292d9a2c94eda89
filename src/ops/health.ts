import type { FastifyInstance } from 'fastify';

import { sharedRegister } from '../state/register-version.js';
import type { StateStore } from '../state/store.js';

export const HEALTH_PATHS = ['/health', '/ready'] as const;

/** What readiness depends on, and the switch graceful shutdown turns off first. */
export interface Readiness {
  /** False from the moment the node starts shutting down: the load balancer stops sending it requests. */
  serving: boolean;
}

/**
 * Liveness and readiness for load balancers and orchestrators, outside /api/v1 and without a token:
 * - `GET /health`: 200 while the process answers at all (restart it when this fails);
 * - `GET /ready`: 200 when the node can serve: the state store answers, this node still serves the
 *   register the shared state names, and it is not shutting down; 503 with the reason otherwise.
 */
export function registerHealth(app: FastifyInstance, state: StateStore, buildId: string, readiness: Readiness): void {
  app.get('/health', async (_req, reply) => reply.code(200).send({ ok: true, status: 'alive' }));
  app.get('/ready', async (_req, reply) => {
    const refuse = (reason: string) => reply.code(503).header('Retry-After', '5').send({ ok: false, status: 'not_ready', reason });
    if (!readiness.serving) return refuse('shutting down');
    try {
      await state.ping();
      if (state.backend === 'postgres') {
        const shared = await sharedRegister(state);
        if (shared !== undefined && shared !== buildId) return refuse(`register build ${buildId} is not the shared build ${shared}`);
      }
    } catch (error) {
      return refuse(`state store: ${error instanceof Error ? error.message : String(error)}`);
    }
    return reply.code(200).send({ ok: true, status: 'ready', state: state.backend, register: buildId });
  });
}
