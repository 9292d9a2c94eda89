/**
 * Well-known mail providers a typo is measured against: the international ones every list meets, plus the
 * Italian free-mail and ISP domains of shared/data/contact/email (added at load time).
 */
export const INTERNATIONAL_PROVIDERS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.it', 'ymail.com', 'hotmail.com', 'hotmail.it', 'outlook.com',
  'outlook.it', 'live.com', 'live.it', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'protonmail.com',
  'proton.me', 'gmx.com', 'gmx.net', 'gmx.de', 'web.de', 'mail.com', 'yandex.com', 'zoho.com', 'orange.fr',
  'free.fr', 'wanadoo.fr', 't-online.de',
];

/** Top-level domains mistyped so often that the intended one is clear; any other name keeps only a proposal. */
const TLD_TYPOS: Record<string, string> = {
  con: 'com', cmo: 'com', ocm: 'com', comm: 'com', coom: 'com', vom: 'com', xom: 'com', cpm: 'com', cim: 'com',
  clm: 'com', coml: 'com', om: 'com', nte: 'net', nett: 'net', ent: 'net', ogr: 'org', orgg: 'org', rog: 'org',
  itt: 'it', iit: 'it', ti: 'it', iy: 'it', ut: 'it',
};

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent transpositions), capped at `max + 1`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let before = new Int32Array(width);
  let prev = new Int32Array(width);
  let row = new Int32Array(width);
  for (let j = 0; j < width; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j < width; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, before[j - 2]! + 1);
      }
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length]!;
}

export interface DomainTypo {
  domain: string;
  /** Lands on a well-known provider (one edit, or its name under another TLD): certain when the written domain receives no mail. */
  provider: boolean;
  /** The provider's name under another TLD: a domain that does receive mail is someone's real domain, not a typo. */
  sameName?: boolean;
}

const names = new WeakMap<ReadonlySet<string>, Map<string, string[]>>();

/** Providers by their first label (gmail → gmail.com, googlemail…), in list order. */
function byName(providers: ReadonlySet<string>): Map<string, string[]> {
  let map = names.get(providers);
  if (!map) {
    map = new Map();
    for (const p of providers) {
      const label = p.split('.')[0] ?? p;
      map.set(label, [...(map.get(label) ?? []), p]);
    }
    names.set(providers, map);
  }
  return map;
}

const byLength = new WeakMap<ReadonlySet<string>, Map<number, string[]>>();

/** Providers whose length is within two of `length`. */
function withinTwo(providers: ReadonlySet<string>, length: number): string[] {
  let lengths = byLength.get(providers);
  if (!lengths) {
    lengths = new Map();
    for (const p of providers) {
      for (let l = p.length - 2; l <= p.length + 2; l++) lengths.set(l, [...(lengths.get(l) ?? []), p]);
    }
    byLength.set(providers, lengths);
  }
  return lengths.get(length) ?? [];
}

/** The domain the writer most likely meant, when the written one is not a known provider. */
export function likelyDomain(domain: string, providers: ReadonlySet<string>): DomainTypo | undefined {
  if (providers.has(domain)) return undefined;
  let best: { domain: string; distance: number } | undefined;
  let tie = false;
  // only providers within two characters of its length can be two edits away; the pick below does not depend on
  // the order they are met in (a tie at the best distance is never picked)
  for (const p of withinTwo(providers, domain.length)) {
    const d = editDistance(domain, p, 2);
    if (d > 2) continue;
    if (!best || d < best.distance) {
      best = { domain: p, distance: d };
      tie = false;
    } else if (d === best.distance) tie = true;
  }
  // the provider's own name under another top-level domain (gmail.it, libero.com) lands on that provider, and it
  // beats a one-edit neighbour that is a different provider (gmail.it is not email.it)
  const labels = domain.split('.');
  // only name.tld: mail.company.it is not a misspelt mail.com
  const sameName = labels.length === 2 ? (byName(providers).get(labels[0] ?? '') ?? []) : [];
  if (best && !tie && best.distance === 1 && (sameName.length === 0 || sameName.includes(best.domain))) {
    return { domain: best.domain, provider: true };
  }
  if (sameName[0]) return { domain: sameName[0], provider: true, sameName: true };
  const dot = domain.lastIndexOf('.');
  const tld = TLD_TYPOS[domain.slice(dot + 1)];
  if (dot > 0 && tld) {
    const fixed = `${domain.slice(0, dot)}.${tld}`;
    return { domain: fixed, provider: providers.has(fixed) };
  }
  // two edits from a provider, on a name long enough that two edits are still a small share of it
  if (best && !tie && best.distance === 2 && domain.length >= 9) return { domain: best.domain, provider: false };
  return undefined;
}
