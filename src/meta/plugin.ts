import { CREDIT_PATHS, registerCredit } from '../credit/route.js';
import type { ServicePlugin } from '../http/plugin.js';
import { registerInfoSync } from '../native.js';
import { indexHandler } from './index-route.js';
import { openApiDocument } from './openapi.js';

function attributions(): string[] {
  try {
    return registerInfoSync().attributions;
  } catch {
    return [];
  }
}

/** GET /api/v1/credit: the counters report over every plugin's endpoints; consumes nothing. */
export const creditPlugin: ServicePlugin = {
  name: 'credit',
  routes: async (app, { services, counters }) => registerCredit(app, services, { ...counters }),
  counters: {},
  index: [{ method: 'GET', path: CREDIT_PATHS[0] ?? '', italian_path: CREDIT_PATHS[1], purpose: 'counters report; consumes nothing; needs an account token' }],
};

/** GET /api/v1/ (public index) and /api/v1/openapi.json, both describing every plugin of the service. */
export const metaPlugin: ServicePlugin = {
  name: 'meta',
  routes: async (app, { plugins }) => {
    const index = indexHandler(plugins, attributions);
    app.get('/api/v1/', index);
    app.get('/api/v1', index);
    const document = openApiDocument(plugins);
    app.get('/api/v1/openapi.json', async () => document);
  },
  counters: {},
  index: [{ method: 'GET', path: '/api/v1/openapi.json', purpose: 'OpenAPI 3.1 document, generated from the request schemas' }],
};
