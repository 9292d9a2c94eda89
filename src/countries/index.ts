import type { RouteModule } from '../server.js';
import { COUNTRIES_PATHS, registerCountries } from './route.js';

export async function countryRoutes(): Promise<RouteModule> {
  return {
    endpoints: [{ method: 'GET', path: `${COUNTRIES_PATHS[0]}[?q=<text>]`, italian_path: COUNTRIES_PATHS[1], purpose: 'ISO 3166-1 catalogue: codes, names in 13 languages and the country’s own' }],
    counters: {},
    register: (app) => registerCountries(app),
  };
}
