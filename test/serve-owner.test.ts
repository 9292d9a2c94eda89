import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';
import { closeState, openState } from '../src/state/db.js';
import { freshDataDir } from './helpers/server.js';

/**
 * One `recapito serve` per LMDB data dir (src/state/serve-owner.ts): a second one on the same folder is
 * refused with a message naming the first, while the first keeps serving; a folder whose serve was killed
 * is taken over at once; a graceful stop leaves no owner behind. Real processes of the CLI.
 */

/** LMDB whatever the environment says (with-postgres.js sets RECAPITO_STATE_URL for the whole run). */
const LMDB = { RECAPITO_STATE_URL: '' };

interface Serve {
  child: ChildProcess;
  /** Resolves with the URL once listening, or with the exit code and what it wrote to stderr. */
  outcome: Promise<{ url: string } | { code: number | null; stderr: string }>;
}

function serve(dataDir: string): Serve {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...LMDB },
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const outcome = new Promise<{ url: string } | { code: number | null; stderr: string }>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout);
      if (m?.[1]) resolve({ url: m[1] });
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  return { child, outcome };
}

async function stopped(s: Serve, signal: NodeJS.Signals): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await gone;
}

async function listening(s: Serve): Promise<string> {
  const o = await s.outcome;
  if (!('url' in o)) throw new Error(`serve exited with ${o.code}: ${o.stderr}`);
  return o.url;
}

async function ownerOf(dataDir: string): Promise<unknown> {
  const db = openState(dataDir);
  try {
    return db.kv.get('serve/owner');
  } finally {
    await closeState(dataDir);
  }
}

test.serial('a second serve on the same data dir is refused and the first serves on; a killed serve is taken over', async (t) => {
  const dataDir = await freshDataDir();
  const first = serve(dataDir);
  let second: Serve | undefined;
  let third: Serve | undefined;
  try {
    const url = await listening(first);
    second = serve(dataDir);
    const refused = await second.outcome;
    t.false('url' in refused, 'the second serve must not listen');
    if ('url' in refused) return;
    t.is(refused.code, 1);
    t.regex(refused.stderr, new RegExp(`another recapito serve \\(pid ${first.child.pid},`));
    t.true(refused.stderr.includes(dataDir));
    t.is((await fetch(`${url}/health`)).status, 200, 'the first serve answers on');

    await stopped(first, 'SIGKILL');
    t.like(await ownerOf(dataDir), { pid: first.child.pid }, 'a killed serve leaves its record');
    third = serve(dataDir);
    const taken = await listening(third);
    t.is((await fetch(`${taken}/health`)).status, 200);
    t.like(await ownerOf(dataDir), { pid: third.child.pid }, 'read beside the running serve');

    await stopped(third, 'SIGTERM');
    t.is(third.child.exitCode, 0);
    t.is(await ownerOf(dataDir), undefined, 'a graceful stop leaves no owner');
  } finally {
    for (const s of [first, second, third]) if (s) await stopped(s, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.serial('two serves started together on one data dir: exactly one listens', async (t) => {
  const dataDir = await freshDataDir();
  const both = [serve(dataDir), serve(dataDir)];
  try {
    const outcomes = await Promise.race([
      Promise.all(both.map((s) => s.outcome)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('neither serve settled in 60 s')), 60_000)),
    ]);
    const listened = outcomes.filter((o) => 'url' in o);
    const refused = outcomes.filter((o) => !('url' in o));
    t.is(listened.length, 1);
    t.is(refused.length, 1);
    t.regex((refused[0] as { stderr: string }).stderr, /another recapito serve \(pid \d+,/);
  } finally {
    for (const s of both) await stopped(s, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
