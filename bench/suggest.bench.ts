/**
 * Autocomplete latency over HTTP on loopback (real `recapito serve` in its own process, test register): the
 * streets phase (prefix, typo, one free-text field), the house-number phase, and beside them two peers on the
 * same machinery: one POST /contact of the same street (the engine select runs) and one POST /tax-code
 * validate, a counted call whose own work is a few microseconds (the floor of any authenticated call: token
 * check, count committed to disk, HTTP). The server runs apart from the client, as a customer's form is apart
 * from the service: in one process the client's fetch would share the server's event loop and add its own
 * cost to every figure. Sessions rotate every 30 calls and tokens every 150 sessions, so that the session
 * quota and the daily budget are never what is measured.
 */
import { randomUUID } from 'node:crypto';

import { Bench } from 'tinybench';

import { scenarioServer } from './http-scenarios.js';
import { taskStats } from './stats.js';

const server = await scenarioServer();
// a token opens 200 free sessions a day: the bench rotates to the next every 150
const tokens = [...server.tokens];
let token = tokens.shift() as string;
let session = randomUUID();
let calls = 0;
let sessions = 0;
function next(): { session: string; token: string } {
  if (++calls > 30) {
    calls = 1;
    session = randomUUID();
    if (++sessions % 150 === 0) token = tokens.shift() ?? token;
  }
  return { session, token };
}

async function post(path: string, body: Record<string, unknown>, bearer = token): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} ${res.status} ${text}`);
  return JSON.parse(text);
}

async function suggest(body: Record<string, unknown>): Promise<unknown> {
  const s = next();
  return post('/api/v1/suggest', { session: s.session, ...body }, s.token);
}

// a session with Via del Faggiolo selected, renewed before its 30 calls run out
let selected = { session: '', street: '', calls: 30 };
async function houseNumbers(typed: string): Promise<void> {
  if (selected.calls >= 28) {
    const s = randomUUID();
    const found = (await post('/api/v1/suggest', { session: s, q: 'via del faggiolo', city: 'Bologna' })) as { hints: { id: string }[] };
    const street = found.hints[0]?.id ?? '';
    await post('/api/v1/suggest', { session: s, action: 'select', street_id: street, house_number: '5' });
    selected = { session: s, street, calls: 2 };
  }
  selected.calls += 1;
  await post('/api/v1/suggest', { session: selected.session, street_id: selected.street, house_number: typed });
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
    await post('/api/v1/contact', { address: 'Via del Faggiolo 7', city: 'Bologna' });
  })
  .add('floor: POST /tax-code validate (a counted call doing nothing)', async () => {
    await post('/api/v1/tax-code', { action: 'validate', tax_code: 'RSSMRA80A01H501U' });
  });
try {
  await bench.run();
} finally {
  await server.stop();
}
console.log('one HTTP call per operation, 127.0.0.1, one connection, server in its own process');
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
