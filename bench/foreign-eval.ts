/**
 * Accuracy of foreign-register verification on real addresses of each imported register, written
 * the way people write them, per country and per kind of perturbation: how often the right street,
 * number and postcode come back (and the point within 150 m where the register has points), how
 * often the service abstains (STREET_NOT_FOUND, STREET_AMBIGUOUS, or left to the postal form), and
 * how often it answers with a wrong street, number or postcode — the figure that must stay at zero.
 * Rows are split by position: even rows were looked at while building the matcher (dev), odd rows
 * never were (held-out); both are printed. Then the in-process batch speed.
 * Run: npm run build:ts && node dist/bench/foreign-eval.js [rows per country and kind]
 */
import { useForeignRegisters, verifyForeign, type ContactResult } from '../src/native.js';
import { metres, rng, SAMPLERS, type TruthAddress } from './foreign-data.js';

interface Input {
  address: string;
  postcode: string;
  city: string;
  country_code: string;
}

type Result = ContactResult;

export type Verdict = 'right' | 'abstained' | 'wrong';

const ABSTAIN = ['STREET_NOT_FOUND', 'STREET_AMBIGUOUS'];

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** How the country writes a line: number first in Luxembourg, after the street elsewhere. */
export function line(t: TruthAddress, numberFirst = t.country === 'LU'): string {
  return numberFirst ? `${t.number}, ${t.street}` : `${t.street} ${t.number}`;
}

const ABBREVIATIONS: Record<string, [RegExp, string][]> = {
  LU: [[/^Rue\b/, 'R.'], [/^Avenue\b/, 'Av.'], [/^Boulevard\b/, 'Bd'], [/^Route\b/, 'Rte'], [/^Place\b/, 'Pl.'], [/^Chemin\b/, 'Ch.']],
  CH: [[/strasse$/, 'str.'], [/Strasse$/, 'Str.'], [/platz$/, 'pl.'], [/gasse$/, 'g.']],
  DE: [[/Str\.$/, 'Straße'], [/str\.$/, 'straße'], [/Straße$/, 'Str.'], [/straße$/, 'str.'], [/platz$/, 'pl.'], [/weg$/, 'w.']],
  DK: [[/vej$/, 'v.'], [/Vej$/, 'V.'], [/Allé$/, 'Alle']],
  NO: [[/veien$/, 'vn.'], [/vei$/, 'v.'], [/gata$/, 'gt.'], [/gate$/, 'gt.']],
};

const SUB_ADDRESS: Record<string, string> = { LU: 'app. 3', CH: '3. OG', DE: '2. OG links', DK: '2. th', NO: 'H0101' };

function typo(street: string, r: () => number): string | null {
  const words = street.split(' ');
  const i = words.reduce((best, w, k) => (w.length > (words[best]?.length ?? 0) ? k : best), 0);
  const w = words[i] ?? '';
  if (w.length < 6) return null;
  const at = 1 + Math.floor(r() * (w.length - 2));
  const kind = Math.floor(r() * 3);
  const changed =
    kind === 0 ? w.slice(0, at) + w.slice(at + 1) : kind === 1 ? w.slice(0, at) + (w[at + 1] ?? '') + (w[at] ?? '') + w.slice(at + 2) : w.slice(0, at) + (w[at] ?? '') + w.slice(at);
  words[i] = changed;
  return words.join(' ');
}

/** One perturbation of a real address: the record as a customer would send it, or null where it does not apply. */
export function perturb(kind: string, t: TruthAddress, r: () => number, postcodes: string[]): Input | null {
  const base: Input = { address: line(t), postcode: t.postcode, city: t.city, country_code: t.country };
  switch (kind) {
    case 'exact':
      return base;
    case 'no_postcode':
      return t.postcode ? { ...base, postcode: '' } : null;
    case 'wrong_postcode': {
      const other = postcodes.filter((p) => p !== t.postcode);
      if (!t.postcode || other.length === 0) return null;
      return { ...base, postcode: other[Math.floor(r() * other.length)] ?? '' };
    }
    case 'typo': {
      const s = typo(t.street, r);
      return s ? { ...base, address: line({ ...t, street: s }) } : null;
    }
    case 'abbreviation': {
      for (const [re, short] of ABBREVIATIONS[t.country] ?? []) {
        if (re.test(t.street)) return { ...base, address: line({ ...t, street: t.street.replace(re, short) }) };
      }
      return null;
    }
    case 'accents_case':
      return { ...base, address: fold(line(t)).toLowerCase(), city: fold(t.city).toLowerCase() };
    case 'word_order': {
      const w = t.street.split(' ');
      if (w.length < 3) return null;
      const last = w.pop() as string;
      const prev = w.pop() as string;
      return { ...base, address: line({ ...t, street: [...w, last, prev].join(' ') }) };
    }
    case 'sub_address':
      return { ...base, address: `${line(t)}, ${SUB_ADDRESS[t.country] ?? 'Apt 2'}` };
    case 'number_side':
      return { ...base, address: line(t, t.country !== 'LU') };
    case 'postcode_in_line':
      return t.postcode ? { ...base, address: `${line(t)}, ${t.country === 'LU' ? 'L-' : ''}${t.postcode} ${t.city}`, postcode: '', city: '' } : null;
    default:
      return null;
  }
}

export const KINDS = ['exact', 'no_postcode', 'wrong_postcode', 'typo', 'abbreviation', 'accents_case', 'word_order', 'sub_address', 'number_side', 'postcode_in_line', 'not_in_register'];

/** right: street, number and postcode as the register has them (and the point within 150 m). */
export function judge(t: TruthAddress | null, res: Result | null): Verdict {
  if (!res || res.outcome.some((c) => ABSTAIN.includes(c))) return 'abstained';
  if (!t) return 'wrong'; // a street answered for a name that is not in the register
  // the register's line (`14, Rue X` / `Street 12a`) opens the answer; a sub-address may follow
  const got = fold(res.normalized.address).toLowerCase();
  const want = fold(line(t)).toLowerCase();
  if (!got.startsWith(want) || (got.length > want.length && got[want.length] !== ' ')) {
    const streetOk = fold(got).includes(fold(t.street));
    if (!streetOk) return 'wrong';
    if (res.outcome.includes('HOUSE_NUMBER_NOT_FOUND') || res.outcome.includes('HOUSE_NUMBER_MISSING')) return 'abstained';
    return 'wrong';
  }
  if (t.postcode && res.normalized.postcode.replace(/\s/g, '') !== t.postcode) return 'wrong';
  if (t.lat !== undefined && t.lon !== undefined) {
    if (!res.geo || metres(t.lat, t.lon, res.geo.lat, res.geo.lon) > 150) return 'wrong';
  }
  return 'right';
}

/** `Schloßstr.` and `Schlossstrasse` are one name: the generator of strangers must know it. */
function canonical(street: string): string {
  return fold(street).replace(/STR$/, 'STRASSE').replace(/ /g, '');
}

/** A name that is no street of the city: a real street of another register's country. */
function stranger(t: TruthAddress, others: TruthAddress[], known: Set<string>, r: () => number): Input | null {
  for (let k = 0; k < 5; k++) {
    const o = others[Math.floor(r() * others.length)];
    if (o && !known.has(canonical(o.street))) return { address: line({ ...t, street: o.street }), postcode: t.postcode, city: t.city, country_code: t.country };
  }
  return null;
}

interface Cell {
  right: number;
  abstained: number;
  wrong: number;
}

export async function evaluate(perKind: number): Promise<Map<string, Map<string, [Cell, Cell]>>> {
  useForeignRegisters();
  const table = new Map<string, Map<string, [Cell, Cell]>>();
  const all = Object.fromEntries(Object.entries(SAMPLERS).map(([cc, f]) => [cc, f()]));
  for (const [cc, rows] of Object.entries(all)) {
    const postcodes = [...new Set(rows.map((t) => t.postcode).filter(Boolean))];
    const known = new Set(Object.values(all).flatMap((v) => v.filter((t) => t.country === cc).map((t) => canonical(t.street))));
    const others = Object.entries(all).filter(([k]) => k !== cc).flatMap(([, v]) => v);
    const perCountry = new Map<string, [Cell, Cell]>();
    for (const kind of KINDS) {
      const cells: [Cell, Cell] = [{ right: 0, abstained: 0, wrong: 0 }, { right: 0, abstained: 0, wrong: 0 }];
      for (const split of [0, 1]) {
        const r = rng(7 + split * 1000 + KINDS.indexOf(kind));
        const items: Input[] = [];
        const truths: (TruthAddress | null)[] = [];
        for (let tries = 0; items.length < perKind && tries < perKind * 20; tries++) {
          const idx = Math.floor(r() * (rows.length / 2)) * 2 + split;
          const t = rows[idx];
          if (!t) continue;
          const input = kind === 'not_in_register' ? stranger(t, others, known, r) : perturb(kind, t, r, postcodes);
          if (!input) continue;
          items.push(input);
          truths.push(kind === 'not_in_register' ? null : t);
        }
        const out = await verifyForeign({ items });
        out.forEach((res, i) => {
          const v = judge(truths[i] ?? null, res);
          cells[split as 0 | 1][v]++;
          // FOREIGN_EVAL_SHOW=wrong (or abstained): the cases behind the figures, for reading
          if (process.env.FOREIGN_EVAL_SHOW === v) {
            console.log(cc, kind, split === 0 ? 'dev' : 'held-out', v, JSON.stringify(items[i]), '->', res ? `${res.normalized.address} | ${res.normalized.postcode} | ${res.outcome.join(' ')}` : 'null', '| truth', truths[i] ? line(truths[i] as TruthAddress) + ' ' + (truths[i] as TruthAddress).postcode : '-');
          }
        });
      }
      perCountry.set(kind, cells);
    }
    table.set(cc, perCountry);
  }
  return table;
}

function pct(c: Cell): string {
  const n = c.right + c.abstained + c.wrong;
  if (n === 0) return '   —   ';
  return `${((100 * c.right) / n).toFixed(1).padStart(5)}/${((100 * c.abstained) / n).toFixed(1)}/${c.wrong}`;
}

async function speed(n: number): Promise<number> {
  const rows = [...SAMPLERS.LU!().slice(0, n / 2), ...SAMPLERS.CH!().slice(0, n / 2)];
  const r = rng(42);
  const items = rows.map((t) => perturb(r() < 0.5 ? 'exact' : 'typo', t, r, []) ?? perturb('exact', t, r, [])).filter((i): i is Input => i !== null);
  await verifyForeign({ items: items.slice(0, 100) });
  const t0 = performance.now();
  await verifyForeign({ items });
  return items.length / ((performance.now() - t0) / 1000);
}

async function main(): Promise<void> {
  const perKind = Number(process.argv[2] ?? 200);
  const table = await evaluate(perKind);
  console.log(`foreign registers: right% / abstained% / wrong (count), dev | held-out, ${perKind} rows per cell`);
  console.log(['country', ...KINDS].join('\t'));
  const totals = new Map<string, [Cell, Cell]>();
  for (const [cc, kinds] of table) {
    const cells = KINDS.map((k) => kinds.get(k) as [Cell, Cell]);
    console.log([cc, ...cells.map(([d, h]) => `${pct(d)} | ${pct(h)}`)].join('\t'));
    const sum: [Cell, Cell] = [{ right: 0, abstained: 0, wrong: 0 }, { right: 0, abstained: 0, wrong: 0 }];
    cells.forEach((c, k) => {
      if (KINDS[k] === 'not_in_register') return;
      for (const s of [0, 1] as const) {
        sum[s].right += c[s].right;
        sum[s].abstained += c[s].abstained;
        sum[s].wrong += c[s].wrong;
      }
    });
    totals.set(cc, sum);
  }
  console.log('\nper country, every perturbation but not_in_register (dev | held-out):');
  for (const [cc, [d, h]] of totals) console.log(`${cc}\t${pct(d)} | ${pct(h)}`);
  const rate = await speed(20_000);
  console.log(`\nin-process batch of 20,000 foreign records (LU + CH, half with a typo): ${Math.round(rate).toLocaleString('en')} records/s`);
}

if (process.argv[1]?.endsWith('foreign-eval.js')) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
