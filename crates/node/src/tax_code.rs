//! Tax codes: generate, validate, extract, compare.

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::tax_code::{self, BatchInput};
use recapito_core::{from_json, to_json};

use crate::Door;

fn run(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let batch: BatchInput = from_json(input)?;
    to_json(&tax_code::batch(&*crate::opened_register()?, &batch))
}

/// A batch of tax-code actions; one answer per item, in order.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').BatchInput>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ItemResult[]>>"
)]
pub fn tax_codes(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, run)
}

/// `taxCodes` on the calling thread.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').BatchInput>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ItemResult[]>"
)]
pub fn tax_codes_sync(env: Env, batch: Buffer) -> Result<Buffer> {
    Door::call(&env, &batch, run)
}
