import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import cliProgress from 'cli-progress';

import { defaultSourceDir } from '../config.js';
import { importMarker } from '../import/integrity.js';
import { importRegister, native, type DatasetSummary } from '../native.js';

export interface ImportReport {
  duration_ms: number;
  size_bytes: number;
  datasets: DatasetSummary[];
}

/** One reading of the core's import progress (`native.importProgress()`), with when it was taken. */
export interface ProgressSample {
  stage: string;
  /** How far the stage is in its unit (rows, municipalities, or bytes of a big file) of `total` (0: unknown). */
  done: number;
  total: number;
  rows: number;
  /** ms */
  at: number;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** What the operator reads about a stage: rows, rows/s since it began, and, when its size is known, percent and ETA. */
export function progressText(first: ProgressSample, now: ProgressSample): { rows: string; rate: string; percent: string; eta: string } {
  const seconds = Math.max(0.001, (now.at - first.at) / 1000);
  const rate = Math.max(0, now.rows - first.rows) / seconds;
  const speed = Math.max(0, now.done - first.done) / seconds;
  const known = now.total > 0;
  const left = known ? Math.max(0, now.total - now.done) : 0;
  return {
    rows: Math.round(now.rows).toLocaleString('en-US'),
    rate: Math.round(rate).toLocaleString('en-US'),
    percent: known ? `${Math.min(100, (100 * now.done) / now.total).toFixed(1)}%` : '?%',
    eta: !known ? '?' : left === 0 ? '0s' : speed > 0 ? duration(left / speed) : '?',
  };
}

/** `import: house numbers: ANNCSU INDIR 12,345,678 rows, 85,000 rows/s, 49.0%, ETA 2m30s` */
export function progressLine(first: ProgressSample, now: ProgressSample): string {
  const t = progressText(first, now);
  return `import: ${now.stage} ${t.rows} rows, ${t.rate} rows/s, ${t.percent}, ETA ${t.eta}`;
}

/** Seconds between progress lines when stderr is not a terminal (a log): RECAPITO_PROGRESS_SECONDS, default 10. */
function lineEvery(): number {
  const v = Number(process.env.RECAPITO_PROGRESS_SECONDS);
  return Number.isFinite(v) && v > 0 ? v * 1000 : 10_000;
}

/** Builds every register under `dataDir` from the open data in `source`, with a progress bar on a terminal and
 * progress lines (rows, rows/s, percent, ETA) in a log: at each stage's start and end, and every few seconds. */
export async function runImport(source: string = defaultSourceDir(), dataDir: string, quiet = false): Promise<ImportReport> {
  const started = Date.now();
  const src = path.resolve(source);
  if (!existsSync(src)) {
    throw new Error(
      `The open data folder ${src} does not exist.\n` +
        'Put the published files there (see docs/data.md for the list and where to download each), or pass --source DIR.\n' +
        'Minimum: it/comuni/anpr_archivio_comuni.csv.gz (ANPR), it/comuni/Elenco-comuni-italiani.csv (ISTAT, as downloaded; or a dated copy istat_elenco_comuni_<yyyy-mm>.csv.gz), it/esteri/anpr_stati_esteri.csv (ANPR).',
    );
  }
  const bar = quiet || !process.stderr.isTTY
    ? undefined
    : new cliProgress.SingleBar({ format: '{stage} [{bar}] {pct} | {rows} rows, {rate} rows/s | ETA {eta2}', stream: process.stderr }, cliProgress.Presets.shades_classic);
  bar?.start(1, 0, { stage: 'starting', pct: '', rows: 0, rate: 0, eta2: '?' });
  // a line when a stage starts, every few seconds while it runs, and at its end
  let first: ProgressSample | undefined;
  let last: ProgressSample | undefined;
  let printed = 0;
  const every = lineEvery();
  const sample = (): void => {
    const now = { ...native.importProgress(), at: Date.now() };
    if (!first || now.stage !== first.stage) {
      endStage();
      first = now;
      printed = now.at;
      if (!bar && !quiet) process.stderr.write(`import: ${now.stage}\n`);
    }
    last = now;
    if (bar) {
      const t = progressText(first, now);
      bar.setTotal(Math.max(1, now.total));
      bar.update(now.done, { stage: now.stage.padEnd(36), pct: t.percent, rows: t.rows, rate: t.rate, eta2: t.eta });
    } else if (!quiet && now.at - printed >= every) {
      process.stderr.write(`${progressLine(first, now)}\n`);
      printed = now.at;
    }
  };
  /** The stage that ended, as far as it was seen (unless that was just printed). */
  const endStage = (): void => {
    if (!bar && !quiet && first && last && last.at > first.at && last.at !== printed) process.stderr.write(`${progressLine(first, last)}\n`);
  };
  const timer = setInterval(sample, 200);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(importMarker(dataDir), new Date().toISOString());
  try {
    // the core writes the contact dictionaries beside the register in the same pass (register/import/names.rs)
    const summary = await importRegister(src, dataDir);
    sample();
    endStage();
    rmSync(importMarker(dataDir), { force: true });
    return { duration_ms: Date.now() - started, size_bytes: summary.size_bytes, datasets: summary.datasets };
  } finally {
    clearInterval(timer);
    bar?.stop();
  }
}

export function printImportSummary(report: ImportReport): void {
  console.log(`imported ${report.datasets.length} datasets in ${(report.duration_ms / 1000).toFixed(1)} s; register ${(report.size_bytes / 1048576).toFixed(1)} MiB`);
  console.table(report.datasets.map((d) => ({ dataset: d.name, rows: d.rows, file: d.file })));
}
