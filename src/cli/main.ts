import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { Command } from 'commander';

import { addPack, setAutoTopup, subscribe } from '../state/ledger.js';
import { creditReport } from '../credit/report.js';
import { createAccount, createToken, findToken, listTokens, regenerateToken, revokeToken } from '../state/tokens.js';
import { DEFAULT_TRIAL, grantTrial, trialsOf } from '../state/trial.js';
import { defaultDataDir, defaultSourceDir } from '../config.js';
import type { Counter } from '../http/capability.js';
import { openState, type TokenKind } from '../state/db.js';
import { migrateDedupes } from '../dedupe/migrate.js';
import { importContactData } from '../import/contact.js';
import { dictionariesFile, importMarker } from '../import/integrity.js';
import { openPgJobs } from '../jobs/pg.js';
import { LmdbJobStore } from '../jobs/store.js';
import { native, openRegister } from '../native.js';
import { buildService } from '../server.js';
import { openStore } from '../state/open.js';
import { adoptRegister, registerBuildId, sharedRegister } from '../state/register-version.js';
import type { StateStore } from '../state/store.js';
import { printImportSummary, runImport } from './import.js';
import { registerUserCommands } from './users.js';

const program = new Command('recapito').description('address and contact verification service').option('--data-dir <dir>', 'data folder (env RECAPITO_DATA_DIR)');

const dataDir = (): string => path.resolve((program.opts().dataDir as string | undefined) ?? defaultDataDir());
/** The state the operator's commands change: RECAPITO_STATE_URL's PostgreSQL, else the data dir's LMDB. */
let opened: StateStore | undefined;
const state = async (): Promise<StateStore> => (opened ??= await openStore(dataDir()));

function counterArg(value: string): Counter {
  if (value !== 'contact' && value !== 'dedupe' && value !== 'light') throw new Error('counter is contact, dedupe or light');
  return value;
}

program
  .command('serve')
  .description('start the HTTP service (imports the default register on first start)')
  .option('--port <port>', 'port (env PORT)', process.env.PORT ?? '8080')
  .option('--host <host>', 'host (env HOST)', process.env.HOST ?? '127.0.0.1')
  .option('--source <dir>', 'open data for the first import', defaultSourceDir())
  .action(async (opts: { port: string; host: string; source: string }) => {
    if (!native.registerExists(dataDir())) {
      console.error(`no register in ${dataDir()}: importing from ${opts.source}`);
      printImportSummary(await runImport(opts.source, dataDir()));
    } else if (!existsSync(importMarker(dataDir())) && !existsSync(dictionariesFile(dataDir())) && existsSync(opts.source)) {
      // a register imported before the core owned the contact dictionaries (issue 10): they alone, not the
      // streets; a half-built register (the marker) is left to the start-up check, which refuses it
      console.error(`no contact dictionaries in ${dataDir()}: importing them from ${opts.source}`);
      await importContactData(opts.source, dataDir());
    }
    const service = await buildService({ dataDir: dataDir(), port: Number(opts.port), host: opts.host });
    const address = await service.app.listen({ port: Number(opts.port), host: opts.host });
    console.log(`recapito listening on ${address}/api/v1/`);
    const stop = async () => {
      await service.shutdown();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });

program
  .command('import')
  .description('build the register indexes from open data in their published formats')
  .option('--source <dir>', 'folder with it/, world/, contact/ (default ../shared/data)', defaultSourceDir())
  .action(async (opts: { source: string }) => printImportSummary(await runImport(opts.source, dataDir())));

program
  .command('migrate')
  .description('bring what an older version left into the current shape (dedupes it saved in this node, left queued without a job, or completed with the result in the job alone); with the nodes stopped, once per node after an upgrade')
  .action(async () => {
    const st = await state();
    const db = openState(dataDir());
    const pool = st.backend === 'postgres' ? st.pool : undefined;
    const pg = pool ? await openPgJobs({ pool, leaseSeconds: 30, workers: 1 }, st) : undefined;
    try {
      const { queued, kept } = await migrateDedupes(db, st, pg ? pg.store : new LmdbJobStore(db, st));
      if (queued.length) console.log(`dedupes queued as jobs: ${queued.join(', ')}`);
      if (kept.length) console.log(`dedupe results kept from their jobs: ${kept.join(', ')}`);
      if (!queued.length && !kept.length) console.log('nothing to migrate');
    } finally {
      await pg?.units.close(false);
    }
  });

const account = program.command('account').description('accounts');
account
  .command('create <name>')
  .option('--language <lang>', 'language of texts for this account', 'en')
  .action(async (name: string, opts: { language: string }) => {
    const a = await createAccount(await state(), name, opts.language);
    console.log(`account ${a.name} created (language ${a.language})`);
  });

const token = program.command('token').description('API tokens (stored hashed)');

/** `contact=10,light=100`: a trial allowance per counter. */
function trialArg(value: string): Partial<Record<Counter, number>> {
  const out: Partial<Record<Counter, number>> = {};
  for (const part of value.split(',').filter(Boolean)) {
    const [counter = '', size = ''] = part.split('=');
    if (!/^\d+$/.test(size.trim())) throw new Error(`--trial: ${part} is not counter=operations`);
    out[counterArg(counter.trim())] = Number(size);
  }
  return out;
}

function kindArg(value: string): TokenKind {
  if (value !== 'full' && value !== 'suggest') throw new Error('--kind is full or suggest');
  return value;
}

function wholeArg(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new Error(`${value} is not a whole number ≥ 1`);
  return Number(value);
}

/**
 * The token (or its public id) a command acts on: from `--token-file`, or from standard input (no argument,
 * or `-`); an id as the argument is fine (it is not a secret). A raw token as the argument still works but
 * warns: it stays in the shell history and is visible to every user in `ps` (deprecated; docs/operations.md).
 */
async function tokenInput(arg: string | undefined, opts: { tokenFile?: string }): Promise<string> {
  const firstLine = (text: string) => text.split(/\r?\n/)[0]?.trim() ?? '';
  let value: string;
  if (opts.tokenFile !== undefined) {
    if (arg !== undefined) throw new Error('give the token either as --token-file or as an argument, not both');
    value = firstLine(readFileSync(opts.tokenFile, 'utf8'));
  } else if (arg === undefined || arg === '-') {
    if (process.stdin.isTTY) throw new Error('no token: pipe it on standard input, or give --token-file FILE or the token id');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    value = firstLine(Buffer.concat(chunks).toString('utf8'));
  } else {
    value = arg.trim();
    if (value.startsWith('rk_')) console.error('warning: a token on the command line stays in the shell history and in ps; give its id, --token-file FILE or standard input instead (deprecated)');
  }
  if (value === '') throw new Error('no token given');
  return value;
}

token
  .command('create')
  .option('--account <name>', 'account the token belongs to')
  .option('--expires <iso>', 'expiry, ISO-8601')
  .option('--trial <counter=n,...>', `without --account: trial allowance (default ${Object.entries(DEFAULT_TRIAL).map(([c, n]) => `${c}=${n}`).join(',')})`, trialArg)
  .option('--kind <kind>', 'full (every endpoint, the default) or suggest (autocomplete only: a widget proxy’s token)', kindArg)
  .option('--daily-selects <n>', 'with --kind suggest: charged selects a UTC day, then 429 select_cap', wholeArg)
  .action(async (opts: { account?: string; expires?: string; trial?: Partial<Record<Counter, number>>; kind?: TokenKind; dailySelects?: number }) => {
    if (opts.account && opts.trial) throw new Error('--trial is for tokens without an account (an account has its own credit)');
    if (opts.dailySelects !== undefined && opts.kind !== 'suggest') throw new Error('--daily-selects is for --kind suggest');
    const db = await state();
    const { token: t, record } = await createToken(db, opts.account ?? null, { expiry: opts.expires ?? null, trial: opts.trial, kind: opts.kind, dailySelects: opts.dailySelects });
    const trial = record.account ? '' : `, trial ${(await trialsOf(db, record.id)).map((r) => `${r.counter}=${r.left}`).join(',')}`;
    const kind = record.kind === 'suggest' ? `, suggest only${record.daily_selects ? ` (${record.daily_selects} charged selects a day)` : ''}` : '';
    console.log(`token ${record.id} for ${record.account ?? '(no account)'}${record.expiry ? `, expires ${record.expiry}` : ''}${kind}${trial}`);
    console.log(t);
  });
token
  .command('list')
  .option('--account <name>', 'the tokens of this account (without: the tokens without an account, with their trial)')
  .action(async (opts: { account?: string }) => {
    const db = await state();
    const tokens = await listTokens(db, opts.account ?? null);
    const trials = await Promise.all(tokens.map((t) => (t.account ? [] : trialsOf(db, t.id))));
    console.table(
      tokens.map((t, i) => ({
        id: t.id,
        kind: t.kind ?? 'full',
        daily_selects: t.daily_selects ?? '',
        created: t.created,
        expiry: t.expiry ?? '',
        revoked: t.revoked ?? '',
        last_used: t.last_used ?? '',
        requests: t.requests,
        ...(t.account ? {} : { trial_left: (trials[i] ?? []).map((r) => `${r.counter}=${r.left}`).join(',') }),
      })),
    );
  });
const TOKEN_ARG = 'the token id; without it, the token is read from standard input (or --token-file)';

token
  .command('trial [id]')
  .description('sets what a token without an account may still consume on a counter')
  .option('--token-file <file>', 'read the token from this file (first line)')
  .requiredOption('--counter <counter>', 'contact | dedupe | light', counterArg)
  .requiredOption('--size <n>', 'operations', Number)
  .action(async (t: string | undefined, opts: { counter: Counter; size: number; tokenFile?: string }) => {
    const db = await state();
    const found = await findToken(db, await tokenInput(t, opts));
    if (!found) throw new Error('no such token');
    if (found[1].account) throw new Error(`token ${found[1].id} belongs to account ${found[1].account}: use the credit commands`);
    await grantTrial(db, found[1].id, { [opts.counter]: opts.size });
    console.log(`token ${found[1].id}: trial ${opts.counter} ${opts.size} operations`);
  });
token
  .command('revoke [id]')
  .description(TOKEN_ARG)
  .option('--token-file <file>', 'read the token from this file (first line)')
  .action(async (t: string | undefined, opts: { tokenFile?: string }) => console.log(`token ${(await revokeToken(await state(), await tokenInput(t, opts))).id} revoked`));
token
  .command('regenerate [id]')
  .description(TOKEN_ARG)
  .option('--token-file <file>', 'read the token from this file (first line)')
  .action(async (t: string | undefined, opts: { tokenFile?: string }) => {
    const { token: fresh, record } = await regenerateToken(await state(), await tokenInput(t, opts));
    console.log(`old token revoked; new token ${record.id}`);
    console.log(fresh);
  });

registerUserCommands(program, state);

const credit = program.command('credit').description('operator commands for credits');
credit
  .command('show')
  .requiredOption('--account <name>')
  .action(async (opts: { account: string }) => console.log(JSON.stringify(await creditReport(await state(), opts.account, {}), null, 2)));
credit
  .command('add-pack')
  .requiredOption('--account <name>')
  .requiredOption('--counter <counter>', 'contact | dedupe | light', counterArg)
  .requiredOption('--size <n>', 'operations in the pack', Number)
  .action(async (opts: { account: string; counter: Counter; size: number }) => {
    await addPack(await state(), opts.account, opts.counter, opts.size);
    console.log(`pack of ${opts.size} ${opts.counter} operations added to ${opts.account}`);
  });
credit
  .command('subscribe')
  .requiredOption('--account <name>')
  .requiredOption('--counter <counter>', 'contact | dedupe | light', counterArg)
  .requiredOption('--size <n>', 'operations a month', Number)
  .action(async (opts: { account: string; counter: Counter; size: number }) => {
    await subscribe(await state(), opts.account, opts.counter, opts.size);
    console.log(`monthly subscription of ${opts.size} ${opts.counter} operations for ${opts.account}`);
  });
credit
  .command('auto-topup')
  .requiredOption('--account <name>')
  .requiredOption('--counter <counter>', 'contact | dedupe | light', counterArg)
  .requiredOption('--size <n>', 'operations per pack bought', Number)
  .requiredOption('--cap-eur <eur>', 'monthly cap in euro', Number)
  .option('--off', 'deactivate')
  .action(async (opts: { account: string; counter: Counter; size: number; capEur: number; off?: boolean }) => {
    await setAutoTopup(await state(), opts.account, opts.counter, opts.size, opts.capEur, !opts.off);
    console.log(`auto top-up ${opts.off ? 'off' : 'on'} for ${opts.account} ${opts.counter}: packs of ${opts.size}, cap €${opts.capEur}/month`);
  });

const register = program.command('register').description('the register every node serves (shared state on PostgreSQL)');
register
  .command('show')
  .description("this data dir's register build and the one the shared state names")
  .action(async () => {
    openRegister(dataDir());
    const shared = await sharedRegister(await state());
    console.log(`this register: build ${registerBuildId()}`);
    console.log(`shared state: ${shared ? `build ${shared}` : 'no build recorded yet (the first node to start records its own)'}`);
  });
register
  .command('adopt')
  .description("make this data dir's register the one every node must serve (after stopping the nodes on the old one)")
  .action(async () => {
    openRegister(dataDir());
    const build = registerBuildId();
    await adoptRegister(await state(), build);
    console.log(`nodes must now serve register build ${build}`);
  });

program
  .parseAsync(process.argv)
  // the operator's commands end here; `serve` keeps running on its own store (not this one)
  .then(() => opened?.close())
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
