//! The foreign national registers: where they are read from, what is in service.

use std::path::PathBuf;

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::{foreign, to_json};

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
    Door::spawn(&[], in_service)
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
