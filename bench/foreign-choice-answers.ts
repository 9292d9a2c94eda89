/**
 * The answers of the foreign registers on every foreign row this bench folder builds, stored and compared
 * byte for byte: the guard of work that moves the street choice without changing an answer (issue 31).
 * Rows: each register's real addresses (`foreign-data.ts`) written in every way `foreign-eval.ts`
 * perturbs them, and the first tries of `data/foreign-lines.tsv`; each verified in the registers alone
 * (`verifyForeign`), and through the contact flow with and without `postal_form`. Then the suggestions:
 * the streets for prefixes and typos of each sampled street name (with city, with postcode, with neither)
 * and the house numbers of the first street each answers.
 *   node dist/bench/foreign-choice-answers.js write <file>   stores the answers (one JSON line per call)
 *   node dist/bench/foreign-choice-answers.js check <file>   compares, exits 1 on any difference
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PROJECT_ROOT } from '../src/config.js';
import { foreignHouseNumbers, foreignStreets, openRegister, useForeignRegisters, verifyContactsSync, verifyForeign } from '../src/native.js';
import { answerArgs, writeOrCheck } from './answer-file.js';
import { rng, SAMPLERS, type TruthAddress } from './foreign-data.js';
import { KINDS, perturb } from './foreign-eval.js';

interface Input {
  address: string;
  postcode: string;
  city: string;
  country_code: string;
}

const PER_KIND = Number(process.env.FOREIGN_CHOICE_PER_KIND ?? 150);

/** Real addresses of every register, each written in the ways the accuracy bench writes them. */
function sampled(all: Record<string, TruthAddress[]>): Input[] {
  const items: Input[] = [];
  for (const [cc, rows] of Object.entries(all)) {
    const postcodes = [...new Set(rows.map((t) => t.postcode).filter(Boolean))];
    const others = Object.entries(all).filter(([k]) => k !== cc).flatMap(([, v]) => v);
    for (const kind of KINDS) {
      const r = rng(11 + KINDS.indexOf(kind));
      for (let i = 0; i < PER_KIND; i++) {
        const t = rows[Math.floor(r() * rows.length)];
        if (!t) continue;
        if (kind === 'not_in_register') {
          const o = others[Math.floor(r() * others.length)];
          if (o) items.push({ address: `${o.street} ${t.number}`, postcode: t.postcode, city: t.city, country_code: cc });
          continue;
        }
        const input = perturb(kind, t, r, postcodes);
        if (input) items.push(input);
      }
    }
  }
  return items;
}

/** The first tries of issue 30 that carry a country (the others are the catalogue's to read). */
function firstTries(): Input[] {
  const text = readFileSync(path.join(PROJECT_ROOT, 'bench', 'data', 'foreign-lines.tsv'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t'))
    .map(([, want, address, postcode, city, country]) => ({ address: address ?? '', postcode: postcode ?? '', city: city ?? '', country_code: country || want || '' }));
}

async function main(): Promise<void> {
  const { mode, file } = answerArgs('foreign-choice-answers');
  // the contact flow reads Italy's register (the test register by default: `npm test` builds it)
  openRegister(process.env.RECAPITO_DATA_DIR ?? path.join(PROJECT_ROOT, '.tmp', 'test-register'));
  useForeignRegisters();
  const all = Object.fromEntries(Object.entries(SAMPLERS).map(([cc, f]) => [cc, f()]));
  const items = [...sampled(all), ...firstTries()];
  const lines: string[] = [];
  const calls: string[] = [];
  const foreign = await verifyForeign({ items });
  foreign.forEach((res, i) => {
    lines.push(JSON.stringify(res));
    calls.push(`verifyForeign ${JSON.stringify(items[i])}`);
  });
  for (const postal_form of [false, true]) {
    for (let at = 0; at < items.length; at += 500) {
      const batch = items.slice(at, at + 500);
      verifyContactsSync({ items: batch, options: { postal_form, foreign: 'detect' } }).forEach((res, i) => {
        lines.push(JSON.stringify(res));
        calls.push(`contact postal_form=${postal_form} ${JSON.stringify(batch[i])}`);
      });
    }
  }
  for (const [cc, rows] of Object.entries(all)) {
    const r = rng(23);
    for (let i = 0; i < Math.min(PER_KIND, rows.length); i++) {
      const t = rows[Math.floor(r() * rows.length)];
      if (!t) continue;
      const word = t.street.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
      const at = 1 + Math.floor(r() * Math.max(1, word.length - 2));
      const typed = [t.street.slice(0, 3), t.street.slice(0, 6), word.slice(0, at) + word.slice(at + 1), t.street];
      for (const query of typed) {
        for (const place of [{ city: t.city }, { postcode: t.postcode }, {}]) {
          const q = { country: cc, query, limit: 8, city: '', postcode: '', ...place };
          const answer = await foreignStreets(q);
          lines.push(JSON.stringify(answer));
          calls.push(`foreignStreets ${JSON.stringify(q)}`);
          const first = answer.hints[0];
          if (first && query === t.street) {
            const n = { street_id: first.id, typed: t.number.slice(0, 1) };
            lines.push(JSON.stringify(await foreignHouseNumbers(n)));
            calls.push(`foreignHouseNumbers ${JSON.stringify(n)}`);
          }
        }
      }
    }
  }
  writeOrCheck(mode, file, lines, (i) => calls[i] ?? `line ${i + 1}`);
}

await main();
