import type { Services } from '../http/context.js';
import { openPgJobs } from './pg.js';
import { JobService } from './service.js';

/** Seconds a node holds a chunk before another node may take it (RECAPITO_JOB_LEASE_S). */
const LEASE_S = Number(process.env.RECAPITO_JOB_LEASE_S) || 120;
/** The same for a dedupe job, one unit of up to 100,000 records (RECAPITO_DEDUPE_LEASE_S). */
const DEDUPE_LEASE_S = Number(process.env.RECAPITO_DEDUPE_LEASE_S) || 1_800;

/**
 * The node's job service on the state's back end: LMDB in this process by default, or with
 * RECAPITO_STATE_URL=postgres://… PostgreSQL with pg-boss, shared by every node (docs/operations.md, Jobs).
 */
export async function createJobService(services: Services): Promise<JobService> {
  const pool = services.state.pool;
  if (services.state.backend !== 'postgres' || !pool) return new JobService(services);
  const { store, units } = await openPgJobs({ pool, leaseSeconds: LEASE_S, dedupeLeaseSeconds: DEDUPE_LEASE_S, workers: Math.max(1, services.config.jobWorkers) });
  return new JobService(services, store, units);
}
