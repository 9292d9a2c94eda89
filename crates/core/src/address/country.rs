//! The country of a contact record, as the core reads it.
//!
//! One owner decides which country a piece of text names: the service's catalogue
//! (`src/countries/resolve.ts`: ISO 3166-1 names in the 13 languages, the country's own names,
//! nicknames). It turns `country_code` / `country` into an ISO alpha-2 code, and under
//! `foreign: detect` it also names the country written in the city field or at the end of the
//! address line (`ContactInput::country_named`), before the core sees the record. The core only
//! reads codes: an ISO code (alpha-2, or alpha-3 the postal formats know) in either field is the
//! country; any other text is a country the catalogue did not know (`COUNTRY_UNRESOLVED`).
//! See `docs/architecture.md`, "Who owns each fact".

use super::{text, ContactInput};
use crate::register::Register;

/// A foreign country of a record: `code` is ISO alpha-2 when `resolved`, empty otherwise.
pub(super) struct ForeignCountry {
    pub(super) name: String,
    pub(super) code: String,
    pub(super) resolved: bool,
}

impl ForeignCountry {
    fn known(code: String) -> ForeignCountry {
        ForeignCountry {
            name: code.clone(),
            code,
            resolved: true,
        }
    }
}

/// ISO alpha-2 of a written code: `DE`, `de`, `DEU` (alpha-3 through the postal formats' table).
/// None for anything that is not a code.
pub(super) fn iso2(register: &Register, written: &str) -> Option<String> {
    let code = written.trim().to_ascii_uppercase();
    if !(2..=3).contains(&code.len()) || !code.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    match crate::postal::Formats::of(register).iso2(&code) {
        Some(c) => Some(c.to_ascii_uppercase()),
        None => (code.len() == 2).then_some(code),
    }
}

/// The country the record states, when it is not Italy.
pub(super) fn foreign_country(register: &Register, input: &ContactInput) -> Option<ForeignCountry> {
    let code = text(&input.country_code);
    let name = text(&input.country);
    if code.is_empty() && name.is_empty() {
        return None;
    }
    let written = if code.is_empty() { name } else { code };
    match iso2(register, written) {
        Some(c) if c == "IT" => None,
        Some(c) => Some(ForeignCountry {
            name: if name.is_empty() || iso2(register, name).is_some() {
                c.clone()
            } else {
                name.to_string()
            },
            code: c,
            resolved: true,
        }),
        None => Some(ForeignCountry {
            name: name.to_string(),
            code: String::new(),
            resolved: false,
        }),
    }
}

/// `foreign: detect`: the country the caller found named in the city field or at the end of the
/// address line, then the postal signals (a foreign postcode form, a locality of a foreign register).
pub(super) fn detect_country(
    register: &Register,
    input: &ContactInput,
    city: &str,
    address: &str,
    postcode: &str,
    province: &str,
) -> Option<ForeignCountry> {
    // an Italian province written (`Aquila (AQ)`) keeps the record Italian
    if crate::postal::detect::italian_province(
        crate::postal::Formats::of(register),
        province,
        city,
        address,
    ) {
        return None;
    }
    iso2(register, text(&input.country_named))
        .filter(|c| c != "IT")
        .or_else(|| crate::postal::detect::country(register, postcode, city, address, province))
        .map(ForeignCountry::known)
}

/// A country read off a postcode in a foreign form (`F-75001`).
pub(super) fn postcode_country(register: &Register, postcode: &str) -> Option<ForeignCountry> {
    crate::postal::detect::postcode_country(crate::postal::Formats::of(register), postcode)
        .map(ForeignCountry::known)
}
