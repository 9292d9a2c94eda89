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

/// `taxCodes` on the calling thread: a single item of an HTTP call, answered on the event loop. JSON
/// text each way instead of buffers, as the single contact's door: for a few hundred bytes, making an
/// external Buffer (and later finalising it) and decoding it in JavaScript cost more than one copy of
/// the text (issue 14).
#[napi(
    ts_args_type = "batch: string & { readonly __json?: import('./core-types.js').BatchInput }",
    ts_return_type = "string & { readonly __json?: import('./core-types.js').ItemResult[] }"
)]
pub fn tax_codes_sync(env: Env, batch: String) -> Result<String> {
    crate::sync(&env, || {
        let batch: BatchInput = from_json(batch.as_bytes())?;
        let register = crate::opened_register()?;
        // a single item, what an HTTP call sends: answered here, without rayon's bridge and
        // without a vector (perf: rayon's collect reserving the answer's vector made glibc
        // consolidate its free lists on every call, ~4 % of this door)
        if let [item] = batch.items.as_slice() {
            let today = tax_code::today_or(batch.today.as_deref());
            let one = [tax_code::answer(&register, &batch, item, today)];
            return Ok(serde_json::to_string(&one)?);
        }
        Ok(serde_json::to_string(&tax_code::batch(&register, &batch))?)
    })
}
