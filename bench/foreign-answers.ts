/**
 * The core's full answers on every foreign row of the repo's bench data (`foreign-rows.ts`: the
 * first-tries set of `bench/data/foreign-lines.tsv` by kind, Italian rows included since they are
 * judged under `foreign: detect` too, and the foreign eval sets of the five register countries),
 * each with and without `postal_form`, through `verifyContactsSync` in process: the guard of work
 * on foreign verification speed that must not change any answer (issue 30's throughput bar).
 * One JSON line per record; the register is the test register (`RECAPITO_DATA_DIR`, else the one
 * the tests build), the foreign registers `../shared/data/world` (`RECAPITO_WORLD_DIR`).
 *
 *   node dist/bench/foreign-answers.js write <file>   stores the answers
 *   node dist/bench/foreign-answers.js check <file>   compares byte for byte, exits 1 on any difference
 */
import { openRegister, useForeignRegisters, verifyContactsSync } from '../src/native.js';
import { sharedRegister } from '../test/helpers/server.js';
import { answerArgs, writeOrCheck } from './answer-file.js';
import { evalSets, firstTries } from './foreign-rows.js';

async function main(): Promise<void> {
  const { mode, file } = answerArgs('foreign-answers');
  openRegister(process.env.RECAPITO_DATA_DIR ?? (await sharedRegister()));
  useForeignRegisters();
  const lines: string[] = [];
  const names: string[] = [];
  for (const group of [...firstTries(), ...evalSets(6)]) {
    for (const postal_form of [false, true]) {
      const results = verifyContactsSync({ items: group.items, options: { foreign: group.foreign, postal_form } });
      results.forEach((r, i) => {
        lines.push(JSON.stringify(r));
        names.push(`${group.name} #${i} postal_form=${postal_form} ${JSON.stringify(group.items[i])}`);
      });
    }
  }
  writeOrCheck(mode, file, lines, (i) => names[i] ?? `line ${i + 1}`);
}

if (process.argv[1]?.endsWith('foreign-answers.js')) {
  await main();
}
