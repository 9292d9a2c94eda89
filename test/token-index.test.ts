import test from 'ava';

import { createAccount, createToken, findToken, hashToken, revokeToken } from '../src/state/tokens.js';
import { doc } from '../src/state/store.js';
import { processState } from './helpers/state-url.js';
import { freshDataDir } from './helpers/server.js';

/**
 * Tokens are found by their public id through an index written with the token (no listing of every
 * token), and tokens stored before the index existed are indexed by the first lookup that misses.
 * Runs on LMDB, and on PostgreSQL under `with-postgres`.
 */
test('a token is found by its public id through the index, old tokens are indexed once, an unknown id finds nothing', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'idx');
  const first = await createToken(state, 'idx');
  const second = await createToken(state, null);

  const byId = await findToken(state, second.record.id);
  t.deepEqual(byId, [hashToken(second.token), second.record]);
  t.is((await findToken(state, first.token))?.[0], hashToken(first.token), 'the token itself still finds its record');
  t.is(await state.get<string>('kv', `token-id/${first.record.id}`), hashToken(first.token));

  // as stored before the index: no entries, no marker
  await state.update([], () => ({
    result: undefined,
    write: [first, second].map((x) => ({ ...doc('kv', `token-id/${x.record.id}`), doc: null })).concat([{ ...doc('kv', 'token-id/indexed'), doc: null }]),
  })).durable;
  t.is(await state.get<string>('kv', `token-id/${first.record.id}`), undefined);
  t.is((await findToken(state, first.record.id))?.[0], hashToken(first.token), 'the first miss indexes every stored token');
  t.is(await state.get<string>('kv', `token-id/${second.record.id}`), hashToken(second.token));
  t.true(await state.get<boolean>('kv', 'token-id/indexed'));

  t.is(await findToken(state, 'ffffffffffff'), undefined);
  const revoked = await revokeToken(state, first.record.id);
  t.truthy(revoked.revoked, 'revoke by public id goes through the index');
  await state.close();
});
