//! Deduplication: one list, a list against a reference, new records against a saved result.

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use napi_derive::napi;
use recapito_core::dedupe;

use crate::{guard, Door, Failure};

type Work = fn(&[u8]) -> recapito_core::Result<Vec<u8>>;

fn run(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    dedupe::run_json(&*crate::opened_register()?, input)
}

fn incremental(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    dedupe::incremental_json(&*crate::opened_register()?, input)
}

/// A dedupe on the libuv pool that reads the caller's buffer where it is, instead of copying it
/// as `Door` does: a dedupe request is the largest the service takes (a million records are
/// hundreds of MiB of JSON). The buffer is held by a reference until the task is done, and the
/// JavaScript side does not touch it meanwhile (`src/native.ts` makes it and lets it go).
pub struct Borrowed {
    input: Buffer,
    work: Work,
}

impl Task for Borrowed {
    type Output = std::result::Result<Vec<u8>, Failure>;
    type JsValue = Buffer;

    fn compute(&mut self) -> Result<Self::Output> {
        let (work, input) = (self.work, &self.input);
        Ok(guard(|| work(input).map_err(Failure::from)))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Buffer> {
        output.map(Buffer::from).map_err(|f| f.into_js(&env))
    }
}

/// Groups of duplicates in one list, or matches of a list in a reference.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').RunInput>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').RunResult>>"
)]
pub fn dedupe(request: Buffer) -> AsyncTask<Borrowed> {
    AsyncTask::new(Borrowed {
        input: request,
        work: run,
    })
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
pub fn dedupe_incremental(request: Buffer) -> AsyncTask<Borrowed> {
    AsyncTask::new(Borrowed {
        input: request,
        work: incremental,
    })
}

/// `dedupeIncremental` on the calling thread.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').IncrementalInput>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').IncrementalResult>"
)]
pub fn dedupe_incremental_sync(env: Env, request: Buffer) -> Result<Buffer> {
    Door::call(&env, &request, incremental)
}
