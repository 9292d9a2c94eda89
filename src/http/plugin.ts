import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';

import type { JobService } from '../jobs/service.js';
import type { Capability, Counter } from './capability.js';
import type { Services } from './context.js';

/** A line of the public index (GET /api/v1/) for an endpoint that is not a generic capability. */
export interface IndexEntry {
  method: string;
  path: string;
  italian_path?: string;
  purpose: string;
}

/** An OpenAPI operation for an endpoint that is not a generic capability, described by its request schema. */
export interface OpenApiOperation {
  paths: readonly string[];
  summary: string;
  schemaName: string;
  request: z.ZodType<unknown>;
  /** Also readable by GET ?job= (dedupe). */
  jobRead?: boolean;
}

/** What every endpoint plugin is given when `src/server.ts` registers it. */
export interface PluginOptions {
  services: Services;
  jobs: JobService;
  /** Endpoint name → the counter it consumes, over every plugin (the credit report and the console list them). */
  counters: Readonly<Record<string, Counter>>;
  /** Every plugin of the service (the index and the OpenAPI document describe them all). */
  plugins: readonly ServicePlugin[];
}

/**
 * The one way an endpoint joins the service: a Fastify plugin with what the rest of the service must
 * know about it, listed once in `src/server.ts`. A capability served by the shared machinery is
 * `capabilityPlugin(capability)` (src/http/endpoint.ts); the others (dedupe, suggest, countries, credit,
 * the index) write their routes and describe them here.
 */
export interface ServicePlugin {
  name: string;
  routes: FastifyPluginAsync<PluginOptions>;
  /** Endpoint name → counter, for the credit report; empty for what consumes nothing. */
  counters: Readonly<Record<string, Counter>>;
  /** A generic capability: its index lines and OpenAPI operations are derived from it. */
  capability?: Capability<unknown>;
  index?: readonly IndexEntry[];
  openapi?: readonly OpenApiOperation[];
}
