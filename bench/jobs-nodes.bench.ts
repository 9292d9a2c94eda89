/**
 * Job rows/s in one run: one node on LMDB (the embedded default, the reference row), then one and two
 * nodes on PostgreSQL (a throwaway cluster) sharing the job store and pg-boss queue. Each node runs
 * RECAPITO_JOB_WORKERS threads (default 1 here, so that two nodes are two executors on this machine).
 */
import { createAccount, createToken } from '../src/account/tokens.js';
import { addPack } from '../src/credit/ledger.js';
import { openStore } from '../src/state/open.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { bolognaContacts } from './bologna-contacts.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const WORKERS = process.env.BENCH_JOB_WORKERS ?? '1';

const phones = Array.from({ length: ROWS }, (_, i) => ({ id: i, phone: i % 4 === 0 ? `333 ${String(1000000 + i)}` : `02 ${String(1000000 + (i % 8999999))}` }));

interface Setup {
  label: string;
  nodes: number;
  stateUrl?: () => Promise<string>;
}

/** Queues a job on the first node and polls it until done: rows/s from the POST to completion. */
async function drain(servers: ServerProcess[], token: string, endpoint: string, items: unknown[]): Promise<{ seconds: number; state: string }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const t0 = performance.now();
  const queued = (await (await fetch(`${servers[0]?.url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify({ async: true, items }) })).json()) as { job: string };
  let state = 'queued';
  for (let i = 0; state !== 'completed' && state !== 'failed'; i++) {
    // reads go round the nodes, as behind a load balancer
    const r = (await (await fetch(`${servers[i % servers.length]?.url}${endpoint}?job=${queued.job}`, { headers })).json()) as { state: string };
    state = r.state;
    await new Promise((r2) => setTimeout(r2, 100));
  }
  return { seconds: (performance.now() - t0) / 1000, state };
}

async function main(): Promise<void> {
  const cluster = await startPostgres();
  const addresses = await bolognaContacts(ROWS);
  const setups: Setup[] = [
    { label: 'LMDB', nodes: 1 },
    { label: 'PostgreSQL', nodes: 1, stateUrl: () => cluster.createDatabase() },
    { label: 'PostgreSQL', nodes: 2, stateUrl: () => cluster.createDatabase() },
  ];
  const table: Record<string, string | number>[] = [];
  const reference = new Map<string, number>();
  try {
    for (const setup of setups) {
      const dataDir = await freshDataDir();
      const url = setup.stateUrl ? await setup.stateUrl() : undefined;
      const db = await openStore(dataDir, url);
      await createAccount(db, 'bench');
      await addPack(db, 'bench', 'light', ROWS * 2);
      await addPack(db, 'bench', 'contact', ROWS * 2);
      const token = (await createToken(db, 'bench')).token;
      const env: Record<string, string> = { RECAPITO_RATE_SINGLE: '100000', RECAPITO_RATE_BATCH: '100000', RECAPITO_JOB_WORKERS: WORKERS };
      if (url) env.RECAPITO_STATE_URL = url;
      // on LMDB the one node uses the data dir the account was made in; on PostgreSQL each node has its own
      const servers: ServerProcess[] = [];
      if (!url) await db.close();
      for (let i = 0; i < setup.nodes; i++) servers.push(await startServerProcess(url && i > 0 ? await freshDataDir() : dataDir, env));
      try {
        for (const [endpoint, items] of [
          ['/api/v1/phone', phones],
          ['/api/v1/contact', addresses],
        ] as const) {
          const { seconds, state } = await drain(servers, token, endpoint, items);
          const rate = ROWS / seconds;
          if (!setup.stateUrl) reference.set(endpoint, rate);
          table.push({
            'back end': setup.label,
            nodes: setup.nodes,
            endpoint: `${endpoint} (async)`,
            rows: ROWS,
            state,
            'total s': seconds.toFixed(1),
            'rows/s': Math.round(rate),
            'vs LMDB 1 node': (rate / (reference.get(endpoint) ?? rate)).toFixed(2),
          });
        }
      } finally {
        for (const s of servers) s.child.kill('SIGTERM');
        await Promise.all(servers.map((s) => new Promise((r) => s.child.once('exit', r))));
        await db.close();
      }
    }
    console.log(`job throughput, ${ROWS} rows per job, ${WORKERS} job thread(s) per node, ${process.env.RECAPITO_JOB_LEASE_S ?? 30} s lease`);
    console.table(table);
  } finally {
    await cluster.stop();
  }
}

await main();
