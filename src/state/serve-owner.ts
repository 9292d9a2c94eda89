import { readFileSync } from 'node:fs';

import { openState } from './db.js';

/**
 * One `recapito serve` per LMDB data dir. On the embedded back end a node keeps its queue of job units in
 * memory and, when it starts, resumes every job the store calls queued or running: a second serve on the
 * same data dir would run the first one's jobs again beside it, and each would rate-limit on its own. So
 * the service (`buildService`, once the register is known good: a refused start creates no state) records
 * its process (pid and start time) in the state under LMDB's writer lock — two serves starting together
 * cannot both win — and refuses to start while the recorded process runs. A record whose
 * process has ended (a crash, SIGKILL, a reboot) is taken over; a pid reused by another program is told
 * apart by its start time. Several nodes share state through PostgreSQL (RECAPITO_STATE_URL), not a data dir.
 */
const OWNER_KEY = 'serve/owner';

interface ServeOwner {
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat); '' where there is no /proc. */
  started: string;
  since: string;
}

/** Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces and parentheses. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function running(owner: ServeOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a process of another user holds that pid, alive
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTimeOf(owner.pid);
  // without /proc the pid alone decides (a reused pid refuses until the operator stops that program)
  return owner.started === '' || started === undefined || started === owner.started;
}

/**
 * Claims `dataDir` for this process's service, or throws the message the operator reads (the same process
 * may claim it again: a test's services, one after another). Returns the release, called on a graceful stop
 * once the service's work has stopped, before it closes its store; a record left by a crash is taken over at
 * the next start.
 */
export function claimServe(dataDir: string): () => void {
  const db = openState(dataDir);
  const me: ServeOwner = { pid: process.pid, started: startTimeOf(process.pid) ?? '', since: new Date().toISOString() };
  const isMe = (owner: ServeOwner | undefined) => owner?.pid === me.pid && owner.started === me.started;
  const holder = db.root.transactionSync(() => {
    const recorded = db.kv.get(OWNER_KEY) as ServeOwner | undefined;
    if (recorded && !isMe(recorded) && running(recorded)) return recorded;
    void db.kv.put(OWNER_KEY, me);
    return undefined;
  });
  if (holder) {
    throw new Error(
      `another recapito serve (pid ${holder.pid}, since ${holder.since}) uses the data dir ${dataDir}: stop it first, or give this one ` +
        'another --data-dir (several nodes share their state through PostgreSQL: RECAPITO_STATE_URL, docs/operations.md)',
    );
  }
  return () => {
    db.root.transactionSync(() => {
      if (isMe(db.kv.get(OWNER_KEY) as ServeOwner | undefined)) void db.kv.remove(OWNER_KEY);
    });
  };
}
