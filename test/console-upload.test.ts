import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';
import ExcelJS from 'exceljs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { createUser } from '../src/console/store.js';
import { MAX_ROWS } from '../src/console/tables.js';
import { startServer, type TestServer } from './helpers/server.js';
import { sourceCsv, type Row } from './helpers/source.js';

/**
 * A large workbook uploaded through the console in Debian's Chromium (issue 33): it is read off the event
 * loop, so the service answers everyone else while it is read, and the row cap holds while reading.
 */

const CHROMIUM = process.env.RECAPITO_CHROMIUM ?? '/usr/bin/chromium';
const EMAIL = 'carla@example.it';
const PASSWORD = 'Portici di Bologna 2026';
const ROWS = 30_000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Bologna's own house-number list (2012). */
const BOLOGNA = sourceCsv('it/civici/bologna/civici_2012.csv.gz').filter((r) => r.CAP?.length === 5 && /^VIA [A-Z ]+$/.test(r.DENOMINAZI ?? ''));
const pick = (i: number): Row => BOLOGNA[(i * 997) % BOLOGNA.length] as Row;

let server: TestServer;
let context: BrowserContext;
let page: Page;
let profile: string;

async function workbook(rows: (string | number | Date)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Clienti').addRows(rows);
  return Buffer.from(await book.xlsx.writeBuffer());
}

test.before(async () => {
  server = await startServer();
  await createUser(server.state, server.account, EMAIL, PASSWORD);
  profile = mkdtempSync(path.join(os.tmpdir(), 'recapito-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(120_000);
  await page.goto(`${server.url}/console/login`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/console\/verify$/), page.getByRole('button', { name: 'Sign in' }).click()]);
});

test.after.always(async () => {
  await context?.close();
  await server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test.serial('a 30,000-row XLSX is read while /health keeps answering; its rows, texts and dates come through', async (t) => {
  const rows: (string | number | Date)[][] = [['Codice', 'Indirizzo', 'Civico', 'CAP', 'Comune', 'Nato il']];
  for (let i = 0; i < ROWS; i++) {
    const r = pick(i);
    rows.push([`C${i + 1}`, r.DENOMINAZI ?? '', Number(r.CIVICO), r.CAP ?? '', 'Bologna', new Date(Date.UTC(1950 + (i % 50), i % 12, 1 + (i % 28)))]);
  }
  const xlsx = await workbook(rows);
  await page.goto(`${server.url}/console/lists`);
  await page.getByLabel('File (CSV or XLSX)').setInputFiles({ name: 'clienti.xlsx', mimeType: XLSX_TYPE, buffer: xlsx });

  // /health asked again and again while the upload is read, from outside the browser
  const health: { at: number; status: number }[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const res = await fetch(`${server.url}/health`);
      await res.arrayBuffer();
      health.push({ at: Date.now(), status: res.status });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const sent = page.waitForRequest((r) => r.url().includes('/console/api/upload'));
  const answered = page.waitForResponse((r) => r.url().includes('/console/api/upload'));
  await page.getByRole('button', { name: 'Upload' }).click();
  await sent;
  const sentAt = Date.now();
  const response = await answered;
  const answeredAt = Date.now();
  polling = false;
  await poller;

  t.is(response.status(), 200);
  await page.locator('#mapping-form').waitFor({ state: 'visible' });
  t.regex(await page.locator('#upload-summary').innerText(), /30000 rows read from clienti\.xlsx/);
  const first = pick(0);
  const cells = await page.locator('#preview-table tbody tr').first().locator('td').allInnerTexts();
  t.deepEqual(cells, ['C1', first.DENOMINAZI ?? '', String(Number(first.CIVICO)), first.CAP ?? '', 'Bologna', '1950-01-01']);
  const during = health.filter((h) => h.at > sentAt && h.at < answeredAt);
  t.true(health.every((h) => h.status === 200));
  // while the workbook was read, the service kept answering others (no count of seconds: the answers' order)
  t.true(during.length >= 2, `${during.length} /health answers while the upload was read`);
});

test.serial('a workbook past the row cap is refused while it is read, with a clear 400', async (t) => {
  const rows: string[][] = [['email']];
  for (let i = 0; i <= MAX_ROWS; i++) rows.push([`cliente${i}@example.it`]);
  const xlsx = await workbook(rows);
  await page.goto(`${server.url}/console/lists`);
  const answered = page.waitForResponse((r) => r.url().includes('/console/api/upload'));
  await page.getByLabel('File (CSV or XLSX)').setInputFiles({ name: 'troppi.xlsx', mimeType: XLSX_TYPE, buffer: xlsx });
  await page.getByRole('button', { name: 'Upload' }).click();
  const response = await answered;
  t.is(response.status(), 400);
  t.regex(((await response.json()) as { message: string }).message, /more than 100000 rows/);
  await t.notThrowsAsync(page.getByRole('alert').filter({ hasText: 'more than 100000 rows' }).waitFor());
  // the cap counts data rows: exactly MAX_ROWS is a list
  rows.pop();
  const fits = await workbook(rows);
  const ok = page.waitForResponse((r) => r.url().includes('/console/api/upload'));
  await page.getByLabel('File (CSV or XLSX)').setInputFiles({ name: 'giusti.xlsx', mimeType: XLSX_TYPE, buffer: fits });
  await page.getByRole('button', { name: 'Upload' }).click();
  t.is((await ok).status(), 200);
  // the summary is written by the page after the answer arrives: wait for the form it fills
  await page.locator('#mapping-form').waitFor({ state: 'visible' });
  t.regex(await page.locator('#upload-summary').innerText(), /100000 rows read from giusti\.xlsx/);
});
