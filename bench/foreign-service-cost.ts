/**
 * Instructions per batch of 500 foreign records through the whole service path, in process: the Fastify
 * app's `inject` of POST /api/v1/contact (the request's parse and schema, `nativeContact` and the country
 * catalogue, the core call on the libuv pool, the answers read and presented, the batch written and
 * sent), for the three kinds of rows issue 30's throughput bar names, as `foreign-cost.ts` counts the core
 * call alone. Counted by valgrind (callgrind), not timed: the machine is shared, instruction counts do
 * not move with its load. Each counted request starts with a call of `os.loadavg()` (libuv's
 * `uv_loadavg`, which nothing else in the service calls), where callgrind dumps, so every request's
 * instructions (all threads: the pool's core call and the core's own threads) are read apart; every kind
 * is sent five times first, so that the JavaScript is compiled as it is in a running server. So that
 * the count repeats, V8 runs on the main thread alone (`--single-threaded`: no compiler or collector
 * threads whose work would fall into whichever request they happen to run in) and the heap is
 * collected before each counted request (outside its count): a request pays for the collections of
 * its own garbage while it runs, not for a major collection the requests before it made due. **Not
 * deterministic yet**: run without these, counts of the same request moved by up to 2× from one
 * request to the next; with them, still by up to 1.8× (the given batch: 576 / 548 / 318 M at
 * `9e468e2`), and the forced collection's sweeping, left to the next allocations, adds a cost of the
 * heap's size to every request. Each request's count is printed: read the spread before a mean.
 * What is left to try: V8's `--predictable`, or the collector's functions left out of the count
 * (`callgrind_annotate --inclusive=yes` on the dumps kept).
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
  for (let i = 0; i < 5; i++) for (const [, b] of plan) await send(b);
  const labels: string[] = [];
  const bytes: Record<string, number> = {};
  const gc = (globalThis as { gc?: () => void }).gc!;
  for (const [kind, b] of plan) {
    for (let i = 0; i < perKind; i++) {
      labels.push(kind);
      // every request starts from a collected heap, so that none pays for the garbage of those before
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

function measure(root: string, perKind: number): void {
  const keep = process.env.FOREIGN_COST_KEEP;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(os.tmpdir(), 'foreign-service-cost-cg-'));
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${path.join(dir, 'cg')}`, '--dump-before=uv_loadavg', process.execPath, '--single-threaded', '--expose-gc', self, 'counted', root, String(perKind)],
    { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000' } },
  );
  if (run.status !== 0) throw new Error(`valgrind: ${run.status}\n${run.stderr.slice(-3000)}`);
  const { labels, bytes } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { labels: string[]; bytes: Record<string, number> };
  // cg.N is the cost since the dump before: dump 1 holds start-up and warm-up, dump 1 + k the request k
  const dumps = new Map<number, number>();
  for (const f of readdirSync(dir)) {
    const n = Number(/^cg\.(\d+)$/.exec(f)?.[1]);
    const total = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(path.join(dir, f), 'utf8'))?.[1];
    if (n && total) dumps.set(n, Number(total));
  }
  if (!keep) rmSync(dir, { recursive: true, force: true });
  const per = new Map<string, number[]>();
  labels.forEach((kind, i) => per.set(kind, [...(per.get(kind) ?? []), dumps.get(2 + i) ?? NaN]));
  console.log(`${root}: Minstructions per request of 500 (each request), response bytes`);
  for (const [kind, counts] of per) {
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    console.log(`${kind.padEnd(15)} ${(mean / 1e6).toFixed(1).padStart(7)}  (${counts.map((c) => (c / 1e6).toFixed(1)).join(' / ')})  ${bytes[kind]}`);
  }
}

if (process.argv[1]?.endsWith('foreign-service-cost.js')) {
  if (process.argv[2] === 'counted') await counted(path.resolve(process.argv[3]!), Number(process.argv[4]));
  else measure(path.resolve(process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url))), Number(process.argv[3] ?? 2));
}
