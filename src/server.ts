import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { authenticate } from './account/tokens.js';
import { loadAllCapabilities } from './capabilities.js';
import { configFromEnv, type ServiceConfig } from './config.js';
import { registerConsole } from './console/routes.js';
import { countryRoutes } from './countries/index.js';
import { CREDIT_PATHS, registerCredit } from './credit/route.js';
import { dedupeRoutes } from './dedupe/index.js';
import type { Counter } from './http/capability.js';
import { negotiate, type Services } from './http/context.js';
import { registerCapability } from './http/endpoint.js';
import { ApiError, ERROR_MESSAGES, fill, isStorageError, storageError } from './http/errors.js';
import { languageFromAcceptHeader } from './http/language.js';
import { overloadedError, registerOverloadGuard } from './http/overload.js';
import { registerRateLimits } from './http/rate-limit.js';
import { BODY_LIMITS, parseJsonBody } from './http/validation.js';
import { checkRegisterFiles } from './import/integrity.js';
import { createJobService } from './jobs/backend.js';
import type { JobService } from './jobs/service.js';
import { registerIndex, type ExtraEndpoint } from './meta/index-route.js';
import { registerOpenApi, type ExtraOperation } from './meta/openapi.js';
import { computeJsonSync, openRegister, useForeignRegisters } from './native.js';
import { registerHealth, HEALTH_PATHS, type Readiness } from './ops/health.js';
import { openState } from './state/db.js';
import { openStore } from './state/open.js';
import { claimRegister, registerBuildId } from './state/register-version.js';
import { suggestRoutes } from './suggest/index.js';

const PUBLIC = new Set<string>(['/api/v1/', '/api/v1', '/api/v1/openapi.json', ...HEALTH_PATHS]);

export interface Service {
  app: FastifyInstance;
  services: Services;
  jobs: JobService;
  /** What /ready reports; `shutdown` turns it off first. */
  readiness: Readiness;
  close(): Promise<void>;
  /**
   * Graceful shutdown: /ready answers 503 (the load balancer stops sending), after `drainMs` the node
   * stops accepting, finishes the requests in flight, stops its job workers (a job resumes where it
   * stopped) and closes the state store.
   */
  shutdown(): Promise<void>;
}

/** Routes beyond the generic capabilities (dedupe, suggest...), registered with the shared machinery. */
export interface RouteModule {
  endpoints: ExtraEndpoint[];
  counters: Record<string, Counter>;
  /** Request schemas for the OpenAPI document. */
  openapi?: ExtraOperation[];
  register(app: FastifyInstance, services: Services, jobs: JobService): void;
}

const ROUTE_MODULES: (() => Promise<RouteModule>)[] = [countryRoutes, dedupeRoutes, suggestRoutes];

function attributions(): string[] {
  try {
    return computeJsonSync<{ attributions: string[] }>('register.info', {}).attributions;
  } catch {
    return [];
  }
}

function sendError(req: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const language = req.ctx?.language ?? languageFromAcceptHeader(req.headers['accept-language']) ?? 'en';
  const message = fill(ERROR_MESSAGES[error.code][language], error.params);
  if (error.code === 'rate_limited' || error.code === 'session_budget' || error.code === 'too_many_jobs' || error.code === 'overloaded' || error.code === 'storage_unavailable') reply.header('Retry-After', String(error.extra.retry_after ?? 60));
  reply.header('Content-Language', language);
  return reply.code(error.status).send({ ok: false, code: error.code, message, details: error.details ?? null, ...error.extra });
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) in our error body. */
function asApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (isStorageError(error)) return storageError();
  const status = error.statusCode ?? 500;
  if (status === 503) return overloadedError(); // @fastify/under-pressure
  if (status === 413) return new ApiError('payload_too_large');
  if (status === 400 && (error instanceof SyntaxError || /JSON/i.test(error.code ?? '') || /JSON/.test(error.message))) return new ApiError('invalid_json');
  if (status >= 400 && status < 500) return new ApiError('bad_request', { detail: error.message });
  return new ApiError('internal_error');
}

let storageFaultsHandled = false;

/**
 * Writes nobody awaits (usage counters, batched commits) fail on a full disk as unhandled rejections, which
 * end the process. Those are logged and survived: their transactions changed nothing. Anything else still ends it.
 */
function surviveStorageFaults(): void {
  if (storageFaultsHandled) return;
  storageFaultsHandled = true;
  process.on('unhandledRejection', (reason) => {
    if (isStorageError(reason)) {
      console.error(`state store write failed: ${reason instanceof Error ? reason.message : String(reason)}`);
      return;
    }
    throw reason;
  });
}

export async function buildService(overrides: Partial<ServiceConfig> = {}): Promise<Service> {
  const config = configFromEnv(overrides);
  surviveStorageFaults();
  checkRegisterFiles(config.dataDir);
  openRegister(config.dataDir);
  useForeignRegisters();
  const db = openState(config.dataDir);
  const state = await openStore(config.dataDir, config.stateUrl);
  const buildId = registerBuildId();
  try {
    await claimRegister(state, buildId);
  } catch (error) {
    await state.close();
    throw error;
  }
  const services: Services = { config, db, state };
  const readiness: Readiness = { serving: true };
  const jobs = await createJobService(services);
  const app = Fastify({ logger: process.env.RECAPITO_LOG === '1', bodyLimit: BODY_LIMITS.bytes, trustProxy: true });
  // JSON bodies checked for prototype keys, depth and string length before any handler walks them
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByPath.get(route.url) ?? new Set<string>();
    methods.forEach((m) => set.add(m));
    methodsByPath.set(route.url, set);
  });

  await registerOverloadGuard(app, config);
  app.decorateRequest('ctx', null as never);
  app.addHook('onRequest', async (req) => {
    req.ctx = { language: 'en', italian: false };
    const path = req.url.split('?')[0] ?? '';
    if (PUBLIC.has(path) || req.method === 'OPTIONS') return;
    if (path.startsWith('/console') || path.startsWith('/widget/')) return; // people sign in there; no bearer token
    if (!methodsByPath.has(path)) return; // 404/405 are answered without asking for a token
    req.ctx.caller = await authenticate(state, req.headers.authorization);
  });
  app.addHook('preHandler', async (req) => {
    req.ctx = negotiate(req, config);
  });
  // no answer leaves before the request is counted on disk (shared commits: see src/state/commit.ts)
  app.addHook('onSend', async (req) => {
    await req.ctx?.caller?.counted();
  });
  await registerRateLimits(app, config, state);
  registerHealth(app, state, buildId, readiness);

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const apiError = asApiError(error);
    // the client sees a stable 500 body; the operator sees what happened
    if (apiError.status === 500 || apiError.code === 'storage_unavailable') console.error(error);
    return sendError(req, reply, apiError);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = methodsByPath.get(path);
    if (allowed) {
      reply.header('Allow', [...allowed].join(', '));
      return sendError(req, reply, new ApiError('method_not_allowed', { method: req.method, path, allowed: [...allowed].join(', ') }));
    }
    return sendError(req, reply, new ApiError('not_found', { what: path }));
  });

  const capabilities = await loadAllCapabilities();
  const modules = await Promise.all(ROUTE_MODULES.map((load) => load()));
  const counters: Record<string, Counter> = Object.fromEntries(capabilities.map((c) => [c.name, c.counter]));
  for (const m of modules) Object.assign(counters, m.counters);
  const webConsole = await registerConsole(app, services, counters);

  registerIndex(app, capabilities, [
    ...modules.flatMap((m) => m.endpoints),
    { method: 'GET', path: CREDIT_PATHS[0] ?? '', italian_path: CREDIT_PATHS[1], purpose: 'counters report; consumes nothing; needs an account token' },
    { method: 'GET', path: '/api/v1/openapi.json', purpose: 'OpenAPI 3.1 document, generated from the request schemas' },
  ], attributions);
  registerOpenApi(app, capabilities, modules.flatMap((m) => m.openapi ?? []));
  registerCredit(app, services, counters);
  for (const cap of capabilities) registerCapability(app, services, jobs, cap);
  for (const m of modules) m.register(app, services, jobs);

  await app.ready();
  await jobs.resume();
  return {
    app,
    services,
    jobs,
    readiness,
    close: async () => {
      readiness.serving = false;
      await webConsole.close();
      await app.close();
      await jobs.close();
      await state.close();
    },
    shutdown: async () => {
      readiness.serving = false;
      if (config.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainMs));
      await webConsole.close();
      await app.close();
      await jobs.stop();
      await state.close();
    },
  };
}
