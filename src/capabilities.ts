import type { Capability } from './http/capability.js';

/**
 * A job's kind → its capability, for the job worker threads (src/jobs/worker.ts): loaded lazily so that a
 * worker imports only the capability it runs. Endpoints are registered elsewhere, as plugins (src/server.ts).
 */
const JOB_KINDS: Record<string, () => Promise<Capability<unknown>>> = {
  phone: async () => (await import('./phone/service.js')).capability as Capability<unknown>,
  contact: async () => (await import('./contact/service.js')).capability as Capability<unknown>,
  email: async () => (await import('./email/service.js')).capability as Capability<unknown>,
  website: async () => (await import('./website/service.js')).capability as Capability<unknown>,
  enrichment: async () => (await import('./enrichment/service.js')).capability as Capability<unknown>,
  'tax-code': async () => (await import('./tax-code/service.js')).capability as Capability<unknown>,
};

export async function loadCapability(name: string): Promise<Capability<unknown>> {
  const load = JOB_KINDS[name];
  if (!load) throw new Error(`unknown capability ${name}`);
  return load();
}
