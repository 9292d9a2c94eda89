import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

import { authenticateNow, type Caller } from './state/tokens.js';
import { loadPlugins } from './capabilities.js';
import { configFromEnv, type ServiceConfig } from './config.js';
import { registerConsole } from './console/routes.js';
import type { Counter } from './http/capability.js';
import { negotiate, startContext, type Services } from './http/context.js';
import { sendError } from './http/error-body.js';
import { ApiError, badRequest, isStorageError, storageError } from './http/errors.js';
import { overloadedError, overloadGuard } from './http/overload.js';
import { rateLimiter, registerRouteRateLimits } from './http/rate-limit.js';
import { BODY_LIMITS, parseJsonBody } from './http/validation.js';
import { checkRegisterFiles } from './import/integrity.js';
import { createJobService } from './jobs/backend.js';
import type { JobService } from './jobs/service.js';
import { openRegister, useForeignRegisters } from './native.js';
import { registerHealth, HEALTH_PATHS, type Readiness } from './ops/health.js';
import { openState } from './state/db.js';
import { openStore } from './state/open.js';
import { claimServe } from './state/serve-owner.js';
import { claimRegister, registerBuildId } from './state/register-version.js';

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

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Fastify's own errors (bad JSON, body too large, wrong content type) in our error body. */
function asApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (isStorageError(error)) return storageError();
  const status = error.statusCode ?? 500;
  if (status === 503) return overloadedError();
  if (status === 413) return new ApiError('payload_too_large');
  if (status === 400 && (error instanceof SyntaxError || /JSON/i.test(error.code ?? '') || /JSON/.test(error.message))) return new ApiError('invalid_json');
  // Fastify's own messages are English: ours say what is wrong in the answer's language
  if (status === 415) return badRequest('media_type');
  if (status >= 400 && status < 500) return badRequest('unreadable');
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
  // one service per LMDB data dir, claimed once the register is known good (a refused start creates no state)
  const releaseDataDir = config.stateUrl === undefined ? claimServe(config.dataDir) : undefined;
  const db = openState(config.dataDir);
  const state = await openStore(config.dataDir, config.stateUrl);
  const buildId = registerBuildId();
  try {
    await claimRegister(state, buildId);
  } catch (error) {
    releaseDataDir?.();
    await state.close();
    throw error;
  }
  const services: Services = { config, db, state };
  const readiness: Readiness = { serving: true };
  const jobs = await createJobService(services);
  const app = Fastify({ logger: process.env.RECAPITO_LOG === '1', bodyLimit: BODY_LIMITS.bytes, trustProxy: config.trustProxy });
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

  /**
   * A request no route matched: 405 with Allow when the path has routes for other methods, else 404. Answered
   * from onRequest (outside the console, which has its own pages): no body is read for a path that takes none.
   */
  const unmatched = (req: FastifyRequest, reply: FastifyReply): ApiError => {
    const path = pathOf(req.url);
    const allowed = methodsByPath.get(path);
    if (!allowed) return new ApiError('not_found', { what: path });
    reply.header('Allow', [...allowed].join(', '));
    return new ApiError('method_not_allowed', { method: req.method, path, allowed: [...allowed].join(', ') });
  };

  const admit = overloadGuard(app, config);
  const limiter = rateLimiter(config, state);
  app.decorateRequest('ctx', null as never);
  // One callback hook per stage, not async ones: no promise and no extra tick each (issue 14). onRequest:
  // the overload guard, then the token (answered at once when cached on LMDB). Everything is decided on the
  // route the router matched (the decoded path), never on the raw URL (`/api/v1/%63ountries`, issue 33), and
  // before any body is read: a request without a token costs no parse.
  app.addHook('onRequest', (req, reply, done) => {
    const refused = admit(reply);
    if (refused) return done(refused);
    req.ctx = startContext();
    const route = req.routeOptions.url;
    if (route === undefined) return pathOf(req.url).startsWith('/console') ? done() : done(unmatched(req, reply)); // 404/405 without asking for a token
    if (PUBLIC.has(route) || req.method === 'OPTIONS') return done();
    if (route.startsWith('/console') || route.startsWith('/widget/')) return done(); // people sign in there (src/console/routes.ts); no bearer token
    let caller: Caller | Promise<Caller>;
    try {
      caller = authenticateNow(state, req.headers.authorization, req.routeOptions.url);
    } catch (error) {
      return done(error as Error);
    }
    if (!(caller instanceof Promise)) {
      req.ctx.caller = caller;
      return done();
    }
    caller.then(
      (known) => {
        req.ctx.caller = known;
        done();
      },
      (error: unknown) => done(error as Error),
    );
  });
  // preHandler (the body is parsed): the language, then the rate limit, whose class reads the body
  app.addHook('preHandler', (req, reply, done) => {
    try {
      negotiate(req, config);
    } catch (error) {
      return done(error as Error);
    }
    limiter.check(req, reply, done);
  });
  // no answer leaves before the request is counted on disk (shared commits: see src/state/commit.ts)
  app.addHook('onSend', (req, _reply, payload, done) => {
    const counted = req.ctx?.caller?.counted();
    if (!counted) return done(null, payload);
    counted.then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  });
  await registerRouteRateLimits(app, state);
  registerHealth(app, state, buildId, readiness);

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const apiError = asApiError(error);
    // the client sees a stable 500 body; the operator sees what happened
    if (apiError.status === 500 || apiError.code === 'storage_unavailable') console.error(error);
    return sendError(services, req, reply, apiError);
  });
  app.setNotFoundHandler((req, reply) => sendError(services, req, reply, unmatched(req, reply)));

  // every endpoint, one Fastify plugin each, in the registry's order (src/capabilities.ts)
  const plugins = await loadPlugins();
  const counters: Record<string, Counter> = Object.assign({}, ...plugins.map((p) => p.counters));
  const webConsole = await registerConsole(app, services, counters, jobs.store);
  for (const plugin of plugins) await app.register(plugin.routes, { services, jobs, counters, plugins });

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
      releaseDataDir?.();
      await state.close();
    },
    shutdown: async () => {
      readiness.serving = false;
      if (config.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainMs));
      await webConsole.close();
      await app.close();
      await jobs.stop();
      releaseDataDir?.();
      await state.close();
    },
  };
}
