import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';
import { call, freshDataDir, type TestServer } from './helpers/server.js';
import { buildService } from '../src/server.js';
import { freshStateUrl } from './helpers/state-url.js';

const run = promisify(execFile);
/** The state of each data dir: its own PostgreSQL database under `npm run test:pg`, else its LMDB. */
const stateOf = new Map<string, string | undefined>();
const cli = (dataDir: string, ...args: string[]) => {
  const url = stateOf.get(dataDir);
  return run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, ...args], { env: { ...process.env, ...(url ? { RECAPITO_STATE_URL: url } : {}) } });
};

/** The CLI with `input` on its standard input. */
const cliIn = (dataDir: string, input: string, ...args: string[]) => {
  const url = stateOf.get(dataDir);
  const running = run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, ...args], { env: { ...process.env, ...(url ? { RECAPITO_STATE_URL: url } : {}) } });
  running.child.stdin?.end(input);
  return running;
};

test('token lifecycle through the CLI: create, list, use, regenerate, revoke', async (t) => {
  const dataDir = await freshDataDir();
  const stateUrl = await freshStateUrl();
  stateOf.set(dataDir, stateUrl);
  await cli(dataDir, 'account', 'create', 'shop', '--language', 'it');
  const created = await cli(dataDir, 'token', 'create', '--account', 'shop');
  const token = created.stdout.trim().split('\n').pop() ?? '';
  t.regex(token, /^rk_[\w-]{20,}$/);
  const expiring = (await cli(dataDir, 'token', 'create', '--account', 'shop', '--expires', '2099-01-01T00:00:00Z')).stdout.trim().split('\n').pop() ?? '';

  const service = await buildService({ dataDir, stateUrl });
  const url = await service.app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const server = { url, token } as TestServer;
    t.is((await call(server, 'GET', '/api/v1/countries?q=IT')).status, 200);
    t.is((await call(server, 'GET', '/api/v1/countries?q=FR')).status, 200);
    t.is((await call(server, 'GET', '/api/v1/countries?q=ES', undefined, { token: expiring })).status, 200);
    // the token store is a file: the CLI reads what the server counted
    await new Promise((r) => setTimeout(r, 200));
    const list = (await cli(dataDir, 'token', 'list', '--account', 'shop')).stdout;
    t.regex(list, /2099-01-01/);
    t.regex(list, /│\s+2\s+│/); // requests served by the first token
    t.false(list.includes(token), 'the list never shows a token');

    // the token on standard input: never an argument (shell history, ps)
    const regenerated = await cliIn(dataDir, `${token}\n`, 'token', 'regenerate');
    t.is(regenerated.stderr, '');
    const fresh = regenerated.stdout.trim().split('\n').pop() ?? '';
    t.not(fresh, token);
    t.is((await call(server, 'GET', '/api/v1/countries', undefined, { token })).body.code, 'token_revoked');
    t.is((await call(server, 'GET', '/api/v1/countries?q=DE', undefined, { token: fresh })).status, 200);

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'recapito-token-')), 'token');
    writeFileSync(file, `${fresh}\n`, { mode: 0o600 });
    t.is((await cli(dataDir, 'token', 'revoke', '--token-file', file)).stderr, '');
    t.is((await call(server, 'GET', '/api/v1/countries', undefined, { token: fresh })).status, 401);

    await cli(dataDir, 'credit', 'add-pack', '--account', 'shop', '--counter', 'light', '--size', '1000');
    await cli(dataDir, 'credit', 'subscribe', '--account', 'shop', '--counter', 'contact', '--size', '5000');
    await cli(dataDir, 'credit', 'auto-topup', '--account', 'shop', '--counter', 'light', '--size', '1000', '--cap-eur', '50');
    const shown = JSON.parse((await cli(dataDir, 'credit', 'show', '--account', 'shop')).stdout) as {
      counters: { light: { available: number; auto_topup: { active: boolean; monthly_cap_eur: number } }; contact: { subscription: { size: number } } };
    };
    t.is(shown.counters.light.available, 1500);
    t.true(shown.counters.light.auto_topup.active);
    t.is(shown.counters.light.auto_topup.monthly_cap_eur, 50);
    t.is(shown.counters.contact.subscription.size, 5000);
  } finally {
    await service.close();
  }
});

test('the CLI explains a missing open-data folder instead of failing obscurely', async (t) => {
  const dataDir = await freshDataDir();
  const error = await t.throwsAsync(cli(dataDir, 'import', '--source', '/nonexistent/shared/data'));
  t.regex(String((error as { stderr?: string })?.stderr), /does not exist[\s\S]*anpr_archivio_comuni/);
});

test('token commands: a raw token as an argument still works but warns; an id does not; suggest tokens through the CLI', async (t) => {
  const dataDir = await freshDataDir();
  stateOf.set(dataDir, await freshStateUrl());
  await cli(dataDir, 'account', 'create', 'shop');
  const raw = (await cli(dataDir, 'token', 'create', '--account', 'shop')).stdout.trim().split('\n').pop() ?? '';
  const revoked = await cli(dataDir, 'token', 'revoke', raw);
  t.regex(revoked.stderr, /warning: a token on the command line stays in the shell history/);
  t.regex(revoked.stdout, /revoked/);

  const made = await cli(dataDir, 'token', 'create', '--account', 'shop', '--kind', 'suggest', '--daily-selects', '50');
  const id = /^token (\w+) for shop, suggest only \(50 charged selects a day\)/.exec(made.stdout)?.[1] ?? '';
  t.regex(id, /^[0-9a-f]{12}$/, made.stdout);
  const list = (await cli(dataDir, 'token', 'list', '--account', 'shop')).stdout;
  t.regex(list, /'suggest'\s+│\s+50\s+│/);
  const byId = await cli(dataDir, 'token', 'revoke', id);
  t.is(byId.stderr, '');
  t.is(byId.stdout.trim(), `token ${id} revoked`);
  const bad = await t.throwsAsync(cli(dataDir, 'token', 'create', '--account', 'shop', '--daily-selects', '5'));
  t.regex(String((bad as { stderr?: string }).stderr), /--daily-selects is for --kind suggest/);
  const empty = await t.throwsAsync(cliIn(dataDir, '', 'token', 'revoke'));
  t.regex(String((empty as { stderr?: string }).stderr), /no token given/);
});
