/**
 * HTTP load with a real client (autocannon) against a real server process on loopback, data dir on disk:
 * single calls of phone, tax-code validate, email (dns false), contact and suggest at 1 and 32 connections,
 * each beside a bare Fastify JSON endpoint started as its own process in the same run (ratio of req/s), and
 * the 500-contact batch. Inputs come from the shared open data (district prefixes, Bologna's house numbers,
 * first names, free-mail domains). The bare endpoint is measured at the start and at the end of the run and
 * the ratio uses the mean, so that load from elsewhere on the machine shows as a spread instead of a bias.
 * A last row measures the durable group commit alone on the same disk (32 writers, no HTTP): the ceiling
 * of any durable single call at 32 connections in that moment. Another measures phone with the server's state on
 * tmpfs, where a flush costs nothing: what the call could reach if durability were free, whoever wrote the state.
 * The disk line gives one durable LMDB commit at a time (LMDB flushes twice a commit) beside a bare fdatasync.
 *
 * BENCH_SECONDS (default 10) per measurement; BENCH_ONLY=phone,contact limits the endpoints (and `tmpfs`, `batch` the rows).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fdatasyncSync, mkdtempSync, openSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parse as parseSync } from 'csv-parse/sync';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { batchedWrite } from '../src/state/commit.js';
import { closeState, openState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import type { StateStore } from '../src/state/store.js';
import { startListening, startServerProcess } from '../test/helpers/process.js';
import { SOURCE, freshDataDir } from '../test/helpers/server.js';
import { codiceFiscale } from '../test/helpers/tax-code.js';
import { autocannon } from './autocannon.js';
import { bolognaSample } from './bologna-contacts.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const CONNECTIONS = [1, 32];
/** The issue's bar: req/s as a share of the bare endpoint, p99 at 32 connections. */
const BAR_RATIO = 0.4;
const BAR_P99_MS = 10;

const pick = <T>(list: T[], i: number): T => list[i % list.length]!;

async function sharedCsv(...p: string[]): Promise<Record<string, string>[]> {
  return parseSync(await readFile(path.join(SOURCE, ...p), 'utf8'), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Record<string, string>[];
}


/** fdatasync latency of the disk under the data dir (ms): the floor of a durable answer, measured in the run. */
function fsyncLatency(dir: string): { p50: number; p99: number } {
  const file = path.join(dir, 'fsync-probe.bin');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(4096, 1);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    writeSync(fd, block, 0, block.length, (i % 16) * 4096);
    fdatasyncSync(fd);
    times.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(file);
  times.sort((a, b) => a - b);
  return { p50: Number(times[100]!.toFixed(2)), p99: Number(times[198]!.toFixed(2)) };
}

/**
 * What the disk allows a durable single call at 32 connections, whatever the service does around it: 32
 * writers in this process, each putting one counter in the shared group commit (src/state/commit.ts) and
 * waiting until it is on disk before the next, in an LMDB environment of its own under the data dir.
 * No answer can be both durable and faster than this floor on this disk at this moment.
 */
async function groupCommitFloor(dir: string, writers: number, seconds: number): Promise<{ rps: number; p50: number; p99: number }> {
  const probeDir = mkdtempSync(path.join(dir, 'commit-probe-'));
  const db = openState(probeDir);
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < end; i++) {
        const t = performance.now();
        await batchedWrite(db, () => void db.kv.put(`writer/${w}`, i)).durable;
        times.push(performance.now() - t);
      }
    }),
  );
  await closeState(probeDir);
  rmSync(probeDir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? 0).toFixed(1));
  return { rps: times.length / seconds, p50: at(0.5), p99: at(0.99) };
}

/**
 * A data dir whose state lives on tmpfs (/dev/shm), where a flush costs nothing: the same server there
 * shows what a single call could reach if durability were free — the ceiling of any durable design on this
 * machine, whoever writes the state. Undefined where there is no writable /dev/shm.
 */
async function tmpfsDataDir(): Promise<{ dir: string; remove(): void } | undefined> {
  if (!existsSync('/dev/shm')) return undefined;
  let state: string;
  try {
    state = mkdtempSync(path.join('/dev/shm', 'recapito-state-'));
  } catch {
    return undefined; // not writable here
  }
  const dir = await freshDataDir();
  symlinkSync(state, path.join(dir, 'state'));
  return { dir, remove: () => rmSync(state, { recursive: true, force: true }) };
}

/** The load account of a fresh data dir: credit enough for any run, one token for the calls. */
async function loadAccount(dataDir: string): Promise<{ db: StateStore; token: string }> {
  const db = await openStore(dataDir, undefined); // LMDB: the single-node baseline
  await createAccount(db, 'load');
  await addPack(db, 'load', 'contact', 50_000_000);
  await addPack(db, 'load', 'light', 50_000_000);
  return { db, token: (await createToken(db, 'load')).token };
}

interface Scenario {
  name: string;
  path: string;
  /** Body (and token) of the n-th request. */
  body: (n: number) => string;
  token?: (n: number) => string;
}

async function main(): Promise<void> {
  const dataDir = await freshDataDir();
  const { db, token } = await loadAccount(dataDir);
  // suggest: a session is 30 calls and a token opens 200 sessions a day without a selection
  const suggestTokens = await Promise.all(Array.from({ length: 400 }, async () => (await createToken(db, 'load')).token));
  const single = { RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000', RECAPITO_RATE_AUTOCOMPLETE: '1000000000' };
  const server = await startServerProcess(dataDir, single);
  const bare = await startListening([path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.js')]);

  const sample = await bolognaSample(2000);
  const prefixes = (await sharedCsv('contact', 'phone', 'it_prefissi_distretti.csv')).map((r) => r.prefisso!).filter((p) => /^0\d+$/.test(p));
  const mobiles = (await sharedCsv('contact', 'phone', 'it_mobile_prefix_operator.csv')).map((r) => r.prefisso_nazionale!);
  const phones = [...prefixes.map((p) => `${p} ${'4567890123'.slice(0, 10 - p.length)}`), ...mobiles.map((m) => `+39 ${m}${'1234567'.slice(0, 10 - m.length)}`)];
  const names = (await sharedCsv('contact', 'names', 'it_firstnames_gender_births_italiatools.csv')).filter((r) => r.gender_signal === '1').slice(0, 2000).map((r) => r.name!);
  const domains = (await sharedCsv('contact', 'email', 'it_freemail_isp_domains.csv')).map((r) => r.domain!);
  const CONSONANTS = 'BCDFGLMNPRSTVZ';
  const PLACES = ['H501', 'F205', 'A944', 'L219', 'F839', 'G273', 'D612', 'L736', 'A182', 'M208', 'B860', 'F991'];
  const taxCodes = Array.from({ length: 2000 }, (_, i) => {
    const c = (k: number) => CONSONANTS[(i * 7 + k * 13) % CONSONANTS.length];
    const year = String(40 + (i % 60)).padStart(2, '0');
    const day = String(1 + (i % 28) + (i % 2 ? 40 : 0)).padStart(2, '0');
    return codiceFiscale(`${c(1)}${c(2)}${c(3)}${c(4)}${c(5)}${c(6)}${year}${'ABCDEHLMPRST'[i % 12]}${day}${pick(PLACES, i)}`);
  });
  const streets = [...new Set(sample.map((a) => a.address.replace(/\s+\S+$/, '')))];

  const all: Scenario[] = [
    { name: 'phone', path: '/api/v1/phone', body: (n) => JSON.stringify({ phone: pick(phones, n * 7919) }) },
    { name: 'tax-code validate', path: '/api/v1/tax-code', body: (n) => JSON.stringify({ action: 'validate', tax_code: pick(taxCodes, n) }) },
    { name: 'email (dns false)', path: '/api/v1/email', body: (n) => JSON.stringify({ email: `${pick(names, n).toLowerCase()}.rossi@${pick(domains, n * 31)}`, dns: false }) },
    { name: 'contact', path: '/api/v1/contact', body: (n) => JSON.stringify(pick(sample, n)) },
    {
      name: 'suggest (streets)',
      path: '/api/v1/suggest',
      body: (n) => {
        const street = pick(streets, n);
        return JSON.stringify({ session: sessionOf(Math.floor(n / 30)), q: street.slice(0, 6 + (n % 8)).toLowerCase(), city: 'Bologna' });
      },
      token: (n) => pick(suggestTokens, Math.floor(n / (30 * 200))),
    },
  ];
  const scenarios = all.filter((s) => ONLY.length === 0 || ONLY.some((o) => s.name.startsWith(o)));
  const sessions = new Map<number, string>();
  function sessionOf(i: number): string {
    let s = sessions.get(i);
    if (!s) sessions.set(i, (s = randomUUID()));
    return s;
  }

  const headers = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
  // one numbering across every run, so that no suggest session or token is used past its quota
  let n = 0;
  const load = (url: string, scenario: Omit<Scenario, 'name'>, connections: number, seconds = DURATION) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: scenario.path,
          headers: headers(token),
          setupRequest: (req) => {
            const i = n++;
            return { ...req, body: scenario.body(i), headers: headers(scenario.token?.(i) ?? token) };
          },
        },
      ],
    });
  const bareScenario = { path: '/echo', body: (n: number) => JSON.stringify({ phone: pick(phones, n) }) };

  type Row = Record<string, string | number>;
  const rows: Row[] = [];
  const bareRuns = new Map<number, number[]>();
  const measureBare = async () => {
    for (const c of CONNECTIONS) {
      const r = await load(bare.url, bareScenario, c);
      bareRuns.set(c, [...(bareRuns.get(c) ?? []), r.requests.average]);
      rows.push({ call: 'bare Fastify POST /echo', connections: c, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx': r.non2xx, errors: r.errors + r.timeouts });
    }
  };
  const results: { row: Row; connections: number; rps: number; p99: number; bad: number }[] = [];
  const ceilingRows: { row: Row; rps: number }[] = [];
  try {
    await load(bare.url, bareScenario, 32, 2); // warm-up of the reference
    await measureBare();
    for (const s of scenarios) {
      await load(server.url, s, 32, 2); // warm-up: JIT, caches, LMDB pages
      for (const c of CONNECTIONS) {
        const r = await load(server.url, s, c);
        const row: Row = { call: `POST ${s.path} ${s.name}`, connections: c, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx': r.non2xx, errors: r.errors + r.timeouts };
        rows.push(row);
        results.push({ row, connections: c, rps: r.requests.average, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts });
      }
    }
    if (ONLY.length === 0 || ONLY.includes('batch')) {
      const batch = JSON.stringify({ items: sample.slice(0, 500) });
      const r = await load(server.url, { path: '/api/v1/contact', body: () => batch }, 4);
      rows.push({ call: 'POST /api/v1/contact batch of 500', connections: 4, 'req/s': Math.round(r.requests.average), 'verifications/s': Math.round(r.requests.average * 500), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx': r.non2xx, errors: r.errors + r.timeouts });
    }
    // the ceiling: phone with its state on tmpfs, where a flush costs nothing (the same build, the same path)
    const shm = ONLY.length === 0 || ONLY.includes('tmpfs') ? await tmpfsDataDir() : undefined;
    if (shm) {
      const ceiling = await loadAccount(shm.dir);
      const onTmpfs = await startServerProcess(shm.dir, single);
      try {
        const phone = all[0]!;
        const withToken = { ...phone, token: () => ceiling.token };
        await load(onTmpfs.url, withToken, 32, 2);
        const r = await load(onTmpfs.url, withToken, 32);
        const row: Row = { call: 'POST /api/v1/phone, state on tmpfs (flush free: the ceiling of any durable design)', connections: 32, 'req/s': Math.round(r.requests.average), 'p50 ms': r.latency.p50, 'p99 ms': r.latency.p99, 'non-2xx': r.non2xx, errors: r.errors + r.timeouts };
        rows.push(row);
        ceilingRows.push({ row, rps: r.requests.average });
      } finally {
        onTmpfs.child.kill('SIGTERM');
        await new Promise((resolve) => onTmpfs.child.once('exit', resolve));
        await closeState(shm.dir);
        shm.remove();
      }
    }
    const floor = await groupCommitFloor(dataDir, 32, DURATION);
    const oneCommit = await groupCommitFloor(dataDir, 1, 3);
    const floorRow: Row = { call: 'durable group commit alone (LMDB, 32 writers, no HTTP)', connections: 32, 'req/s': Math.round(floor.rps), 'p50 ms': floor.p50, 'p99 ms': floor.p99, 'non-2xx': 0, errors: 0 };
    rows.push(floorRow);
    await measureBare();
    const disk = fsyncLatency(dataDir);
    const bareMean = (c: number) => {
      const runs = bareRuns.get(c) ?? [];
      return runs.reduce((a, b) => a + b, 0) / Math.max(1, runs.length);
    };
    floorRow['% of bare'] = `${((floor.rps / bareMean(32)) * 100).toFixed(1)}%`;
    for (const c of ceilingRows) c.row['% of bare'] = `${((c.rps / bareMean(32)) * 100).toFixed(1)}%`;
    for (const r of results) {
      const ratio = r.rps / bareMean(r.connections);
      r.row['% of bare'] = `${(ratio * 100).toFixed(1)}%`;
      // the bar is read at 32 connections; one connection measures latency, bound by one fsync per answer
      if (r.connections >= 32) r.row.bar = ratio >= BAR_RATIO && r.bad === 0 && r.p99 <= BAR_P99_MS ? 'met' : 'NOT met';
    }
    console.table(rows);
    console.log(`bare Fastify req/s (start, end): ${CONNECTIONS.map((c) => `${c} conn ${(bareRuns.get(c) ?? []).map(Math.round).join(', ')}`).join('; ')}`);
    console.log(`bar: each single call ≥ ${BAR_RATIO * 100}% of bare req/s, p99 ≤ ${BAR_P99_MS} ms at 32 connections, no non-2xx`);
    console.log(`disk under the data dir: fdatasync p50 ${disk.p50} ms, p99 ${disk.p99} ms; one durable LMDB commit at a time (two flushes) p50 ${oneCommit.p50} ms, p99 ${oneCommit.p99} ms (measured after the runs); load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`server peak RSS ${server.peakRssMiB()} MiB`);
  } finally {
    server.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    await closeState(dataDir);
  }
}

await main();
