import { execFileSync } from 'node:child_process';

import test from 'ava';

import { PROJECT_ROOT } from '../src/config.js';

// `npm start` builds everything under data/ (register, contact dictionaries, state): none of it may show as untracked.
test('every artifact built under data/ is ignored by git', (t) => {
  const built = ['data/contact/dictionaries.json', 'data/register/data.mdb', 'data/state/data.mdb', 'data/register.building-1/x', 'data/anything-new/x'];
  const ignored = execFileSync('git', ['check-ignore', '--no-index', ...built], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim().split('\n');
  t.deepEqual(ignored, built);
});
