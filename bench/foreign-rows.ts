/**
 * The foreign rows of the repo's bench data as the contact capability hands them to the core: the
 * first-tries set (`bench/data/foreign-lines.tsv`, countries written as names read by the service's
 * catalogue through `nativeContact`) and the foreign eval sets (`foreign-eval.ts`'s perturbations of
 * real register rows). Shared by `foreign-answers.ts` (answers unchanged) and `foreign-cost.ts`
 * (instructions per batch), so that both look at the same records.
 */
import { nativeContact } from '../src/contact/service.js';
import type { ContactItem } from '../src/contact/schema.js';
import type { ContactInput } from '../src/native.js';
import { rng, SAMPLERS } from './foreign-data.js';
import { KINDS, perturb } from './foreign-eval.js';
import { rows } from './foreign-first-tries.js';

/** One batch's worth of records of a kind, all verified with the same `foreign` option. */
export interface Group {
  name: string;
  foreign: 'declared' | 'detect';
  items: ContactInput[];
}

/** The first-tries rows by kind: `given` with the country field, `detect`/`named`/`italian` under `foreign: detect`. */
export function firstTries(): Group[] {
  const byKind = new Map<string, Group>();
  for (const r of rows()) {
    const foreign = r.country ? 'declared' : 'detect';
    const item = {
      address: r.address,
      ...(r.postcode ? { postcode: r.postcode } : {}),
      ...(r.city ? { city: r.city } : {}),
      ...(r.country ? { country: r.country } : { foreign }),
    } as ContactItem;
    const g = byKind.get(r.kind) ?? { name: `first-tries ${r.kind}`, foreign, items: [] };
    g.items.push(nativeContact(item));
    byKind.set(r.kind, g);
  }
  return [...byKind.values()];
}

/** The eval sets: `perKind` rows of every perturbation the accuracy eval applies, per register country. */
export function evalSets(perKind: number): Group[] {
  const out: Group[] = [];
  for (const [cc, sample] of Object.entries(SAMPLERS)) {
    const truths = sample();
    const postcodes = [...new Set(truths.map((t) => t.postcode).filter(Boolean))];
    const r = rng(11);
    const items: ContactInput[] = [];
    for (const kind of KINDS) {
      for (let i = 0, tries = 0; i < perKind && tries < perKind * 20; tries++) {
        const t = truths[Math.floor(r() * truths.length)];
        const input = t ? perturb(kind, t, r, postcodes) : null;
        if (!input) continue;
        items.push(input);
        i++;
      }
    }
    out.push({ name: `eval ${cc}`, foreign: 'declared', items });
  }
  return out;
}
