import test from 'ava';

import { createAccount, createToken, hashToken, revokeToken } from '../src/state/tokens.js';
import { isoNow, isoString } from '../src/state/clock.js';
import type { TokenRecord } from '../src/state/db.js';
import { processState } from './helpers/state-url.js';
import { freshDataDir } from './helpers/server.js';

/**
 * Request counts (`StateStore.countRequest`) add to the token record as it is stored at the time of the
 * write. On LMDB the round keeps the record it wrote last and reuses it while the stored bytes are
 * unchanged: a record changed in between by another write (here a revoke) must be read again, or the
 * count would write back the record from before the revoke.
 */
test('request counts build on the token record as stored, also after another write changed it', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'usage');
  const { token } = await createToken(state, 'usage');
  const hash = hashToken(token);
  const count = async (n: number) => {
    const waits = Array.from({ length: n }, () => state.countRequest(hash, isoNow()));
    await Promise.all(waits.map((counted) => counted()));
  };

  await count(3);
  t.is((await state.get<TokenRecord>('tokens', hash))?.requests, 3);
  await count(2);
  t.is((await state.get<TokenRecord>('tokens', hash))?.requests, 5);

  const revoked = await revokeToken(state, token);
  t.truthy(revoked.revoked);
  await count(1);
  const after = await state.get<TokenRecord>('tokens', hash);
  t.is(after?.requests, 6);
  t.is(after?.revoked, revoked.revoked, 'the revoke written in between is kept');
  t.is(after?.id, revoked.id);
  await state.close();
});

test('the ISO time strings of the state documents are those of toISOString', (t) => {
  for (const ms of [0, 1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_001, 1_764_000_000_999, 253_402_300_799_999]) {
    t.is(isoString(new Date(ms)), new Date(ms).toISOString());
  }
  t.throws(() => isoString(new Date(Number.NaN)), { instanceOf: RangeError });
  const before = Date.now();
  const now = Date.parse(isoNow());
  t.true(now >= before && now <= Date.now());
});
