/**
 * The registry: every endpoint of the service, listed once, with what the shared machinery must know about it.
 * src/server.ts registers the plugins in this order (the order of the public index), the job worker
 * (src/jobs/worker.ts) runs a job's units by its kind, and the table of every outcome code and the Italian of
 * every field are built from the entries' tables. src/http/ knows none of the capabilities: it is given what it
 * needs (`useOutcomes` and `useKeys` here, the plugin options at registration), and `npm run lint` /
 * test/layers.test.ts check that it imports none.
 *
 * A new capability adds one entry here (and nothing else outside its folder).
 */
import { CONTACT_KEYS } from './contact/keys.js';
import { CONTACT_OUTCOMES } from './contact/outcomes.js';
import { CREDIT_KEYS } from './credit/keys.js';
import { DEDUPE_KEYS } from './dedupe/keys.js';
import { DEDUPE_OUTCOMES } from './dedupe/outcomes.js';
import { EMAIL_KEYS } from './email/keys.js';
import { EMAIL_OUTCOMES } from './email/outcomes.js';
import { ENRICHMENT_KEYS } from './enrichment/keys.js';
import { ENRICHMENT_OUTCOMES } from './enrichment/outcomes.js';
import type { Capability } from './http/capability.js';
import { useKeys, type KeyTable } from './http/keys.js';
import { outcomeTable, useOutcomes, type OutcomeTable } from './http/outcomes.js';
import type { ServicePlugin } from './http/plugin.js';
import { capabilityUnit, type UnitRunner } from './jobs/units.js';
import { PHONE_KEYS } from './phone/keys.js';
import { PHONE_OUTCOMES } from './phone/outcomes.js';
import { SUGGEST_KEYS } from './suggest/keys.js';
import { TAX_CODE_KEYS } from './tax-code/keys.js';
import { TAX_CODE_OUTCOMES } from './tax-code/outcomes.js';
import { WEBSITE_KEYS } from './website/keys.js';
import { WEBSITE_OUTCOMES } from './website/outcomes.js';

export interface CapabilityEntry {
  /** The endpoint's name; also the job kind of its asynchronous calls. */
  name: string;
  /** Its Fastify plugin, loaded when the server starts (a job worker loads none). */
  plugin: () => Promise<ServicePlugin>;
  /** What a job of this kind runs for one unit in a worker thread, loaded there only: absent where no job exists. */
  job?: () => Promise<UnitRunner>;
  /** The outcome codes its answers carry; absent where it answers none. */
  outcomes?: OutcomeTable;
  /** The Italian of its own fields and values (`src/<capability>/keys.ts`); the shared ones are src/http's. */
  keys?: KeyTable;
}

/** A capability served by the shared machinery (`capabilityPlugin`): its jobs run chunks of items through its `run`. */
function served<Item>(name: string, plugin: () => Promise<ServicePlugin>, service: () => Promise<{ capability: Capability<Item> }>, outcomes: OutcomeTable, keys: KeyTable): CapabilityEntry {
  return { name, plugin, job: async () => capabilityUnit((await service()).capability as Capability<unknown>), outcomes, keys };
}

export const CAPABILITIES: readonly CapabilityEntry[] = [
  served('phone', async () => (await import('./phone/plugin.js')).phonePlugin, () => import('./phone/service.js'), PHONE_OUTCOMES, PHONE_KEYS),
  served('contact', async () => (await import('./contact/plugin.js')).contactPlugin, () => import('./contact/service.js'), CONTACT_OUTCOMES, CONTACT_KEYS),
  served('email', async () => (await import('./email/plugin.js')).emailPlugin, () => import('./email/service.js'), EMAIL_OUTCOMES, EMAIL_KEYS),
  served('website', async () => (await import('./website/plugin.js')).websitePlugin, () => import('./website/service.js'), WEBSITE_OUTCOMES, WEBSITE_KEYS),
  served('enrichment', async () => (await import('./enrichment/plugin.js')).enrichmentPlugin, () => import('./enrichment/service.js'), ENRICHMENT_OUTCOMES, ENRICHMENT_KEYS),
  served('tax-code', async () => (await import('./tax-code/plugin.js')).taxCodePlugin, () => import('./tax-code/service.js'), TAX_CODE_OUTCOMES, TAX_CODE_KEYS),
  { name: 'countries', plugin: async () => (await import('./countries/plugin.js')).countriesPlugin },
  {
    name: 'dedupe',
    plugin: async () => (await import('./dedupe/plugin.js')).dedupePlugin,
    // one unit is the whole list: the core's answer, as JSON text
    job: async () => {
      const { runDedupeUnit } = await import('./dedupe/job.js');
      return (input) => runDedupeUnit(input as string);
    },
    outcomes: DEDUPE_OUTCOMES,
    keys: DEDUPE_KEYS,
  },
  { name: 'suggest', plugin: async () => (await import('./suggest/plugin.js')).suggestPlugin, keys: SUGGEST_KEYS },
  { name: 'credit', plugin: async () => (await import('./meta/plugin.js')).creditPlugin, keys: CREDIT_KEYS },
  { name: 'meta', plugin: async () => (await import('./meta/plugin.js')).metaPlugin },
];

/** Every code the service answers, over every entry's table (a code shared by two capabilities is defined the same in both). */
export const ALL_OUTCOMES: OutcomeTable = outcomeTable(...CAPABILITIES.flatMap((c) => (c.outcomes ? [c.outcomes] : [])));
useOutcomes(ALL_OUTCOMES);
/** The Italian of every field and value: the shared table (src/http/keys.ts) and every entry's. */
useKeys(...CAPABILITIES.flatMap((c) => (c.keys ? [c.keys] : [])));

/** Every plugin, in the registry's order (the order of the public index). */
export function loadPlugins(): Promise<ServicePlugin[]> {
  return Promise.all(CAPABILITIES.map((c) => c.plugin()));
}

/** The unit a job of `kind` runs in a worker thread. */
export async function jobUnits(kind: string): Promise<UnitRunner> {
  const load = CAPABILITIES.find((c) => c.name === kind)?.job;
  if (!load) throw new Error(`unknown job kind ${kind}`);
  return load();
}
