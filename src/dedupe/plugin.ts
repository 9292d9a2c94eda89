import type { ServicePlugin } from '../http/plugin.js';
import { DEDUPE_PATHS, dedupeRoutes, SYNC_CAP } from './route.js';
import { compareRequest } from './schema.js';

/** POST/GET /api/v1/dedupe: its own routes (records, not items; saved jobs, group review, incremental matching). */
export const dedupePlugin: ServicePlugin = {
  name: 'dedupe',
  routes: dedupeRoutes,
  counters: { dedupe: 'dedupe' },
  index: [
    {
      method: 'POST',
      path: DEDUPE_PATHS[0],
      italian_path: DEDUPE_PATHS[1],
      purpose: `deduplicate records (up to ${SYNC_CAP} records plus reference, or async up to 100,000), search records in a reference list, add records to a saved job, or mark a group processed`,
    },
    { method: 'GET', path: `${DEDUPE_PATHS[0]}?job=<job>`, italian_path: `${DEDUPE_PATHS[1]}?lavoro=<job>`, purpose: 'read a saved deduplication (30 days); format=csv one row per record' },
    { method: 'DELETE', path: `${DEDUPE_PATHS[0]}?job=<job>`, italian_path: `${DEDUPE_PATHS[1]}?lavoro=<job>`, purpose: 'cancel an asynchronous deduplication not yet done; its operations go back to the balance' },
  ],
  openapi: [{ paths: DEDUPE_PATHS, summary: 'deduplicate records, two-list search, incremental matching, or mark a group processed', schemaName: 'DedupeRequest', request: compareRequest, jobRead: true }],
};
