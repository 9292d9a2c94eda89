import { createHash } from 'node:crypto';

import { registerInfoSync } from '../native.js';
import { doc, type StateStore } from './store.js';

/** Where the shared state keeps the build id of the register every node must serve. */
const REGISTER_BUILD = doc('kv', 'register/build');

/**
 * The build id of the register this process opened: a digest of what the import recorded in it (when,
 * from what, every dataset and its rows). Copying the register folder to another node keeps the id;
 * importing again, even from the same files, makes a new one.
 */
export function registerBuildId(): string {
  const info = registerInfoSync();
  return createHash('sha256').update(JSON.stringify(info.summary)).digest('hex').slice(0, 16);
}

export class RegisterMismatch extends Error {}

function mismatch(mine: string, shared: string): RegisterMismatch {
  return new RegisterMismatch(
    `This node's register (build ${mine}) is not the one the other nodes serve (build ${shared}).\n` +
      'Nothing was started. Ship the same register folder to every node (docs/operations.md), or, once every old node is stopped, ' +
      'make this build the shared one with `recapito register adopt`.',
  );
}

/**
 * At start, on shared state: the first node records its register's build id; every later node must
 * serve the same one, or refuses to start (answers that differ by node would be worse than no node).
 * On LMDB (one node) there is nothing to compare with.
 */
export async function claimRegister(store: StateStore, mine: string): Promise<void> {
  if (store.backend !== 'postgres') return;
  const shared = await store.update([REGISTER_BUILD], ([current]) =>
    typeof current === 'string' ? { result: current } : { result: mine, write: [{ ...REGISTER_BUILD, doc: mine }] },
  ).durable;
  if (shared !== mine) throw mismatch(mine, shared);
}

/** The build id the nodes must serve, if one was recorded. */
export function sharedRegister(store: StateStore): Promise<string | undefined> {
  return store.get<string>(REGISTER_BUILD.ns, REGISTER_BUILD.key);
}

/** The operator's switch to a new register: from now on nodes must serve `build`. */
export async function adoptRegister(store: StateStore, build: string): Promise<void> {
  await store.update([REGISTER_BUILD], () => ({ result: undefined, write: [{ ...REGISTER_BUILD, doc: build }] })).durable;
}
