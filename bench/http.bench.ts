/**
 * HTTP load with a real client (autocannon) against a real server process on loopback: single-call latency
 * p50/p99 and requests/s for a contact verification and a phone verification, and a 500-contact batch.
 * The reference row is the throughput the spec reports for the service we replace (informational).
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createGunzip } from 'node:zlib';

import { parse } from 'csv-parse';

import { createAccount, createToken } from '../src/account/tokens.js';
import { addPack } from '../src/credit/ledger.js';
import { closeState, openState } from '../src/state/db.js';
import { startServerProcess } from '../test/helpers/process.js';
import { SOURCE, freshDataDir } from '../test/helpers/server.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  setupRequest?: (req: { body?: string }) => { body?: string };
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

/** Real Bologna house numbers as people would type them. */
async function addresses(n: number): Promise<{ address: string; postcode: string; city: string }[]> {
  const out: { address: string; postcode: string; city: string }[] = [];
  const rows = createReadStream(path.join(SOURCE, 'it/civici/bologna/civici_2012.csv.gz')).pipe(createGunzip()).pipe(parse({ columns: true }));
  let i = 0;
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    if (i++ % 37 !== 0 || !row.DENOMINAZI || row.CAP === '0') continue;
    out.push({ address: `${row.DENOMINAZI} ${row.NCIVSUB}`, postcode: row.CAP ?? '', city: 'Bologna' });
    if (out.length >= n) break;
  }
  return out;
}

async function main(): Promise<void> {
  const dataDir = await freshDataDir();
  const db = openState(dataDir);
  createAccount(db, 'load');
  addPack(db, 'load', 'contact', 50_000_000);
  addPack(db, 'load', 'light', 50_000_000);
  const token = createToken(db, 'load').token;
  const server = await startServerProcess(dataDir, { RECAPITO_RATE_SINGLE: '100000000', RECAPITO_RATE_BATCH: '100000000' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const sample = await addresses(2000);
  let k = 0;
  const nextContact = () => JSON.stringify(sample[k++ % sample.length]);
  const batch = JSON.stringify({ items: sample.slice(0, 500) });
  const rows: Record<string, string | number>[] = [];
  const run = async (name: string, request: AutocannonRequest, connections: number, perRequest = 1) => {
    const r = await autocannon({ url: server.url, connections, duration: DURATION, requests: [request] });
    rows.push({
      call: name,
      connections,
      'req/s': Math.round(r.requests.average),
      'verifications/s': Math.round(r.requests.average * perRequest),
      'p50 ms': r.latency.p50,
      'p99 ms': r.latency.p99,
      'non-2xx': r.non2xx,
      errors: r.errors,
    });
  };
  try {
    await run('POST /contact single', { method: 'POST', path: '/api/v1/contact', headers, setupRequest: (req) => ({ ...req, body: nextContact() }) }, 1);
    await run('POST /contact single', { method: 'POST', path: '/api/v1/contact', headers, setupRequest: (req) => ({ ...req, body: nextContact() }) }, 16);
    await run('POST /phone single', { method: 'POST', path: '/api/v1/phone', headers, setupRequest: (req) => ({ ...req, body: JSON.stringify({ phone: `02 ${1000000 + (k++ % 8999999)}` }) }) }, 16);
    await run('POST /contact batch of 500', { method: 'POST', path: '/api/v1/contact', headers, setupRequest: (req) => ({ ...req, body: batch }) }, 4, 500);
    rows.push({ call: 'reference: spec-reported service', connections: '-', 'req/s': '-', 'verifications/s': 200, 'p50 ms': 60, 'p99 ms': '-', 'non-2xx': '-', errors: '-' });
    console.table(rows);
    console.log(`server peak RSS ${server.peakRssMiB()} MiB`);
  } finally {
    server.child.kill('SIGTERM');
    await closeState(dataDir);
  }
}

await main();
