import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';

import { answer } from '../http/context.js';
import type { CountryEntry } from './catalogue.js';
import { coverage } from './coverage.js';
import { searchCountries } from './resolve.js';

export const COUNTRIES_PATHS = ['/api/v1/countries', '/api/v1/nazioni'];

type Served = Awaited<ReturnType<typeof coverage>>;

function view(entry: CountryEntry, req: FastifyRequest, served: Served) {
  const s = served.get(entry.iso2);
  return {
    iso2: entry.iso2,
    iso3: entry.iso3,
    numeric: entry.numeric,
    name: entry.names[req.ctx.language],
    short: entry.short,
    long: entry.long,
    names: entry.names,
    // what /contact does for an address of this country (the spec calls the catalogue authoritative)
    verification: s?.verification ?? 'postal_form',
    register: s?.register ?? null,
    postcode_format: s?.postal ? { checked: s.postal.postcode_pattern, example: s.postal.postcode_example } : null,
  };
}

/** GET /api/v1/countries[?q=]: the ISO 3166-1 catalogue; consumes nothing. */
export const countryRoutes: FastifyPluginAsync = async (app) => {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    const q = typeof query.q === 'string' ? query.q : undefined;
    const served = await coverage();
    const countries = searchCountries(q).map((e) => view(e, req, served));
    // consumes nothing and charges no counter: `outcome` empty, no `credit` (spec: every response carries `outcome`)
    return answer(req, reply, { ok: true, count: countries.length, countries, outcome: [] });
  };
  for (const path of COUNTRIES_PATHS) app.get(path, handler);
};
