import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

import type { Capability } from '../http/capability.js';
import { ASYNC_CAP } from '../http/endpoint.js';

const errorBody = {
  type: 'object',
  required: ['ok', 'code', 'message'],
  properties: { ok: { const: false }, code: { type: 'string' }, message: { type: 'string' }, details: {} },
};

function jsonSchema(schema: z.ZodType<unknown>): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** An endpoint outside the generic capabilities (dedupe, suggest), described by its own request schema. */
export interface ExtraOperation {
  paths: readonly string[];
  summary: string;
  schemaName: string;
  request: z.ZodType<unknown>;
  /** Also readable by GET ?job= (dedupe). */
  jobRead?: boolean;
}

/** OpenAPI 3.1, generated from the same zod schemas that validate the requests. */
export function openApiDocument(capabilities: Capability<unknown>[], extra: ExtraOperation[] = []): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const errors = Object.fromEntries(
    ['400', '401', '402', '403', '404', '405', '413', '429', '500'].map((s) => [s, { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
  );
  const schemas: Record<string, unknown> = { Error: errorBody };
  for (const cap of capabilities) {
    const name = cap.name.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
    schemas[`${name}Item`] = jsonSchema(cap.item as z.ZodType<unknown>);
    const item = { $ref: `#/components/schemas/${name}Item` };
    if (cap.result) schemas[`${name}Result`] = jsonSchema(cap.result);
    const result = { $ref: `#/components/schemas/${name}Result` };
    const answer = cap.result
      ? {
          content: {
            'application/json': {
              schema: { oneOf: [result, { type: 'object', required: ['results'], properties: { count: { type: 'integer' }, results: { type: 'array', items: result } } }, { type: 'object', required: ['job'] }] },
            },
          },
        }
      : {};
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
      responses: { '200': { description: 'result, {count, results}, or {ok, job, state, rows}', ...answer }, ...errors },
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

export function registerOpenApi(app: FastifyInstance, capabilities: Capability<unknown>[], extra: ExtraOperation[] = []): void {
  const doc = openApiDocument(capabilities, extra);
  app.get('/api/v1/openapi.json', async () => doc);
}
