import type { FastifyReply, FastifyRequest } from 'fastify';

import { attributionIn } from '../http/attribution.js';
import { answer } from '../http/context.js';
import { ERROR_STATUS } from '../http/errors.js';
import { ASYNC_CAP } from '../http/endpoint.js';
import { LANGUAGES } from '../http/language.js';
import type { ServicePlugin } from '../http/plugin.js';
import { INLINE_RESULTS_MAX } from '../jobs/service.js';

/** GET /api/v1/: public index of endpoints, asynchronous usage and HTTP statuses; no authentication. */
export function indexHandler(plugins: readonly ServicePlugin[], attribution: () => string[]) {
  const capabilities = plugins.flatMap((p) => (p.capability ? [p.capability] : []));
  const extra = plugins.flatMap((p) => p.index ?? []);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const endpoints = [
      ...capabilities.flatMap((c) => [
        { method: 'POST', path: c.paths[0], italian_path: c.paths[1] ?? null, purpose: `${c.name}: one item, items (up to ${c.batchCap}) or async`, counter: c.counter, batch_cap: c.batchCap, async: c.asyncAllowed },
        { method: 'GET', path: `${c.paths[0]}?job=<job>[&format=csv]`, italian_path: c.paths[1] ? `${c.paths[1]}?job=<job>` : null, purpose: `read an asynchronous ${c.name} job` },
        { method: 'DELETE', path: `${c.paths[0]}?job=<job>`, italian_path: null, purpose: `cancel an asynchronous ${c.name} job; unprocessed operations go back to the balance` },
      ]),
      ...extra.map((e) => ({ ...e, italian_path: e.italian_path ?? null })),
    ];
    return answer(req, reply, {
      ok: true,
      service: 'recapito',
      version: 'v1',
      authentication: 'Authorization: Bearer <token> on every endpoint but this index and /api/v1/openapi.json',
      languages: LANGUAGES,
      endpoints,
      async: {
        request: `{"async": true, "items": [...]} with up to ${ASYNC_CAP} items`,
        response: '{"ok": true, "job": "<code>", "state": "queued", "rows": <n>}',
        read: `GET <endpoint>?job=<code>: state, rows, done, outcomes; results inline under ${INLINE_RESULTS_MAX} rows; &format=csv streams every row`,
        states: ['queued', 'running', 'completed', 'failed', 'cancelled'],
        billing: 'charged at queuing; a job that stops (failed, cancelled) gives back its unprocessed operations',
      },
      statuses: Object.entries(ERROR_STATUS).reduce<Record<number, string[]>>(
        (acc, [code, status]) => {
          (acc[status] ??= []).push(code);
          return acc;
        },
        { 200: ['processed (a single contact with INCOMPLETE_DATA answers ok:false with 200)'] },
      ),
      error_body: '{"ok": false, "code": "<stable code>", "message": "<text in the request language>", "details": <field paths or limits>}',
      attribution: attribution().map((a) => attributionIn(a, req.ctx.language)),
    });
  };
}
