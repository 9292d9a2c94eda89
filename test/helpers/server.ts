import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createAccount, createToken, getAccount } from '../../src/state/tokens.js';
import { runImport } from '../../src/cli/import.js';
import { PROJECT_ROOT, type ServiceConfig } from '../../src/config.js';
import { buildService, type Service } from '../../src/server.js';
import { closeState, openState, type StateDb } from '../../src/state/db.js';
import { openStore } from '../../src/state/open.js';
import type { StateStore } from '../../src/state/store.js';
import { freshStateUrl } from './state-url.js';

export { SOURCE } from './source.js';
import { SOURCE } from './source.js';
const SHARED = path.join(PROJECT_ROOT, '.tmp', 'test-register');

/** What the shared test register was built by: a new native build or new source data means a rebuild. */
function stamp(): string {
  const addon = statSync(path.join(PROJECT_ROOT, 'recapito.linux-x64-gnu.node'));
  const src = existsSync(SOURCE) ? statSync(SOURCE).mtimeMs : 0;
  return createHash('sha1').update(`${addon.size}:${addon.mtimeMs}:${src}`).digest('hex');
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/**
 * Imports the register from ../shared/data once per test run (one process builds it, the others wait
 * on a lock directory) and returns the folder every test server links to.
 */
export async function sharedRegister(): Promise<string> {
  const want = stamp();
  const stampFile = path.join(SHARED, 'stamp');
  const lock = `${SHARED}.lock`;
  mkdirSync(path.dirname(SHARED), { recursive: true });
  for (;;) {
    if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return SHARED;
    try {
      mkdirSync(lock);
    } catch {
      // another test process is importing; a lock older than 10 minutes is a crashed one
      if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      rmSync(SHARED, { recursive: true, force: true });
      await runImport(SOURCE, SHARED, true);
      writeFileSync(stampFile, want);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** A fresh data dir whose registers link to the shared ones and whose state is its own. */
export async function freshDataDir(): Promise<string> {
  const shared = await sharedRegister();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-test-'));
  for (const entry of readdirSync(shared)) {
    if (entry === 'stamp' || entry === 'state') continue;
    symlinkSync(path.join(shared, entry), path.join(dir, entry));
  }
  return dir;
}

export interface TestServer {
  url: string;
  token: string;
  account: string;
  dataDir: string;
  /** The node-local LMDB environment (jobs). */
  db: StateDb;
  /** The shared state the server uses: LMDB, or with RECAPITO_STATE_URL a PostgreSQL database of its own. */
  state: StateStore;
  /** What a CLI or server process started by the test needs to reach the same state. */
  env: Record<string, string>;
  service: Service;
  /** Another token, optionally for another account or none. */
  newToken(account?: string | null, expiry?: string | null): Promise<string>;
  close(): Promise<void>;
}

/** The real server on a random port with a temporary data dir, an account `test` and its token. */
export async function startServer(overrides: Partial<ServiceConfig> = {}, language = 'en'): Promise<TestServer> {
  const dataDir = await freshDataDir();
  const stateUrl = await freshStateUrl();
  const service = await buildService({ dataDir, port: 0, host: '127.0.0.1', stateUrl, ...overrides });
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const db = openState(dataDir);
  const state = await openStore(dataDir, stateUrl);
  await createAccount(state, 'test', language);
  const { token } = await createToken(state, 'test');
  return {
    url: address,
    token,
    account: 'test',
    dataDir,
    db,
    state,
    env: stateUrl ? { RECAPITO_STATE_URL: stateUrl } : {},
    service,
    newToken: async (account = 'test', expiry = null) => {
      if (account && !(await getAccount(state, account))) await createAccount(state, account);
      return (await createToken(state, account, expiry)).token;
    },
    close: async () => {
      await service.close();
      await closeState(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever came back
}

/** One HTTP call with the server's token (unless `token: null`). */
export async function call(server: TestServer, method: string, pathAndQuery: string, body?: unknown, options: { token?: string | null; headers?: Record<string, string> } = {}): Promise<CallResult> {
  const token = options.token === undefined ? server.token : options.token;
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${pathAndQuery}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // CSV and other text bodies stay text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/**
 * Polls until `done` holds or `ms` pass, and returns the last answer (assert on it). Three minutes by
 * default, within ava's five: on CI's 2 cores, with two test files at once (one of them killing and
 * resuming servers), a small job once took over a minute to finish (CI run of 70f8225).
 */
export async function waitFor<T>(probe: () => Promise<T>, done: (v: T) => boolean, ms = 180_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}
