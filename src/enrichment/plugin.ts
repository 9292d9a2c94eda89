import { capabilityPlugin } from '../http/endpoint.js';
import { capability } from './service.js';

/** /api/v1/enrichment and its Italian alias: single, batch and asynchronous calls through the shared machinery. */
export const enrichmentPlugin = capabilityPlugin(capability);
