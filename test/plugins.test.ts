import test from 'ava';

import { capability as contactCapability } from '../src/contact/service.js';
import { consume, current, FREE_MONTHLY } from '../src/state/ledger.js';
import { chargedWork } from '../src/http/billing.js';
import { ALL_OUTCOMES, loadPlugins } from '../src/capabilities.js';
import type { ServicePlugin } from '../src/http/plugin.js';
import { finishResult, outcomeTable } from '../src/http/outcomes.js';
import { call, startServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let PLUGINS: ServicePlugin[];
test.before(async () => {
  PLUGINS = await loadPlugins();
  server = await startServer({ rateLimits: { single: 10_000, batch: 10_000, autocomplete: 10_000 } });
});
test.after.always(async () => server?.close());

test('every plugin path is served, listed in the index and described by OpenAPI, with its Italian alias', async (t) => {
  const openapi = await call(server, 'GET', '/api/v1/openapi.json', undefined, { token: null });
  const index = await call(server, 'GET', '/api/v1/', undefined, { token: null });
  const indexed = new Set(index.body.endpoints.flatMap((e: { path: string; italian_path: string | null }) => [e.path, e.italian_path]));
  let capabilities = 0;
  for (const plugin of PLUGINS) {
    const cap = plugin.capability;
    if (!cap) continue;
    capabilities++;
    t.deepEqual(plugin.counters, { [cap.name]: cap.counter });
    for (const path of cap.paths) {
      t.truthy(openapi.body.paths[path]?.post, `${path} in OpenAPI`);
      t.true(indexed.has(path), `${path} in the index`);
      for (const method of ['POST', 'GET', 'DELETE'] as const) t.true(server.service.app.hasRoute({ method, url: path }), `${method} ${path}`);
    }
  }
  t.is(capabilities, 6);
  for (const plugin of PLUGINS) {
    for (const entry of plugin.index ?? []) {
      const path = entry.path.replace(/[?[].*$/, '');
      t.true(server.service.app.hasRoute({ method: entry.method as 'GET' | 'POST', url: path }), `${entry.method} ${path} (${plugin.name})`);
      if (entry.italian_path) t.true(server.service.app.hasRoute({ method: entry.method as 'GET' | 'POST', url: entry.italian_path.replace(/\?.*$/, '') }), entry.italian_path);
    }
    for (const op of plugin.openapi ?? []) for (const path of op.paths) t.truthy(openapi.body.paths[path]?.post, `${path} in OpenAPI`);
  }
  // the credit report names every consuming endpoint of every plugin
  const credit = await call(server, 'GET', '/api/v1/credit');
  t.is(credit.status, 200);
  const counters = Object.assign({}, ...PLUGINS.map((p) => p.counters)) as Record<string, string>;
  t.true(Object.keys(counters).length >= 8);
  t.true(counters.suggest === 'contact' && counters.dedupe === 'dedupe' && counters.phone === 'light');
});

test('outcome tables are explicit values: each capability labels its real answers as the full catalogue does', async (t) => {
  // the codes of real answers are in the table the capability declares
  const answers = await call(server, 'POST', '/api/v1/contact', {
    items: [
      { address: 'Via del Faggiolo 7', postcode: '40132', city: 'Bologna' },
      { address: 'Via Indipendenza 99999', city: 'Bologna' },
      { address: 'Via Rizzoli 1', city: 'Bolgna', tax_code: 'RSSMRA80A01H501U', first_name: 'Anna', last_name: 'Bianchi' },
      { address: 'Piazza Maggiore', city: 'Nowhere', postcode: '00000' },
      { address: 'Unter den Linden 77', postcode: '10117', city: 'Berlin', country_code: 'DE' },
      { address: 'Casella postale 12', city: 'Roma' },
      { city: 'Bologna' },
    ],
  });
  t.is(answers.status, 200);
  for (const { result } of answers.body.results as { result: { outcome: string[] } }[]) {
    for (const code of result.outcome) t.truthy(contactCapability.outcomes[code], `${code} in contact's table`);
    const bare = { ...result, outcome_label: undefined, reason: undefined };
    t.deepEqual(finishResult(bare, 'en', contactCapability.outcomes), finishResult(bare, 'en', ALL_OUTCOMES));
  }
  // one code cannot mean two things
  t.throws(() => outcomeTable({ OK: { it: 'VA_BENE', label: 'ok', reason: ALL_OUTCOMES.OK!.reason } }), { message: /defined twice differently/ });
});

test('charge → work → refund: failed work gives its operations back; a refused charge runs nothing and undoes', async (t) => {
  const db = server.state;
  await server.newToken('sequence');
  const payer = { account: 'sequence' };
  const before = await current(db, 'sequence', 'light');
  const failure = await t.throwsAsync(
    chargedWork(db, { payer, counter: 'light', units: 3 }, async () => {
      throw new Error('the work failed');
    }),
  );
  t.is(failure?.message, 'the work failed');
  t.is((await current(db, 'sequence', 'light')).free_used, before.free_used, 'given back');
  // the same call when the work succeeds keeps its charge, on disk once it resolves
  const kept = await chargedWork(db, { payer, counter: 'light', units: 3 }, async () => 'verified');
  t.is(kept.value, 'verified');
  t.is(kept.charge.charged, 3);
  t.is((await current(db, 'sequence', 'light')).free_used, before.free_used + 3);

  await consume(db, 'sequence', 'light', FREE_MONTHLY.light - before.free_used - 3);
  let ran = false;
  let undone = false;
  const refused = await t.throwsAsync(
    chargedWork(
      db,
      { payer, counter: 'light', units: 1 },
      async () => {
        ran = true;
      },
      () => {
        undone = true;
      },
    ),
  );
  t.is((refused as Error & { code?: string }).code, 'payment_required');
  t.false(ran);
  t.true(undone);

  const done = await chargedWork(db, { payer, counter: 'light', units: 0 }, async () => 'free');
  t.is(done.value, 'free');
  t.is(done.charge.charged, 0);
});

test('rate classes: suggest counts as autocomplete (declared by its route), a body with items as batch, the rest single', async (t) => {
  const limited = await startServer({ rateLimits: { single: 1, batch: 1, autocomplete: 3 } });
  try {
    const session = '6f1c2b9e-3d4a-4b5c-8d7e-9f0a1b2c3d4e';
    for (let i = 0; i < 3; i++) t.is((await call(limited, 'POST', '/api/v1/suggest', { session, q: 'via del fag', city: 'Bologna' })).status, 200);
    const fourth = await call(limited, 'POST', '/api/v1/suggerisci', { session, q: 'via del fag', city: 'Bologna' });
    t.is(fourth.status, 429);
    t.is(fourth.body.details.class, 'autocomplete');
    t.is((await call(limited, 'POST', '/api/v1/phone', { phone: '02 1234567' })).status, 200);
    const single = await call(limited, 'POST', '/api/v1/phone', { phone: '02 1234567' });
    t.is(single.status, 429);
    t.is(single.body.details.class, 'single');
    t.is((await call(limited, 'POST', '/api/v1/phone', { items: [{ phone: '02 1234567' }] })).status, 200);
    const batch = await call(limited, 'POST', '/api/v1/telefono', { elementi: [{ telefono: '02 1234567' }] });
    t.is(batch.status, 429);
    t.is(batch.body.details.class, 'batch');
  } finally {
    await limited.close();
  }
});
