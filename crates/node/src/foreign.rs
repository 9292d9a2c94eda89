//! The foreign national registers: where they are read from, what is in service.

use std::path::PathBuf;

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::{foreign, from_json, to_json};

use crate::{sync, Door};

/// Foreign national registers: imported from `worldDir` (registers/<cc>/…, osm/…,
/// libpostal/dictionaries) on first use; a new folder replaces what was imported.
#[napi]
pub fn use_foreign_registers(world_dir: String) {
    foreign::use_dir(&PathBuf::from(world_dir));
}

fn in_service(_: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&foreign::registers())
}

/// What each imported foreign register puts in service: country, register, date, verification
/// levels, coverage, source, attribution, counts (imports them on first call).
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ForeignRegister[]>>"
)]
pub fn foreign_registers() -> AsyncTask<Door> {
    Door::spawn_bare(in_service)
}

/// `foreignRegisters` on the calling thread (the countries catalogue).
#[napi(
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ForeignRegister[]>"
)]
pub fn foreign_registers_sync(env: Env) -> Result<Buffer> {
    Door::call(&env, &[], in_service)
}

/// Imports the foreign registers of `worldDir` now: registers, missing files, elapsed_ms.
#[napi(ts_return_type = "import('./core-types.js').Json<import('./core-types.js').LoadSummary>")]
pub fn load_foreign_registers(env: Env, world_dir: String) -> Result<Buffer> {
    sync(&env, || to_json(&foreign::load(&PathBuf::from(world_dir)))).map(Buffer::from)
}

fn suggest_streets(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&foreign::suggest::streets(&from_json(input)?))
}

/// Autocomplete in a register country: the streets starting with (or close to) what was typed,
/// in the place given by city or postcode; `supported: false` where no register lists streets.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').ForeignStreetQuery>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ForeignStreetAnswer>>"
)]
pub fn foreign_streets(query: Buffer) -> AsyncTask<Door> {
    Door::spawn(query, suggest_streets)
}

/// `foreignStreets` on the calling thread.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').ForeignStreetQuery>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ForeignStreetAnswer>"
)]
pub fn foreign_streets_sync(env: Env, query: Buffer) -> Result<Buffer> {
    Door::call(&env, &query, suggest_streets)
}

fn suggest_numbers(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&foreign::suggest::numbers(&from_json(input)?))
}

/// The house numbers of a register country's street (`<country>:<index>`), those starting with
/// what was typed first.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').ForeignNumbersQuery>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ForeignNumbersAnswer>>"
)]
pub fn foreign_house_numbers(query: Buffer) -> AsyncTask<Door> {
    Door::spawn(query, suggest_numbers)
}

/// `foreignHouseNumbers` on the calling thread.
#[napi(
    ts_args_type = "query: import('./core-types.js').Json<import('./core-types.js').ForeignNumbersQuery>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ForeignNumbersAnswer>"
)]
pub fn foreign_house_numbers_sync(env: Env, query: Buffer) -> Result<Buffer> {
    Door::call(&env, &query, suggest_numbers)
}
