/**
 * A/B of the Node binding's redesign (issue 10): the old string-dispatched `compute(op, buffer)`
 * addon against the typed doors (`verifyContacts`, `taxCodes`), loaded side by side in one process,
 * on the same register, with the same batches. Rounds rotate the addons (and which goes first) so
 * that the load of a shared machine falls on all alike; each table gives the median of the rounds,
 * and the last one both load orders combined (see `bothOrders`).
 *
 * The old addon is built from the last commit before the doors (e14af70, parent of "Core: ops.rs
 * leaves"); a second build at the doors' own commit (6c45c89) tells the doors apart from what the core
 * gained since (foreign registers, detected countries…), which today's addon also runs:
 *   git worktree add --detach ../i10-old e14af70 && cd ../i10-old && npm run build:native
 * Run: npm run build:ts && RECAPITO_AB_ADDONS='compute(op) e14af70=<path>,doors 6c45c89=<path>' node dist/bench/doors-ab.js
 * Each listed addon is a peer (the first is the baseline of the ratios); this tree's addon is the last
 * column. The register is RECAPITO_DATA_DIR, else the contact benches' one (bench/contact-register.ts);
 * every other addon opens a byte-for-byte copy of it: LMDB forbids one process opening a file twice.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defaultSourceDir } from '../src/config.js';
import { taxCodes, verifyContacts, verifyContactsSync, type BatchInput, type ContactBatch, type ContactResult, type ItemResult } from '../src/native.js';
import { sampleStreets } from './bench-doors.js';
import { contactBenchDataDir } from './contact-register.js';
import { DIRTY_KINDS, PERTURBATIONS, type Sampled, rng } from './contact-perturb.js';

/** The raw exports a peer may have: the old one door for every operation, or the typed doors. */
interface PeerAddon {
  openRegister(dataDir: string, reopen?: boolean): void;
  compute?(op: string, input: Buffer): Promise<Buffer>;
  computeSync?(op: string, input: Buffer): Buffer;
  verifyContacts?(batch: Buffer): Promise<Buffer>;
  /** A Buffer each way up to the doors of issue 14, JSON text each way since. */
  verifyContactsSync?(batch: Buffer | string): Buffer | string;
  taxCodes?(batch: Buffer): Promise<Buffer>;
}

/** One addon as the bench calls it: JSON in and out, as the services do. */
interface Calls {
  label: string;
  contacts(batch: ContactBatch): Promise<ContactResult[]>;
  contactsSync(batch: ContactBatch): ContactResult[];
  taxCodes(batch: BatchInput): Promise<ItemResult[]>;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const parsed = <T>(bytes: Buffer): T => JSON.parse(bytes.toString('utf8')) as T;

function peer(label: string, addon: PeerAddon): Calls {
  const { compute, computeSync, verifyContacts: verify, verifyContactsSync: verifySync, taxCodes: tax } = addon;
  if (compute && computeSync) {
    return {
      label,
      contacts: async (b) => parsed(await compute('contact.verify', json(b))),
      contactsSync: (b) => parsed(computeSync('contact.verify', json(b))),
      taxCodes: async (b) => parsed(await compute('tax_code.batch', json(b))),
    };
  }
  if (verify && verifySync && tax) {
    return {
      label,
      contacts: async (b) => parsed(await verify(json(b))),
      contactsSync: (b) => {
        const text = JSON.stringify(b);
        let out: Buffer | string;
        try {
          out = verifySync(text);
        } catch {
          out = verifySync(Buffer.from(text));
        }
        return JSON.parse(String(out)) as ContactResult[];
      },
      taxCodes: async (b) => parsed(await tax(json(b))),
    };
  }
  throw new Error(`${label}: neither compute(op) nor the typed doors`);
}

const CONTACT_BATCH = 500;
const TAX_BATCH = 2000;
const ROUNDS = 7;
const ROUND_MS = 1500;

function line(s: Sampled): string {
  return `${s.street_type} ${s.name} ${s.number ?? '1'}`;
}

function names(rel: string): string[] {
  return readFileSync(path.join(defaultSourceDir(), rel), 'utf8')
    .split('\n')
    .map((l) => l.split(',')[0]!.trim())
    .filter((n) => /^[A-Za-z]{2,}$/.test(n));
}

/** Calls of `run` for ROUND_MS, as items per second. */
async function rate(run: () => Promise<unknown> | unknown, items: number): Promise<number> {
  const start = performance.now();
  let calls = 0;
  while (performance.now() - start < ROUND_MS) {
    await run();
    calls++;
  }
  return (calls * items) / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median rate of each addon (by label) on one workload. */
interface Measured {
  workload: string;
  rates: Record<string, number>;
}

/** The line a run ends with, read by the parent that combines the two load orders. */
const RESULT = 'doors-ab result:';

interface Workload {
  name: string;
  items: number;
  run: (calls: Calls) => Promise<unknown> | unknown;
}

async function main(): Promise<void> {
  const listed = (process.env.RECAPITO_AB_ADDONS ?? '').split(',').filter(Boolean);
  if (!listed.length) throw new Error("Set RECAPITO_AB_ADDONS='<label>=<addon path>,…' (see the head of bench/doors-ab.ts).");
  const dataDir = await contactBenchDataDir();
  const copies: string[] = [];
  try {
    const addons: Calls[] = listed.map((entry) => {
      const [label, file] = entry.split('=') as [string, string | undefined];
      if (!file || !existsSync(file)) throw new Error(`${label}: no addon at ${file}`);
      const copy = mkdtempSync(path.join(os.tmpdir(), 'recapito-doors-ab-'));
      copies.push(copy);
      cpSync(path.join(dataDir, 'register'), path.join(copy, 'register'), { recursive: true });
      const addon = createRequire(import.meta.url)(path.resolve(file)) as PeerAddon;
      addon.openRegister(copy);
      return peer(label, addon);
    });
    addons.push({ label: 'doors (this tree)', contacts: verifyContacts, contactsSync: verifyContactsSync, taxCodes });

    // real addresses of the register, a third of the second batch written as customer files do
    const sample = [
      ...(await sampleStreets({ cadastral_codes: ['A182', 'A944', 'F205', 'M208'], count: 1000, seed: 3 })),
      ...(await sampleStreets({ count: 4000, seed: 5 })),
    ];
    const random = rng(13);
    const clean: ContactBatch = { items: sample.slice(0, CONTACT_BATCH).map((s) => ({ address: line(s), postcode: s.postcode, city: s.city, province: s.province })), options: {} };
    const mixedPart = sample.slice(CONTACT_BATCH, 2 * CONTACT_BATCH);
    const mixed: ContactBatch = {
      items: mixedPart.map((s, i) => {
        const base = { address: line(s), postcode: s.postcode, city: s.city, province: s.province };
        if (i % 3 !== 1) return base;
        const kind = DIRTY_KINDS[Math.floor(i / 3) % DIRTY_KINDS.length] as string;
        return PERTURBATIONS[kind]?.(s, random, mixedPart[(i + 17) % mixedPart.length] as Sampled, i) ?? base;
      }),
      options: {},
    };
    const single: ContactBatch = { items: [mixed.items[3]!], options: {} };

    const surnames = names('contact/names/it_surnames_cognomix.txt');
    const firsts = names('contact/names/it_firstnames_gender_births_italiatools.csv');
    const generate: BatchInput = {
      items: Array.from({ length: TAX_BATCH }, (_, i) => {
        const s = sample[(i * 37) % sample.length]!;
        return {
          action: 'generate' as const,
          last_name: surnames[(i * 13) % surnames.length]!,
          first_name: firsts[(i * 7) % firsts.length]!,
          gender: i % 2 ? 'F' : 'M',
          birth_date: `${1940 + (i % 60)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
          birth_place: `${s.city} (${s.province})`,
        };
      }),
    };
    const generated = (await taxCodes(generate)).map((r) => r.tax_code);
    const codes = generated.filter((c): c is string => typeof c === 'string');
    const check: BatchInput = { items: codes.map((tax_code, i) => ({ action: i % 2 ? ('extract' as const) : ('validate' as const), tax_code })) };

    // the same answers from every addon, or the comparison means nothing
    const base = addons[0]!;
    const contactAnswers = await base.contacts(mixed);
    for (const a of addons.slice(1)) {
      const same = (await a.contacts(mixed)).filter((r, i) => r.outcome.join() === contactAnswers[i]?.outcome.join()).length;
      const oldCodes = await base.taxCodes(generate);
      const sameCodes = (await a.taxCodes(generate)).filter((r, i) => r.tax_code === oldCodes[i]?.tax_code).length;
      console.log(`${a.label} beside ${base.label}: same outcomes on the perturbed contact batch ${same}/${mixed.items.length}, same generated tax codes (or none) ${sameCodes}/${generate.items.length}`);
    }

    const workloads: Workload[] = [
      { name: `contact batch of ${CONTACT_BATCH}, as registered (async)`, items: CONTACT_BATCH, run: (a) => a.contacts(clean) },
      { name: `contact batch of ${CONTACT_BATCH}, 1/3 perturbed (async)`, items: CONTACT_BATCH, run: (a) => a.contacts(mixed) },
      { name: 'single contact (sync)', items: 1, run: (a) => a.contactsSync(single) },
      { name: `tax codes: generate, batch of ${TAX_BATCH} (async)`, items: TAX_BATCH, run: (a) => a.taxCodes(generate) },
      { name: `tax codes: validate + extract, batch of ${check.items.length} (async)`, items: check.items.length, run: (a) => a.taxCodes(check) },
    ];
    const loadBefore = os.loadavg();
    const rows = [];
    const measured: Measured[] = [];
    for (const w of workloads) {
      // warm: every municipality of the batch loaded by each
      for (const a of addons) await w.run(a);
      const rates: number[][] = addons.map(() => []);
      for (let r = 0; r < ROUNDS; r++) {
        // each round starts with another addon, so that none always runs first
        for (let k = 0; k < addons.length; k++) {
          const i = (r + k) % addons.length;
          rates[i]!.push(await rate(() => w.run(addons[i]!), w.items));
        }
      }
      const medians = rates.map(median);
      const row: Record<string, string | number> = { workload: w.name };
      addons.forEach((a, i) => {
        row[`${a.label} /s`] = Math.round(medians[i]!);
        if (i > 0) row[`${a.label} / ${base.label}`] = (medians[i]! / medians[0]!).toFixed(3);
      });
      rows.push(row);
      measured.push({ workload: w.name, rates: Object.fromEntries(addons.map((a, i) => [a.label, medians[i]!])) });
    }
    const loadAfter = os.loadavg();
    console.table(rows);
    console.log(`verifications per second, median of ${ROUNDS} alternating rounds of ${ROUND_MS} ms each; ${os.cpus().length} CPUs; load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after`);
    console.log(`${RESULT} ${JSON.stringify(measured)}`);
  } finally {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Loaded first, an addon ran faster on this machine whatever it was (up to 30% under load, seen by
 * swapping the list): so the parent runs the comparison twice, in two processes, with the peers
 * loaded in one order then the other, and gives each ratio as the geometric mean of the two.
 */
function bothOrders(): void {
  const listed = (process.env.RECAPITO_AB_ADDONS ?? '').split(',').filter(Boolean);
  const runs = [listed, [...listed].reverse()].map((order) => {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, RECAPITO_AB_ADDONS: order.join(','), RECAPITO_AB_CHILD: '1' },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    const line = run.stdout.split('\n').find((l) => l.startsWith(RESULT));
    if (run.status !== 0 || !line) throw new Error(`a run failed (status ${run.status})`);
    return JSON.parse(line.slice(RESULT.length)) as Measured[];
  });
  const baseline = listed[0]!.split('=')[0]!;
  const table = runs[0]!.map((first, w) => {
    const row: Record<string, string> = { workload: first.workload };
    for (const label of Object.keys(first.rates)) {
      if (label === baseline) continue;
      const ratios = runs.map((run) => run[w]!.rates[label]! / run[w]!.rates[baseline]!);
      row[`${label} / ${baseline}`] = `${Math.sqrt(ratios[0]! * ratios[1]!).toFixed(3)} (${ratios.map((r) => r.toFixed(3)).join(', ')})`;
    }
    return row;
  });
  console.log('\nboth load orders: geometric mean of the two ratios (each run\'s ratio in brackets)');
  console.table(table);
}

if (process.env.RECAPITO_AB_CHILD) await main();
else bothOrders();
