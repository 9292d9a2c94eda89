//! The country a contact record states (`country_code` / `country`), and a country named in its
//! text: moved out of `address/mod.rs` unchanged (issue 10: one owner per fact).

use super::{text, ContactInput, VerifyOptions};
use crate::address::parse::ParsedAddress;
use crate::normalize::fold;
use crate::register::Register;

pub(super) struct ForeignCountry {
    pub(super) name: String,
    pub(super) code: String,
    pub(super) resolved: bool,
}

/// A country stated by the record that is not Italy.
pub(super) fn foreign_country(
    register: &Register,
    input: &ContactInput,
    _options: &VerifyOptions,
    _parsed: &ParsedAddress,
) -> Option<ForeignCountry> {
    let code = text(&input.country_code).to_uppercase();
    let name = text(&input.country);
    if code.is_empty() && name.is_empty() {
        return None;
    }
    if code == "IT" || code == "ITA" {
        return None;
    }
    if !name.is_empty() && code.is_empty() {
        let f = fold(name);
        if matches!(
            f.as_str(),
            "ITALIA" | "ITALY" | "IT" | "ITA" | "ITALIEN" | "ITALIE" | "REPUBBLICA ITALIANA"
        ) {
            return None;
        }
        return Some(match country_by_name(register, name) {
            Some(c) => c,
            None => ForeignCountry {
                name: name.to_string(),
                code: String::new(),
                resolved: false,
            },
        });
    }
    let resolved = code.len() == 2 && code.chars().all(|c| c.is_ascii_alphabetic());
    Some(ForeignCountry {
        name: if name.is_empty() {
            code.clone()
        } else {
            name.to_string()
        },
        code: if resolved { code } else { String::new() },
        resolved,
    })
}

pub(super) fn country_by_name(register: &Register, name: &str) -> Option<ForeignCountry> {
    let c = register
        .countries
        .by_name(name)
        .into_iter()
        .find(|c| c.active)?;
    if c.iso3.as_deref() == Some("ITA") {
        return None;
    }
    Some(ForeignCountry {
        name: c.name.clone(),
        code: c.iso3.clone().unwrap_or_default(),
        resolved: true,
    })
}
