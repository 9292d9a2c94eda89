/**
 * A/B of the single calls' own work on the event loop (issue 14): phone, tax-code validate and email (dns false),
 * one item per `run` call as an HTTP call runs it (phone with its billing units), distinct inputs, in this
 * build and in another one's `dist` (its own native addon), each in a child process of its own, rounds rotating
 * which goes first. The figure is the process's CPU time per call (its threads: the calls' own and the GC's), not
 * wall time, which a loaded machine stretches by whatever else it runs; the path every request shares is not in it.
 *
 *   npm run build:ts && RECAPITO_AB_ROOT=/work/main node dist/bench/light-ab.js [rounds]
 *
 * Inputs: `02 NNNNNNN` (http.bench's phone body), `+39 3NN NNNNNNN` mobiles, written forms (dashes, slashes,
 * brackets, dots, 0039), five tax codes (valid, wrong check letter, homocode-free women and men), email at gmail.com
 * and at distinct business domains.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { sharedRegister } from '../test/helpers/server.js';

const CALLS = 40_000;
const CODES = ['RSSMRA80A01H501U', 'VRDGPP13R10B293M', 'BNCLRA85T45F205X', 'RSSMRA80A01H501X', 'MRARSS80A41H501Y'];

const seven = (n: number) => String(1_000_000 + ((n * 7919) % 8_999_999));
const SETS: Record<string, { capability: string; item: (n: number) => Record<string, unknown> }> = {
  'phone 02': { capability: 'phone', item: (n) => ({ phone: `02 ${seven(n)}` }) },
  'phone +39 mobile': { capability: 'phone', item: (n) => ({ phone: `+39 3${20 + ((n * 31) % 50)} ${seven(n)}` }) },
  'phone written forms': {
    capability: 'phone',
    item: (n) => {
      const t = seven(n);
      return { phone: [`333-${t.slice(0, 3)}-${t.slice(3)}`, `02/${t}`, `(02) ${t}`, `333.${t}`, `+39 02 ${t}`, `0039 333 ${t}`][n % 6] };
    },
  },
  'tax-code validate': { capability: 'tax-code', item: (n) => ({ action: 'validate', tax_code: CODES[n % CODES.length] }) },
  'email gmail.com': { capability: 'email', item: (n) => ({ email: `mario.rossi${n}@gmail.com`, dns: false }) },
  'email business domains': { capability: 'email', item: (n) => ({ email: `m.rossi@studio${['rossi', 'bianchi', 'verdi'][n % 3]}${n}.it`, dns: false }) },
};

interface Capability {
  item: { parse(v: unknown): unknown };
  units(item: unknown): number;
  run(items: unknown[], ctx: object): Promise<unknown[]>;
}

/** CPU time this process has used, µs (user and system, every thread). */
function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** In the child: µs per call of every set, in the build under `root`. */
async function child(root: string, register: string): Promise<void> {
  const load = async (rel: string) => (await import(path.join(root, 'dist', rel))) as Record<string, unknown>;
  const caps: Record<string, Capability> = {
    phone: (await load('src/phone/service.js')).capability as Capability,
    'tax-code': (await load('src/tax-code/service.js')).capability as Capability,
    email: (await load('src/email/service.js')).capability as Capability,
  };
  const native = await load('src/native.js');
  (native.openRegister as (dir: string, reopen: boolean) => void)(register, true);
  const dataDir = await ((await load('test/helpers/light.js')).contactDataDir as () => Promise<string>)();
  const ctx = { language: 'it', dataDir, allowPrivateNetwork: false };
  const out: Record<string, number> = {};
  for (const [name, set] of Object.entries(SETS)) {
    const cap = caps[set.capability]!;
    const run = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++) {
        const item = cap.item.parse(set.item(n));
        cap.units(item);
        await cap.run([item], ctx);
      }
    };
    await run(CALLS, 5_000);
    const parse = cpuMicros();
    for (let n = 0; n < CALLS; n++) cap.item.parse(set.item(n));
    const parsing = cpuMicros() - parse;
    const start = cpuMicros();
    await run(0, CALLS);
    // the schema's parse is the request path's, not the call's own work
    out[name] = (cpuMicros() - start - parsing) / CALLS;
  }
  console.log(JSON.stringify(out));
}

async function main(): Promise<void> {
  const [role, root, register] = process.argv.slice(2);
  if (role === 'child') return child(root!, register!);
  const other = process.env.RECAPITO_AB_ROOT;
  if (!other) throw new Error('RECAPITO_AB_ROOT=<another checkout, built> is required');
  const rounds = Number(role ?? 3);
  const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const builds: [string, string][] = [
    [path.basename(path.resolve(other)), path.resolve(other)],
    ['this build', here],
  ];
  const shared = await sharedRegister();
  const results = new Map<string, Record<string, number>[]>(builds.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, root] of r % 2 ? [...builds].reverse() : builds) {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'child', root, shared], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`${name}: ${run.stderr}`);
      results.get(name)!.push(JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, number>);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [peer, ours] = builds.map(([name]) => results.get(name)!);
  console.log(`own work per single call, µs (median of ${rounds} rounds, ${CALLS} distinct calls each; schema parse left out)`);
  console.table(
    Object.keys(SETS).map((set) => {
      const a = median(peer!.map((r) => r[set]!));
      const b = median(ours!.map((r) => r[set]!));
      return { call: set, [builds[0]![0]]: a.toFixed(2), 'this build': b.toFixed(2), ratio: `${(a / b).toFixed(2)}×` };
    }),
  );
}

await main();
