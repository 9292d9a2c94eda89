//! Postal forms: which countries are covered and how, addresses rendered with a country's template.

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::postal::{self, RenderBatch};
use recapito_core::{from_json, to_json};

use crate::Door;

fn render(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let batch: RenderBatch = from_json(input)?;
    to_json(&postal::render_batch(&*crate::opened_register()?, batch))
}

fn coverage(_: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&postal::coverage(&*crate::opened_register()?))
}

/// The countries whose national register is in service, and the postal format of every country.
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').Coverage>>"
)]
pub fn postal_coverage() -> AsyncTask<Door> {
    Door::spawn_bare(coverage)
}

/// `postalCoverage` on the calling thread.
#[napi(ts_return_type = "import('./core-types.js').Json<import('./core-types.js').Coverage>")]
pub fn postal_coverage_sync(env: Env) -> Result<Buffer> {
    Door::call(&env, &[], coverage)
}

/// Components rendered with their country's template: `null` where the country has none.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').RenderBatch>",
    ts_return_type = "Promise<import('./core-types.js').Json<(string | null)[]>>"
)]
pub fn render_postal(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, render)
}

/// `renderPostal` on the calling thread.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').RenderBatch>",
    ts_return_type = "import('./core-types.js').Json<(string | null)[]>"
)]
pub fn render_postal_sync(env: Env, batch: Buffer) -> Result<Buffer> {
    Door::call(&env, &batch, render)
}

fn read(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let request: postal::reader::ReadRequest = from_json(input)?;
    to_json(&postal::reader::read_address(
        &*crate::opened_register()?,
        &request,
    ))
}

/// An address as people write it (one line, or fields in any mix) read into street, house number,
/// unit, postcode, city and region by its country's postal format; null for a country without one.
#[napi(
    ts_args_type = "request: import('./core-types.js').Json<import('./core-types.js').AddressToRead>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').AddressParts | null>"
)]
pub fn read_address_sync(env: Env, request: Buffer) -> Result<Buffer> {
    Door::call(&env, &request, read)
}
