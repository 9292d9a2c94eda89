import { randomUUID } from 'node:crypto';

import test from 'ava';

import { createAccount, createToken, hashToken } from '../src/state/tokens.js';
import type { TokenRecord } from '../src/state/db.js';
import { burstUntilKilled, startServerProcess } from './helpers/process.js';
import { freshDataDir } from './helpers/server.js';
import { processState } from './helpers/state-url.js';

/**
 * A keystroke is free, but counted: its answer leaves only once its request count is on disk, although its
 * commit is asked before the call works (when the caller is known, src/suggest/route.ts). A server killed
 * with SIGKILL in the middle of a burst of keystrokes must hold a counted request for every 200 the client
 * received, and at most one more for each request whose answer never came.
 */
test('SIGKILL during a burst of suggest keystrokes: the token counts every 200 received, give or take only the unanswered', async (t) => {
  const dataDir = await freshDataDir();
  const { state: db, env } = await processState(dataDir);
  await createAccount(db, 'typing');
  const { token } = await createToken(db, 'typing');

  const server = await startServerProcess(dataDir, { RECAPITO_RATE_AUTOCOMPLETE: '1000000', ...env });
  const connections = 16;
  const killAfter = 400;
  const prefixes = ['via del fag', 'via norman', 'piazza maggi', 'via rizz', 'strada maggiore', 'via indipendenza'];
  // a session takes 30 calls: the next one opens another
  const sessions = new Map<string, string>();
  const sessionOf = (worker: number, i: number) => {
    const key = `${worker}:${Math.floor((i + 1) / 30)}`;
    let session = sessions.get(key);
    if (!session) sessions.set(key, (session = randomUUID()));
    return session;
  };
  const { ok, other, inDoubt } = await burstUntilKilled(
    server,
    token,
    '/api/v1/suggest',
    (worker, i) => ({ session: sessionOf(worker, i), q: prefixes[(worker + i) % prefixes.length]?.slice(0, 4 + (i % 8)), city: 'Bologna' }),
    connections,
    killAfter,
  );

  db.lmdb?.root.resetReadTxn(); // another process wrote: read its commits, not this process's old snapshot
  const requests = (await db.get<TokenRecord>('tokens', hashToken(token)))?.requests ?? -1;
  t.log(`${ok} answered, ${inDoubt} in doubt; counted ${requests}`);
  t.is(other, 0, 'every answer before the kill was a 200');
  t.true(ok >= killAfter, `${ok} answers`);
  t.true(inDoubt <= connections);
  t.true(requests >= ok, `counted ${requests} requests for ${ok} answers: no count lost`);
  t.true(requests <= ok + inDoubt, `counted ${requests}: at most the unanswered beyond the answered`);
  await db.close();
});
