import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { closeState, openState } from '../src/state/db.js';
import { call, freshDataDir, startServer } from './helpers/server.js';

/** Issue 33, finding 7: the state (session ids, cookie secret, hashes, uploaded lists) is the owner's alone. */
const modeOf = (file: string) => statSync(file).mode & 0o777;

function stateModes(dataDir: string): Record<string, number> {
  const dir = path.join(dataDir, 'state');
  return Object.fromEntries([['(dir)', modeOf(dir)], ...readdirSync(dir).map((name) => [name, modeOf(path.join(dir, name))])]);
}

test('a served data dir’s state is 0700, its files 0600, whatever the umask', async (t) => {
  const before = process.umask(0o022);
  const server = await startServer();
  try {
    t.is((await call(server, 'GET', '/api/v1/countries?q=IT')).status, 200);
    const modes = stateModes(server.dataDir);
    t.truthy(modes['data.mdb']);
    t.deepEqual(modes, Object.fromEntries(Object.keys(modes).map((k) => [k, k === '(dir)' ? 0o700 : 0o600])));
  } finally {
    await server.close();
    process.umask(before);
  }
});

test('a data dir made before (files 0644, folder 0755) is made private when it is opened again', async (t) => {
  const dataDir = await freshDataDir();
  openState(dataDir);
  await closeState(dataDir);
  const dir = path.join(dataDir, 'state');
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) chmodSync(path.join(dir, name), 0o644);
  openState(dataDir);
  try {
    const modes = stateModes(dataDir);
    t.is(modes['(dir)'], 0o700);
    t.is(modes['data.mdb'], 0o600);
    t.is(modes['lock.mdb'], 0o600);
  } finally {
    await closeState(dataDir);
  }
});
