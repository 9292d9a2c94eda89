import { capabilityPlugin } from '../http/endpoint.js';
import { capability } from './service.js';

/** /api/v1/email: single, batch and asynchronous calls through the shared machinery. */
export const emailPlugin = capabilityPlugin(capability);
