/**
 * Contact verification in process: the full-Italy import (time and index size), then batch
 * verifications per second through the native `contact.verify` (rayon over the machine's cores),
 * on real addresses drawn from the register, a third of them written with typos, abbreviations or
 * missing parts. No JavaScript or Rust peer verifies Italian addresses offline against ANNCSU, so
 * the table compares our own paths: exact input, perturbed input, and the single-item call.
 * Run: npm run build:ts && node dist/bench/contact.bench.js
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Bench } from 'tinybench';

import { defaultSourceDir } from '../src/config.js';
import { importRegister, openRegister, useForeignRegisters, verifyContacts, verifyContactsSync } from '../src/native.js';
import { sampleStreets } from './bench-doors.js';
import { DIRTY_KINDS, PERTURBATIONS, type Sampled, rng } from './contact-perturb.js';
import { SAMPLERS } from './foreign-data.js';
import { perturb } from './foreign-eval.js';
import { taskStats } from './stats.js';


const BATCH = 500;

function line(s: Sampled): string {
  return `${s.street_type} ${s.name} ${s.number ?? '1'}`;
}

const random = rng(13);

/** A third of the inputs the way customer files write them (`contact-perturb.ts`), one kind after another. */
function perturbed(s: Sampled, i: number, all: Sampled[]) {
  const base = { address: line(s), postcode: s.postcode, city: s.city, province: s.province };
  if (i % 3 !== 1) return base;
  const kind = DIRTY_KINDS[Math.floor(i / 3) % DIRTY_KINDS.length] as string;
  return PERTURBATIONS[kind]?.(s, random, all[(i + 17) % all.length] as Sampled, i) ?? base;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-contact-bench-'));
  try {
    const t0 = performance.now();
    await importRegister(defaultSourceDir(), dir);
    const importMs = performance.now() - t0;
    const size = statSync(path.join(dir, 'register', 'data.mdb')).size;
    openRegister(dir, true);
    console.table([{ step: 'full-Italy import (municipalities, countries, names, 1.2M streets, 150k house numbers)', seconds: (importMs / 1000).toFixed(1), 'index size (MB)': (size / 2 ** 20).toFixed(0) }]);

    const withNumbers = await sampleStreets({ cadastral_codes: ['A182', 'A944', 'F205', 'M208'], count: 1000, seed: 3 });
    const italy = await sampleStreets({ count: 4000, seed: 5 });
    const all = [...withNumbers, ...italy];
    const clean = all.slice(0, BATCH).map((s) => ({ address: line(s), postcode: s.postcode, city: s.city, province: s.province }));
    const mixed = all.slice(BATCH, 2 * BATCH).map((s, i, part) => perturbed(s, i, part));
    // every municipality of the sample loaded once, as a warm service has them
    verifyContactsSync({ items: all.map((s) => ({ address: line(s), city: s.city })), options: {} });
    // foreign records of the register countries (LU, CH, DE, DK), a third with a typo, through the same contact flow
    useForeignRegisters();
    const foreignRandom = rng(29);
    const foreign = ['LU', 'CH', 'DE', 'DK'].flatMap((cc) => (SAMPLERS[cc]?.() ?? []).filter((_, i) => i % 7 === 0).slice(0, BATCH / 4));
    const foreignItems = foreign
      .map((t, i) => (i % 3 === 1 ? perturb('typo', t, foreignRandom, []) : null) ?? perturb('exact', t, foreignRandom, []))
      .filter((item) => item !== null);
    verifyContactsSync({ items: foreignItems, options: {} });

    const bench = new Bench({ time: 4000 });
    bench
      .add(`batch of ${BATCH}, as registered (async, rayon)`, async () => {
        await verifyContacts({ items: clean, options: {} });
      })
      .add(`batch of ${BATCH}, 1/3 perturbed (async, rayon)`, async () => {
        await verifyContacts({ items: mixed, options: {} });
      })
      .add(`batch of ${BATCH} foreign (LU, CH, DE, DK registers), 1/3 with a typo (async, rayon)`, async () => {
        await verifyContacts({ items: foreignItems, options: {} });
      })
      .add('single contact (sync)', () => {
        verifyContactsSync({ items: [mixed[3]!], options: {} });
      });
    await bench.run();
    console.table(
      bench.tasks.map((task) => {
        const hz = taskStats(task).hz;
        const per = task.name.startsWith('batch') ? BATCH : 1;
        return { task: task.name, 'calls/s': hz.toFixed(1), 'verifications/s': Math.round(hz * per), cores: os.availableParallelism() };
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
