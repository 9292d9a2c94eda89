import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';

/**
 * Issue 31's layer rules, counted over the tree by scripts/tree-check.mjs (the same check an operator runs
 * by hand). Each rule may not break in more places than its limit there, and every limit is on its way to 0.
 */
interface TreeCheck {
  found: Record<string, string[]>;
  limits: Record<string, number>;
}

const run = (root?: string): TreeCheck => {
  const env = root ? { ...process.env, TREE_CHECK_ROOT: root } : process.env;
  const out = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'tree-check.mjs'), '--json'], { encoding: 'utf8', env });
  if (out.status !== 0) throw new Error(`tree-check failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as TreeCheck;
};

test('no layer rule of the architecture is broken in more places than its limit allows', (t) => {
  const { found, limits } = run();
  t.deepEqual(Object.keys(found).sort(), Object.keys(limits).sort());
  for (const [rule, offenders] of Object.entries(found)) {
    t.true(offenders.length <= (limits[rule] ?? 0), `${rule}: ${offenders.length} over its limit ${limits[rule]}:\n  ${offenders.join('\n  ')}`);
  }
});

test('the check finds each kind of break in a tree that has it', (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'tree-check-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  try {
    write('crates/core/src/register/mod.rs', 'use crate::address::key::full_key;\n');
    write('crates/core/src/register/store.rs', 'use crate::normalize::fold;\n');
    write('src/http/outcomes.ts', "import { OUTCOMES } from '../contact/outcomes.js';\nimport { open } from '../state/store.js';\n");
    write('src/http/errors.ts', "import { open } from '../state/store.js';\n");
    write('src/jobs/worker.ts', "if (task.kind === 'dedupe') runDedupe();\n");
    write('src/contact/service.ts', 'export const x = 1;\n'.repeat(801));
    write('crates/core/src/foreign/matcher.rs', 'pub fn street_score() {}\n');
    write('crates/core/src/foreign/text.rs', 'pub fn postcode() {}\n');
    write('crates/core/src/dedupe/foreign.rs', 'pub fn postcode(raw: &str) -> String {\n    raw.chars().filter(|c| c.is_ascii_alphanumeric()).collect()\n}\n');
    write('crates/core/src/postal/postcode.rs', 'pub fn key(raw: &str) -> String {\n    raw.chars().filter(|c| c.is_alphanumeric()).collect()\n}\n');
    write('src/suggest/service.ts', "const [r] = core.verifyContactsSync(batch);\n");
    write('docs/architecture.md', '`src/contact/service.ts` runs `processContacts`; `src/dedupe/index.ts` is gone; `Germania` is an example.\n');
    const found = run(root).found;
    t.deepEqual(found.registerImportsEngine, ['crates/core/src/register/mod.rs']);
    t.deepEqual(found.httpImportsCapability, ['src/http/outcomes.ts']);
    t.deepEqual(found.workerKnowsDedupe, ['src/jobs/worker.ts:1']);
    t.deepEqual(found.longSourceFiles, ['src/contact/service.ts (801 lines)']);
    t.deepEqual(found.foreignStreetMatchers, ['crates/core/src/foreign/matcher.rs']);
    t.deepEqual((found.architectureNamesMissing ?? []).sort(), ['processContacts', 'src/dedupe/index.ts']);
    t.deepEqual(found.contactDoorsOutsideContact, ['src/suggest/service.ts']);
    t.deepEqual(found.postcodeFormsOutsidePostal, ['crates/core/src/dedupe/foreign.rs']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
