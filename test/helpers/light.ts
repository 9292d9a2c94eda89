import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { defaultSourceDir } from '../../src/config.js';
import type { Capability, ItemResult, ProcessContext } from '../../src/http/capability.js';
import { importContactData } from '../../src/import/contact.js';
import { sourceCsv, type Row } from './source.js';

/** The contact dictionaries of ../shared/data imported into a fresh data dir, as `recapito import` does. */
export async function contactDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'recapito-light-'));
  await importContactData(defaultSourceDir(), dir);
  return dir;
}

/** One item through a capability's schema and `run`, the way the endpoint runs it. */
export async function processOne<Item>(cap: Capability<Item>, item: Record<string, unknown>, ctx: ProcessContext): Promise<ItemResult> {
  const [result] = await cap.run([cap.item.parse(item)], ctx);
  if (!result) throw new Error(`${cap.name}: no result`);
  return result;
}

/** Park–Miller: the same digits on every run (phone numbers drawn from the published prefixes). */
export function digitsFrom(seed: number): (n: number) => string {
  let s = seed;
  return (n) => {
    let out = '';
    for (let i = 0; i < n; i++) {
      s = (s * 48271) % 2147483647;
      out += String(s % 10);
    }
    return out;
  };
}

/** A table of the Italian numbering plan in ../shared/data/contact/phone. */
export function phoneCsv(file: string): Row[] {
  return sourceCsv(`contact/phone/${file}`);
}
