import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';


/** LMDB's meta page (lmdb.h, 64-bit): after a 16-byte page header, magic, version, ..., page size, last page, txn id. */
const LMDB_MAGIC = 0xbeefc0de;
const META = { magic: 16, version: 20, pageSize: 40, lastPage: 136, txnId: 144 } as const;

export class RegisterDamaged extends Error {}

/**
 * Written under the data dir when an import starts and removed when its last step is done: the contact
 * dictionaries are written beside the register before it is renamed into place, and whatever comes after
 * the core's import may still fail, so a register alone does not prove the import finished.
 */
export function importMarker(dataDir: string): string {
  return path.join(dataDir, 'import.incomplete');
}

/** Where the core's import writes the contact dictionaries (`register/import/names.rs`). */
export function dictionariesFile(dataDir: string): string {
  return path.join(dataDir, 'contact', 'dictionaries.json');
}

function damaged(file: string, why: string): RegisterDamaged {
  return new RegisterDamaged(
    `The register file ${file} is damaged: ${why}.\n` +
      'Nothing was started. Rebuild the register with `recapito import` (see docs/data.md), or restore the data folder from a backup.',
  );
}

/**
 * Reads LMDB's two meta pages and checks that the file holds every page the newest one counts: a truncated
 * register would otherwise be mapped and crash the process (SIGBUS) at the first read past its end.
 */
function checkLmdbFile(file: string): void {
  const size = statSync(file).size;
  if (size < 8192) throw damaged(file, `${size} bytes, shorter than LMDB's two meta pages`);
  const fd = openSync(file, 'r');
  try {
    const metas = [0, 1].map((n) => {
      // page size is not known yet: meta page 1 starts at the page size that meta page 0 states
      const head = Buffer.alloc(160);
      const first = Buffer.alloc(160);
      readSync(fd, first, 0, 160, 0);
      const pageSize = first.readUInt32LE(META.pageSize) || 4096;
      readSync(fd, head, 0, 160, n * pageSize);
      return {
        magic: head.readUInt32LE(META.magic),
        version: head.readUInt32LE(META.version),
        pageSize: head.readUInt32LE(META.pageSize),
        lastPage: head.readBigUInt64LE(META.lastPage),
        txnId: head.readBigUInt64LE(META.txnId),
      };
    });
    const valid = metas.filter((m) => m.magic === LMDB_MAGIC && m.version === 1 && m.pageSize >= 512 && (m.pageSize & (m.pageSize - 1)) === 0);
    if (valid.length === 0) throw damaged(file, 'not an LMDB file (no valid meta page)');
    const newest = valid.reduce((a, b) => (b.txnId > a.txnId ? b : a));
    const needed = (newest.lastPage + 1n) * BigInt(newest.pageSize);
    if (BigInt(size) < needed) throw damaged(file, `truncated: ${size} bytes of the ${needed} its last transaction wrote`);
  } finally {
    closeSync(fd);
  }
}

/**
 * What `serve` checks before it opens anything, so that a damaged register is a clear message and a
 * non-zero exit rather than a crash or a service answering 500s: the register's LMDB file whole, and the
 * contact dictionaries present and readable when they were imported. Writes nothing.
 */
export function checkRegisterFiles(dataDir: string): void {
  const register = path.join(dataDir, 'register', 'data.mdb');
  if (existsSync(importMarker(dataDir))) throw damaged(register, 'the import that wrote it was interrupted before its last step');
  if (!existsSync(register)) throw damaged(register, 'the file is missing');
  checkLmdbFile(register);
  // the dictionaries are optional (not imported: the checks that need them say so); imported, they must read
  const dictionaries = dictionariesFile(dataDir);
  if (!existsSync(dictionaries)) return;
  try {
    JSON.parse(readFileSync(dictionaries, 'utf8'));
  } catch (error) {
    throw damaged(dictionaries, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
