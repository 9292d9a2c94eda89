import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { runImport } from '../src/cli/import.js';
import { PROJECT_ROOT, defaultSourceDir } from '../src/config.js';
import { native, openRegister, type Native } from '../src/native.js';

/** The register the dedupe benches run on: RECAPITO_DATA_DIR, else built once under .tmp/bench-dedupe. */
export async function benchDataDir(): Promise<string> {
  const dir = process.env.RECAPITO_DATA_DIR ?? path.join(PROJECT_ROOT, '.tmp', 'bench-dedupe');
  if (!existsSync(path.join(dir, 'register', 'data.mdb'))) await runImport(defaultSourceDir(), dir, true);
  openRegister(dir);
  return dir;
}

/**
 * The core's doors from another build of the addon (a copy of the build before a change, for an
 * A/B in one session), with the bench's register opened; the project's own build when `addon` is
 * absent.
 */
export async function benchAddon(addon: string | undefined): Promise<Native> {
  const dir = await benchDataDir();
  if (!addon) return native;
  const other = createRequire(import.meta.url)(path.resolve(addon)) as Native;
  other.openRegister(dir, false);
  return other;
}
