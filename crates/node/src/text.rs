//! Text helpers shared with TypeScript.

use napi_derive::napi;

/// The core's text folding, so that TypeScript compares names with the very same normaliser.
#[napi]
pub fn fold_text(text: String) -> String {
    recapito_core::normalize::fold(&text)
}
