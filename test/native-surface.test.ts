import { readFileSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';
import { native, openRegister } from '../src/native.js';
import { freshDataDir } from './helpers/server.js';

test('index.d.ts declares exactly the functions the native addon exports', (t) => {
  const dts = readFileSync(path.join(PROJECT_ROOT, 'index.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/export declare function (\w+)/g)].map((m) => m[1]).sort();
  const exported = Object.entries(native)
    .filter(([, v]) => typeof v === 'function')
    .map(([k]) => k)
    .sort();
  t.deepEqual(declared, exported);
});

test('a panic or bad input in the core is an error, never a crash', async (t) => {
  openRegister(await freshDataDir());
  await t.throwsAsync(native.compute('no.such.op', Buffer.from('{}')), { message: /unknown operation/ });
  t.throws(() => native.computeSync('municipality.find', Buffer.from('not json')), { message: /bad input/ });
});
