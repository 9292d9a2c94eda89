import type { ServicePlugin } from '../http/plugin.js';
import { COUNTRIES_PATHS, countryRoutes } from './route.js';

/** GET /api/v1/countries: the ISO 3166-1 catalogue; consumes nothing. */
export const countriesPlugin: ServicePlugin = {
  name: 'countries',
  routes: countryRoutes,
  counters: {},
  index: [{ method: 'GET', path: `${COUNTRIES_PATHS[0]}[?q=<text>]`, italian_path: COUNTRIES_PATHS[1], purpose: 'ISO 3166-1 catalogue: codes, names in 13 languages and the country’s own' }],
};
