import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT, defaultSourceDir } from '../src/config.js';
import { importRegister, openRegister } from '../src/native.js';

/**
 * The full-Italy register the contact benches run on: RECAPITO_DATA_DIR, else built under
 * .tmp/bench-contact (again whenever the native addon changed, since the layout may have).
 */
export async function contactBenchDataDir(): Promise<string> {
  const given = process.env.RECAPITO_DATA_DIR;
  const dir = given ?? path.join(PROJECT_ROOT, '.tmp', 'bench-contact');
  const addon = statSync(path.join(PROJECT_ROOT, 'recapito.linux-x64-gnu.node'));
  const stamp = `${addon.size}:${addon.mtimeMs}`;
  const stampFile = path.join(dir, 'bench-stamp');
  const fresh = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (!given && (!fresh || !existsSync(path.join(dir, 'register', 'data.mdb')))) {
    // the Rust import alone: the contact benches need no phone or email data
    await importRegister(defaultSourceDir(), dir);
    writeFileSync(stampFile, stamp);
  }
  openRegister(dir);
  return dir;
}
