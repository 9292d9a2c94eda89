//! recapito core: registers, address matching, tax codes and deduplication.
//! Pure Rust: no Node, no HTTP. JSON keys and languages live in the TypeScript layer.
#![deny(clippy::all)]

pub mod address;
pub mod dedupe;
pub mod error;
pub mod foreign;
pub mod import;
pub mod normalize;
pub mod postal;
pub mod register;
pub mod rules;
pub mod tax_code;

pub use error::{from_json, to_json, Error, ErrorCode, Result};

// the test-register helper names the crate as the integration tests do
#[cfg(test)]
extern crate self as recapito_core;
#[cfg(test)]
pub(crate) mod test_register;
