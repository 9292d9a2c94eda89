/**
 * Accuracy of contact verification on real addresses drawn from the register (real house numbers
 * of Alessandria, Bologna, Milano, Lamezia Terme; streets of all Italy), written the ways customer
 * files write them (`contact-perturb.ts`). For each kind: how often the answer is right, how often
 * the service abstains (STREET_NOT_FOUND, STREET_AMBIGUOUS, …), and how often it answers a street
 * that is not the real one — the number that must stay at zero.
 *
 * Right, in the house-number cities: the street, the house number, the postcode (where the register
 * knows it), the ISTAT code, and the point within 150 m of the number's. Across Italy (no numbers):
 * the street and the ISTAT code.
 *
 * Two draws of the four cities: `tune` (seed 7), the one the matching was tuned on, and `held-out`
 * (seed 4242), drawn apart and only measured.
 * Run: npm run build:ts && node dist/bench/contact-eval.js [addresses per group] [--examples] [--kind=a,b]
 */
import { verifyContacts, type ContactResult } from '../src/native.js';
import { sampleStreets } from './bench-doors.js';
import { contactBenchDataDir } from './contact-register.js';
import { PERTURBATIONS, type Sampled, rng } from './contact-perturb.js';

export type { Sampled } from './contact-perturb.js';

type Result = ContactResult;

const ABSTAIN = new Set([
  'STREET_NOT_FOUND',
  'STREET_AMBIGUOUS',
  'STREET_TYPE_MISSING',
  'CITY_NOT_FOUND',
  'CITY_AMBIGUOUS',
  'INCOMPLETE_DATA',
  'LOCALITY_WITHOUT_STREET',
]);

function metres(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const rad = Math.PI / 180;
  const x = (bLon - aLon) * rad * Math.cos(((aLat + bLat) / 2) * rad);
  const y = (bLat - aLat) * rad;
  return Math.sqrt(x * x + y * y) * 6_371_000;
}

/** The street part of a key or of a written line: upper case, no accents or apostrophes, no numbers. */
const streetPart = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’.,]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^\d/.test(w))
    .join(' ');

/**
 * `other street` is not a wrong answer: the perturbation wrote, word for word, another street of the same
 * municipality that the register has (`Viale Salvemini` for Via Salvemini where both exist), and the engine
 * answered that street unchanged (no street correction in the outcome). That input is another real address,
 * not a dirty copy of the drawn one; it is counted apart and left out of right/abstained/wrong.
 */
function streetOf(result: Result, s: Sampled, written: string): 'right' | 'wrong' | 'abstain' | 'other street' {
  if (result.outcome.some((c) => ABSTAIN.has(c))) return 'abstain';
  const verdict = s.street_id !== 0 && result.territory?.street_id ? (result.territory.street_id === String(s.street_id) ? 'right' : 'wrong') : streetPart(result.address_key) === streetPart(s.address_key) ? 'right' : 'wrong';
  if (verdict === 'wrong' && !result.outcome.includes('MODIFIED') && streetPart(result.address_key) === streetPart(written)) return 'other street';
  return verdict;
}

/** What else is wrong when the street is right: number, postcode, ISTAT code, point. */
function fieldsWrong(res: Result, s: Sampled, numbers: boolean): string[] {
  const out: string[] = [];
  if (res.territory?.istat_code !== s.istat_code) out.push('istat');
  if (!numbers) return out;
  if (res.address_key !== s.address_key) out.push('number');
  if (s.postcode && res.normalized.postcode !== s.postcode) out.push('postcode');
  if (s.lat !== null && s.lon !== null) {
    if (!res.geo || metres(res.geo.lat, res.geo.lon, s.lat, s.lon) > 150) out.push('point');
  }
  return out;
}

interface Tally {
  right: number;
  abstain: number;
  wrong: number;
  fields: number;
  other: number;
}

async function main(): Promise<void> {
  const perGroup = Number(process.argv[2] ?? 300);
  const showExamples = process.argv.includes('--examples');
  const only = process.argv.find((a) => a.startsWith('--kind='))?.slice(7);
  await contactBenchDataDir();
  const cities = ['A182', 'A944', 'F205', 'M208'];
  // in the four cities, real house numbers only (streets the register lists without numbers are left out)
  const draw = async (seed: number, codes: string[]) => {
    const drawn = await sampleStreets({ cadastral_codes: codes, count: perGroup * 3, seed });
    return drawn.filter((s) => codes.length === 0 || s.number !== null).slice(0, perGroup);
  };
  const groups: [string, Sampled[], boolean][] = [
    ['four cities · tune', await draw(7, cities), true],
    ['four cities · held-out', await draw(4242, cities), true],
    ['all Italy (streets)', await draw(11, []), false],
  ];
  const rows: Record<string, string | number>[] = [];
  const examples: string[] = [];
  const totals = new Map<string, Tally>();
  for (const [group, sample, numbers] of groups) {
    const total: Tally = { right: 0, abstain: 0, wrong: 0, fields: 0, other: 0 };
    for (const [kind, perturb] of Object.entries(PERTURBATIONS)) {
      if (only && !only.split(',').includes(kind)) continue;
      const r = rng(kind.length * 7919 + sample.length + (group.includes('held') ? 1 : 0));
      const inputs = sample.map((s, i) => perturb(s, r, sample[(i + 17) % sample.length] as Sampled, i));
      const results = await verifyContacts({ items: inputs, options: {} });
      const tally: Tally = { right: 0, abstain: 0, wrong: 0, fields: 0, other: 0 };
      results.forEach((res, i) => {
        const s = sample[i] as Sampled;
        const verdict = streetOf(res, s, inputs[i]?.address ?? '');
        if (verdict === 'other street') {
          tally.other++;
          examples.push(`[${group}] ${kind} other real street written: "${inputs[i]?.address}" | ${inputs[i]?.city} → ${res.address_key} [${res.outcome.join(' ')}] (drawn: ${s.street_type} ${s.name} ${s.number ?? ''})`);
          return;
        }
        const wrongFields = verdict === 'right' ? fieldsWrong(res, s, numbers) : [];
        if (verdict === 'right' && wrongFields.length) tally.fields++;
        else tally[verdict]++;
        const why = verdict === 'wrong' ? 'WRONG STREET' : wrongFields.length ? `wrong ${wrongFields.join('+')}` : verdict === 'abstain' ? 'abstained' : '';
        if (why && (showExamples ? examples.length < 400 : verdict === 'wrong' && examples.length < 40)) {
          examples.push(`[${group}] ${kind} ${why}: "${inputs[i]?.address}" | ${inputs[i]?.postcode} | ${inputs[i]?.city} | ${inputs[i]?.province} → ${res.address_key} ${res.normalized.postcode} [${res.outcome.join(' ')}] (register: ${s.street_type} ${s.name} ${s.number ?? ''} ${s.postcode})`);
        }
      });
      const n = sample.length - tally.other;
      const pct = (x: number) => `${((100 * x) / n).toFixed(1)}%`;
      rows.push({ group, kind, n, right: pct(tally.right), abstained: pct(tally.abstain), 'wrong street': pct(tally.wrong), 'street right, other field wrong': pct(tally.fields), 'other real street written': tally.other });
      for (const k of ['right', 'abstain', 'wrong', 'fields', 'other'] as const) total[k] += tally[k];
    }
    totals.set(group, total);
  }
  console.table(rows);
  const summary = [...totals].map(([group, t]) => {
    const n = t.right + t.abstain + t.wrong + t.fields;
    const pct = (x: number) => `${((100 * x) / n).toFixed(2)}%`;
    return { group, n, right: pct(t.right), abstained: pct(t.abstain), 'wrong street': `${t.wrong} (${pct(t.wrong)})`, 'other field wrong': pct(t.fields), 'other real street written (left out)': t.other };
  });
  console.table(summary);
  if (examples.length) console.log(`examples:\n  ${examples.join('\n  ')}`);
}

await main();
