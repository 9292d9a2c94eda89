/**
 * A/B of POST /api/v1/contact between two builds of recapito in one run: a single call at 32 connections
 * and the 500-contact batch at 4, each server in turn (order alternating by round) beside a bare Fastify
 * endpoint, with the server's own CPU per request read from /proc (less noisy than req/s on a shared
 * machine). Inputs are Bologna's house numbers as `http.bench.ts` sends them; each server has a data dir
 * of its own on disk. Not part of `npm run bench` (a tool for a change's before/after):
 *
 *   node dist/bench/contact-ab.js <project root A> <project root B> [seconds] [rounds] [foreign]
 *
 * With `foreign`, the contacts are the foreign rows of `data/foreign-lines.tsv` (issue 30's first tries)
 * instead of Bologna's, and the batch of 500 is measured for each kind of row issue 30's throughput bar
 * names: all the foreign rows, the rows without a country (`foreign: detect`: detected, or the country
 * written as a name) and the rows with the country given; the last lines compare A and B per call
 * (server CPU per request, B / A).
 *
 * A project root holds package.json, bin/recapito.js, dist/ and the addon (node_modules may be a link).
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createAccount, createToken } from '../src/state/tokens.js';
import { addPack } from '../src/state/ledger.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startListening } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import { autocannon } from './autocannon.js';
import { bolognaSample } from './bologna-contacts.js';
import { rows as foreignRows } from './foreign-first-tries.js';

/** `n` contacts cycling over the foreign rows of `data/foreign-lines.tsv` (those of `kinds`, all by
 * default), as customers send them. */
function foreignSample(n: number, kinds = ['given', 'detect', 'named']): Record<string, string>[] {
  const rows = foreignRows().filter((r) => kinds.includes(r.kind));
  return Array.from({ length: n }, (_, i) => {
    const r = rows[i % rows.length]!;
    const item: Record<string, string> = { address: r.address };
    if (r.postcode) item.postcode = r.postcode;
    if (r.city) item.city = r.city;
    if (r.country) item.country = r.country;
    else item.foreign = 'detect';
    return item;
  });
}

const [rootA, rootB, secondsArg, roundsArg, sampleArg] = process.argv.slice(2);
const SECONDS = Number(secondsArg ?? 5);
const ROUNDS = Number(roundsArg ?? 2);



/** User + system CPU of a process so far, in µs (clock ticks of /proc/<pid>/stat, 100 a second). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function server(root: string): Promise<{ child: ChildProcess; url: string; token: string; dataDir: string }> {
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined);
  await createAccount(db, 'load');
  await addPack(db, 'load', 'contact', 50_000_000);
  const token = (await createToken(db, 'load')).token;
  await closeState(dataDir);
  const rates = { RECAPITO_RATE_SINGLE: '1000000000', RECAPITO_RATE_BATCH: '1000000000', RECAPITO_RATE_AUTOCOMPLETE: '1000000000' };
  const s = await startListening([path.join(path.resolve(root), 'bin', 'recapito.js'), '--data-dir', dataDir, 'serve', '--port', '0'], rates);
  return { ...s, token, dataDir };
}

async function main(): Promise<void> {
  if (!rootA || !rootB) throw new Error('usage: contact-ab.js <root A> <root B> [seconds] [rounds]');
  // `foreign`: the first-tries set's foreign rows (one-liners in twenty countries, postal form and registers)
  const foreign = sampleArg === 'foreign';
  const sample = foreign ? foreignSample(2000) : await bolognaSample(2000);
  const servers = { A: await server(rootA), B: await server(rootB) };
  const bare = await startListening([path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.js')]);
  let n = 0;
  const load = (url: string, token: string, route: string, body: () => string, connections: number, seconds = SECONDS) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    return autocannon({ url, connections, duration: seconds, requests: [{ method: 'POST', path: route, headers, setupRequest: (req) => ({ ...req, body: body(), headers }) }] });
  };
  const single = () => JSON.stringify(sample[n++ % sample.length]);
  const batch = JSON.stringify({ items: sample.slice(0, 500) });
  const calls: [string, () => string, number, number][] = [
    ['single, 32 connections', single, 32, 1],
    [foreign ? 'batch of 500 foreign rows, 4 connections' : 'batch of 500, 4 connections', () => batch, 4, 500],
  ];
  if (foreign) {
    const detected = JSON.stringify({ items: foreignSample(500, ['detect', 'named']) });
    const given = JSON.stringify({ items: foreignSample(500, ['given']) });
    calls.push(['batch of 500 detect + named rows, 4 connections', () => detected, 4, 500]);
    calls.push(['batch of 500 country-given rows, 4 connections', () => given, 4, 500]);
  }
  type Row = { build: string; call: string; 'req/s': number; 'verifications/s'?: number; 'p50 ms': number; 'p99 ms': number; 'server CPU µs/req': number; 'non-2xx': number; load: string };
  const rows: Row[] = [];
  const bareRps: number[] = [];
  try {
    for (const [, s] of Object.entries(servers)) await load(s.url, s.token, '/api/v1/contact', single, 32, 2); // warm-up
    await load(bare.url, '', '/echo', single, 32, 2);
    for (let round = 0; round < ROUNDS; round++) {
      const b = await load(bare.url, '', '/echo', single, 32);
      bareRps.push(b.requests.average);
      const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      for (const name of order) {
        const s = servers[name];
        const pid = s.child.pid as number;
        for (const [call, body, connections, items] of calls) {
          const cpu0 = cpuMicros(pid);
          const r = await load(s.url, s.token, '/api/v1/contact', body, connections);
          const cpu = cpuMicros(pid) - cpu0;
          const row: Row = {
            build: name,
            call,
            'req/s': Math.round(r.requests.average),
            'p50 ms': r.latency.p50,
            'p99 ms': r.latency.p99,
            'server CPU µs/req': Math.round(cpu / Math.max(1, r.requests.total)),
            'non-2xx': r.non2xx + r.errors + r.timeouts,
            load: os.loadavg()[0]!.toFixed(1),
          };
          if (items > 1) row['verifications/s'] = Math.round(r.requests.average * items);
          rows.push(row);
        }
      }
    }
    console.table(rows);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const bareMean = mean(bareRps);
    console.log(`bare Fastify POST /echo, 32 connections: ${bareRps.map(Math.round).join(', ')} req/s (mean ${Math.round(bareMean)})`);
    for (const name of ['A', 'B']) {
      const singles = rows.filter((r) => r.build === name && r.call.startsWith('single'));
      const batches = rows.filter((r) => r.build === name && r.call.startsWith('batch'));
      console.log(
        `${name} (${name === 'A' ? rootA : rootB}): single ${Math.round(mean(singles.map((r) => r['req/s'])))} req/s = ${((mean(singles.map((r) => r['req/s'])) / bareMean) * 100).toFixed(1)}% of bare, ` +
          `${Math.round(mean(singles.map((r) => r['server CPU µs/req'])))} µs CPU/req; batch ${Math.round(mean(batches.map((r) => r['verifications/s'] ?? 0)))} verifications/s`,
      );
    }
    for (const [call] of calls) {
      const cpu = (name: string) => mean(rows.filter((r) => r.build === name && r.call === call).map((r) => r['server CPU µs/req']));
      console.log(`${call}: server CPU per request A ${Math.round(cpu('A'))} µs, B ${Math.round(cpu('B'))} µs (B / A ${(cpu('B') / Math.max(1, cpu('A'))).toFixed(2)})`);
    }
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    for (const s of [servers.A, servers.B, bare]) s.child.kill('SIGTERM');
  }
}

await main();
