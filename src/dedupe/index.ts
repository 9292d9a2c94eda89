import type { RouteModule } from '../server.js';
import { DEDUPE_PATHS, registerDedupeRoutes, SYNC_CAP } from './route.js';
import { compareRequest } from './schema.js';

/** POST/GET /api/v1/dedupe: its own route (records, not items; saved jobs, group review, incremental matching). */
export async function dedupeRoutes(): Promise<RouteModule> {
  return {
    endpoints: [
      {
        method: 'POST',
        path: DEDUPE_PATHS[0],
        italian_path: DEDUPE_PATHS[1],
        purpose: `deduplicate records (up to ${SYNC_CAP} records plus reference, or async up to 100,000), search records in a reference list, add records to a saved job, or mark a group processed`,
      },
      { method: 'GET', path: `${DEDUPE_PATHS[0]}?job=<job>`, italian_path: `${DEDUPE_PATHS[1]}?lavoro=<job>`, purpose: 'read a saved deduplication (30 days)' },
    ],
    counters: { dedupe: 'dedupe' },
    openapi: [{ paths: DEDUPE_PATHS, summary: 'deduplicate records, two-list search, incremental matching, or mark a group processed', schemaName: 'DedupeRequest', request: compareRequest, jobRead: true }],
    register: (app, services, jobs) => registerDedupeRoutes(app, services, jobs),
  };
}
