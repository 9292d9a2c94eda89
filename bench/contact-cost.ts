/**
 * Instructions per call of the contact and dedupe doors, in process, for any build of the addon (issue 31's
 * throughput bars: the contact batch of 500, single calls, dedupe of 100,000 records). Counted by valgrind
 * (callgrind), not timed: the machine is shared, instruction counts do not move with its load. Each call of
 * the door measured starts a callgrind dump, so every call's instructions (all threads) are read apart; the
 * register is opened and the door called once (warm-up) before the counted calls.
 *
 *   node dist/bench/contact-cost.js <kind> [addon] [data dir] [calls] [--keep <folder>]
 *
 * kind: `batch` (500 Bologna house numbers as `http.bench.ts` sends them, in one `verifyContactAnswersSync`
 * call: the HTTP batch's door), `batch-results` (the same through `verifyContactsSync`), `single` (one
 * contact a call, 200 calls a round: the single call's door), `dedupe` (`dedupeSync` on `dedupe-answer`'s
 * 100,000-record address book). The addon is a path to any build's `.node` (default: this tree's), so two
 * builds compare in one tree; the data dir is a register that build imported (default: the tests' register
 * of this tree; a folder without a register is imported by the addon given). With `--keep`, the callgrind
 * files stay in <folder> for `callgrind_annotate --inclusive=yes <folder>/cg.<n>` (function by function).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PROJECT_ROOT, defaultSourceDir } from '../src/config.js';
import { bolognaSample } from './bologna-contacts.js';
import { addressBook, generate, loadSources } from './dedupe-data.js';

/** The doors of any build this bench calls (text each way, as the Sync doors take it). */
interface Doors {
  openRegister(dir: string, reopen?: boolean): void;
  importRegister(source: string, dir: string): Promise<unknown>;
  verifyContactAnswersSync(batch: string): string;
  verifyContactsSync(batch: string): string;
  dedupeSync(request: Buffer): Buffer;
}

/** The options the service sends for an item that names none (`contact/service.ts::nativeOptions`). */
const OPTIONS = { precision: 3, preserve_original: false, postal_form: false, foreign: 'declared', debug: false };

const KINDS = {
  batch: { door: 'verify_contact_answers_sync', perCall: 500 },
  'batch-results': { door: 'verify_contacts_sync', perCall: 500 },
  single: { door: 'verify_contact_answers_sync', perCall: 1 },
  dedupe: { door: 'dedupe_sync', perCall: 100_000 },
} as const;
type Kind = keyof typeof KINDS;

/** The calls of a kind, as the door takes them: the first is the warm-up. */
async function calls(kind: Kind, n: number): Promise<(doors: Doors) => void> {
  if (kind === 'dedupe') {
    const src = loadSources();
    const book = addressBook(generate(src, 70_000, 5).map((s) => s.record), src.places).slice(0, 100_000);
    const request = Buffer.from(JSON.stringify({ records: book }));
    const small = Buffer.from(JSON.stringify({ records: book.slice(0, 2_000) }));
    return (d) => {
      d.dedupeSync(small);
      for (let i = 0; i < n; i++) d.dedupeSync(request);
    };
  }
  const sample = await bolognaSample(2000);
  const text = (items: unknown[]): string => JSON.stringify({ items, options: OPTIONS });
  if (kind === 'single') {
    // distinct contacts, so no call is a repeat of the one before
    const singles = sample.slice(0, 200).map((s) => text([s]));
    return (d) => {
      d.verifyContactAnswersSync(text([sample[1000]]));
      for (let i = 0; i < n; i++) for (const s of singles) d.verifyContactAnswersSync(s);
    };
  }
  const batch = text(sample.slice(0, 500));
  const warm = text(sample.slice(500, 1000));
  const door = kind === 'batch' ? 'verifyContactAnswersSync' : 'verifyContactsSync';
  return (d) => {
    d[door](warm);
    for (let i = 0; i < n; i++) d[door](batch);
  };
}

/** Under valgrind: open the register, then the warm-up and the counted calls, then an empty call (so the last counted call ends in a dump of its own). */
async function counted(kind: Kind, addon: string, dataDir: string, n: number): Promise<void> {
  const doors = createRequire(import.meta.url)(addon) as Doors;
  doors.openRegister(dataDir, false);
  const run = await calls(kind, n);
  run(doors);
  const empty = JSON.stringify({ items: [], options: OPTIONS });
  if (kind === 'dedupe') doors.dedupeSync(Buffer.from(JSON.stringify({ records: [] })));
  else if (kind === 'batch-results') doors.verifyContactsSync(empty);
  else doors.verifyContactAnswersSync(empty);
}

async function measure(kind: Kind, addon: string, dataDir: string, n: number, keep: string | undefined): Promise<void> {
  if (!existsSync(path.join(dataDir, 'register', 'data.mdb'))) {
    // the addon's own import: the register's layout is the build's
    await (createRequire(import.meta.url)(addon) as Doors).importRegister(defaultSourceDir(), dataDir);
  }
  const dir = keep ?? mkdtempSync(path.join(os.tmpdir(), 'contact-cost-'));
  mkdirSync(dir, { recursive: true });
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${path.join(dir, 'cg')}`, `--dump-before=*__napi__${KINDS[kind].door}`, process.execPath, self, 'counted', kind, addon, dataDir, String(n)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (run.status !== 0) throw new Error(`valgrind: ${run.status}\n${run.stderr.slice(-2000)}`);
  // cg.N is the cost since the dump before: cg.1 start-up, cg.2 the warm-up, cg.3 … the counted calls
  const dumps = new Map<number, number>();
  for (const f of readdirSync(dir)) {
    const at = Number(/^cg\.(\d+)$/.exec(f)?.[1]);
    const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(path.join(dir, f), 'utf8'))?.[1];
    if (at && total) dumps.set(at, Number(total));
  }
  if (!keep) rmSync(dir, { recursive: true, force: true });
  const callsPerRound = kind === 'single' ? 200 : 1;
  let sum = 0;
  for (let i = 0; i < n * callsPerRound; i++) sum += dumps.get(3 + i) ?? NaN;
  const perCall = sum / (n * callsPerRound);
  console.log(`${kind}: ${(perCall / 1e6).toFixed(3)} Minstructions per call (${KINDS[kind].perCall} records), warm-up ${((dumps.get(2) ?? NaN) / 1e6).toFixed(1)} M; ${addon}`);
  if (keep) console.log(`callgrind files in ${keep} (cg.3 = the first counted call)`);
}

if (process.argv[1]?.endsWith('contact-cost.js')) {
  const args = process.argv.slice(2);
  if (args[0] === 'counted') {
    await counted(args[1] as Kind, args[2]!, args[3]!, Number(args[4]));
  } else {
    const keepAt = args.indexOf('--keep');
    const keep = keepAt >= 0 ? path.resolve(args.splice(keepAt, 2)[1]!) : undefined;
    const [kind, addon, dataDir, n] = args;
    if (!kind || !(kind in KINDS)) throw new Error(`usage: contact-cost.js <${Object.keys(KINDS).join('|')}> [addon] [data dir] [calls] [--keep <folder>]`);
    const dir = path.resolve(dataDir ?? path.join(PROJECT_ROOT, '.tmp', 'test-register'));
    await measure(kind as Kind, path.resolve(addon ?? path.join(PROJECT_ROOT, 'recapito.linux-x64-gnu.node')), dir, Number(n ?? 1), keep);
  }
}
