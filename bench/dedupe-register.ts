import { existsSync } from 'node:fs';
import path from 'node:path';

import { runImport } from '../src/cli/import.js';
import { PROJECT_ROOT, defaultSourceDir } from '../src/config.js';
import { openRegister } from '../src/native.js';

/** The register the dedupe benches run on: RECAPITO_DATA_DIR, else built once under .tmp/bench-dedupe. */
export async function benchDataDir(): Promise<string> {
  const dir = process.env.RECAPITO_DATA_DIR ?? path.join(PROJECT_ROOT, '.tmp', 'bench-dedupe');
  if (!existsSync(path.join(dir, 'register', 'data.mdb'))) await runImport(defaultSourceDir(), dir, true);
  openRegister(dir);
  return dir;
}
