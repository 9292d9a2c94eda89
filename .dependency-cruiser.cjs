/**
 * The direction of the layers (docs/architecture.md): the shared machinery — src/http (the request path),
 * src/state (the state store, accounts, tokens, the credit ledger) and src/jobs (the job system) — knows no
 * capability. It is given what it needs: the registry, src/capabilities.ts, lists every capability once and
 * hands its tables over at start; only the job worker reads the registry, to run a unit of a job's kind.
 * Checked by `npm run lint` (depcruise) and by test/layers.test.ts (in `npm test`).
 */
const MACHINERY = '^src/(http|state|jobs)/|^src/(config|native)[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'http-imports-no-capability',
      comment: 'src/http is the machinery every capability shares: it is given the capabilities (src/capabilities.ts), it imports none.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/', pathNot: MACHINERY },
    },
    {
      name: 'state-imports-no-capability',
      comment: 'src/state holds the shared state (accounts, tokens, credit): it imports no capability.',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^src/', pathNot: MACHINERY },
    },
    {
      name: 'jobs-read-only-the-registry',
      comment: 'src/jobs runs every kind alike: the worker finds a kind in the registry, nothing in src/jobs imports a capability.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/', pathNot: `${MACHINERY}|^src/capabilities[.]ts$` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
