/**
 * Queue and drain a 100,000-row asynchronous job on a real server process: rows/s, peak RSS of the server, and
 * how responsive the HTTP side stays meanwhile (latency of small calls sent during the job).
 */
import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startServerProcess } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { bolognaContacts } from './bologna-contacts.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined); // LMDB: the single-node baseline
  await createAccount(db, 'bench');
  await addPack(db, 'bench', 'light', ROWS * 3);
  await addPack(db, 'bench', 'contact', ROWS);
  const token = (await createToken(db, 'bench')).token;
  const server = await startServerProcess(dataDir, { RECAPITO_RATE_SINGLE: '100000', RECAPITO_RATE_BATCH: '100000' });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const phones = Array.from({ length: ROWS }, (_, i) => ({ id: i, phone: i % 4 === 0 ? `333 ${String(1000000 + i)}` : `02 ${String(1000000 + (i % 8999999))}` }));
  const table: Record<string, string | number>[] = [];
  const drain = async (endpoint: string, items: unknown[]) => {
    const t0 = performance.now();
    const queued = (await (await fetch(`${server.url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify({ async: true, items }) })).json()) as { job: string };
    const queuedMs = performance.now() - t0;
    const latencies: number[] = [];
    let state = 'queued';
    while (state !== 'completed' && state !== 'failed') {
      const s = performance.now();
      const r = (await (await fetch(`${server.url}${endpoint}?job=${queued.job}`, { headers })).json()) as { state: string };
      latencies.push(performance.now() - s);
      state = r.state;
      await new Promise((r2) => setTimeout(r2, 100));
    }
    const totalMs = performance.now() - t0;
    latencies.sort((a, b) => a - b);
    table.push({
      endpoint: `${endpoint} (async)`,
      rows: items.length,
      state,
      'queue call ms': Math.round(queuedMs),
      'total s': (totalMs / 1000).toFixed(1),
      'rows/s': Math.round(items.length / (totalMs / 1000)),
      'server peak RSS MiB': server.peakRssMiB(),
      'job read p50 ms (during job)': percentile(latencies, 50).toFixed(1),
      'job read p99 ms (during job)': percentile(latencies, 99).toFixed(1),
    });
  };
  try {
    await drain('/api/v1/phone', phones);
    await drain('/api/v1/contact', await bolognaContacts(ROWS));
    console.table(table);
  } finally {
    server.child.kill('SIGTERM');
    await closeState(dataDir);
  }
}

await main();
