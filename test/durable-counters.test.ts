import test from 'ava';

import { createAccount, createToken, hashToken } from '../src/state/tokens.js';
import { addPack, current } from '../src/state/ledger.js';
import type { TokenRecord } from '../src/state/db.js';
import { processState } from './helpers/state-url.js';
import { burstUntilKilled, startServerProcess } from './helpers/process.js';
import { freshDataDir } from './helpers/server.js';

/**
 * Shared commits must not weaken what a 200 means: the charge and the request count are on disk before
 * the answer leaves. A server killed with SIGKILL in the middle of a burst of single calls must hold,
 * after the kill, at least one charge and one counted request for every 200 the client received, and at
 * most one more for each request whose answer never came (in doubt: its commit may have landed just
 * before the kill, like a card payment whose receipt was lost).
 */
test('SIGKILL during a burst of single calls: credit and token counters equal the 200s received, give or take only the unanswered', async (t) => {
  const dataDir = await freshDataDir();
  const { state: db, env } = await processState(dataDir);
  await createAccount(db, 'burst');
  await addPack(db, 'burst', 'light', 1_000_000);
  const { token } = await createToken(db, 'burst');
  const usedBefore = (await current(db, 'burst', 'light')).used_total;

  const server = await startServerProcess(dataDir, { RECAPITO_RATE_SINGLE: '1000000', ...env });
  const connections = 16;
  const killAfter = 400;
  const { ok, other, inDoubt } = await burstUntilKilled(server, token, '/api/v1/phone', (worker, i) => ({ phone: `02 ${1_000_000 + worker * 100_000 + i}` }), connections, killAfter);

  db.lmdb?.root.resetReadTxn(); // another process wrote: read its commits, not this process's old snapshot
  const used = (await current(db, 'burst', 'light')).used_total - usedBefore;
  const requests = (await db.get<TokenRecord>('tokens', hashToken(token)))?.requests ?? -1;
  t.log(`${ok} answered, ${inDoubt} in doubt; charged ${used}, counted ${requests}`);
  t.is(other, 0, 'every answer before the kill was a 200');
  t.true(ok >= killAfter, `${ok} answers`);
  t.true(inDoubt <= connections);
  t.true(used >= ok, `charged ${used} for ${ok} answers received: no charge lost`);
  t.true(used <= ok + inDoubt, `charged ${used}: at most the ${inDoubt} unanswered beyond the ${ok} answered`);
  t.true(requests >= ok, `counted ${requests} requests for ${ok} answers: no count lost`);
  t.true(requests <= ok + inDoubt, `counted ${requests}: at most the unanswered beyond the answered`);
  await db.close();
});
