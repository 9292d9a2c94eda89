/**
 * Faults (issue 15): SIGKILL during a dedupe job and during an import, a full disk while jobs write, a damaged
 * or missing register at start. After a restart: no job lost or duplicated, no charge lost or doubled, the
 * counters equal to what clients were answered. Real `recapito` processes on real data.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, openSync, readSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { createAccount, createToken } from '../src/state/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { addPack, current } from '../src/state/ledger.js';
import { listJobs } from '../src/jobs/store.js';
import { closeState, openState, type StateDb } from '../src/state/db.js';
import type { StateStore } from '../src/state/store.js';
import { processState } from './helpers/state-url.js';
import { SOURCE, sharedRegister } from './helpers/server.js';

const BIN = path.join(PROJECT_ROOT, 'bin', 'recapito.js');

interface Proc {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** The state each data dir's servers share with the test (its own PostgreSQL database under test:pg). */
const stateEnv = new Map<string, Record<string, string>>();

/** `recapito serve` on a random port; everything it prints is kept. */
function serve(dataDir: string, env: Record<string, string> = {}): Promise<Proc> {
  const child = spawn(process.execPath, [BIN, '--data-dir', dataDir, 'serve', '--port', '0', '--source', '/nonexistent'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RECAPITO_RATE_BATCH: '100000', RECAPITO_RATE_SINGLE: '100000', ...stateEnv.get(dataDir), ...env },
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m?.[1]) {
        clearInterval(poll);
        resolve({ child, url: m[1], output: () => out });
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
}

async function kill(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGKILL');
  await gone;
}

/** A data dir linking the shared register, with an account `acme` holding credit and its token. */
async function dataDirWithAccount(parent = os.tmpdir()): Promise<{ dir: string; db: StateDb; state: StateStore; token: string }> {
  const shared = await sharedRegister();
  const dir = mkdtempSync(path.join(parent, 'recapito-faults-'));
  for (const entry of readdirSync(shared)) if (entry !== 'stamp' && entry !== 'state') symlinkSync(path.join(shared, entry), path.join(dir, entry));
  const db = openState(dir);
  const { state, env } = await processState(dir);
  stateEnv.set(dir, env);
  await createAccount(state, 'acme');
  await addPack(state, 'acme', 'dedupe', 1_000_000);
  await addPack(state, 'acme', 'light', 10_000_000);
  return { dir, db, state, token: (await createToken(state, 'acme')).token };
}

async function api(p: Proc, token: string, method: string, pathAndQuery: string, body?: unknown): Promise<{ status: number; headers: Headers; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${p.url}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Dedupe records of people in Bologna: pairs written two ways, so the job finds groups and takes time. */
function dedupeRecords(n: number): Record<string, string>[] {
  const last = ['Rossi', 'Bianchi', 'Ferrari', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti'];
  const first = ['Mario', 'Luca', 'Giulia', 'Anna', 'Marco', 'Francesca', 'Paolo', 'Sara', 'Andrea', 'Elena'];
  const streets = ['Via Indipendenza', 'Via Rizzoli', 'Strada Maggiore', 'Via Zamboni', 'Via San Vitale', 'Via Saragozza', 'Via Mazzini'];
  return Array.from({ length: n }, (_, i) => {
    const k = Math.floor(i / 2);
    return {
      id: String(i + 1),
      last_name: last[k % last.length]!,
      first_name: first[(k * 7) % first.length]!,
      address: `${streets[k % streets.length]} ${(k % 90) + 1}${i % 2 ? '' : ','}`,
      postcode: '40126',
      city: i % 2 ? 'Bologna' : 'BOLOGNA',
    };
  });
}

test.serial('SIGKILL during a dedupe job: after restart the job completes once, charged once', async (t) => {
  const { dir, state, token } = await dataDirWithAccount();
  let server = await serve(dir);
  try {
    const records = dedupeRecords(4000);
    const queued = await api(server, token, 'POST', '/api/v1/dedupe', { async: true, records });
    t.is(queued.status, 200);
    const job = queued.body.job as string;
    t.is(Number(queued.headers.get('x-service-charged')), records.length);
    const atKill = await until(() => api(server, token, 'GET', `/api/v1/dedupe?job=${job}`), (r) => r.body.state !== 'queued', 30_000);
    await kill(server);
    t.is(atKill.body.state, 'running', 'killed while the job ran');

    server = await serve(dir);
    const done = await until(() => api(server, token, 'GET', `/api/v1/dedupe?job=${job}`), (r) => r.body.state === 'completed' || r.body.state === 'failed', 240_000);
    t.is(done.body.state, 'completed');
    t.is(done.body.count.records, records.length, 'every record in the result once');
    t.is((await current(state, 'acme', 'dedupe')).used_total, records.length, 'charged once: not refunded, not charged again');
  } finally {
    await kill(server);
    await state.close();
    await closeState(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

test.serial('SIGKILL during an import: serve refuses the half-built register with a clear message; the next import completes', async (t) => {
  const source = mkdtempSync(path.join(os.tmpdir(), 'recapito-source-'));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-import-'));
  try {
    // municipalities, countries, the streets of all Italy and the contact dictionaries: a real import of a few
    // seconds (without the streets it ends in about one, before the kill can land)
    mkdirSync(path.join(source, 'it'));
    for (const folder of ['comuni', 'esteri', 'anncsu_odonimi']) symlinkSync(path.join(SOURCE, 'it', folder), path.join(source, 'it', folder));
    if (existsSync(path.join(SOURCE, 'contact'))) symlinkSync(path.join(SOURCE, 'contact'), path.join(source, 'contact'));
    const importer = spawn(process.execPath, [BIN, '--data-dir', dir, 'import', '--source', source], { stdio: ['ignore', 'pipe', 'pipe'] });
    let progress = '';
    importer.stderr?.on('data', (c: Buffer) => (progress += c.toString()));
    await until(async () => progress, (p) => /import: /.test(p), 60_000);
    await new Promise((r) => setTimeout(r, 300));
    const gone = new Promise((r) => importer.once('exit', r));
    importer.kill('SIGKILL');
    await gone;

    const start = spawnSync(process.execPath, [BIN, '--data-dir', dir, 'serve', '--port', '0', '--source', '/nonexistent'], { encoding: 'utf8', timeout: 60_000 });
    if (start.status === null) t.fail('serve did not exit');
    t.not(start.status, 0, 'serve does not start on a half-built register');
    t.regex(start.stderr, /does not exist|is damaged/, start.stderr);
    t.false(existsSync(path.join(dir, 'state')), 'no state was created');

    const again = spawnSync(process.execPath, [BIN, '--data-dir', dir, 'import', '--source', source], { encoding: 'utf8', timeout: 600_000 });
    t.is(again.status, 0, again.stderr);
    const server = await serve(dir);
    try {
      const index = await fetch(`${server.url}/api/v1/`);
      t.is(index.status, 200);
    } finally {
      await kill(server);
    }
  } finally {
    rmSync(source, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test.serial('a damaged or missing register at start: a message naming the file, a non-zero exit, no state created', async (t) => {
  const shared = await sharedRegister();
  const root = mkdtempSync(path.join(os.tmpdir(), 'recapito-damaged-'));
  const real = path.join(shared, 'register', 'data.mdb');
  const head = Buffer.alloc(4_000_000);
  const fd = openSync(real, 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['garbage', (d) => writeFileSync(path.join(d, 'register', 'data.mdb'), Buffer.alloc(100_000, 7)), /data\.mdb is damaged: not an LMDB file/],
    ['truncated', (d) => writeFileSync(path.join(d, 'register', 'data.mdb'), head), /data\.mdb is damaged: truncated: 4000000 bytes/],
    ['empty', (d) => writeFileSync(path.join(d, 'register', 'data.mdb'), ''), /data\.mdb is damaged: 0 bytes/],
    ['bad dictionary', (d) => writeFileSync(path.join(d, 'contact', 'dictionaries.json'), '{"truncated'), /dictionaries\.json is damaged: not JSON/],
    ['no register, no source', (d) => rmSync(path.join(d, 'register'), { recursive: true }), /open data folder \/nonexistent does not exist/],
  ];
  try {
    for (const [name, damage, message] of cases) {
      const dir = path.join(root, name.replace(/\W/g, '-'));
      mkdirSync(path.join(dir, 'register'), { recursive: true });
      cpSync(path.join(shared, 'contact'), path.join(dir, 'contact'), { recursive: true });
      // the dictionary cases damage the dictionaries of a whole register
      if (/dictionary/.test(name)) symlinkSync(real, path.join(dir, 'register', 'data.mdb'));
      damage(dir);
      const run = spawnSync(process.execPath, [BIN, '--data-dir', dir, 'serve', '--port', '0', '--source', '/nonexistent'], { encoding: 'utf8', timeout: 60_000 });
      t.is(run.status, 1, `${name}: exit status (signal ${run.signal})`);
      t.regex(run.stderr, message, name);
      t.false(existsSync(path.join(dir, 'state')), `${name}: no state created`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

const MOUNT = path.join(os.tmpdir(), `recapito-full-disk-${process.pid}`);

function mountTmpfs(size: string): boolean {
  mkdirSync(MOUNT, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', MOUNT]).status === 0;
}

test.serial('a full disk while jobs write: the server stays up, refuses what it cannot store, and after space returns and a restart every job completes once, charged once', async (t) => {
  if (process.env.RECAPITO_STATE_URL) {
    // jobs (their input and results) then live in PostgreSQL: the node's disk holds none of them
    t.log('jobs live in PostgreSQL: the full-disk fault of the LMDB state does not apply');
    t.pass();
    return;
  }
  if (process.getuid?.() !== 0 || !mountTmpfs('3m')) {
    // documented in the report: the fault needs a small tmpfs, which needs root
    t.log('cannot mount a tmpfs here (needs root): full-disk fault not exercised');
    t.pass();
    return;
  }
  const { dir, db, state, token } = await dataDirWithAccount(MOUNT);
  let server = await serve(dir);
  try {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ phone: `06 ${1_000_000 + i}` }));
    const accepted: string[] = [];
    let charged = 0;
    for (let k = 0; k < 6; k++) {
      const before = (await current(state, 'acme', 'light')).used_total;
      const r = await api(server, token, 'POST', '/api/v1/phone', { async: true, items });
      if (r.status === 200) {
        accepted.push(r.body.job);
        charged += Number(r.headers.get('x-service-charged'));
      } else {
        t.is(r.status, 503, JSON.stringify(r.body));
        t.is(r.body.code, 'storage_unavailable');
        t.truthy(r.headers.get('retry-after'));
        t.is((await current(state, 'acme', 'light')).used_total, before, 'nothing charged for a job that could not be stored');
      }
    }
    t.true(accepted.length >= 1);
    // the jobs' results fill the 3 MiB: the writes fail, the process must live on
    await until(async () => server.output(), (o) => /cannot write|write failed/.test(o), 120_000);
    t.regex(server.output(), /cannot write|write failed/, 'the disk filled while jobs wrote');
    t.is(server.child.exitCode, null, 'the server is still running');
    const read = await api(server, token, 'GET', `/api/v1/phone?job=${accepted[0]}`);
    t.is(read.status, 200, 'reads still answered');

    // a second fault on top: SIGKILL, then space comes back and the service restarts
    await kill(server);
    t.is(spawnSync('mount', ['-o', 'remount,size=512m', MOUNT]).status, 0);
    server = await serve(dir);
    for (const job of accepted) {
      const r = await until(() => api(server, token, 'GET', `/api/v1/phone?job=${job}`), (x) => x.body.state === 'completed' || x.body.state === 'failed', 300_000);
      t.is(r.body.state, 'completed', job);
      t.is(r.body.done, items.length, `${job}: every row once`);
      t.is(r.body.refunded, 0);
    }
    const jobs = listJobs(db).filter((j) => j.account === 'acme');
    t.deepEqual(jobs.map((j) => j.job).sort(), [...accepted].sort(), 'no job lost, none duplicated');
    t.is((await current(state, 'acme', 'light')).used_total, charged, 'the ledger holds what the answers said, once');
  } finally {
    await kill(server);
    await state.close();
    await closeState(dir);
    spawnSync('umount', [MOUNT]);
    rmSync(MOUNT, { recursive: true, force: true });
  }
});

test.serial('tokens never reach the logs, valid or not', async (t) => {
  const { dir, token } = await dataDirWithAccount();
  const server = await serve(dir, { RECAPITO_LOG: '1' });
  try {
    await api(server, token, 'POST', '/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA85T10A562S' });
    await api(server, `${token}x`, 'POST', '/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA85T10A562S' });
    await api(server, token, 'POST', '/api/v1/tax-code', '{"broken');
    await new Promise((r) => setTimeout(r, 300));
    const out = server.output();
    t.regex(out, /"reqId"/, 'the server logged the requests');
    t.false(out.includes(token.slice(3)), 'the token appears nowhere in the log');
  } finally {
    await kill(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
