/**
 * The postal form of foreign addresses (issue 12, spec Contact rule 4), measured on the published
 * format data: libaddressinput's postcode examples (`zipex`, the source the patterns come from)
 * and OpenCage's country test cases (an independent source: held out from what the postal form
 * was built on). Prints
 *   1. postcode-format judgements per country without a register in service: examples as written,
 *      lower case without separators, with the country prefix (all must be accepted and written
 *      back in canonical form), and two malformed forms (must be POSTCODE_INVALID_FORMAT);
 *   2. the envelope lines against OpenCage's expected output (templates through `postal.render`);
 *   3. throughput: foreign postal-form verifications beside Italian ones, same engine, batches of 500.
 * Run: npm run build:ts && node dist/bench/postal-eval.js
 */
import { Bench } from 'tinybench';

import { postalCoverage, renderPostal, verifyContacts, verifyContactsSync, type ContactInput, type ContactResult, type VerifyOptions } from '../src/native.js';
import { sampleStreetsSync } from './bench-doors.js';
import { asContact, countryInfo, openCageCases } from '../test/helpers/formats.js';
import { contactBenchDataDir } from './contact-register.js';
import { taskStats } from './stats.js';

type Result = ContactResult;

interface Judgement {
  country: string;
  postcode: string;
  /** The canonical form expected, `valid` for any canonical form, or null when it must be judged invalid. */
  want: string | null;
  source: 'zipex' | 'opencage' | 'malformed';
}

async function verify(items: object[]): Promise<Result[]> {
  const out: Result[] = [];
  for (let i = 0; i < items.length; i += 500) {
    out.push(...(await verifyContacts({ items: items.slice(i, i + 500), options: { precision: 3, preserve_original: false, postal_form: false, foreign: 'declared' } })));
  }
  return out;
}

function pct(n: number, d: number): string {
  return d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`;
}

async function main(): Promise<void> {
  await contactBenchDataDir();
  const coverage = await postalCoverage();
  const registered = new Set(coverage.in_service.map((r) => r.country));
  const info = countryInfo();
  const cases = openCageCases();

  // 1. postcode-format judgements
  const judgements: Judgement[] = [];
  for (const f of coverage.formats) {
    if (registered.has(f.country) || !f.postcode_pattern) continue;
    const i = info.get(f.country);
    const pattern = new RegExp(`^(?:${i?.zip ?? ''})$`);
    for (const ex of (i?.zipex ?? '').split(',').filter((e) => pattern.test(e))) {
      judgements.push({ country: f.country, postcode: ex, want: ex, source: 'zipex' });
      judgements.push({ country: f.country, postcode: ex.toLowerCase().replace(/[\s-]/g, ''), want: ex, source: 'zipex' });
      judgements.push({ country: f.country, postcode: `${f.country}-${ex}`, want: ex, source: 'zipex' });
      judgements.push({ country: f.country, postcode: `${ex}99999`, want: null, source: 'malformed' });
    }
    judgements.push({ country: f.country, postcode: 'ZZZ', want: pattern.test('ZZZ') ? 'ZZZ' : null, source: 'malformed' });
    for (const c of cases.filter((k) => k.country === f.country && k.components.postcode)) {
      const pc = c.components.postcode as string;
      // OpenCage's cases hold lists (`63739,63741`) and notes that are not one postcode
      if (/[;,]/.test(pc) || pc.length > 12) continue;
      judgements.push({ country: f.country, postcode: pc, want: 'valid', source: 'opencage' });
    }
  }
  const results = await verify(judgements.map((j) => ({ address: 'A 1', city: 'X', postcode: j.postcode, country_code: j.country })));
  const perCountry = new Map<string, { right: number; total: number; zipex: number; opencage: number; malformed: number; wrong: string[]; heldOut: number; heldOutRight: number }>();
  const bySource = new Map<string, { right: number; total: number }>();
  judgements.forEach((j, k) => {
    const r = results[k] as Result;
    const invalid = r.outcome.includes('POSTCODE_INVALID_FORMAT');
    const right = j.want === null ? invalid : !invalid && (j.want === 'valid' || r.normalized.postcode === j.want);
    const c = perCountry.get(j.country) ?? { right: 0, total: 0, zipex: 0, opencage: 0, malformed: 0, wrong: [], heldOut: 0, heldOutRight: 0 };
    c[j.source]++;
    // the bar is on the post's own examples (zipex and malformed forms); OpenCage's cases are held out
    if (j.source === 'opencage') {
      c.heldOut++;
      if (right) c.heldOutRight++;
      else c.wrong.push(`held-out ${j.postcode}→INVALID`);
    } else {
      c.total++;
      if (right) c.right++;
      else c.wrong.push(`${j.postcode}→${invalid ? 'INVALID' : r.normalized.postcode}`);
    }
    perCountry.set(j.country, c);
    const s = bySource.get(j.source) ?? { right: 0, total: 0 };
    s.total++;
    if (right) s.right++;
    bySource.set(j.source, s);
  });
  const countriesRight = [...perCountry.values()].filter((c) => c.right === c.total).length;
  const heldOutRight = [...perCountry.values()].filter((c) => c.heldOut > 0 && c.heldOutRight === c.heldOut).length;
  const heldOutCountries = [...perCountry.values()].filter((c) => c.heldOut > 0).length;
  console.log('\n### Postcode-format judgements, countries without a register in service (with a published pattern)');
  console.table([...bySource].map(([source, s]) => ({ source, judgements: s.total, right: s.right, share: pct(s.right, s.total) })));
  console.table([
    { what: 'countries without a register', count: coverage.formats.filter((f) => !registered.has(f.country)).length },
    { what: '… with a postcode pattern (judged)', count: perCountry.size },
    { what: '… every judgement on the post’s examples right', count: countriesRight, share: pct(countriesRight, perCountry.size) },
    { what: '… with OpenCage cases (held out): all judged valid', count: heldOutRight, share: pct(heldOutRight, heldOutCountries) },
    { what: '… no pattern published (postcode kept as written)', count: coverage.formats.filter((f) => !registered.has(f.country) && !f.postcode_pattern).length },
  ]);
  const wrongCountries = [...perCountry].filter(([, c]) => c.wrong.length > 0);
  if (wrongCountries.length) console.table(wrongCountries.map(([country, c]) => ({ country, right: c.right, total: c.total, wrong: c.wrong.slice(0, 3).join(' ') })));
  console.log('\n### Per-country coverage (verification level, postcode judgements)');
  const rows = [...new Set([...coverage.formats.map((f) => f.country), ...registered])].sort().map((country) => {
    const c = perCountry.get(country);
    return {
      country,
      verification: coverage.in_service.find((r) => r.country === country)?.verification ?? 'postal_form',
      pattern: coverage.formats.find((f) => f.country === country)?.postcode_pattern ? 'yes' : 'no',
      zipex: c?.zipex ?? 0,
      opencage: c?.opencage ?? 0,
      malformed: c?.malformed ?? 0,
      right: c ? pct(c.right, c.total) : '–',
      held_out_valid: c?.heldOut ? pct(c.heldOutRight, c.heldOut) : '–',
    };
  });
  console.table(rows);

  // 2. envelope lines against OpenCage's expected output
  const rendered = await renderPostal({ items: cases.map((c) => c.components) });
  let same = 0;
  let judged = 0;
  const off = new Map<string, number>();
  cases.forEach((c, k) => {
    const got = rendered[k];
    if (got === null || got === undefined) return;
    judged++;
    if (got.trim() === c.expected.trim()) same++;
    else off.set(c.country, (off.get(c.country) ?? 0) + 1);
  });
  console.log('\n### OpenCage test cases: envelope lines as expected');
  console.table([{ cases: judged, same, share: pct(same, judged), countries_with_a_difference: [...off.keys()].join(' ') }]);

  // 3. throughput: foreign postal form beside Italian verification, same engine
  const foreign = cases
    .filter((c) => c.country && c.country !== 'IT' && !registered.has(c.country))
    .map((c) => ({ ...asContact(c), country_code: c.country }));
  const italian = sampleStreetsSync({ count: 2000, seed: 7 }).map((s) => ({ address: `${s.street_type} ${s.name} ${s.number ?? '1'}`, postcode: s.postcode, city: s.city, province: s.province }));
  const batchOf = (rows: ContactInput[]) => Array.from({ length: 500 }, (_, i) => rows[i % rows.length] as ContactInput);
  const fBatch = batchOf(foreign);
  const iBatch = batchOf(italian);
  const options: VerifyOptions = { precision: 3, preserve_original: false, postal_form: false, foreign: 'declared' };
  const bench = new Bench({ time: 3000 });
  bench.add('foreign, postal form (500 per call)', () => {
    verifyContactsSync({ items: fBatch, options });
  });
  bench.add('Italian, register (500 per call) — peer', () => {
    verifyContactsSync({ items: iBatch, options });
  });
  await bench.run();
  const [f, i] = bench.tasks.map((t) => taskStats(t));
  console.log('\n### In-process batch throughput (records per second)');
  console.table([
    { path: 'foreign postal form', records_per_s: Math.round((f?.hz ?? 0) * 500), p50_ms_per_500: f?.p50.toFixed(2) },
    { path: 'Italian register (peer)', records_per_s: Math.round((i?.hz ?? 0) * 500), p50_ms_per_500: i?.p50.toFixed(2) },
    { path: 'ratio foreign / Italian', records_per_s: ((f?.hz ?? 0) / (i?.hz || 1)).toFixed(2) },
  ]);
}

await main();
