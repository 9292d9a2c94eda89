import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { BENCH_DOORS, benchDoors } from '../bench/bench-doors.js';
import { PROJECT_ROOT } from '../src/config.js';
import { contactDictionariesSync, coreErrorCode, findMunicipalities, importContactDictionaries, native, openRegister, roleMailboxesSync, taxCodes } from '../src/native.js';
import { freshDataDir } from './helpers/server.js';
import { SOURCE } from './helpers/source.js';

test('index.d.ts declares exactly the functions the native addon exports, and no bench door', (t) => {
  const dts = readFileSync(path.join(PROJECT_ROOT, 'index.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/export declare function (\w+)/g)].map((m) => m[1]).sort();
  const bench: readonly string[] = BENCH_DOORS;
  // the doors only benches call are built with the cargo feature `bench` alone (crates/node/src/bench.rs)
  t.deepEqual(declared.filter((name) => name !== undefined && bench.includes(name)), [], 'the service addon\'s declarations name no bench door');
  const exported = Object.entries(native)
    .filter(([name, v]) => typeof v === 'function' && !bench.includes(name))
    .map(([k]) => k)
    .sort();
  t.deepEqual(declared, exported);
});

test('a bench door on the service\'s addon: a clear error naming the bench build, before any work', (t) => {
  // the service's build (npm run build:native) leaves them out; a bench build (build:native:bench) has them all
  const loaded = BENCH_DOORS.filter((name) => typeof (native as unknown as Record<string, unknown>)[name] === 'function');
  if (loaded.length === BENCH_DOORS.length) {
    t.is(typeof benchDoors().dedupeFiles, 'function');
    return;
  }
  t.deepEqual(loaded, []);
  t.throws(() => benchDoors(), { message: /needs the addon's bench doors \(sampleStreets, sampleStreetsSync, dedupeFiles\).*npm run build:native:bench/ });
});

test('every door has an async form and a Sync twin, and index.d.ts names their generated types', (t) => {
  const dts = readFileSync(path.join(PROJECT_ROOT, 'index.d.ts'), 'utf8');
  const generated = readFileSync(path.join(PROJECT_ROOT, 'core-types.d.ts'), 'utf8');
  const doors = ['verifyContacts', 'verifyForeign', 'searchStreets', 'streetHouseNumbers', 'findMunicipalities', 'registerInfo', 'taxCodes', 'dedupe', 'dedupeIncremental', 'postalCoverage', 'renderPostal', 'foreignRegisters', 'contactDictionaries', 'roleMailboxes', 'importContactDictionaries'];
  for (const door of doors) {
    t.regex(dts, new RegExp(`export declare function ${door}\\(.*\\): Promise<`), door);
    t.regex(dts, new RegExp(`export declare function ${door}Sync\\(`), `${door}Sync`);
  }
  const named = new Set([...dts.matchAll(/core-types\.js'\)\.(\w+)/g)].map((m) => m[1]));
  t.true(named.size > 10);
  for (const type of named) t.regex(generated, new RegExp(`export type ${type}\\b`), type);
  t.false(/\bcompute(Sync)?\b/.test(dts), 'no op-string door is left');
});

// Drift check: the declarations in the tree are what the Rust types generate now. It fails when a
// serde struct changed (a field renamed, added, made optional) and `npm run build:types` was not run.
test('core-types.d.ts is what the core types generate now', async (t) => {
  t.timeout(20 * 60_000);
  const { stdout: now } = await promisify(execFile)('cargo', ['run', '--quiet', '-p', 'recapito-core', '--features', 'ts', '--bin', 'core-types'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, CARGO_BUILD_JOBS: process.env.CARGO_BUILD_JOBS ?? '1' },
  });
  const inTree = readFileSync(path.join(PROJECT_ROOT, 'core-types.d.ts'), 'utf8');
  t.is(inTree, now, 'core-types.d.ts is stale: run `npm run build:types`');
});

test.serial('without a register, a door fails with code data_missing', async (t) => {
  const error = await t.throwsAsync(findMunicipalities({ name: 'Bologna' }));
  t.is(coreErrorCode(error), 'data_missing');
});

test.serial('bad input or an Italian option value is code bad_input, never a crash', async (t) => {
  openRegister(await freshDataDir());
  t.is(coreErrorCode(t.throws(() => native.findMunicipalitiesSync(Buffer.from('not json')))), 'bad_input');
  const italian = await t.throwsAsync(native.dedupe(Buffer.from(JSON.stringify({ records: [], foreign: 'rileva' }))));
  t.is(coreErrorCode(italian), 'bad_input');
  // the door answers once the input is right
  const [r] = await taxCodes({ items: [{ action: 'validate', tax_code: 'RSSMRA80A01H501U' }] });
  t.true(r?.ok);
  t.is(coreErrorCode(new Error('bad input: not from the core')), undefined);
});

test('the contact dictionaries door: none before an import, the core\'s after, data_missing without a source', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-dictionaries-'));
  t.is(contactDictionariesSync(dir), null);
  const datasets = await importContactDictionaries(SOURCE, dir);
  t.true(datasets.some((d) => d.name === 'it_titles' && d.rows === 50), JSON.stringify(datasets));
  const dictionaries = contactDictionariesSync(dir);
  t.true((dictionaries?.titles.length ?? 0) > 0);
  t.is(dictionaries?.names.GIUSEPPE?.male, 1);
  t.true(dictionaries?.roleLocalParts.includes('segreteria'));
  // the async twins answer alike
  t.deepEqual(await native.roleMailboxes(dir, ['info.milano', 'mario.rossi']), roleMailboxesSync(dir, ['info.milano', 'mario.rossi']));
  t.deepEqual(roleMailboxesSync(dir, ['info.milano', 'mario.rossi']), [true, false]);
  t.deepEqual(JSON.parse((await native.contactDictionaries(dir)).toString('utf8')), dictionaries);
  const error = await t.throwsAsync(importContactDictionaries(path.join(dir, 'nowhere'), dir));
  t.is(coreErrorCode(error), 'data_missing');
});
