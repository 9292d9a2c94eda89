import { capabilityPlugin } from '../http/endpoint.js';
import type { ServicePlugin } from '../http/plugin.js';
import { contactData } from '../import/contact-store.js';
import { capability } from './service.js';

const served = capabilityPlugin(capability);

/** /api/v1/phone and its Italian alias: single, batch and asynchronous calls through the shared machinery. */
export const phonePlugin: ServicePlugin = {
  ...served,
  routes: async (app, options) => {
    // the districts, operators and special numbers are read when the server starts, not by the first call (which
    // would otherwise wait for the whole contact dictionary to load)
    contactData(options.services.config.dataDir);
    await served.routes.call(app, app, options);
  },
};
