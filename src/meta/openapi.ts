import { z } from 'zod';

import type { Capability } from '../http/capability.js';
import { ASYNC_CAP } from '../http/endpoint.js';
import type { OpenApiOperation, ServicePlugin } from '../http/plugin.js';

const errorBody = {
  type: 'object',
  required: ['ok', 'code', 'message'],
  properties: { ok: { const: false }, code: { type: 'string' }, message: { type: 'string' }, details: {} },
};

function jsonSchema(schema: z.ZodType<unknown>, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
}

/** What every result carries besides its capability's fields. */
const commonResult = z.object({
  ok: z.boolean().optional(),
  id: z.unknown().optional(),
  outcome: z.array(z.string()).describe('codes: conditions, then MODIFIED and the changed fields; Italian codes with language it'),
  outcome_label: z.enum(['ok', 'modified', 'warning', 'error']),
  reason: z.string().describe('one line, in the request language'),
});

/** The `credit` object of every consuming response. */
const bucket = z.object({ operations: z.number(), remaining: z.number() });
const creditCharge = z.object({
  counter: z.enum(['contact', 'dedupe', 'light']),
  charged: z.number(),
  free: bucket,
  subscription: bucket,
  packs: bucket,
  available: z.number(),
  auto_topup: z.number().describe('packs bought automatically for this call'),
  note: z.string().nullable().describe('what auto top-up did, in the request language'),
});

/** OpenAPI 3.1, generated from the same zod schemas that validate the requests. */
export function openApiDocument(plugins: readonly ServicePlugin[]): Record<string, unknown> {
  const capabilities: Capability<unknown>[] = plugins.flatMap((p) => (p.capability ? [p.capability] : []));
  const extra: OpenApiOperation[] = plugins.flatMap((p) => p.openapi ?? []);
  const paths: Record<string, unknown> = {};
  const errors = Object.fromEntries(
    ['400', '401', '402', '403', '404', '405', '413', '429', '500'].map((s) => [s, { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );
  const schemas: Record<string, unknown> = { Error: errorBody, Credit: jsonSchema(creditCharge, 'output') };
  for (const cap of capabilities) {
    const name = cap.name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
    schemas[`${name}Item`] = jsonSchema(cap.item as z.ZodType<unknown>);
    const item = { $ref: `#/components/schemas/${name}Item` };
    const fields = cap.result instanceof z.ZodObject ? cap.result.shape : {};
    schemas[`${name}Result`] = jsonSchema(commonResult.extend(fields), 'output');
    const result = { $ref: `#/components/schemas/${name}Result` };
    const credit = { $ref: '#/components/schemas/Credit' };
    const answered = {
      description: 'one result with `credit`; `{count, results: [{id, result}], credit}` for a batch; `{ok, job, state, rows, credit}` when queued',
      content: {
        'application/json': {
          schema: {
            oneOf: [
              { allOf: [result, { type: 'object', properties: { credit } }] },
              { type: 'object', properties: { count: { type: 'integer' }, results: { type: 'array', items: { type: 'object', properties: { id: {}, result } } }, credit } },
              { type: 'object', properties: { ok: { type: 'boolean' }, job: { type: 'string' }, state: { type: 'string' }, rows: { type: 'integer' }, credit } },
            ],
          },
        },
      },
    };
    const post = {
      summary: `${cap.name}: one item, a batch of up to ${cap.batchCap}, or an asynchronous job of up to ${ASYNC_CAP}`,
      security: [{ bearer: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              oneOf: [
                item,
                { type: 'object', required: ['items'], properties: { items: { type: 'array', items: item, maxItems: cap.batchCap }, language: { type: 'string' } } },
                { type: 'object', required: ['items', 'async'], properties: { async: { const: true }, items: { type: 'array', items: item, maxItems: ASYNC_CAP } } },
              ],
            },
          },
        },
      },
      responses: { '200': answered, ...errors },
    };
    const get = {
      summary: `read an asynchronous ${cap.name} job`,
      security: [{ bearer: [] }],
      parameters: [
        { name: 'job', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'format', in: 'query', required: false, schema: { enum: ['json', 'csv'] } },
      ],
      responses: { '200': { description: 'job state and results' }, ...errors },
    };
    for (const path of cap.paths) paths[path] = { post, get, delete: { ...get, summary: `cancel an asynchronous ${cap.name} job` } };
  }
  for (const op of extra) {
    schemas[op.schemaName] = jsonSchema(op.request);
    const post = {
      summary: op.summary,
      security: [{ bearer: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.schemaName}` } } } },
      responses: { '200': { description: 'result' }, ...errors },
    };
    const get = {
      summary: 'read a saved job',
      security: [{ bearer: [] }],
      parameters: [{ name: 'job', in: 'query', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'saved job' }, ...errors },
    };
    for (const path of op.paths) paths[path] = op.jobRead ? { post, get } : { post };
  }
  paths['/api/v1/countries'] = { get: { summary: 'ISO 3166-1 catalogue', security: [{ bearer: [] }], parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'countries' }, ...errors } } };
  paths['/api/v1/credit'] = { get: { summary: 'counters report; consumes nothing', security: [{ bearer: [] }], responses: { '200': { description: 'report' }, ...errors } } };
  paths['/api/v1/'] = { get: { summary: 'public index', responses: { '200': { description: 'index' } } } };
  return {
    openapi: '3.1.0',
    info: { title: 'recapito', version: 'v1', description: 'Address and contact verification. Italian keys and values are accepted on input everywhere.' },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas },
    paths,
  };
}
