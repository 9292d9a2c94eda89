/**
 * The addon's doors that only benches and evaluations call (`crates/node/src/bench.rs`): built with the
 * cargo feature `bench` alone, so that the service's addon and its generated `index.d.ts` carry none of
 * them. `npm run build:native:bench` builds the release addon with them (its declarations go to
 * `.tmp/bench-index.d.ts`, not over `index.d.ts`); `npm run build:native` builds the service's again. A bench
 * that needs one and finds the service's addon stops with that command, before it does any work.
 */
import { native, type FilesInput, type FilesResult, type Json, type SampledAddress, type SampleQuery } from '../src/native.js';

/** Names of the bench-only doors, as the addon exports them. */
export const BENCH_DOORS = ['sampleStreets', 'sampleStreetsSync', 'dedupeFiles'] as const;

/** Their signatures, as `crates/node/src/bench.rs` declares them (the bench build's `.tmp/bench-index.d.ts`). */
interface BenchNative {
  sampleStreets(query: Json<SampleQuery>): Promise<Json<SampledAddress[]>>;
  sampleStreetsSync(query: Json<SampleQuery>): Json<SampledAddress[]>;
  dedupeFiles(request: Json<FilesInput>): Promise<Json<FilesResult>>;
}

/** The bench-only doors of `addon` (the project's by default); a clear error naming the build to run when it has none. */
export function benchDoors(addon: object = native): BenchNative {
  const loaded = addon as Partial<Record<string, unknown>>;
  const missing = BENCH_DOORS.filter((name) => typeof loaded[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(`this bench needs the addon's bench doors (${missing.join(', ')}), which the service's build leaves out: run \`npm run build:native:bench\` first (and \`npm run build:native\` after, for the service)`);
  }
  return loaded as unknown as BenchNative;
}

function encode<T>(value: T): Json<T> {
  return Buffer.from(JSON.stringify(value)) as Json<T>;
}

function decode<T>(bytes: Json<T>): T {
  return JSON.parse(bytes.toString('utf8')) as T;
}

/** Real addresses drawn deterministically from the register (evaluations), on the libuv pool. */
export async function sampleStreets(query: SampleQuery): Promise<SampledAddress[]> {
  return decode(await benchDoors().sampleStreets(encode(query)));
}

/** `sampleStreets` on the calling thread. */
export function sampleStreetsSync(query: SampleQuery): SampledAddress[] {
  return decode(benchDoors().sampleStreetsSync(encode(query)));
}
