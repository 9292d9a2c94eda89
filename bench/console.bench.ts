/**
 * Page weight and time to interactive of the console pages, in Debian's headless Chromium (playwright-core,
 * no browser download), against the real server on the test register. Peer: the same browser loading a
 * bare HTML page (one heading, one form) from a bare Fastify in the same run: what any page costs here.
 *
 * weight = bytes of every response the page needed (HTML, CSS, scripts; cold cache);
 * interactive = navigation start → DOMContentLoaded handlers done (deferred scripts have run, the page
 * answers input); load = navigation start → load event. Median of RUNS cold loads each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import Fastify from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { createUser } from '../src/console/store.js';
import { startServer } from '../test/helpers/server.js';

const RUNS = 7;
const CHROMIUM = process.env.RECAPITO_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Load {
  bytes: number;
  requests: number;
  interactive: number;
  load: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** One cold load (cache disabled through CDP) of a URL. */
async function measure(context: BrowserContext, url: string): Promise<Load> {
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    requests++;
  });
  await page.goto(url, { waitUntil: 'load' });
  const timing = (await page.evaluate('JSON.stringify(performance.getEntriesByType("navigation")[0])')) as string;
  const nav = JSON.parse(timing) as { domContentLoadedEventEnd: number; loadEventEnd: number };
  await page.close();
  return { bytes, requests, interactive: nav.domContentLoadedEventEnd, load: nav.loadEventEnd };
}

async function main(): Promise<void> {
  const server = await startServer();
  await createUser(server.state, server.account, 'bench@example.it', 'bench password 2026');
  const bare = Fastify();
  bare.get('/', async (_req, reply) =>
    reply.type('text/html').send('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><h1>Sign in</h1><form><label>E-mail <input name="email"></label><button>Go</button></form></body></html>'),
  );
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'recapito-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: FLAGS });
  try {
    // the sign-in page is measured signed out, the others signed in
    const pages: [string, string][] = [
      ['bare Fastify page (peer)', `${bareUrl}/`],
      ['console sign-in', `${server.url}/console/login?lang=en`],
      ['SIGN IN', ''],
      ['console Verify (+ widget)', `${server.url}/console/verify`],
      ['console Lists', `${server.url}/console/lists`],
      ['console Duplicates', `${server.url}/console/duplicates`],
      ['console Credit (+ Chart.js)', `${server.url}/console/credit`],
      ['console Tokens', `${server.url}/console/tokens`],
    ];
    const rows: Record<string, string | number>[] = [];
    let peer: Load | undefined;
    for (const [name, url] of pages) {
      if (name === 'SIGN IN') {
        const login = context.pages()[0] ?? (await context.newPage());
        await login.goto(`${server.url}/console/login`);
        await login.getByLabel('E-mail').fill('bench@example.it');
        await login.getByLabel('Password').fill('bench password 2026');
        await Promise.all([login.waitForURL(/verify/), login.getByRole('button', { name: 'Sign in' }).click()]);
        continue;
      }
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await measure(context, url));
      const m: Load = {
        bytes: median(loads.map((l) => l.bytes)),
        requests: median(loads.map((l) => l.requests)),
        interactive: median(loads.map((l) => l.interactive)),
        load: median(loads.map((l) => l.load)),
      };
      peer ??= m;
      rows.push({
        page: name,
        requests: m.requests,
        'weight KiB': Number((m.bytes / 1024).toFixed(1)),
        'interactive ms': Number(m.interactive.toFixed(1)),
        'load ms': Number(m.load.toFixed(1)),
        'interactive ÷ peer': Number((m.interactive / peer.interactive).toFixed(2)),
      });
    }
    console.log(`console pages, cold cache, median of ${RUNS} loads in headless Chromium on 127.0.0.1`);
    console.table(rows);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await bare.close();
    await server.close();
  }
}

await main();
