import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';

const run = promisify(execFile);

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

interface Cruise {
  summary: { violations: Violation[]; totalCruised: number; totalDependenciesCruised: number; ruleSetUsed: { forbidden?: { name: string }[] } };
}

/**
 * The direction of the layers (.dependency-cruiser.cjs): src/http, src/state and src/jobs import no capability;
 * the registry (src/capabilities.ts) hands them what they need. The same check as `npm run lint`, here so that
 * `npm test` (CI) fails when an import breaks the direction.
 */
test('the shared machinery imports no capability (dependency-cruiser over src/)', async (t) => {
  const bin = path.join(PROJECT_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: PROJECT_ROOT, maxBuffer: 64 << 20 }));
  } catch (error) {
    // depcruise exits non-zero when it finds violations: its report is still on stdout
    stdout = (error as { stdout?: string }).stdout ?? '';
    if (!stdout) throw error;
  }
  const { summary } = JSON.parse(stdout) as Cruise;
  // the check read the tree (the `.js` specifiers resolved to the `.ts` sources), with the layer rules
  t.true(summary.totalCruised > 100, `${summary.totalCruised} modules`);
  t.true(summary.totalDependenciesCruised > 400, `${summary.totalDependenciesCruised} imports`);
  t.deepEqual(summary.ruleSetUsed.forbidden?.map((r) => r.name).sort(), ['http-imports-no-capability', 'jobs-read-only-the-registry', 'state-imports-no-capability']);
  t.deepEqual(
    summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    [],
  );
});
