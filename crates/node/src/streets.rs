//! Streets of the register: autocomplete search, house numbers (samples for evaluations: `bench.rs`).

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::address::street_search::{self, StreetQuery};
use recapito_core::register::street::{self, StreetRef};
use recapito_core::{from_json, to_json};

use crate::Door;

fn found(input: &[u8]) -> recapito_core::Result<Vec<street_search::StreetHit>> {
    let query: StreetQuery = from_json(input)?;
    Ok(street_search::query_streets(
        &*crate::opened_register()?,
        &query,
    ))
}

fn search(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&found(input)?)
}

fn numbers(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let street_ref: StreetRef = from_json(input)?;
    to_json(&street::street_house_numbers(
        &*crate::opened_register()?,
        &street_ref,
    ))
}

/// Prefix and typo-tolerant street search in a municipality or across a province.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').StreetQuery>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').StreetHit[]>>"
)]
pub fn search_streets(query: Buffer) -> AsyncTask<Door> {
    Door::spawn(query, search)
}

/// `searchStreets` on the calling thread: a keystroke of autocomplete, answered on the event loop.
/// JSON text each way instead of buffers, as `verifyContactsSync`: for a few hundred bytes, making an
/// external Buffer (and later finalising it) and decoding it to a string in JavaScript cost more than
/// one copy of the text.
#[napi(
    ts_args_type = "query: string & { readonly __json?: import('./core-types.js').StreetQuery }",
    ts_return_type = "string & { readonly __json?: import('./core-types.js').StreetHit[] }"
)]
pub fn search_streets_sync(env: Env, query: String) -> Result<String> {
    crate::sync(&env, || {
        Ok(serde_json::to_string(&found(query.as_bytes())?)?)
    })
}

/// The house numbers of one street, in order.
#[napi(
    ts_args_type = "street: import('./core-types.js').Json<import('./core-types.js').StreetRef>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').HouseNumberEntry[]>>"
)]
pub fn street_house_numbers(street: Buffer) -> AsyncTask<Door> {
    Door::spawn(street, numbers)
}

/// `streetHouseNumbers` on the calling thread.
#[napi(
    ts_args_type = "street: import('./core-types.js').Json<import('./core-types.js').StreetRef>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').HouseNumberEntry[]>"
)]
pub fn street_house_numbers_sync(env: Env, street: Buffer) -> Result<Buffer> {
    Door::call(&env, &street, numbers)
}
