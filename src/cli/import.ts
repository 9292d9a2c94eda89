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

/** Builds every register under `dataDir` from the open data in `source`, with a progress bar. */
export async function runImport(source: string = defaultSourceDir(), dataDir: string, quiet = false): Promise<ImportReport> {
  const started = Date.now();
  const src = path.resolve(source);
  if (!existsSync(src)) {
    throw new Error(
      `The open data folder ${src} does not exist.\n` +
        'Put the published files there (see docs/data.md for the list and where to download each), or pass --source DIR.\n' +
        'Minimum: it/comuni/anpr_archivio_comuni.csv.gz (ANPR), it/comuni/istat_elenco_comuni_2023-11.csv.gz (ISTAT), it/esteri/anpr_stati_esteri.csv (ANPR).',
    );
  }
  const bar = quiet || !process.stderr.isTTY ? undefined : new cliProgress.SingleBar({ format: '{stage} [{bar}] {value}/{total}', stream: process.stderr }, cliProgress.Presets.shades_classic);
  bar?.start(1, 0, { stage: 'starting' });
  let lastStage = '';
  const timer = setInterval(() => {
    const p = native.importProgress();
    if (bar) {
      bar.setTotal(Math.max(1, p.total));
      bar.update(p.done, { stage: p.stage.padEnd(36) });
    } else if (!quiet && p.stage !== lastStage) {
      process.stderr.write(`import: ${p.stage}\n`);
    }
    lastStage = p.stage;
  }, 200);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(importMarker(dataDir), new Date().toISOString());
  try {
    // the core writes the contact dictionaries beside the register in the same pass (register/import/names.rs)
    const summary = await importRegister(src, dataDir);
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
