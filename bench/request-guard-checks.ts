/**
 * Issue 33's checks of what a request costs before it is let in, measured against a real `recapito serve`
 * process (not a test: timings and memory): encoded paths without a token, sign-ins with a rotating
 * X-Forwarded-For, an unauthenticated 48 MiB body (time to the answer, the server's RSS growth), a
 * 30,000-row XLSX through the console while /health is asked every 50 ms, and SIGTERM during a 100,000-row
 * read. PROFILE_ENTRY=<another build's bin/recapito.js> runs that build instead (before/after);
 * CHECKS_XLSX_ROWS, CHECKS_SIGTERM_ROWS size the two workbooks (30,000 and 100,000).
 *
 *   node dist/bench/request-guard-checks.js
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';

import ExcelJS from 'exceljs';

import { createAccount } from '../src/state/tokens.js';
import { PROJECT_ROOT } from '../src/config.js';
import { createUser } from '../src/console/store.js';
import { closeState } from '../src/state/db.js';
import { openStore } from '../src/state/open.js';
import { startListening } from '../test/helpers/process.js';
import { freshDataDir } from '../test/helpers/server.js';

const EMAIL = 'misura@example.it';
const PASSWORD = 'Misure di sicurezza 33';
const MiB = 1024 * 1024;
/** Rows of the workbook read while /health is asked, and of the one read when SIGTERM comes (smaller for an old build). */
const XLSX_ROWS = Number(process.env.CHECKS_XLSX_ROWS ?? 30_000);
const SIGTERM_ROWS = Number(process.env.CHECKS_SIGTERM_ROWS ?? 100_000);

const rssMiB = (pid: number, field = 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function xlsx(rows: number): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Clienti');
  sheet.addRow(['Codice', 'Indirizzo', 'Civico', 'CAP', 'Comune', 'E-mail']);
  for (let i = 0; i < rows; i++) sheet.addRow([`C${i + 1}`, `Via dell'Indipendenza`, (i % 120) + 1, '40121', 'Bologna', `cliente${i}@example.it`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Signs in as a browser would; the session cookie and the CSRF token of a console page. */
async function signIn(url: string, email = EMAIL, password = PASSWORD, headers: Record<string, string> = {}): Promise<{ status: number; cookie: string; csrf: string }> {
  const get = await fetch(`${url}/console/login`, { headers });
  const jar = get.headers.getSetCookie().map((c) => c.split(';')[0]);
  const formToken = /name="_csrf" value="([^"]*)"/.exec(await get.text())?.[1] ?? '';
  const post = await fetch(`${url}/console/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie: jar.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: formToken, email, password }).toString(),
  });
  await post.arrayBuffer();
  const session = post.headers.getSetCookie().find((c) => c.startsWith('recapito_console='))?.split(';')[0] ?? '';
  if (post.status !== 303) return { status: post.status, cookie: '', csrf: '' };
  const lists = await fetch(`${url}/console/lists`, { headers: { cookie: session } });
  return { status: post.status, cookie: session, csrf: /name="csrf-token" content="([^"]+)"/.exec(await lists.text())?.[1] ?? '' };
}

/** Sends a whole `bytes` body without a token; ms to the answer and the server's RSS growth meanwhile. */
function bigBody(url: string, pid: number, route: string, type: string, bytes: number): Promise<{ status: number | string; ms: number; rssGrowthMiB: number }> {
  const { hostname, port } = new URL(url);
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 10);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ hostname, port, path: route, method: 'POST', headers: { 'content-type': type, 'content-length': String(bytes) } });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const ms = performance.now() - started;
      res.resume();
      setTimeout(() => {
        clearInterval(sampler);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, ms: Math.round(ms), rssGrowthMiB: Math.round(peak - before) });
      }, 500);
    });
    // the server may close the connection while the body is still being sent: a refusal too, timed the same
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      const ms = performance.now() - started;
      setTimeout(() => {
        clearInterval(sampler);
        resolve({ status: error.code ?? 'error', ms: Math.round(ms), rssGrowthMiB: Math.round(peak - before) });
      }, 500);
    });
    const chunk = Buffer.alloc(MiB, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += MiB;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** POSTs an upload while /health is asked every 50 ms; the upload's time and the slowest /health answer. */
async function uploadWithHealth(url: string, who: { cookie: string; csrf: string }, name: string, data: Buffer) {
  let polling = true;
  const health: { at: number; ms: number }[] = [];
  const t0 = performance.now();
  const poller = (async () => {
    while (polling) {
      const asked = performance.now();
      const res = await fetch(`${url}/health`);
      await res.arrayBuffer();
      health.push({ at: Math.round(asked - t0), ms: Math.round(performance.now() - asked) });
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const res = await fetch(`${url}/console/api/upload?name=${name}`, { method: 'POST', headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': 'application/octet-stream' }, body: data });
  const body = (await res.json()) as { rows?: number; message?: string };
  const ms = performance.now() - t0;
  polling = false;
  await poller;
  const slowest = [...health].sort((a, b) => b.ms - a.ms).slice(0, 3);
  return { status: res.status, rows: body.rows ?? body.message, uploadMs: Math.round(ms), healthAsked: health.length, healthMaxMs: slowest[0]?.ms, slowestHealth: slowest.map((h) => `${h.ms} ms at +${h.at} ms`).join(', '), loadavg: os.loadavg().map((l) => l.toFixed(1)).join(' ') };
}

async function main(): Promise<void> {
  const dataDir = await freshDataDir();
  const store = await openStore(dataDir, undefined);
  await createAccount(store, 'misure');
  await createUser(store, 'misure', EMAIL, PASSWORD);
  const entry = process.env.PROFILE_ENTRY ? path.resolve(process.env.PROFILE_ENTRY) : path.join(PROJECT_ROOT, 'bin', 'recapito.js');
  const { child, url } = await startListening([entry, '--data-dir', dataDir, 'serve', '--port', '0']);
  const pid = child.pid ?? 0;
  const out: Record<string, unknown> = { entry };

  console.error(new Date().toISOString(), '1. encoded…');
  // 1. encoded paths, no token
  const encoded: Record<string, number> = {};
  for (const p of ['/api/v1/%63ountries?q=IT', '/api/v1/n%61zioni', '/api/v1/%63ountries']) encoded[p] = (await fetch(`${url}${p}`)).status;
  out.encodedPaths = encoded;

  console.error(new Date().toISOString(), '2. nine…');
  // 2. nine wrong sign-ins, each with another X-Forwarded-For
  const xff: number[] = [];
  for (let i = 0; i < 9; i++) xff.push((await signIn(url, 'mallory@example.it', 'wrong password here', { 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
  out.rotatingXffSignIns = xff.join(' ');

  console.error(new Date().toISOString(), '3. unauthenticated…');
  // 3. unauthenticated 48 MiB bodies
  out.body48MiB = {
    consoleLogin: await bigBody(url, pid, '/console/login', 'application/x-www-form-urlencoded', 48 * MiB),
    apiNowhere: await bigBody(url, pid, '/api/v1/nowhere', 'application/json', 48 * MiB),
    apiContact: await bigBody(url, pid, '/api/v1/contact', 'application/json', 48 * MiB),
    consoleUpload: await bigBody(url, pid, '/console/api/upload?name=x.csv', 'application/octet-stream', 48 * MiB),
  };

  console.error(new Date().toISOString(), '4. a 30,000…');
  // 4. a 30,000-row XLSX through the console
  const who = await signIn(url);
  if (who.status !== 303) throw new Error(`sign-in refused: ${who.status}`);
  const sheet30k = await xlsx(XLSX_ROWS);
  // the same polling with nothing uploaded, just before: what the machine's load alone costs /health
  const idle: number[] = [];
  for (let until = performance.now() + 10_000; performance.now() < until; ) {
    const asked = performance.now();
    await (await fetch(`${url}/health`)).arrayBuffer();
    idle.push(performance.now() - asked);
    await new Promise((r) => setTimeout(r, 50));
  }
  out.healthIdle10s = { asked: idle.length, maxMs: Math.round(Math.max(...idle)), loadavg: os.loadavg().map((l) => l.toFixed(1)).join(' ') };
  out[`xlsx${XLSX_ROWS}`] = { bytes: sheet30k.length, ...(await uploadWithHealth(url, who, 'clienti.xlsx', sheet30k)) };
  out.serverPeakRssMiB = Math.round(rssMiB(pid, 'VmHWM'));

  console.error(new Date().toISOString(), '5. SIGTERM…');
  // 5. SIGTERM while a 100,000-row workbook is read
  const sheet100k = await xlsx(SIGTERM_ROWS);
  const upload = fetch(`${url}/console/api/upload?name=grande.xlsx`, { method: 'POST', headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': 'application/octet-stream' }, body: sheet100k }).then(
    (r) => r.status,
    () => 'connection closed',
  );
  await new Promise((r) => setTimeout(r, 1500));
  const t0 = performance.now();
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const how = await exited;
  clearTimeout(killer);
  out.sigtermDuringRead = { exitedAfterMs: Math.round(performance.now() - t0), exit: how, upload: await upload };

  await store.close();
  await closeState(dataDir);
  console.log(JSON.stringify(out, null, 2));
}

await main();
