import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

import test from 'ava';

import { CAPABILITIES } from '../src/capabilities.js';
import { PROJECT_ROOT } from '../src/config.js';
import { englishKey, fieldName, SHARED_KEYS, toItalianOutput, useKeys } from '../src/http/keys.js';

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

/**
 * Issue 31: the registry lists the key tables too. Each capability's Italian fields are its own table
 * (`src/<capability>/keys.ts`), given to src/http by src/capabilities.ts (`useKeys`); src/http/keys.ts holds the
 * machinery and the words every endpoint shares, and names no capability's own field.
 */
test('each capability’s Italian keys are its own table, installed by the registry; a field defined twice differently is refused', (t) => {
  const own = CAPABILITIES.filter((c) => c.keys);
  t.deepEqual(own.map((c) => c.name).sort(), ['contact', 'credit', 'dedupe', 'email', 'enrichment', 'phone', 'suggest', 'tax-code', 'website']);
  const shared = { ...SHARED_KEYS.fields, ...SHARED_KEYS.ours };
  for (const c of own) {
    for (const [en, it] of Object.entries({ ...c.keys?.fields, ...c.keys?.ours })) {
      t.false(en in shared, `${en} (${c.name}) is not a shared key as well`);
      t.is(fieldName(en, true), it, `${c.name}: ${en} answered in Italian`);
      t.is(englishKey(it), en, `${c.name}: ${it} read as English`);
    }
  }
  // the contact answer's city type, a key of contact's table alone
  t.deepEqual(toItalianOutput({ city_type: { label: 'x' }, tax_code_outcome: ['OK'] }), { localita_tipo: { label: 'x' }, codice_fiscale_esito: ['OK'] });
  t.throws(() => useKeys({ fields: { city: 'citta' } }), { message: 'field city defined twice differently (localita, citta)' });
  // refused whole: the tables installed stay as they were
  t.is(fieldName('city', true), 'localita');
});
