import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import yaml from 'js-yaml';

import { SOURCE } from './source.js';

const LIBADDRESSINPUT = path.join(SOURCE, 'world/formats/libaddressinput/countryinfo.txt');
const OPENCAGE_CASES = path.join(SOURCE, 'world/formats/opencage-address-formatting/testcases/countries');

export const FORMATS_PRESENT = existsSync(LIBADDRESSINPUT);

/** A country record of libaddressinput's countryinfo.txt, as published. */
export interface CountryInfo {
  key: string;
  zip?: string;
  zipex?: string;
  upper?: string;
  postprefix?: string;
  sub_keys?: string;
  sub_names?: string;
}

/** Every country of libaddressinput (not its sub-regions). */
export function countryInfo(): Map<string, CountryInfo> {
  const out = new Map<string, CountryInfo>();
  if (!FORMATS_PRESENT) return out;
  for (const line of readFileSync(LIBADDRESSINPUT, 'utf8').split('\n')) {
    const m = /^data\/([A-Z]{2})=(.*)$/.exec(line);
    if (m) out.set(m[1] as string, JSON.parse(m[2] as string) as CountryInfo);
  }
  return out;
}

/** One OpenCage test case: components and the expected lines. */
export interface OpenCageCase {
  country: string;
  description: string;
  components: Record<string, string>;
  expected: string;
}

export function openCageCases(): OpenCageCase[] {
  if (!existsSync(OPENCAGE_CASES)) return [];
  const out: OpenCageCase[] = [];
  for (const file of readdirSync(OPENCAGE_CASES).sort()) {
    for (const doc of yaml.loadAll(readFileSync(path.join(OPENCAGE_CASES, file), 'utf8'))) {
      const d = doc as { description?: string; components?: Record<string, unknown>; expected?: string } | null;
      if (!d?.components) continue;
      const components = Object.fromEntries(Object.entries(d.components).filter(([, v]) => typeof v === 'string' || typeof v === 'number').map(([k, v]) => [k, String(v)]));
      out.push({ country: String(components.country_code ?? '').toUpperCase(), description: d.description ?? '', components, expected: d.expected ?? '' });
    }
  }
  return out;
}

/** The address fields a customer would send for an OpenCage case (road and number as one line). */
export function asContact(c: OpenCageCase): { address: string; postcode: string; city: string; province: string } {
  const k = c.components;
  const road = k.road ?? k.street ?? k.pedestrian ?? k.footway ?? '';
  const number = k.house_number ?? '';
  return {
    address: [road, number].filter(Boolean).join(' '),
    postcode: k.postcode ?? '',
    city: k.city ?? k.town ?? k.village ?? k.hamlet ?? '',
    province: k.state ?? '',
  };
}
