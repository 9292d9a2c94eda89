import type { Services } from '../http/context.js';
import { ApiError } from '../http/errors.js';
import type { JobStore } from './store.js';

/** Seconds a client told `too_many_jobs` is asked to wait: about what a chunk of work takes. */
const JOB_RETRY_AFTER_S = 30;

/**
 * An account may have at most `maxActiveJobsPerAccount` asynchronous jobs queued or running (capability
 * jobs and dedupe jobs together: all live in the one job store): beyond that a 429 `too_many_jobs`,
 * checked before anything is charged, so that one account cannot fill the queue ahead of every other.
 */
export async function assertJobSlot(services: Services, store: JobStore, account: string): Promise<void> {
  const { config } = services;
  const active = (await store.active(account)).length;
  if (active >= config.maxActiveJobsPerAccount) {
    throw new ApiError('too_many_jobs', { active, retry_after: JOB_RETRY_AFTER_S }, { active, max: config.maxActiveJobsPerAccount }, { retry_after: JOB_RETRY_AFTER_S });
  }
}
