import type { ServicePlugin } from '../http/plugin.js';
import { SUGGEST_PATHS, suggestRoutes } from './route.js';
import { suggestRequest } from './schema.js';

/** POST /api/v1/suggest: session-based address autocomplete (free), and select (one contact verification per session and street). */
export const suggestPlugin: ServicePlugin = {
  name: 'suggest',
  routes: suggestRoutes,
  counters: { suggest: 'contact' },
  index: [
    {
      method: 'POST',
      path: SUGGEST_PATHS[0],
      italian_path: SUGGEST_PATHS[1],
      purpose: 'address autocomplete in a session: streets, then house numbers of the selected street; select verifies the address (one contact verification per session and street)',
    },
  ],
  openapi: [{ paths: SUGGEST_PATHS, summary: 'address autocomplete in a session (suggest), or select and verify', schemaName: 'SuggestRequest', request: suggestRequest }],
};
