/**
 * The core's JSON answers, byte for byte, on fixed generated sets: written before and after a
 * change to the dedupe core, then compared (`cmp`), so that a speed or memory change is shown to
 * leave every answer as it was. Sets: 20,000 flat records, 100,000 address-book records (the
 * speed bench's), and 20,000 records searched in a 10,000-record reference list.
 *   node dist/bench/dedupe-answer.js <folder>   → <folder>/{flat-20k,book-100k,two-lists-20k}.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { native, type Json, type RunInput } from '../src/native.js';
import { addressBook, generate, loadSources } from './dedupe-data.js';
import { benchDataDir } from './dedupe-register.js';

async function answer(request: RunInput): Promise<Buffer> {
  // The raw bytes of the door, not a parse and re-serialisation of them.
  return await native.dedupe(Buffer.from(JSON.stringify(request)) as Json<RunInput>);
}

async function main(): Promise<void> {
  const folder = process.argv[2];
  if (!folder) throw new Error('usage: node dist/bench/dedupe-answer.js <folder>');
  mkdirSync(folder, { recursive: true });
  await benchDataDir();
  const src = loadSources();
  const flat = generate(src, 14_000, 11).slice(0, 20_000).map((s) => s.record);
  const book = addressBook(generate(src, 70_000, 5).map((s) => s.record), src.places).slice(0, 100_000);
  const reference = generate(src, 7_000, 12).slice(0, 10_000).map((s) => s.record);
  const sets: [string, RunInput][] = [
    ['flat-20k', { records: flat }],
    ['book-100k', { records: book }],
    ['two-lists-20k', { records: flat, reference: [...reference, ...flat.slice(0, 2_000)], min_level: 'ambiguous' }],
  ];
  for (const [name, request] of sets) {
    const bytes = await answer(request);
    writeFileSync(path.join(folder, `${name}.json`), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}

await main();
