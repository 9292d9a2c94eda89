/**
 * A killed import resumes (issue 35): `recapito import` SIGKILLed once it has committed chunks of house numbers,
 * then run again, continues and builds the same register as an import run in one go. Real data: the ANNCSU
 * streets of all Italy and the real ANNCSU INDIR extract of Lamezia Terme (22,757 house numbers), in chunks of
 * 1,000 numbers so the kill lands between commits.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';
import { openRegister, registerInfoSync, streetHouseNumbers } from '../src/native.js';
import { SOURCE } from './helpers/server.js';

const BIN = path.join(PROJECT_ROOT, 'bin', 'recapito.js');
const ENV = { ...process.env, RECAPITO_IMPORT_CHUNK_ROWS: '1000' };

/** Every house number of Lamezia Terme (M208), street by street, and the rows of every dataset. */
async function lamezia(dataDir: string): Promise<{ numbers: string[]; datasets: string[] }> {
  openRegister(dataDir, true);
  const numbers: string[] = [];
  for (let index = 0, empty = 0; empty < 300; index++) {
    const list = await streetHouseNumbers({ cadastral_code: 'M208', index });
    empty = list.length ? 0 : empty + 1;
    numbers.push(`${index}:${list.map((h) => `${h.n}${h.s ?? ''}@${h.y},${h.x}`).join(' ')}`);
  }
  const datasets = registerInfoSync().summary.datasets.map((d) => `${d.name} ${d.file} ${d.rows}`);
  return { numbers, datasets };
}

test.serial('SIGKILL during an import of house numbers: the next run continues and builds the same register', async (t) => {
  const source = mkdtempSync(path.join(os.tmpdir(), 'recapito-resume-source-'));
  const root = mkdtempSync(path.join(os.tmpdir(), 'recapito-resume-'));
  const killed = path.join(root, 'killed');
  const clean = path.join(root, 'clean');
  try {
    mkdirSync(path.join(source, 'it'));
    for (const folder of ['comuni', 'esteri', 'anncsu_odonimi', 'anncsu_indirizzi']) symlinkSync(path.join(SOURCE, 'it', folder), path.join(source, 'it', folder));

    const importer = spawn(process.execPath, [BIN, '--data-dir', killed, 'import', '--source', source], { stdio: 'ignore', env: ENV });
    const exited = new Promise<number | null>((r) => importer.once('exit', (code) => r(code)));
    const work = path.join(killed, 'register.import');
    let runs = 0;
    for (let i = 0; i < 6000 && importer.exitCode === null; i++) {
      runs = existsSync(work) ? readdirSync(work).filter((f) => /^run-\d+\.bin$/.test(f)).length : 0;
      if (runs >= 3) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    importer.kill('SIGKILL');
    t.is(await exited, null, 'killed while it ran, not finished');
    t.true(runs >= 3, `${runs} runs committed at the kill`);
    t.false(existsSync(path.join(killed, 'register')), 'no register before the import completes');

    const again = spawnSync(process.execPath, [BIN, '--data-dir', killed, 'import', '--source', source], { encoding: 'utf8', env: ENV, timeout: 600_000 });
    t.is(again.status, 0, again.stderr);
    t.regex(again.stderr, /continuing the interrupted import in .*\((\d+) runs of house numbers committed\)/);
    t.false(existsSync(work), 'work area removed');

    const once = spawnSync(process.execPath, [BIN, '--data-dir', clean, 'import', '--source', source], { encoding: 'utf8', env: ENV, timeout: 600_000 });
    t.is(once.status, 0, once.stderr);
    t.notRegex(once.stderr, /continuing/);

    const a = await lamezia(clean);
    const b = await lamezia(killed);
    t.true(a.numbers.join(' ').split('@').length > 20_000, 'Lamezia has its house numbers');
    t.deepEqual(b.datasets, a.datasets);
    t.deepEqual(b.numbers, a.numbers);
  } finally {
    rmSync(source, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
});
