//! Doors only the benches and evaluations call (`bench/`): built with the `bench` feature alone
//! (`npm run build:native:bench`), so that the service's addon and its generated `index.d.ts` carry
//! none of them. A bench that needs one says so and stops with the command to run
//! (`bench/bench-doors.ts`).

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::dedupe;
use recapito_core::register::street::{self, SampleQuery};
use recapito_core::{from_json, to_json};

use crate::Door;

fn sample(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let query: SampleQuery = from_json(input)?;
    to_json(&street::sample_streets(&*crate::opened_register()?, &query))
}

fn files(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    dedupe::stream::run_files_json(&*crate::opened_register()?, input)
}

/// Real addresses drawn deterministically from the register (evaluations).
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').SampleQuery>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').SampledAddress[]>>"
)]
pub fn sample_streets(query: Buffer) -> AsyncTask<Door> {
    Door::spawn(query, sample)
}

/// `sampleStreets` on the calling thread.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').SampleQuery>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').SampledAddress[]>"
)]
pub fn sample_streets_sync(env: Env, query: Buffer) -> Result<Buffer> {
    Door::call(&env, &query, sample)
}

/// One list from an NDJSON file of records to an NDJSON file of groups and singles, in memory
/// that does not hold the list (`crates/core/src/dedupe/stream.rs`).
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').FilesInput>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').FilesResult>>"
)]
pub fn dedupe_files(request: Buffer) -> AsyncTask<Door> {
    Door::spawn(request, files)
}
