import type { Capability } from './http/capability.js';

/**
 * Every capability served through the shared machinery, by name. Loaded lazily so that a job worker
 * thread imports only the capability it runs.
 */
export const CAPABILITY_MODULES: Record<string, () => Promise<Capability<unknown>>> = {
  phone: async () => (await import('./phone/service.js')).capability as Capability<unknown>,
  contact: async () => (await import('./contact/service.js')).capability as Capability<unknown>,
  email: async () => (await import('./email/service.js')).capability as Capability<unknown>,
  website: async () => (await import('./website/service.js')).capability as Capability<unknown>,
  enrichment: async () => (await import('./enrichment/service.js')).capability as Capability<unknown>,
  'tax-code': async () => (await import('./tax-code/service.js')).capability as Capability<unknown>,
};

export async function loadCapability(name: string): Promise<Capability<unknown>> {
  const load = CAPABILITY_MODULES[name];
  if (!load) throw new Error(`unknown capability ${name}`);
  return load();
}

export async function loadAllCapabilities(): Promise<Capability<unknown>[]> {
  return Promise.all(Object.values(CAPABILITY_MODULES).map((load) => load()));
}
