//! Contacts: Italian addresses against the national register, foreign ones against the
//! imported national registers.

use napi::bindgen_prelude::*;
use napi::Env;
use napi_derive::napi;
use recapito_core::address::{self, ContactBatch};
use recapito_core::{foreign, from_json, to_json};

use crate::Door;

fn verify(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let batch: ContactBatch = from_json(input)?;
    let register = crate::opened_register()?;
    to_json(&address::verify_batch(
        &register,
        &batch.items,
        &batch.options,
    ))
}

/// Verifies a batch of contacts with one set of options; one answer per item, in order.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ContactResult[]>>"
)]
pub fn verify_contacts(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, verify)
}

/// `verifyContacts` on the calling thread.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ContactResult[]>"
)]
pub fn verify_contacts_sync(env: Env, batch: Buffer) -> Result<Buffer> {
    Door::call(&env, &batch, verify)
}

fn verify_abroad(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let batch: ContactBatch = from_json(input)?;
    to_json(&foreign::verify_batch(&batch.items))
}

/// Foreign contacts against the imported national registers alone (evaluations): `null` where
/// no register answers.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<import('./core-types.js').Json<(import('./core-types.js').ContactResult | null)[]>>"
)]
pub fn verify_foreign(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, verify_abroad)
}

/// `verifyForeign` on the calling thread.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "import('./core-types.js').Json<(import('./core-types.js').ContactResult | null)[]>"
)]
pub fn verify_foreign_sync(env: Env, batch: Buffer) -> Result<Buffer> {
    Door::call(&env, &batch, verify_abroad)
}
