import test from 'ava';

import { authenticateNow, createAccount, createToken, revokeToken } from '../src/state/tokens.js';
import { processState } from './helpers/state-url.js';
import { freshDataDir } from './helpers/server.js';

/**
 * On LMDB the auth generation is read once per event-loop turn; a revoke made by this process must still
 * be refused by the very next authentication, in the same turn (no timer or I/O in between here: every
 * step below continues in a microtask).
 */
test('a token revoked by this process is refused by the next authentication, even in the same turn', async (t) => {
  const { state } = await processState(await freshDataDir());
  await createAccount(state, 'gen');
  const { token } = await createToken(state, 'gen');
  const header = `Bearer ${token}`;
  const caller = await authenticateNow(state, header);
  t.is(caller.account?.name, 'gen');
  // cached now; the revoke moves the generation
  await revokeToken(state, token);
  const error = await t.throwsAsync(async () => authenticateNow(state, header));
  t.is((error as { code?: string } | undefined)?.code, 'token_revoked');
  await state.close();
});
