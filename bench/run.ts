/** `npm run bench`: every `*.bench.js` in this folder, one process each, one after the other. */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
for (const file of readdirSync(here).filter((f) => f.endsWith('.bench.js')).sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n## ${file}`);
  execFileSync(process.execPath, [path.join(here, file)], { stdio: 'inherit' });
}
