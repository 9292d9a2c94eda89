/**
 * Instructions per batch of 500 foreign records, in process, for the three kinds of rows issue 30's
 * throughput bar names (as `contact-ab.ts … foreign`): all the foreign rows of the first-tries set
 * (`bench/data/foreign-lines.tsv`: country given, detected and written as a name), the detect + named
 * rows (`foreign: detect`, the name read by the service's catalogue) and the country-given rows.
 * Counted by valgrind (callgrind), not timed: the machine is shared, instruction counts do not move
 * with its load. Each call of `verifyContactsSync` starts a callgrind dump, so every batch's
 * instructions (all threads) are read apart; the register and the foreign registers are opened and
 * every kind verified once before the counted batches.
 *
 *   node dist/bench/foreign-cost.js [batches per kind]   runs itself under valgrind, prints the table
 *
 * Compare two builds by running it in each worktree (the addon is the worktree's own
 * `recapito.linux-x64-gnu.node`), or from one worktree with `FOREIGN_COST_ADDON=<path of another
 * build's addon>` (a build before issue 30 has no bench of its own; the same rows and register are
 * then sent to both); `RECAPITO_DATA_DIR` names the register, else the tests' one.
 * `FOREIGN_COST_KEEP=<dir>` keeps callgrind's dumps there, for `callgrind_annotate --inclusive=yes`.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { nativeContact } from '../src/contact/service.js';
import type { ContactItem } from '../src/contact/schema.js';
import { native, worldDir, type Native } from '../src/native.js';
import { sharedRegister } from '../test/helpers/server.js';
import { rows } from './foreign-first-tries.js';

const KINDS: Record<string, string[]> = { all: ['given', 'detect', 'named'], 'detect + named': ['detect', 'named'], given: ['given'] };

/**
 * A batch of 500 cycling over the rows of `kinds`, as the core's batches: one per `foreign` option
 * (the service verifies a batch's items in groups of the same options, `contact/turn-batch.ts`).
 */
function batches(kinds: string[]): string[] {
  const set = rows().filter((r) => kinds.includes(r.kind));
  const groups = new Map<string, unknown[]>();
  for (let i = 0; i < 500; i++) {
    const r = set[i % set.length]!;
    const foreign = r.country ? 'declared' : 'detect';
    const item = { address: r.address, ...(r.postcode ? { postcode: r.postcode } : {}), ...(r.city ? { city: r.city } : {}), ...(r.country ? { country: r.country } : { foreign }) };
    groups.set(foreign, [...(groups.get(foreign) ?? []), nativeContact(item as ContactItem)]);
  }
  return [...groups].map(([foreign, items]) => JSON.stringify({ items, options: { foreign } }));
}

/** Under valgrind: warm up, then the counted calls; stdout names the kind of each call in order. */
async function counted(perKind: number): Promise<void> {
  const other = process.env.FOREIGN_COST_ADDON;
  const addon = other ? (createRequire(import.meta.url)(path.resolve(other)) as Native) : native;
  addon.openRegister(process.env.RECAPITO_DATA_DIR ?? (await sharedRegister()), false);
  addon.useForeignRegisters(worldDir());
  addon.foreignRegistersSync();
  const plan = Object.entries(KINDS).map(([kind, k]) => [kind, batches(k)] as const);
  for (const [, calls] of plan) for (const c of calls) addon.verifyContactsSync(c);
  const labels: string[] = [];
  for (const [kind, calls] of plan) {
    for (let b = 0; b < perKind; b++) {
      for (const c of calls) {
        labels.push(kind);
        addon.verifyContactsSync(c);
      }
    }
  }
  // one last call so that the last counted one ends in a dump of its own
  addon.verifyContactsSync(JSON.stringify({ items: [] }));
  console.log(JSON.stringify({ warmups: plan.reduce((n, [, c]) => n + c.length, 0), labels }));
}

function measure(perKind: number): void {
  const keep = process.env.FOREIGN_COST_KEEP;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(os.tmpdir(), 'foreign-cost-'));
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${path.join(dir, 'cg')}`, '--dump-before=*__napi__verify_contacts_sync*', process.execPath, self, 'counted', String(perKind)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (run.status !== 0) throw new Error(`valgrind: ${run.status}\n${run.stderr.slice(-2000)}`);
  const { warmups, labels } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { warmups: number; labels: string[] };
  // cg.N is the cost since the dump before: dump 1 holds start-up, dump 2 + k the call k
  const dumps = new Map<number, number>();
  for (const f of readdirSync(dir)) {
    const n = Number(/^cg\.(\d+)$/.exec(f)?.[1]);
    const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(path.join(dir, f), 'utf8'))?.[1];
    if (n && total) dumps.set(n, Number(total));
  }
  if (!keep) rmSync(dir, { recursive: true, force: true });
  const sums = new Map<string, number>();
  labels.forEach((kind, i) => sums.set(kind, (sums.get(kind) ?? 0) + (dumps.get(2 + warmups + i) ?? NaN)));
  console.log('kind            Minstructions per batch of 500');
  for (const [kind, sum] of sums) console.log(`${kind.padEnd(15)} ${(sum / perKind / 1e6).toFixed(1)}`);
}

if (process.argv[1]?.endsWith('foreign-cost.js')) {
  if (process.argv[2] === 'counted') await counted(Number(process.argv[3]));
  else measure(Number(process.argv[2] ?? 2));
}
