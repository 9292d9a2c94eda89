/**
 * Accuracy of contact verification on real addresses drawn from the register (streets of all Italy,
 * and house numbers of Alessandria, Bologna, Milano, Lamezia Terme), written the way people write
 * them. For each kind of perturbation: how often the right street comes back, how often the
 * service abstains (STREET_NOT_FOUND, STREET_AMBIGUOUS, …), and how often it answers OK/MODIFIED
 * with a street that is not the real one — the number that must stay near zero.
 * Run: npm run build:ts && node dist/bench/contact-eval.js [addresses]
 */
import { computeJson } from '../src/native.js';
import { contactBenchDataDir } from './contact-register.js';

export interface Sampled {
  cadastral_code: string;
  city: string;
  province: string;
  postcode: string;
  street_type: string;
  name: string;
  number: string | null;
  street_id: number;
  address_key: string;
  complete_numbers: boolean;
}

interface Input {
  address: string;
  postcode: string;
  city: string;
  province: string;
}

interface Result {
  outcome: string[];
  address_key: string;
  territory: { street_id?: string } | null;
  geo: { precision: string } | null;
}

const ABSTAIN = new Set([
  'STREET_NOT_FOUND',
  'STREET_AMBIGUOUS',
  'STREET_TYPE_MISSING',
  'CITY_NOT_FOUND',
  'CITY_AMBIGUOUS',
  'INCOMPLETE_DATA',
  'LOCALITY_WITHOUT_STREET',
]);

/** Deterministic pseudo-random numbers, so two runs perturb alike. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const TYPE_SHORT: Record<string, string> = {
  VIA: 'V.', PIAZZA: 'P.zza', VIALE: 'V.le', CORSO: 'C.so', LARGO: 'L.go', PIAZZALE: 'P.le', VICOLO: 'Vic.',
  LOCALITA: 'Loc.', FRAZIONE: 'Fraz.', STRADA: 'Str.', CONTRADA: 'C.da', TRAVERSA: 'Trav.', PIAZZETTA: 'P.tta',
};
const WORD_SHORT: Record<string, string> = { SAN: 'S.', SANTA: 'S.', SANTO: 'S.', GENERALE: 'Gen.', DOTTOR: 'Dott.', PROFESSOR: 'Prof.', FRATELLI: 'F.lli' };

/** How people type the register's capitals: `Via Giuseppe Garibaldi`. */
function titled(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|[\s'(-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    .replace(/\b(Di|Del|Della|Dei|Degli|Delle|De|Da|E)\b/g, (w) => w.toLowerCase());
}

function typo(word: string, r: () => number): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(r() * (word.length - 2));
  const op = Math.floor(r() * 3);
  if (op === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (op === 1) return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2); // transposition
  const letters = 'aeiourtnls';
  const c = letters[Math.floor(r() * letters.length)] ?? 'a';
  return word.slice(0, i) + (c === word[i]?.toLowerCase() ? 'x' : c) + word.slice(i + 1); // substitution
}

function typoInLongest(text: string, r: () => number): string {
  const words = text.split(' ');
  let at = 0;
  words.forEach((w, i) => {
    if (w.length > (words[at] ?? '').length) at = i;
  });
  words[at] = typo(words[at] ?? '', r);
  return words.join(' ');
}

type Perturb = (s: Sampled, r: () => number, other: Sampled) => Input;

function base(s: Sampled): Input {
  const number = s.number ?? String(1 + (s.street_id % 40));
  return {
    address: `${titled(s.street_type)} ${titled(s.name)} ${number}`,
    postcode: s.postcode,
    city: s.city,
    province: s.province,
  };
}

const PERTURBATIONS: Record<string, Perturb> = {
  clean: (s) => base(s),
  abbreviation: (s) => {
    const b = base(s);
    const type = TYPE_SHORT[s.street_type] ?? titled(s.street_type);
    const name = s.name
      .split(' ')
      .map((w) => WORD_SHORT[w] ?? titled(w))
      .join(' ');
    return { ...b, address: `${type} ${name} ${b.address.split(' ').pop()}` };
  },
  typo: (s, r) => {
    const b = base(s);
    const number = b.address.split(' ').pop();
    return { ...b, address: `${titled(s.street_type)} ${typoInLongest(titled(s.name), r)} ${number}` };
  },
  no_postcode: (s) => ({ ...base(s), postcode: '' }),
  wrong_postcode: (s, _r, other) => ({ ...base(s), postcode: other.postcode || '00100' }),
  no_province: (s) => ({ ...base(s), province: '' }),
  word_order: (s) => {
    const b = base(s);
    const words = titled(s.name).split(' ');
    const swapped = words.length >= 2 ? [...words.slice(1), words[0]].join(' ') : words.join(' ');
    return { ...b, address: `${titled(s.street_type)} ${swapped} ${b.address.split(' ').pop()}` };
  },
  lower_case: (s) => {
    const b = base(s);
    return { ...b, address: b.address.toLowerCase(), city: b.city.toLowerCase(), province: b.province.toLowerCase() };
  },
  sub_address: (s) => ({ ...base(s), address: `${base(s).address}, scala B, int. 4` }),
  comma_number: (s) => {
    const b = base(s);
    const parts = b.address.split(' ');
    const number = parts.pop();
    return { ...b, address: `${parts.join(' ')}, ${number}` };
  },
  no_type: (s) => {
    const b = base(s);
    return { ...b, address: `${titled(s.name)} ${b.address.split(' ').pop()}` };
  },
  first_word_dropped: (s) => {
    const b = base(s);
    const words = titled(s.name).split(' ');
    const rest = words.length >= 2 ? words.slice(1).join(' ') : words.join(' ');
    return { ...b, address: `${titled(s.street_type)} ${rest} ${b.address.split(' ').pop()}` };
  },
  accents: (s) => {
    const b = base(s);
    const accented = b.address.replace(/([aeiou])'(\s|$)/gi, (_, v: string, end: string) => `${({ a: 'à', e: 'è', i: 'ì', o: 'ò', u: 'ù' } as Record<string, string>)[v.toLowerCase()] ?? v}${end}`);
    return { ...b, address: accented };
  },
  city_typo: (s, r) => ({ ...base(s), city: typoInLongest(s.city, r) }),
};

function streetOf(result: Result, s: Sampled): 'correct' | 'wrong' | 'abstain' {
  if (result.outcome.some((c) => ABSTAIN.has(c))) return 'abstain';
  if (s.street_id !== 0 && result.territory?.street_id) return result.territory.street_id === String(s.street_id) ? 'correct' : 'wrong';
  // a street only a municipal list has: compare the street part of the keys
  const street = (k: string) => k.split(' ').filter((w) => !/^\d/.test(w)).join(' ');
  return street(result.address_key) === street(s.address_key) ? 'correct' : 'wrong';
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 600);
  await contactBenchDataDir();
  const withNumbers = await computeJson<Sampled[]>('street.sample', {
    cadastral_codes: ['A182', 'A944', 'F205', 'M208'],
    count: Math.round(total / 3),
    seed: 7,
  });
  const italy = await computeJson<Sampled[]>('street.sample', { count: total - withNumbers.length, seed: 11 });
  const groups: [string, Sampled[]][] = [
    ['house-number cities', withNumbers],
    ['all Italy (streets)', italy],
  ];
  const rows: Record<string, string | number>[] = [];
  const wrongExamples: string[] = [];
  for (const [group, sample] of groups) {
    for (const [kind, perturb] of Object.entries(PERTURBATIONS)) {
      const r = rng(kind.length * 7919 + sample.length);
      const inputs = sample.map((s, i) => perturb(s, r, sample[(i + 17) % sample.length] as Sampled));
      const results = await computeJson<Result[]>('contact.verify', { items: inputs, options: {} });
      const tally = { correct: 0, abstain: 0, wrong: 0, house_number: 0 };
      results.forEach((res, i) => {
        const s = sample[i] as Sampled;
        const verdict = streetOf(res, s);
        tally[verdict]++;
        if (verdict === 'correct' && res.geo?.precision === 'house_number') tally.house_number++;
        if (verdict === 'wrong' && wrongExamples.length < 25) {
          wrongExamples.push(`${kind}: "${inputs[i]?.address}" ${s.city} → ${res.address_key} [${res.outcome.join(' ')}] (register: ${s.street_type} ${s.name})`);
        }
      });
      const n = sample.length;
      const pct = (x: number) => `${((100 * x) / n).toFixed(1)}%`;
      rows.push({
        group,
        perturbation: kind,
        n,
        correct: pct(tally.correct),
        abstain: pct(tally.abstain),
        wrong: pct(tally.wrong),
        ...(group.startsWith('house') ? { 'house-number point': pct(tally.house_number) } : {}),
      });
    }
  }
  console.table(rows);
  const all = rows.reduce((a, r) => a + Number(r.n), 0);
  const wrong = rows.reduce((a, r) => a + (Number(String(r.wrong).replace('%', '')) * Number(r.n)) / 100, 0);
  console.log(`wrong-street answers: ${wrong.toFixed(0)} of ${all} (${((100 * wrong) / all).toFixed(2)}%)`);
  if (wrongExamples.length) console.log(`examples of wrong answers:\n  ${wrongExamples.join('\n  ')}`);
}

await main();
