import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { chromium, type BrowserContext, type Page, type Response } from 'playwright-core';

import { PROJECT_ROOT } from '../src/config.js';
import { sessionStore, createUser, type StoredSession } from '../src/console/store.js';
import { fieldOfHeader, suggestCapability, suggestMapping } from '../src/console/tables.js';
import { addPack } from '../src/state/ledger.js';
import { startDnsResponder, type DnsResponder, type ZoneEntry } from './helpers/dns-server.js';
import { call, startServer, waitFor, type TestServer } from './helpers/server.js';
import { sourceCsv, type Row } from './helpers/source.js';

/**
 * The web console end to end in Debian's headless Chromium (driven by playwright-core, no browser
 * download), against the real server on real Bologna data. Screenshots of every page go to
 * .tmp/console-shots/ (ignored by git) to be looked at.
 */

const CHROMIUM = process.env.RECAPITO_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = path.join(PROJECT_ROOT, '.tmp', 'console-shots');
const EMAIL = 'anna@example.it';
const PASSWORD = 'Sole di Bologna 2026';
const LIST_ROWS = 2000;
const SLOW_DOMAINS = 64;

const run = promisify(execFile);
const cli = (dataDir: string, ...args: string[]) => run(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'recapito.js'), '--data-dir', dataDir, ...args], { env: { ...process.env, ...server.env } });

/** Bologna's own house-number list (2012): street, number, postcode, point. */
const BOLOGNA = sourceCsv('it/civici/bologna/civici_2012.csv.gz').filter((r) => r.CAP?.length === 5 && !r.SUBCIV && /^VIA [A-Z ]+$/.test(r.DENOMINAZI ?? ''));

function titled(text: string): string {
  return text
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())
    .replace(/\b(Di|Del|Della|Dei|Degli|Delle|De|Da)\b/g, (w) => w.toLowerCase());
}

const pick = (i: number): Row => BOLOGNA[(i * 997) % BOLOGNA.length] as Row;

let server: TestServer;
let dns: DnsResponder;
let context: BrowserContext;
let page: Page;
let profile: string;
const pageErrors: string[] = [];
/** Every console answer the browser received, to prove no API token ever reached it. */
const bodies: { url: string; method: string; text: string }[] = [];

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const zone = new Map<string, ZoneEntry>();
  for (let i = 0; i < SLOW_DOMAINS; i++) zone.set(`slowmail${i}.it`, { silent: true });
  dns = await startDnsResponder(zone);
  server = await startServer({ dnsServer: dns.server });
  await createUser(server.state, server.account, EMAIL, PASSWORD);
  await addPack(server.state, server.account, 'contact', 5000);
  await addPack(server.state, server.account, 'light', 5000);
  profile = mkdtempSync(path.join(os.tmpdir(), 'recapito-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) pageErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('response', (res: Response) => {
    if (!res.url().startsWith(`${server.url}/console`)) return;
    const type = res.headers()['content-type'] ?? '';
    if (!/html|json|csv/.test(type)) return;
    void res.text().then(
      (text) => bodies.push({ url: res.url(), method: res.request().method(), text }),
      () => undefined,
    );
  });
});

test.after.always(async () => {
  await context?.close();
  await server?.close();
  await dns?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test.serial('a wrong password is refused; the right one opens the console', async (t) => {
  await page.goto(`${server.url}/console/`);
  t.regex(page.url(), /\/console\/login$/);
  await shot('01-login');
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill('not the password');
  const refused = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/console/login') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
  t.is(refused[0].status(), 401);
  await t.notThrowsAsync(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).waitFor());
  await shot('02-login-refused');

  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/console\/verify$/), page.getByRole('button', { name: 'Sign in' }).click()]);
  const cookie = (await context.cookies()).find((c) => c.name === 'recapito_console');
  t.truthy(cookie);
  t.true(cookie?.httpOnly, 'the session cookie is httpOnly');
  t.is(cookie?.sameSite, 'Strict');
  t.is(await page.evaluate('document.cookie'), '', 'scripts cannot read the session cookie');
});

test.serial('Verify: autocomplete a real Bologna street with the keyboard, pick a house number, see the verified record', async (t) => {
  const row = BOLOGNA.find((r) => r.DENOMINAZI === 'VIA DEL FAGGIOLO' && Number(r.CIVICO) === 7) ?? pick(0);
  const postcode = row.CAP ?? '';
  const before = (await call(server, 'GET', '/api/v1/credit')).body.counters.contact.available as number;
  const street = titled(row.DENOMINAZI ?? '');
  const number = String(Number(row.CIVICO));
  await page.getByLabel('City').fill('Bologna');
  await page.getByLabel('Street').pressSequentially(street.toLowerCase().slice(0, 11), { delay: 30 });
  const option = page.getByRole('option', { name: new RegExp(`^${street} — Bologna`) });
  await option.waitFor();
  t.regex(await page.locator('.recapito-ac-attribution').first().innerText(), /ANNCSU/, 'the attribution is shown next to the suggestions');
  await shot('03-verify-streets');
  // keyboard only: arrow down to the street, Enter
  const options = await page.getByRole('option').allInnerTexts();
  const index = options.findIndex((o) => o.startsWith(`${street} — Bologna`));
  for (let i = 0; i <= index; i++) await page.getByLabel('Street').press('ArrowDown');
  await page.getByLabel('Street').press('Enter');
  t.is(await page.getByLabel('Street').inputValue(), street);
  t.is(await page.getByLabel('House number').evaluate((e) => e === e.ownerDocument.activeElement), true, 'the focus moves to the house number');
  await page.getByLabel('House number').pressSequentially(number, { delay: 30 });
  await t.notThrowsAsync(page.getByRole('option', { name: number, exact: true }).waitFor(), 'the house numbers of the selected street are listed');
  await shot('04-verify-numbers');
  await page.getByRole('option', { name: number, exact: true }).click();
  const result = page.locator('#verify-result');
  await result.getByText(`${street} ${number}`).first().waitFor();
  const text = await result.innerText();
  t.regex(text, new RegExp(`${street} ${number}, ${row.CAP} Bologna`), text);
  t.regex(text, /Postcode check\s+confirmed/);
  const [lat, lon] = (/(\d+\.\d{6}), (\d+\.\d{6})/.exec(text) ?? []).slice(1).map(Number);
  t.true(Math.abs((lat ?? 0) - Number(row.LAT_WGS84)) < 0.002 && Math.abs((lon ?? 0) - Number(row.LON_WGS84)) < 0.002, `coordinates ${lat}, ${lon} near the register's point`);
  t.is(await page.getByLabel('Postcode').inputValue(), postcode);
  t.regex(text, /Charged\s+0 \(this street was already charged in this session\)/, 'the number refines a street already selected (and charged) in this session');
  const after = (await call(server, 'GET', '/api/v1/credit')).body.counters.contact.available as number;
  t.is(before - after, 1, 'one contact verification for the session and street');
  await shot('05-verify-record');

  // typed by hand, with a wrong postcode: the outcome codes come with their reasons
  await page.getByLabel('Postcode').fill('40100');
  await page.getByRole('button', { name: 'Verify as typed' }).click();
  await result.locator('table.codes').waitFor();
  t.true((await result.locator('table.codes code').count()) > 0);
  await shot('06-verify-typed');
});

async function uploadFile(name: string, mimeType: string, buffer: Buffer): Promise<void> {
  await page.goto(`${server.url}/console/lists`);
  await page.getByLabel('File (CSV or XLSX)').setInputFiles({ name, mimeType, buffer });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.locator('#mapping-form').waitFor({ state: 'visible' });
}

async function startAndWait(name: string): Promise<{ job: string; state: string }> {
  await Promise.all([page.waitForURL(/\/console\/lists/), page.getByRole('button', { name: 'Start' }).click()]);
  await page.waitForLoadState('load');
  const row = page.locator('#jobs-table tbody tr').first();
  await row.locator('.file', { hasText: name }).waitFor();
  const job = (await row.getAttribute('data-job')) ?? '';
  const finished = ['completed', 'failed', 'cancelled'].map((s) => `[data-state="${s}"]`).join(',');
  await page.locator(`tr[data-job="${job}"]:is(${finished})`).waitFor({ timeout: 240_000 });
  return { job, state: (await row.getAttribute('data-state')) ?? '' };
}

test.serial('Lists: a 2,000-row CSV with Italian headers is mapped, verified with a live progress bar, and downloaded', async (t) => {
  const lines = ['Codice;Indirizzo;Civico;CAP;Comune;Provincia'];
  const source: Row[] = [];
  for (let i = 0; i < LIST_ROWS; i++) {
    const r = pick(i);
    source.push(r);
    lines.push([`C${i + 1}`, titled(r.DENOMINAZI ?? ''), String(Number(r.CIVICO)), r.CAP, 'Bologna', 'BO'].join(';'));
  }
  await uploadFile('clienti-bologna.csv', 'text/csv', Buffer.from(lines.join('\n')));
  t.regex(await page.locator('#upload-summary').innerText(), /2000 rows read from clienti-bologna\.csv/);
  t.is(await page.locator('#capability').inputValue(), 'contact');
  const mapped = await page.locator('#mapping-table select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  t.deepEqual(mapped, ['id', 'address', 'house_number', 'postcode', 'city', 'province'], 'the mapping is suggested from the Italian headers');
  t.is(await page.locator('#preview-table tbody tr').count(), 5);
  await shot('07-lists-mapping');

  const { job, state } = await startAndWait('clienti-bologna.csv');
  t.is(state, 'completed');
  const bar = page.locator(`tr[data-job="${job}"] progress`);
  t.is(await bar.getAttribute('value'), String(LIST_ROWS));
  t.is(await bar.getAttribute('max'), String(LIST_ROWS));
  t.regex(await page.locator(`tr[data-job="${job}"] .pct`).innerText(), /100%/);
  await shot('08-lists-completed');

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`tr[data-job="${job}"] a`, { hasText: 'Download CSV' }).click()]);
  const file = await download.path();
  const rows = parse(readFileSync(file), { columns: true }) as Row[];
  t.is(rows.length, LIST_ROWS);
  t.deepEqual(new Set(rows.map((r) => r.id)), new Set(source.map((_, i) => `C${i + 1}`)), 'every row comes back under its own code');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const samePostcode = source.filter((s, i) => byId.get(`C${i + 1}`)?.postcode === s.CAP).length;
  const located = rows.filter((r) => r.latitude && r.longitude && r.istat_code === '037006').length;
  t.true(samePostcode / LIST_ROWS >= 0.95, `postcode as the register's for ${samePostcode} of ${LIST_ROWS}`);
  t.true(located / LIST_ROWS >= 0.95, `located in Bologna (ISTAT 037006): ${located} of ${LIST_ROWS}`);
  t.truthy(rows[0]?.outcome_label);
});

test.serial('Lists: a running job is cancelled and the refund is shown', async (t) => {
  // e-mail domains whose DNS never answers keep the first chunk busy for seconds
  const lines = ['Email'];
  for (let i = 0; i < 600; i++) lines.push(`cliente${i}@slowmail${i % SLOW_DOMAINS}.it`);
  await uploadFile('email.csv', 'text/csv', Buffer.from(lines.join('\n')));
  t.is(await page.locator('#capability').inputValue(), 'email');
  await Promise.all([page.waitForURL(/\/console\/lists/), page.getByRole('button', { name: 'Start' }).click()]);
  await page.waitForLoadState('load');
  const row = page.locator('#jobs-table tbody tr').first();
  await row.locator('.file', { hasText: 'email.csv' }).waitFor();
  await row.getByRole('button', { name: 'Cancel' }).click();
  const refund = row.locator('.refund');
  await refund.filter({ hasText: /Refunded: \d+ operations/ }).waitFor();
  const refunded = Number(/(\d+)/.exec(await refund.innerText())?.[1]);
  t.true(refunded >= 100, `at least the unstarted chunk is given back (${refunded})`);
  const job = (await row.getAttribute('data-job')) ?? '';
  const read = await call(server, 'GET', `/api/v1/email?job=${job}`);
  t.is(read.body.state, 'cancelled');
  t.is(read.body.refunded, refunded);
  await shot('09-lists-cancelled');
});

test.serial('Duplicates: an XLSX list is deduplicated; a group is confirmed, another split, the list exported', async (t) => {
  const streets = [0, 1, 2, 3].map((i) => pick(100 + i));
  const addr = (r: Row) => `${titled(r.DENOMINAZI ?? '')} ${Number(r.CIVICO)}`;
  const s0 = streets[0] as Row;
  const s1 = streets[1] as Row;
  const s2 = streets[2] as Row;
  const s3 = streets[3] as Row;
  const data = [
    ['Codice', 'Cognome', 'Nome', 'Indirizzo', 'CAP', 'Comune', 'Telefono', 'E-mail'],
    ['1', 'Rossi', 'Mario', addr(s0), s0.CAP, 'Bologna', '333 1234567', 'mario.rossi@example.it'],
    ['2', 'ROSSI', 'MARIO', addr(s0).toLowerCase(), s0.CAP, 'BOLOGNA', '3331234567', ''],
    ['3', 'Bianchi', 'Anna', addr(s1), s1.CAP, 'Bologna', '', 'anna.bianchi@example.it'],
    ['4', 'Anna', 'Bianchi', addr(s1), '', 'Bologna', '', 'anna.bianchi@example.it'],
    ['5', 'Verdi', 'Luca', addr(s2), s2.CAP, 'Bologna', '051 123456', ''],
    ['6', 'Neri', 'Giulia', addr(s3), s3.CAP, 'Bologna', '', 'giulia.neri@example.it'],
  ];
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Clienti').addRows(data);
  const xlsx = Buffer.from(await book.xlsx.writeBuffer());
  await uploadFile('rubrica.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xlsx);
  t.is(await page.locator('#capability').inputValue(), 'dedupe', 'names, addresses and contact details suggest deduplication');
  const mapped = await page.locator('#mapping-table select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  t.deepEqual(mapped, ['id', 'last_name', 'first_name', 'address', 'postcode', 'city', 'phone', 'email']);
  const { job, state } = await startAndWait('rubrica.xlsx');
  t.is(state, 'completed');
  await Promise.all([page.waitForURL(/\/console\/duplicates\?job=/), page.locator(`tr[data-job="${job}"] a`, { hasText: 'Review groups' }).click()]);
  const groups = page.locator('article.group');
  t.true((await groups.count()) >= 2, await page.locator('main').innerText());
  const rossi = groups.filter({ has: page.locator('code', { hasText: /^1$/ }) }).filter({ has: page.locator('code', { hasText: /^2$/ }) });
  t.is(await rossi.count(), 1, 'records 1 and 2 are one group');
  t.regex(await rossi.innerText(), /Record to keep[\s\S]*Merged record/);
  t.regex(await rossi.locator('.side').first().innerText(), /mario\.rossi@example\.it/);
  await shot('10-duplicates');

  const rossiGroup = Number(/g-(\d+)/.exec((await rossi.getAttribute('aria-labelledby')) ?? '')?.[1]);
  await Promise.all([page.waitForURL(/duplicates\?job=/), rossi.getByRole('button', { name: 'Confirm' }).click()]);
  const other = page.locator('article.group').filter({ hasNot: page.locator(`#g-${rossiGroup}`) }).first();
  const otherGroup = Number(/g-(\d+)/.exec((await other.getAttribute('aria-labelledby')) ?? '')?.[1]);
  await Promise.all([page.waitForURL(/duplicates\?job=/), other.getByRole('button', { name: 'Split' }).click()]);
  t.regex(await page.locator(`article.group:has(#g-${rossiGroup})`).innerText(), /Confirmed \d{4}-/);
  t.regex(await page.locator(`article.group:has(#g-${otherGroup})`).innerText(), /Split \d{4}-/);
  await shot('11-duplicates-reviewed');

  const saved = await call(server, 'GET', `/api/v1/dedupe?job=${job}`);
  const processed = (saved.body.groups as { group: number; processed: boolean }[]).filter((g) => g.processed).map((g) => g.group).sort();
  t.deepEqual(processed, [rossiGroup, otherGroup].sort(), 'both decisions are the spec review of the group');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const exported = parse(readFileSync(await download.path()), { columns: true }) as Row[];
  const confirmed = exported.filter((r) => r.group === String(rossiGroup));
  t.is(confirmed.length, 1, 'a confirmed group is one row');
  t.is(confirmed[0]?.review, 'confirmed');
  const split = exported.filter((r) => r.group === String(otherGroup));
  t.true(split.length >= 2 && split.every((r) => r.review === 'split'), 'a split group keeps its records apart');
  t.is(new Set(exported.map((r) => r.id)).size, exported.length);
});

test.serial('Credit: every counter with its state, a usage chart per day drawn by the local chart library', async (t) => {
  await page.goto(`${server.url}/console/credit`);
  const contact = page.locator('section.counter', { hasText: 'Contact verifications' });
  t.regex(await contact.innerText(), /State\s+active/);
  const report = await call(server, 'GET', '/api/v1/credit');
  t.regex(await contact.locator('.num').innerText(), new RegExp(`^${report.body.counters.contact.available}$`));
  t.regex(await page.locator('section.counter', { hasText: 'Deduplication records' }).innerText(), /Auto top-up\s+off/);
  // the chart is drawn (Chart.js from node_modules, no CDN) and its table says the same
  t.true(await page.evaluate<boolean>("Boolean(window.Chart && window.Chart.getChart(document.getElementById('usage-chart')))"));
  const today = new Date().getUTCDate();
  await page.locator('summary', { hasText: 'Usage per day (table)' }).click();
  const cells = await page.locator(`#usage-table tbody tr:nth-child(${today}) td`).allInnerTexts();
  t.true(Number(cells[0]) >= LIST_ROWS + 1, `contact operations today: ${cells[0]}`);
  t.true(Number(cells[1]) >= 6, `dedupe records today: ${cells[1]}`);
  await shot('12-credit');
});

test.serial('Tokens: a new token is shown once and works; revoked, it is refused', async (t) => {
  await page.goto(`${server.url}/console/tokens`);
  const before = await page.locator('#tokens-table tbody tr').count();
  t.true(before >= 1, 'the account token made by the test setup is listed');
  await page.getByRole('button', { name: 'Create a token' }).click();
  const fresh = (await page.locator('#fresh-token').innerText()).trim();
  t.regex(fresh, /^rk_[\w-]{20,}$/);
  t.is((await call(server, 'GET', '/api/v1/credit', undefined, { token: fresh })).status, 200);
  await shot('13-tokens-created');
  await page.goto(`${server.url}/console/tokens`);
  t.is(await page.locator('#fresh-token').count(), 0, 'shown once');
  t.false((await page.content()).includes(fresh));
  const id = /\((\w+)\)/.exec(bodies.find((b) => b.text.includes(fresh))?.text.match(/<small>\((\w+)\)<\/small>/)?.[0] ?? '')?.[1] ?? '';
  const row = page.locator(`tr[data-token="${id}"]`);
  t.regex(await row.innerText(), /\b1\b/, 'its one request is counted');
  await Promise.all([page.waitForURL(/tokens\?revoked=/), row.getByRole('button', { name: `Revoke ${id}` }).click()]);
  t.is(await page.locator(`tr[data-token="${id}"]`).getAttribute('data-status'), 'revoked');
  const refused = await call(server, 'GET', '/api/v1/credit', undefined, { token: fresh });
  t.is(refused.status, 401);
  t.is(refused.body.code, 'token_revoked');
  await shot('14-tokens-revoked');
});

test.serial('a forged or missing CSRF token is refused and changes nothing', async (t) => {
  await page.goto(`${server.url}/console/tokens`);
  const before = await page.locator('#tokens-table tbody tr').count();
  const statuses = await page.evaluate(async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch('/console/tokens/create', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body }).then((r) => r.status);
    return [await post('_csrf=forged-token-value'), await post(''), await post('', { 'x-csrf-token': 'forged' })];
  });
  t.deepEqual(statuses, [403, 403, 403]);
  await page.reload();
  t.is(await page.locator('#tokens-table tbody tr').count(), before, 'no token was created');
  // a script call without the header is refused too
  const api = await page.evaluate(() => fetch('/console/api/suggest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then((r) => r.status));
  t.is(api, 403);
});

test.serial('an expired session is refused and sends the user to sign in again', async (t) => {
  const cookie = (await context.cookies()).find((c) => c.name === 'recapito_console');
  const id = decodeURIComponent(cookie?.value ?? '').replace(/\.[^.]+$/, '');
  const store = sessionStore(server.state);
  const stored = await new Promise<StoredSession | null | undefined>((resolve) => store.get(id, (_e, s) => resolve(s)));
  t.truthy(stored?.user, 'the signed-in session is in the store');
  // the session's idle time runs out: its stored expiry is now in the past
  await new Promise<void>((resolve) => store.set(id, { ...(stored as StoredSession), cookie: { ...(stored as StoredSession).cookie, expires: new Date(Date.now() - 1000).toISOString() } }, () => resolve()));
  await page.goto(`${server.url}/console/credit`);
  t.regex(page.url(), /\/console\/login\?expired=1$/);
  await t.notThrowsAsync(page.getByRole('status').filter({ hasText: 'Your session expired: sign in again.' }).waitFor());
  const api = await page.evaluate(() => fetch('/console/api/jobs/x').then((r) => r.status));
  t.is(api, 401);
  await shot('15-session-expired');
});

test.serial('sign in again in Italian, sign out; the pages then need a new sign-in', async (t) => {
  await page.goto(`${server.url}/console/login?lang=it`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/console\/verify$/), page.getByRole('button', { name: 'Accedi' }).click()]);
  t.is(await page.locator('html').getAttribute('lang'), 'it');
  t.is(await page.getByRole('heading', { level: 1 }).innerText(), 'Verifica un indirizzo');
  await shot('16-verify-italian');
  const cookie = (await context.cookies()).find((c) => c.name === 'recapito_console');
  await Promise.all([page.waitForURL(/\/console\/login\?out=1$/), page.getByRole('button', { name: 'Esci' }).click()]);
  await page.goto(`${server.url}/console/tokens`);
  t.regex(page.url(), /\/console\/login/);
  // the cookie of the closed session opens nothing, even replayed by hand
  const replay = await fetch(`${server.url}/console/tokens`, { headers: { cookie: `recapito_console=${cookie?.value ?? ''}` }, redirect: 'manual' });
  t.is(replay.status, 303);
});

test.serial('no API token of the console ever reached the browser; no script error', async (t) => {
  await new Promise((r) => setTimeout(r, 200)); // the last response bodies are read asynchronously
  const shownOnce = bodies.filter((b) => b.method === 'POST' && /\/console\/tokens\/(create|[\w]+\/regenerate)$/.test(b.url));
  // a whole token only: `rk_` inside a longer random string (a CSRF token is base64url) is not one
  const token = /(?<![\w-])rk_[\w-]{20,}/;
  const leaks = bodies.filter((b) => !shownOnce.includes(b) && token.test(b.text)).map((b) => `${b.method} ${b.url}: ${token.exec(b.text)?.[0] ?? ''}`);
  t.deepEqual(leaks, []);
  // and none of the tokens shown once appears in any other answer
  const shown = shownOnce.map((b) => /id="fresh-token"[^>]*>([^<]+)</.exec(b.text)?.[1] ?? '').filter(Boolean);
  t.true(shown.length >= 1, 'the tokens shown once were captured');
  t.false(bodies.some((b) => !shownOnce.includes(b) && shown.some((s) => b.text.includes(s))));
  t.false(bodies.some((b) => b.text.includes(server.token)));
  t.true(bodies.length > 20);
  t.deepEqual(pageErrors, []);
});

/** Signs in over plain HTTP; the session cookie and a CSRF token of that session. */
async function httpSignIn(url: string, email: string, password: string): Promise<{ status: number; cookie: string; csrf: string }> {
  const get = await fetch(`${url}/console/login`);
  const first = get.headers.get('set-cookie')?.split(';')[0] ?? '';
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await get.text())?.[1] ?? '';
  const res = await fetch(`${url}/console/login`, { method: 'POST', redirect: 'manual', headers: { cookie: first, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: csrf, email, password }).toString() });
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? first;
  const page = await fetch(`${url}/console/tokens`, { headers: { cookie } });
  return { status: res.status, cookie, csrf: /name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1] ?? '' };
}

test('sign-in is rate-limited per address and e-mail', async (t) => {
  const login = async () => (await httpSignIn(server.url, 'mallory@example.it', 'guess guess guess')).status;
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push(await login());
  t.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
});

test('header mapping: English, Italian and the spec synonyms', (t) => {
  t.is(fieldOfHeader('CAP'), 'postcode');
  t.is(fieldOfHeader('zip'), 'postcode');
  t.is(fieldOfHeader('Località'), 'city');
  t.is(fieldOfHeader('Città'), 'city');
  t.is(fieldOfHeader('surname'), 'last_name');
  t.is(fieldOfHeader('Codice Fiscale'), 'tax_code');
  t.is(fieldOfHeader('phone_number'), 'phone');
  t.is(fieldOfHeader('date_of_birth'), 'birth_date');
  t.is(fieldOfHeader('Sito web'), 'website');
  t.is(fieldOfHeader('N. civico'), 'house_number');
  t.is(fieldOfHeader('colour of the car'), null);
  t.deepEqual(suggestMapping('phone', ['Nome', 'Cellulare', 'Nazione']), { 1: 'phone', 2: 'country' });
  t.is(suggestCapability(['Cognome', 'Nome', 'Codice fiscale', 'Data di nascita', 'Luogo di nascita']), 'tax-code');
  t.is(suggestCapability(['website']), 'website');
});

test('bad uploads and requests get clear 4xx answers, never a 5xx', async (t) => {
  await createUser(server.state, server.account, 'bob@example.it', 'bob password 2026');
  const { cookie, csrf } = await httpSignIn(server.url, 'bob@example.it', 'bob password 2026');
  const post = (p: string, body: string | Buffer, type: string) => fetch(`${server.url}${p}`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, 'content-type': type }, body });
  const upload = async (name: string, data: Buffer) => {
    const res = await post(`/console/api/upload?name=${encodeURIComponent(name)}`, data, 'application/octet-stream');
    return { status: res.status, body: (await res.json()) as { message?: string; rows?: number } };
  };
  const empty = await upload('empty.csv', Buffer.alloc(0));
  t.is(empty.status, 400);
  t.regex(empty.body.message ?? '', /empty/);
  t.regex((await upload('old.xls', Buffer.from('whatever'))).body.message ?? '', /xlsx or \.csv/);
  const brokenZip = await upload('broken.xlsx', Buffer.from('PK\u0003\u0004 not really a workbook'));
  t.is(brokenZip.status, 400);
  t.regex(brokenZip.body.message ?? '', /not a readable XLSX/);
  t.is((await upload('header-only.csv', Buffer.from('a,b,c\n'))).status, 400);
  const quoted = await upload('bad-quotes.csv', Buffer.from('a,b\n"x,y\n'));
  t.is(quoted.status, 400);
  const ok = await upload('ok.csv', Buffer.from('email\nx@example.it\n'));
  t.is(ok.body.rows, 1);
  const jobs = async (body: unknown) => (await post('/console/api/jobs', JSON.stringify(body), 'application/json')).status;
  t.is(await jobs({ upload: 'nope', capability: 'email', mapping: { 0: 'email' } }), 404);
  t.is(await jobs({ upload: 'nope', capability: 'teleport', mapping: {} }), 400);
  t.is((await fetch(`${server.url}/console/api/jobs/NOPE`, { headers: { cookie } })).status, 404);
  const review = await post('/console/duplicates/review', new URLSearchParams({ _csrf: csrf, job: 'NOPE', group: '1', decision: 'confirm' }).toString(), 'application/x-www-form-urlencoded');
  t.is(review.status, 404);
  const revoke = await post('/console/tokens/notmine/revoke', new URLSearchParams({ _csrf: csrf }).toString(), 'application/x-www-form-urlencoded');
  t.is(revoke.status, 404, 'a token of another account (or none) is unknown here');
  t.is((await fetch(`${server.url}/console/nowhere`, { headers: { cookie } })).status, 404);
});

test('user CLI: create, reset (old sessions end), disable (sign-in refused)', async (t) => {
  // the CLI works on the running server's state, as an operator would
  const dataDir = server.dataDir;
  await cli(dataDir, 'account', 'create', 'acme', '--language', 'it');
  const created = await cli(dataDir, 'user', 'create', '--account', 'acme', '--email', 'Ufficio@Acme.it');
  const password = /password \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
  t.true(password.length >= 12, created.stdout);
  await t.throwsAsync(cli(dataDir, 'user', 'create', '--account', 'nobody', '--email', 'x@acme.it'), { message: /no account nobody/ });
  const url = server.url;
  const signIn = (email: string, pw: string) => httpSignIn(url, email, pw);
  const page = (cookie: string) => fetch(`${url}/console/credit`, { headers: { cookie }, redirect: 'manual' }).then((r) => r.status);
  {
    const first = await signIn('ufficio@acme.it', password);
    t.is(first.status, 303);
    t.is(await page(first.cookie), 200);
    const reset = await cli(dataDir, 'user', 'reset', '--email', 'ufficio@acme.it');
    const fresh = /password \(shown once\): (\S+)/.exec(reset.stdout)?.[1] ?? '';
    t.is(await page(first.cookie), 303, 'a reset ends the sessions opened before');
    t.is((await signIn('ufficio@acme.it', password)).status, 401);
    const second = await signIn('ufficio@acme.it', fresh);
    t.is(second.status, 303);
    await cli(dataDir, 'user', 'disable', '--email', 'ufficio@acme.it');
    t.is(await page(second.cookie), 303, 'disabling ends open sessions');
    t.is((await signIn('ufficio@acme.it', fresh)).status, 401);
    t.regex((await cli(dataDir, 'user', 'list', '--account', 'acme')).stdout, /ufficio@acme\.it/);
  }
});

test('the widget is served at its stable path without a session', async (t) => {
  const res = await fetch(`${server.url}/widget/v1/autocomplete.js`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /javascript/);
  const body = await res.text();
  t.regex(body, /data-endpoint/);
  t.false(/rk_/.test(body));
  t.is((await waitFor(() => fetch(`${server.url}/console/assets/chart.umd.min.js`).then((r) => r.status), (s) => s === 200)), 200);
});
