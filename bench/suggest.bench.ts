/**
 * Autocomplete latency over HTTP on loopback (real server, test register): the streets phase (prefix, typo,
 * one free-text field), the house-number phase, and beside them the peer on the same machinery: one
 * POST /contact of the same street (the engine select runs). Sessions rotate every 30 calls and tokens
 * every 150 sessions, so that the session quota and the daily budget are never what is measured.
 */
import { randomUUID } from 'node:crypto';

import { Bench } from 'tinybench';

import { addPack } from '../src/state/ledger.js';
import { call, startServer } from '../test/helpers/server.js';
import { taskStats } from './stats.js';

const server = await startServer({ rateLimits: { single: 1e9, batch: 1e9, autocomplete: 1e9 } });
await addPack(server.state, 'test', 'contact', 1_000_000);

let token = server.token;
let session = randomUUID();
// tokens made ahead: a token opens 200 free sessions a day, the bench rotates to the next every 150; one
// account each, since an account holds at most RECAPITO_MAX_TOKENS_PER_ACCOUNT live tokens
const spare = await Promise.all(
  Array.from({ length: 100 }, async (_, i) => {
    const spareToken = await server.newToken(`bench-${i}`);
    await addPack(server.state, `bench-${i}`, 'contact', 10_000);
    return spareToken;
  }),
);
let calls = 0;
let sessions = 0;
function next(): { session: string; token: string } {
  if (++calls > 30) {
    calls = 1;
    session = randomUUID();
    if (++sessions % 150 === 0) token = spare.shift() ?? token;
  }
  return { session, token };
}

async function suggest(body: Record<string, unknown>): Promise<unknown> {
  const s = next();
  const res = await call(server, 'POST', '/api/v1/suggest', { session: s.session, ...body }, { token: s.token });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// a session with Via del Faggiolo selected, renewed before its 30 calls run out
let selected = { session: '', street: '', calls: 30 };
async function houseNumbers(typed: string): Promise<void> {
  if (selected.calls >= 28) {
    const s = randomUUID();
    const found = (await call(server, 'POST', '/api/v1/suggest', { session: s, q: 'via del faggiolo', city: 'Bologna' })).body as { hints: { id: string }[] };
    const street = found.hints[0]?.id ?? '';
    await call(server, 'POST', '/api/v1/suggest', { session: s, action: 'select', street_id: street, house_number: '5' });
    selected = { session: s, street, calls: 2 };
  }
  selected.calls += 1;
  const res = await call(server, 'POST', '/api/v1/suggest', { session: selected.session, street_id: selected.street, house_number: typed });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
}

const PREFIXES = ['via del fag', 'via norman', 'piazza maggi', 'via rizz', 'strada maggiore', 'via indipendenza', 'via san vitale'];
let k = 0;
const bench = new Bench({ time: 1500, warmupTime: 200 });
bench
  .add('suggest: streets, prefix + city field', async () => {
    await suggest({ q: PREFIXES[k++ % PREFIXES.length], city: 'Bologna' });
  })
  .add('suggest: streets, typo', async () => {
    await suggest({ q: 'via del fagiolo', city: 'Bologna' });
  })
  .add('suggest: one field (street number, postcode city)', async () => {
    await suggest({ q: 'Via del Faggiolo 7, 40132 Bologna' });
  })
  .add('suggest: house numbers of the selected street', async () => {
    await houseNumbers(String(1 + (k++ % 9)));
  })
  .add('peer: POST /contact, same street and number', async () => {
    const res = await call(server, 'POST', '/api/v1/contact', { address: 'Via del Faggiolo 7', city: 'Bologna' });
    if (res.status !== 200) throw new Error(String(res.status));
  });
await bench.run();
console.log('one HTTP call per operation, 127.0.0.1, one connection');
console.table(
  bench.tasks.map((task) => {
    const s = taskStats(task);
    return {
      task: task.name,
      'calls/s': Number(s.hz.toFixed(0)),
      'mean ms': Number(s.mean.toFixed(2)),
      'p50 ms': Number(s.p50.toFixed(2)),
      'p99 ms': Number(s.p99.toFixed(2)),
    };
  }),
);
await server.close();
