/**
 * What the request path costs the event loop above a bare Fastify endpoint (issue 14): event-loop CPU per
 * request of `bench/bare-server.ts` and of one single call (tax-code by default: its own work is ~5 µs), in
 * rounds that alternate the servers so that other load on the machine falls on each alike; the median of
 * the rounds per row, and the difference to the bare row. BEFORE_ENTRY=<another build's bin/recapito.js or
 * dist/src/cli/main.js> adds that build's rows (A/B in one sitting). A diagnostic, not part of `npm run bench`:
 *
 *   node dist/bench/path-cpu.js [call] [seconds] [rounds]
 */
import { loadavg } from 'node:os';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { startListening } from '../test/helpers/process.js';
import { scenarioServer, SCENARIOS } from './http-scenarios.js';
import { threadCost, type ThreadCost } from './thread-cpu.js';

const call = process.argv[2] ?? 'tax-code';
const seconds = Number(process.argv[3] ?? 5);
const rounds = Number(process.argv[4] ?? 3);
if (!SCENARIOS[call]) throw new Error(`one of ${Object.keys(SCENARIOS).join(', ')}`);

async function bare(): Promise<ThreadCost> {
  const { child, url } = await startListening([path.join(PROJECT_ROOT, 'dist', 'bench', 'bare-server.js')]);
  try {
    const body = JSON.stringify({ action: 'validate', tax_code: 'RSSMRA80A01H501U' });
    return await threadCost(child.pid!, url, () => [{ method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body }], seconds);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function recapito(entry: string | undefined): Promise<ThreadCost> {
  const previous = process.env.PROFILE_ENTRY;
  if (entry) process.env.PROFILE_ENTRY = entry;
  else delete process.env.PROFILE_ENTRY;
  const server = await scenarioServer();
  if (previous === undefined) delete process.env.PROFILE_ENTRY;
  else process.env.PROFILE_ENTRY = previous;
  try {
    return await threadCost(server.child.pid!, server.url, () => server.requests(call), seconds);
  } finally {
    await server.stop();
  }
}

const rows: { name: string; measure: () => Promise<ThreadCost> }[] = [
  { name: 'bare fastify', measure: bare },
  ...(process.env.BEFORE_ENTRY ? [{ name: `${call}, ${process.env.BEFORE_ENTRY}`, measure: () => recapito(process.env.BEFORE_ENTRY) }] : []),
  { name: `${call}, this build`, measure: () => recapito(undefined) },
];
const runs = rows.map(() => [] as ThreadCost[]);
const loads: number[] = [];
for (let r = 0; r < rounds; r++) {
  for (const [i, row] of rows.entries()) runs[i]!.push(await row.measure());
  loads.push(loadavg()[0]!);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bareLoop = median(runs[0]!.map((c) => c.loopUs));
console.table(
  rows.map((row, i) => {
    const loop = median(runs[i]!.map((c) => c.loopUs));
    return {
      server: row.name,
      'req/s (median)': Math.round(median(runs[i]!.map((c) => c.run.requests.average))),
      'non-2xx': runs[i]!.reduce((n, c) => n + c.run.non2xx, 0),
      'event loop µs/req (median)': loop.toFixed(1),
      'rounds µs/req': runs[i]!.map((c) => c.loopUs.toFixed(1)).join(' / '),
      'above bare µs/req': i === 0 ? '' : (loop - bareLoop).toFixed(1),
      'other threads µs/req': median(runs[i]!.map((c) => c.othersUs)).toFixed(1),
    };
  }),
);
console.log(`load average (1 min) after each round: ${loads.map((l) => l.toFixed(2)).join(', ')}`);
