import type { Services } from '../http/context.js';
import { ApiError } from '../http/errors.js';
import { unfinished } from '../dedupe/store.js';
import { listJobs } from './store.js';

/** Seconds a client told `too_many_jobs` is asked to wait: about what a chunk of work takes. */
const JOB_RETRY_AFTER_S = 30;

/**
 * An account may have at most `maxActiveJobsPerAccount` asynchronous jobs queued or running (capability
 * jobs and dedupe jobs together): beyond that a 429 `too_many_jobs`, checked before anything is charged,
 * so that one account cannot fill the queue ahead of every other.
 */
export function assertJobSlot(services: Services, account: string): void {
  const { db, config } = services;
  let active = 0;
  for (const job of listJobs(db)) if (job.account === account && (job.state === 'queued' || job.state === 'running')) active++;
  for (const saved of unfinished(db)) if (saved.account === account) active++;
  if (active >= config.maxActiveJobsPerAccount) {
    throw new ApiError('too_many_jobs', { active, retry_after: JOB_RETRY_AFTER_S }, { active, max: config.maxActiveJobsPerAccount }, { retry_after: JOB_RETRY_AFTER_S });
  }
}
