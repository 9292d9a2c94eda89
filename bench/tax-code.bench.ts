/**
 * Tax code throughput: validate and generate, a batch of 2,000 through the native core (sync, and
 * async on the libuv pool), through the service layer (texts in the request language), beside the
 * npm peer codice-fiscale-js on the same persons and codes, in one run.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { parse } from 'csv-parse/sync';
import { Bench } from 'tinybench';

import { defaultSourceDir } from '../src/config.js';
import { importRegister, openRegister, taxCodes, taxCodesSync } from '../src/native.js';
import { taxCodeItem, type TaxCodeItem } from '../src/tax-code/schema.js';
import { processTaxCodes } from '../src/tax-code/service.js';
import { taskStats } from './stats.js';

type Peer = typeof import('codice-fiscale-js').default;
const { CodiceFiscale } = createRequire(import.meta.url)('codice-fiscale-js') as { CodiceFiscale: Peer };

const BATCH = 2000;
const SOURCE = defaultSourceDir();

function lines(rel: string): string[] {
  return readFileSync(path.join(SOURCE, rel), 'utf8')
    .split('\n')
    .map((l) => l.split(',')[0]!.trim())
    .filter((n) => /^[A-Za-z]{2,}$/.test(n));
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'recapito-bench-tax-code-'));
  // Municipalities and countries are all the tax code needs.
  const subset = path.join(dataDir, 'source');
  await mkdir(path.join(subset, 'it'), { recursive: true });
  for (const folder of ['comuni', 'esteri']) await symlink(path.join(SOURCE, 'it', folder), path.join(subset, 'it', folder));
  await importRegister(subset, dataDir);
  openRegister(dataDir, true);
  try {
    const surnames = lines('contact/names/it_surnames_cognomix.txt');
    const firsts = lines('contact/names/it_firstnames_gender_births_italiatools.csv');
    const istat = parse(gunzipSync(readFileSync(path.join(SOURCE, 'it/comuni/istat_elenco_comuni_2023-11.csv.gz'))).toString('utf8'), {
      columns: true,
      delimiter: ';',
    }) as Record<string, string>[];
    const persons = Array.from({ length: BATCH }, (_, i) => {
      const town = istat[(i * 37) % istat.length]!;
      return {
        last_name: surnames[(i * 13) % surnames.length]!,
        first_name: firsts[(i * 7) % firsts.length]!,
        gender: i % 2 ? 'F' : 'M',
        day: (i % 28) + 1,
        month: (i % 12) + 1,
        year: 1940 + (i % 60),
        town: town['Denominazione in italiano']!,
        province: town['Sigla automobilistica']!,
      };
    });
    const generateItems = persons.map((p) => ({
      action: 'generate' as const,
      last_name: p.last_name,
      first_name: p.first_name,
      gender: p.gender,
      birth_date: `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`,
      birth_place: `${p.town} (${p.province})`,
    }));
    const generated = taxCodesSync({ items: generateItems });
    const unresolved = generated.filter((g) => !g.ok).length;
    // Municipalities created by a merger after the birth date have no code for it: validate the generated ones, repeated to a full batch.
    const made = generated.map((g) => g.tax_code).filter((c): c is string => Boolean(c));
    const codes = Array.from({ length: BATCH }, (_, i) => made[i % made.length]!);
    const validateItems = codes.map((tax_code) => ({ action: 'validate' as const, tax_code }));
    const extractItems = codes.map((tax_code) => ({ action: 'extract' as const, tax_code }));
    const serviceValidate: TaxCodeItem[] = validateItems.map((i) => taxCodeItem.parse(i));
    const serviceGenerate: TaxCodeItem[] = generateItems.map((i) => taxCodeItem.parse(i));
    const peerPersons = persons.map((p) => ({
      name: p.first_name,
      surname: p.last_name,
      gender: p.gender,
      day: p.day,
      month: p.month,
      year: p.year,
      birthplace: p.town,
      birthplaceProvincia: p.province,
    }));
    // The peer must agree with us on these inputs, or the comparison is meaningless.
    let agree = 0;
    peerPersons.forEach((p, i) => {
      try {
        if (generated[i]!.ok && CodiceFiscale.compute(p) === generated[i]!.tax_code) agree++;
      } catch {
        // the peer's municipality list lacks some names
      }
    });

    const bench = new Bench({ time: 2000, warmupTime: 300 });
    bench
      .add('validate: ours, native sync', () => {
        taxCodesSync({ items: validateItems });
      })
      .add('validate: ours, native async', async () => {
        await taxCodes({ items: validateItems });
      })
      .add('validate: ours, service (texts, async)', async () => {
        await processTaxCodes(serviceValidate, 'en');
      })
      .add('validate: ours, service, one call per item (as a single HTTP call)', async () => {
        for (const item of serviceValidate) await processTaxCodes([item], 'en');
      })
      .add('validate: codice-fiscale-js', () => {
        for (const c of codes) CodiceFiscale.check(c);
      })
      .add('extract: ours, native sync', () => {
        taxCodesSync({ items: extractItems });
      })
      .add('extract: ours, native async', async () => {
        await taxCodes({ items: extractItems });
      })
      .add('extract: codice-fiscale-js', () => {
        for (const c of codes) CodiceFiscale.computeInverse(c);
      })
      .add('generate: ours, native sync', () => {
        taxCodesSync({ items: generateItems });
      })
      .add('generate: ours, native async', async () => {
        await taxCodes({ items: generateItems });
      })
      .add('generate: ours, service (texts, async)', async () => {
        await processTaxCodes(serviceGenerate, 'en');
      })
      .add('generate: codice-fiscale-js', () => {
        for (const p of peerPersons) {
          try {
            CodiceFiscale.compute(p);
          } catch {
            // same work, failed lookups included
          }
        }
      });
    await bench.run();

    const rate = (name: string) => {
      return (BATCH * 1000) / taskStats(bench.tasks.find((t) => t.name === name)).mean;
    };
    const rows = bench.tasks.map((t) => {
      const op = t.name.split(':')[0]!;
      const perSec = rate(t.name);
      const peer = rate(`${op}: codice-fiscale-js`);
      const s = taskStats(t);
      return {
        task: t.name,
        'batch ms (mean)': s.mean.toFixed(2),
        'codes/s': Math.round(perSec).toLocaleString('en'),
        'vs peer': `${(perSec / peer).toFixed(2)}×`,
        samples: s.samples,
      };
    });
    console.table(rows);
    console.log(`generate: ${unresolved} of ${BATCH} birth places did not exist on the birth date (later mergers): error birth_place or ambiguous_place`);
    console.log(`batch of ${BATCH}; the peer gave our code for ${agree} of ${BATCH - unresolved} generated persons (the rest: its municipality list differs or lacks the name)`);
    console.log('validate: the peer checks form and check character only; ours also checks month, date and place against the register, decodes homocodes and names the place');
    console.log('extract: the peer computeInverse (birth date, gender, place from its own list) beside ours (plus age, century rule, place as named on the birth date)');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
