//! Municipalities of the register, today and through their history.

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::register::search::{self, MunicipalityQuery};
use recapito_core::{from_json, to_json};

use crate::Door;

fn find(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let query: MunicipalityQuery = from_json(input)?;
    to_json(&search::find_municipalities(
        &*crate::opened_register()?,
        &query,
    ))
}

/// Municipalities by cadastral code, ISTAT code, name or postcode, narrowed by province.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').MunicipalityQuery>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').MunicipalityHit[]>>"
)]
pub fn find_municipalities(query: Buffer) -> AsyncTask<Door> {
    Door::spawn(query, find)
}

/// `findMunicipalities` on the calling thread.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').MunicipalityQuery>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').MunicipalityHit[]>"
)]
pub fn find_municipalities_sync(env: Env, query: Buffer) -> Result<Buffer> {
    Door::call(&env, &query, find)
}
