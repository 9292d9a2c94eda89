import { refund } from '../credit/ledger.js';
import type { Services } from '../http/context.js';
import { openPgJobs } from './pg.js';
import { JobService } from './service.js';

/** Seconds a node holds a chunk before another node may take it (RECAPITO_JOB_LEASE_S). */
const LEASE_S = Number(process.env.RECAPITO_JOB_LEASE_S) || 120;
/** The same for a dedupe job, one unit of up to 100,000 records (RECAPITO_DEDUPE_LEASE_S). */
const DEDUPE_LEASE_S = Number(process.env.RECAPITO_DEDUPE_LEASE_S) || 1_800;

/** The state URL when it names PostgreSQL; LMDB (the embedded default) otherwise. */
export function postgresUrl(): string | undefined {
  const url = process.env.RECAPITO_STATE_URL?.trim();
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

/**
 * The node's job service on the back end RECAPITO_STATE_URL names: LMDB in this process by default,
 * or PostgreSQL with pg-boss shared by every node (docs/operations.md, Jobs).
 */
export async function createJobService(services: Services): Promise<JobService> {
  const url = postgresUrl();
  if (!url) return new JobService(services);
  const { store, units } = await openPgJobs({
    url,
    leaseSeconds: LEASE_S,
    dedupeLeaseSeconds: DEDUPE_LEASE_S,
    workers: Math.max(1, services.config.jobWorkers),
    // TODO(i17-state): the shared credit store; until it lands, the node's ledger
    credit: { refund: async (ticket, units) => refund(services.db, ticket, units) },
  });
  return new JobService(services, store, units);
}
