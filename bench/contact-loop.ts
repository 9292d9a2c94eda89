/**
 * What a single contact's own work costs the event loop (issue 14), without the HTTP path around it:
 * distinct Bologna house numbers sent through the capability's `run` one contact per call,
 * `k` calls per event-loop turn (as `k` connections would), against the way before the turn batches
 * (each call verified on the event loop with the Sync door, JSON text each way), in one process.
 * CPU per call is read per thread from /proc (the event loop is the thread whose id is the pid),
 * so it barely moves with other load on the machine; the turn's wall time (p50, p99) is the latency a
 * call adds. Not part of `npm run bench` (a diagnostic):
 *
 *   node dist/bench/contact-loop.js [seconds per row]
 *
 * Run from a copy of another build (its dist, bin, package.json and addon) to compare builds, with
 * RECAPITO_DATA_DIR=<this tree's .tmp/test-register> (the tests' register).
 */
import { readdirSync, readFileSync } from 'node:fs';

import { capability, nativeContact, nativeOptions, present } from '../src/contact/service.js';
import type { ContactItem } from '../src/contact/schema.js';
import { openRegister, verifyContactsSync, type ContactResult } from '../src/native.js';
import { sharedRegister } from '../test/helpers/server.js';
import { bolognaSample } from './bologna-contacts.js';

/** CPU ms (user + system) of the event loop and of the process's other threads. */
function cpuMs(): { loop: number; others: number } {
  let loop = 0;
  let others = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    if (tid === String(process.pid)) loop += ms;
    else others += ms;
  }
  return { loop, others };
}

/** The single call before the turn batches: a known place verified on the event loop. */
function onTheLoop(item: ContactItem): ContactResult {
  const options = nativeOptions(item);
  const [r] = verifyContactsSync({ items: [nativeContact(item)], options });
  return r as ContactResult;
}

type Way = (turn: ContactItem[]) => Promise<unknown>;

/** What `run` is told about the call: English answers, as the bench always asked. */
const RUN = { language: 'en' as const, dataDir: '', allowPrivateNetwork: false };

const WAYS: Record<string, Way> = {
  'on the event loop (Sync door, before)': async (turn) => turn.map((item) => present(onTheLoop(item), 'en')),
  'turn batches (capability.run)': (turn) => Promise.all(turn.map((item) => capability.run([item], RUN))),
};

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function row(way: string, run: Way, items: ContactItem[], perTurn: number, seconds: number): Promise<Record<string, string | number>> {
  const turns: number[] = [];
  const before = cpuMs();
  const t0 = performance.now();
  let calls = 0;
  for (let at = 0; performance.now() - t0 < seconds * 1000; at = (at + perTurn) % (items.length - perTurn)) {
    const start = performance.now();
    await run(items.slice(at, at + perTurn));
    turns.push(performance.now() - start);
    calls += perTurn;
  }
  const after = cpuMs();
  turns.sort((a, b) => a - b);
  const loop = ((after.loop - before.loop) * 1000) / calls;
  const others = ((after.others - before.others) * 1000) / calls;
  return {
    way,
    'calls per turn': perTurn,
    calls,
    'event loop µs/call': loop.toFixed(1),
    'other threads µs/call': others.toFixed(1),
    'sum µs/call': (loop + others).toFixed(1),
    'turn p50 ms': quantile(turns, 0.5).toFixed(2),
    'turn p99 ms': quantile(turns, 0.99).toFixed(2),
  };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 4);
  openRegister(process.env.RECAPITO_DATA_DIR ?? (await sharedRegister()));
  const items = (await bolognaSample(4000)) as ContactItem[];
  // every place seen once, so that both ways verify known places (a first place goes to the pool alone)
  for (const item of items) await capability.run([item], RUN);
  const rows = [];
  for (const perTurn of [1, 8, 32]) {
    for (const [way, run] of Object.entries(WAYS)) rows.push(await row(way, run, items, perTurn, seconds));
  }
  console.table(rows);
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

await main();
