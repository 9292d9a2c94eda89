import { capabilityPlugin } from '../http/endpoint.js';
import { capability } from './service.js';

/** /api/v1/website and its Italian alias: single, batch and asynchronous calls through the shared machinery. */
export const websitePlugin = capabilityPlugin(capability);
