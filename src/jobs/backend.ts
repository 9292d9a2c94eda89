import type { Services } from '../http/context.js';
import { openPgJobs } from './pg.js';
import { JobService } from './service.js';

/**
 * Seconds after which a unit of a node that stopped renewing it (dead, or frozen) may be taken by
 * another node (RECAPITO_JOB_LEASE_S); a live node renews its units every third of it.
 */
const LEASE_S = Math.max(3, Number(process.env.RECAPITO_JOB_LEASE_S) || 30);

/**
 * The node's job service on the state's back end: LMDB in this process by default, or with
 * RECAPITO_STATE_URL=postgres://… PostgreSQL with pg-boss, shared by every node (docs/operations.md, Jobs).
 */
export async function createJobService(services: Services): Promise<JobService> {
  const pool = services.state.pool;
  if (services.state.backend !== 'postgres' || !pool) return new JobService(services);
  const { store, units } = await openPgJobs({ pool, leaseSeconds: LEASE_S, workers: Math.max(1, services.config.jobWorkers) }, services.state);
  return new JobService(services, store, units);
}
