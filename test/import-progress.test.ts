/**
 * Import progress (issue 35): what an operator reads during a long `recapito import` — rows, rows/s,
 * percent and ETA per stage — from the real CLI on real open data.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { progressLine } from '../src/cli/import.js';
import { PROJECT_ROOT } from '../src/config.js';
import { SOURCE } from './helpers/server.js';

const BIN = path.join(PROJECT_ROOT, 'bin', 'recapito.js');

test('a progress line: rows, rows/s since the stage began, percent of its size and the time left at that pace', (t) => {
  const first = { stage: 'house numbers: ANNCSU INDIR', done: 100_000, total: 2_100_000_000, rows: 1_000, at: 10_000 };
  const now = { ...first, done: 525_100_000, rows: 5_001_000, at: 60_000 };
  // 5,000,000 rows in 50 s; 525 MB of 2,100 MB in 50 s: 1,575 MB left at 10.5 MB/s
  t.is(progressLine(first, now), 'import: house numbers: ANNCSU INDIR 5,001,000 rows, 100,000 rows/s, 25.0%, ETA 2m30s');
  // a gzipped file's size is unknown: no percent, no ETA
  t.is(progressLine({ ...first, total: 0 }, { ...now, total: 0 }), 'import: house numbers: ANNCSU INDIR 5,001,000 rows, 100,000 rows/s, ?%, ETA ?');
});

test.serial('recapito import prints each stage with rows, rows/s, percent and ETA while it runs', (t) => {
  const source = mkdtempSync(path.join(os.tmpdir(), 'recapito-progress-source-'));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'recapito-progress-'));
  try {
    mkdirSync(path.join(source, 'it'));
    for (const folder of ['comuni', 'esteri', 'anncsu_odonimi', 'anncsu_indirizzi']) symlinkSync(path.join(SOURCE, 'it', folder), path.join(source, 'it', folder));
    const run = spawnSync(process.execPath, [BIN, '--data-dir', dir, 'import', '--source', source], {
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, RECAPITO_PROGRESS_SECONDS: '0.2' },
    });
    t.is(run.status, 0, run.stderr);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('import: streets: ANNCSU odonimi '));
    // a line at every sample (200 ms): 1.2 million streets took under a second on a quiet machine, which gave
    // one line at 0.5 s intervals
    t.true(lines.length >= 2, run.stderr);
    const parsed = lines.map((l) => /([\d,]+) rows, ([\d,]+) rows\/s, ([\d.]+)%, ETA (\S+)$/.exec(l));
    t.true(parsed.every(Boolean), lines.join('\n'));
    const rows = parsed.map((m) => Number(m![1]!.replace(/,/g, '')));
    const percent = parsed.map((m) => Number(m![3]));
    t.deepEqual([...rows].sort((a, b) => a - b), rows, 'rows only grow');
    t.deepEqual([...percent].sort((a, b) => a - b), percent, 'percent only grows');
    t.true(rows.at(-1)! > 500_000, lines.join('\n'));
    t.true(parsed.some((m) => Number(m![2]!.replace(/,/g, '')) > 0 && /^(\d+s|\d+m\d\ds|\d+h\d\dm)$/.test(m![4]!)), lines.join('\n'));
    t.regex(run.stderr, /import: streets: writing indexes [\d,]+ rows, [\d,]+ rows\/s, [\d.]+%/);
  } finally {
    rmSync(source, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});
