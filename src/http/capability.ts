import type { z } from 'zod';

import type { Language } from './language.js';
import type { OutcomeLabel, OutcomeTable } from './outcomes.js';
import type { ResultText } from './result-text.js';

export type Counter = 'contact' | 'dedupe' | 'light';

/** What a capability's `run` knows about the call it serves. */
export interface ProcessContext {
  language: Language;
  dataDir: string;
  /** Tests only: lets website/email checks reach 127.0.0.1 (SSRF guard off). */
  allowPrivateNetwork: boolean;
  /** Tests only: DNS server to use instead of the system's, as `host:port`. */
  dnsServer?: string;
}

/** One item's answer. English keys; the framework adds outcome_label/reason when absent and maps keys for Italian. */
export interface ItemResult {
  ok?: boolean;
  outcome: string[];
  outcome_label?: OutcomeLabel;
  reason?: string;
  [field: string]: unknown;
}

/**
 * A capability declares what it verifies; the shared machinery (`capabilityPlugin` in src/http/endpoint.ts)
 * turns it into a Fastify plugin with the single / batch / async routes, Italian keys, languages, rate limits, credits and jobs.
 */
export interface Capability<Item = unknown> {
  /** Also the job kind and the name in the credit report's endpoint map: 'tax-code'. */
  name: string;
  /** English path first, then the Italian alias: ['/api/v1/tax-code', '/api/v1/codicefiscale']. */
  paths: string[];
  counter: Counter;
  /** The outcome codes its results can carry (`outcomeTable(...)`): labels and reasons are read from it. */
  outcomes: OutcomeTable;
  /** Items per synchronous call (spec's Limits). */
  batchCap: number;
  asyncAllowed: boolean;
  /** One item, English keys (Italian keys and option values are mapped before validation). */
  item: z.ZodType<Item>;
  /** Top-level fields of a batch call copied into every item that lacks them (e.g. action, dns, format). */
  batchOptions?: string[];
  /** Billing units of an item, known before processing (phone: numbers in the field). 0 = free. */
  units(item: Item): number;
  /**
   * `run` answers new result objects on every call, held by nothing else (no memo): a single call's
   * answer is then completed in its result rather than in a copy of it (one object fewer per call).
   */
  freshResults?: boolean;
  /**
   * The one way into the capability, for a single call, a synchronous batch, a job's chunk and another route
   * (suggest): one answer per item, same order; must not throw for bad data in one item. Objects by default;
   * with `'text'` (a synchronous call's answer), a result may come as finished JSON text where the capability's
   * core writes it (`textAnswers`, src/http/result-text.ts), so that it is not parsed into objects and written out again.
   */
  run(items: Item[], ctx: ProcessContext): Promise<ItemResult[]>;
  run(items: Item[], ctx: ProcessContext, form: 'text'): Promise<(ItemResult | ResultText)[]>;
  /** `run(…, 'text')` may answer text: a synchronous batch's answer is then written as text (`sendBatchText`). */
  textAnswers?: boolean;
  /** Columns of `GET ?job=&format=csv`, English names (Italian with language it). */
  csvColumns: string[];
  /** The fields of one result, for the OpenAPI document only (answers are not validated against it). */
  result?: z.ZodType<unknown>;
}
