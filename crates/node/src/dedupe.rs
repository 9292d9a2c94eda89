//! Deduplication: one list, a list against a reference, new records against a saved result.

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::dedupe;

use crate::Door;

fn run(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    dedupe::run_json(&*crate::opened_register()?, input)
}

fn incremental(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    dedupe::incremental_json(&*crate::opened_register()?, input)
}

/// Groups of duplicates in one list, or matches of a list in a reference.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').RunInput>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').RunResult>>"
)]
pub fn dedupe(request: Buffer) -> AsyncTask<Door> {
    Door::spawn(request, run)
}

/// `dedupe` on the calling thread.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').RunInput>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').RunResult>"
)]
pub fn dedupe_sync(env: Env, request: Buffer) -> Result<Buffer> {
    Door::call(&env, &request, run)
}

/// New records against a saved one-list result: only what changed.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').IncrementalInput>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').IncrementalResult>>"
)]
pub fn dedupe_incremental(request: Buffer) -> AsyncTask<Door> {
    Door::spawn(request, incremental)
}

/// `dedupeIncremental` on the calling thread.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').IncrementalInput>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').IncrementalResult>"
)]
pub fn dedupe_incremental_sync(env: Env, request: Buffer) -> Result<Buffer> {
    Door::call(&env, &request, incremental)
}
