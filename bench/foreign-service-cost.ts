/**
 * Instructions per batch of 500 foreign records through the whole service path, in process: the Fastify
 * app's `inject` of POST /api/v1/contact (the request's parse and schema, `nativeContact` and the country
 * catalogue, the core call on the libuv pool, the answers read and presented, the batch written and
 * sent), for the three kinds of rows issue 30's throughput bar names, as `foreign-cost.ts` counts the core
 * call alone. Counted by valgrind (callgrind), not timed: the machine is shared, instruction counts do
 * not move with its load. Each counted request is framed by calls of `os.loadavg()` (libuv's
 * `uv_loadavg`, which nothing else in the service calls), where callgrind dumps: one before the heap
 * is collected (`gc()`), one after, so that the collection is a dump of its own (printed, not counted:
 * a dump before only the collection put it into the request before) and the request the next dump;
 * every request's instructions are counted on every thread (the pool's core call, the core's own
 * thread). Every kind is sent `FOREIGN_COST_WARMUPS` times first (12), so that the JavaScript is
 * compiled as in a running server.
 *
 * What makes the count repeat (hP-1359; before it the same request moved by up to 1.8×): V8 on the
 * main thread alone with a fixed collection schedule and young generation, no incremental marking and
 * no bytecode flushed (`V8_FLAGS`); the core's pool of one thread (`RAYON_NUM_THREADS=1`: idle workers
 * spin, counted while another thread works); and the optimising compiler left out of the count
 * (`Runtime_CompileOptimized`, read from each dump with `callgrind_annotate`): on one thread a function
 * optimised again after a deoptimisation is compiled inside whichever request calls it, 70–90 M in one
 * request and none in the next, even after the warm-up. Its share is printed beside each count.
 * What is left of the spread: within 1% between requests of the detect + named and the given rows;
 * up to 11% between requests of all rows (two core calls, the mix's code deoptimised and run
 * unoptimised until it is compiled again, and scavenges): read each request's count.
 *
 *   node dist/bench/foreign-service-cost.js [project root] [requests per kind]
 *
 * The project root is any built tree (`dist/` and its addon), this one by default: a build before
 * issue 30 (`9e468e2`) has no such bench, its own service is loaded from its `dist/` (its modules are
 * found under either layout of the state and credit modules). `RECAPITO_DATA_DIR` names the register
 * (required: one register for both builds), linked into a fresh data dir with a state of its own.
 * `FOREIGN_COST_KEEP=<dir>` keeps callgrind's dumps there, for `callgrind_annotate --inclusive=yes`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The rows of `bench/data/foreign-lines.tsv` (as `foreign-first-tries.ts` reads them), read here: that
 * module loads this tree's addon, and the process runs the service of the tree measured.
 */
function rows(): { kind: string; address: string; postcode: string; city: string; country: string }[] {
  const text = readFileSync(fileURLToPath(new URL('../../bench/data/foreign-lines.tsv', import.meta.url)), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const f = l.split('\t').map((x) => x.trim());
      return { kind: f[0] ?? '', address: f[2] ?? '', postcode: f[3] ?? '', city: f[4] ?? '', country: f[5] ?? '' };
    });
}

const KINDS: Record<string, string[]> = { all: ['given', 'detect', 'named'], 'detect + named': ['detect', 'named'], given: ['given'] };

/** A batch of 500 cycling over the rows of `kinds`, as a client sends it: the country given, or `foreign: detect`. */
function body(kinds: string[]): string {
  const set = rows().filter((r) => kinds.includes(r.kind));
  const items = Array.from({ length: 500 }, (_, i) => {
    const r = set[i % set.length]!;
    return { address: r.address, ...(r.postcode ? { postcode: r.postcode } : {}), ...(r.city ? { city: r.city } : {}), ...(r.country ? { country: r.country } : { foreign: 'detect' }) };
  });
  return JSON.stringify({ items });
}

/** A module of the tree at `root`, at the first of `paths` (relative to its `dist/src`) that exists. */
async function load<T>(root: string, ...paths: string[]): Promise<T> {
  const found = paths.map((p) => path.join(root, 'dist', 'src', p)).find((p) => existsSync(p));
  if (!found) throw new Error(`none of ${paths.join(', ')} in ${root}`);
  return (await import(pathToFileURL(found).href)) as T;
}

interface Inject {
  inject(req: { method: string; url: string; headers: Record<string, string>; payload: string }): Promise<{ statusCode: number; body: string }>;
}

/** Under valgrind: the service of `root`, a token with credit, the warm-up, then the counted requests. */
async function counted(root: string, perKind: number): Promise<void> {
  const register = process.env.RECAPITO_DATA_DIR;
  if (!register) throw new Error('RECAPITO_DATA_DIR: the register to link');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'foreign-service-cost-'));
  for (const entry of readdirSync(register)) if (entry !== 'state' && entry !== 'stamp') symlinkSync(path.join(register, entry), path.join(dataDir, entry));
  const { buildService } = await load<{ buildService(o: object): Promise<{ app: Inject; close(): Promise<void> }> }>(root, 'server.js');
  const { openStore } = await load<{ openStore(dir: string, url?: string): Promise<unknown> }>(root, 'state/open.js');
  const tokens = await load<{ createAccount(s: unknown, n: string): Promise<unknown>; createToken(s: unknown, n: string): Promise<{ token: string }> }>(root, 'state/tokens.js', 'account/tokens.js');
  const ledger = await load<{ addPack(s: unknown, a: string, c: string, n: number): Promise<unknown> }>(root, 'state/ledger.js', 'credit/ledger.js');
  const service = await buildService({ dataDir, port: 0, host: '127.0.0.1', stateUrl: undefined, rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
  const store = await openStore(dataDir, undefined);
  await tokens.createAccount(store, 'load');
  await ledger.addPack(store, 'load', 'contact', 50_000_000);
  const { token } = await tokens.createToken(store, 'load');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (payload: string): Promise<number> => {
    const res = await service.app.inject({ method: 'POST', url: '/api/v1/contact', headers, payload });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode}: ${res.body.slice(0, 300)}`);
    return res.body.length;
  };
  const plan = Object.entries(KINDS).map(([kind, k]) => [kind, body(k)] as const);
  const warmups = Number(process.env.FOREIGN_COST_WARMUPS ?? 12);
  for (let i = 0; i < warmups; i++) for (const [, b] of plan) await send(b);
  const labels: string[] = [];
  const bytes: Record<string, number> = {};
  const gc = (globalThis as { gc?: () => void }).gc!;
  for (const [kind, b] of plan) {
    for (let i = 0; i < perKind; i++) {
      labels.push(kind);
      // every request starts from a collected heap, so that none pays for the garbage of those before;
      // the collection is counted apart (a dump before it, one after it)
      os.loadavg();
      gc();
      os.loadavg();
      bytes[kind] = await send(b);
    }
  }
  // the last counted request ends in a dump of its own
  os.loadavg();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify({ labels, bytes }));
}

/**
 * V8 as the count needs it to repeat: on the main thread alone (no compiler or collector threads whose
 * work would fall into whichever request they run in), collections on a fixed schedule (no heap growth
 * or memory reducer driven by time), a young generation of fixed size, no incremental marking, no
 * bytecode flushed (a forced collection before each request would flush what the warm-up compiled),
 * fixed seeds, and `gc()` exposed. `FOREIGN_COST_V8` replaces them (space-separated).
 */
const V8_FLAGS = process.env.FOREIGN_COST_V8?.split(' ') ?? [
  '--single-threaded',
  '--expose-gc',
  '--predictable-gc-schedule',
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
  '--no-incremental-marking',
  '--no-flush-bytecode',
  '--random-seed=1',
];

/**
 * The instructions of a dump spent in V8's optimising compiler (`Runtime_CompileOptimized`, whole):
 * with V8 on one thread a function optimised again after a deoptimisation is compiled inside the
 * request that calls it, tens of millions of instructions in one request and none in the next, long
 * after the warm-up. The count without it is the one that repeats (the compiler's share is printed).
 */
function compilerCost(file: string): number {
  const out = spawnSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  let sum = 0;
  for (const line of out.stdout.split('\n')) {
    // the outermost call only (a recursive one is named with a quote: `…'2`)
    const m = /^\s*([\d,]+) \([^)]*\)\s+\?\?\?:v8::internal::Runtime_CompileOptimized\(/.exec(line);
    if (m) sum += Number(m[1]!.replaceAll(',', ''));
  }
  return sum;
}

function measure(root: string, perKind: number): void {
  const keep = process.env.FOREIGN_COST_KEEP;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(os.tmpdir(), 'foreign-service-cost-cg-'));
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${path.join(dir, 'cg')}`, '--dump-before=uv_loadavg', process.execPath, ...V8_FLAGS, self, 'counted', root, String(perKind)],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      // the core's pool of one thread: its workers' idle spinning, counted while another thread works,
      // moved by millions between requests of the same batch
      env: { ...process.env, RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000', RAYON_NUM_THREADS: process.env.RAYON_NUM_THREADS ?? '1' },
    },
  );
  if (run.status !== 0) throw new Error(`valgrind: ${run.status}\n${run.stderr.slice(-3000)}`);
  const { labels, bytes } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { labels: string[]; bytes: Record<string, number> };
  // cg.N is the cost since the dump before: dump 1 is start-up and warm-up, then for request k (from 0)
  // 2 + 2k its forced collection and 3 + 2k the request
  const total = (n: number): number => {
    const file = path.join(dir, `cg.${n}`);
    if (!existsSync(file)) return NaN;
    return Number(/^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(file, 'utf8'))?.[1] ?? NaN);
  };
  const requests = labels.map((kind, i) => {
    const all = total(3 + 2 * i);
    const compiler = compilerCost(path.join(dir, `cg.${3 + 2 * i}`));
    return { kind, all, compiler, work: all - compiler };
  });
  const collections = labels.map((_, i) => total(2 + 2 * i));
  if (!keep) rmSync(dir, { recursive: true, force: true });
  const m = (n: number): string => (n / 1e6).toFixed(1);
  console.log(`${root}: Minstructions per request of 500 without the optimising compiler (mean, each request; the compiler's share of each), response bytes`);
  for (const kind of Object.keys(KINDS)) {
    const of = requests.filter((r) => r.kind === kind);
    const mean = of.reduce((a, r) => a + r.work, 0) / of.length;
    console.log(`${kind.padEnd(15)} ${m(mean).padStart(7)}  (${of.map((r) => m(r.work)).join(' / ')}; compiler ${of.map((r) => m(r.compiler)).join(' / ')})  ${bytes[kind]}`);
  }
  console.log(`forced collections before each request, not counted: ${collections.map(m).join(' / ')}`);
}

if (process.argv[1]?.endsWith('foreign-service-cost.js')) {
  if (process.argv[2] === 'counted') await counted(path.resolve(process.argv[3]!), Number(process.argv[4]));
  else measure(path.resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url))), Number(process.argv[3] ?? 2));
}
