/**
 * The single calls the HTTP diagnostics drive (bench/http-profile.ts, bench/http-cpu.ts): one body per
 * endpoint, a server with an account and 50 tokens on a fresh data dir, the rate limits lifted.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { createAccount, createToken } from '../src/state/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { addPack } from '../src/state/ledger.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startListening } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';
import type { AutocannonRequest } from './autocannon.js';
import { freshSuggestBody, prepareFreshSuggest } from './suggest-fresh.js';

/** `prepare`: work a scenario does once before its load starts (drawing its inputs). */
export const SCENARIOS: Record<string, { path: string; body: (n: number) => string; prepare?: () => void }> = {
  phone: { path: '/api/v1/phone', body: (n) => JSON.stringify({ phone: `02 ${1000000 + (n % 8999999)}` }) },
  'tax-code': { path: '/api/v1/tax-code', body: () => JSON.stringify({ action: 'validate', tax_code: 'RSSMRA80A01H501U' }) },
  email: { path: '/api/v1/email', body: (n) => JSON.stringify({ email: `mario.rossi${n % 1000}@gmail.com`, dns: false }) },
  contact: { path: '/api/v1/contact', body: () => JSON.stringify({ address: 'Via del Faggiolo 7', postcode: '40132', city: 'Bologna' }) },
  suggest: { path: '/api/v1/suggest', body: (n) => JSON.stringify({ session: sessionOf(Math.floor(n / 30)), q: 'via del fag', city: 'Bologna' }) },
  // distinct streets typed in 200 municipalities: what the streets-phase memo cannot answer (bench/suggest-fresh.ts)
  'suggest-fresh': { path: '/api/v1/suggest', body: freshSuggestBody, prepare: prepareFreshSuggest },
};

// each call answered in Italian as well (`phone-it`…: Italian keys and codes, as the legacy host answers)
for (const [name, scenario] of Object.entries(SCENARIOS)) {
  SCENARIOS[`${name}-it`] = { ...scenario, body: (n) => `${scenario.body(n).slice(0, -1)},"language":"it"}` };
}

const sessions = new Map<number, string>();
function sessionOf(i: number): string {
  let s = sessions.get(i);
  if (!s) sessions.set(i, (s = randomUUID()));
  return s;
}

export interface ScenarioServer {
  /** 50 tokens, each of its own account with 10 million contact and light units. */
  tokens: string[];
  child: import('node:child_process').ChildProcess;
  url: string;
  /** autocannon's `requests` for one scenario, spreading the calls over the tokens. */
  requests(which: string): AutocannonRequest[];
  stop(): Promise<void>;
}

/**
 * `recapito serve` on a fresh LMDB data dir (the single-node baseline) with `nodeArgs` before the entry
 * (e.g. --cpu-prof). PROFILE_ENTRY=<another build's bin or dist/src/cli/main.js> runs that build instead (A/B);
 * BENCH_SERVER_NODE_ARGS='--max-semi-space-size=64 …' gives the server's node flags of a trial (A/B of V8 settings).
 */
export async function scenarioServer(nodeArgs: string[] = []): Promise<ScenarioServer> {
  const dataDir = await freshDataDir();
  const db = await openStore(dataDir, undefined);
  // one account per token: an account holds at most RECAPITO_MAX_TOKENS_PER_ACCOUNT live tokens
  const tokens = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const account = `profile-${i}`;
      await createAccount(db, account);
      await addPack(db, account, 'contact', 10_000_000);
      await addPack(db, account, 'light', 10_000_000);
      return (await createToken(db, account)).token;
    }),
  );
  const entry = process.env.PROFILE_ENTRY ? path.resolve(process.env.PROFILE_ENTRY) : path.join(PROJECT_ROOT, 'bin', 'recapito.js');
  const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const { child, url } = await startListening([...serverArgs, ...nodeArgs, entry, '--data-dir', dataDir, 'serve', '--port', '0'], {
    RECAPITO_RATE_SINGLE: '1000000000',
    RECAPITO_RATE_AUTOCOMPLETE: '1000000000',
  });
  let n = 0;
  const headers = (t: string) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
  return {
    tokens,
    child,
    url,
    requests(which) {
      const scenario = SCENARIOS[which];
      if (!scenario) throw new Error(`one of ${Object.keys(SCENARIOS).join(', ')}`);
      scenario.prepare?.();
      return [{ method: 'POST', path: scenario.path, setupRequest: (req: object) => ({ ...req, body: scenario.body(n), headers: headers(tokens[Math.floor(n++ / 6000) % tokens.length]!) }) }];
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await closeState(dataDir);
    },
  };
}
