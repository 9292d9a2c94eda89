import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { answer } from '../http/context.js';
import type { CountryEntry } from './catalogue.js';
import { searchCountries } from './resolve.js';

export const COUNTRIES_PATHS = ['/api/v1/countries', '/api/v1/nazioni'];

function view(entry: CountryEntry, req: FastifyRequest) {
  return {
    iso2: entry.iso2,
    iso3: entry.iso3,
    numeric: entry.numeric,
    name: entry.names[req.ctx.language],
    short: entry.short,
    long: entry.long,
    names: entry.names,
  };
}

/** GET /api/v1/countries[?q=]: the ISO 3166-1 catalogue; consumes nothing. */
export function registerCountries(app: FastifyInstance): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    const q = typeof query.q === 'string' ? query.q : undefined;
    const countries = searchCountries(q).map((e) => view(e, req));
    return answer(req, reply, { ok: true, count: countries.length, countries });
  };
  for (const path of COUNTRIES_PATHS) app.get(path, handler);
}
