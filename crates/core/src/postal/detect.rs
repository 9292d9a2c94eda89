//! `foreign: detect`: the spec's explicit signals that a record without a country is abroad —
//! a non-Italian postcode form (`L-1234`, `D-45127`, `CH-3011`, `F-75001`) and a foreign
//! locality the imported registers know. (A country name is looked up by the contact flow in
//! the registry of foreign states.) Contact and dedupe share it through the contact engine.

use super::{Formats, Postcode, VEHICLE_PREFIXES};
use crate::normalize::fold;
use crate::register::Register;

/// A country prefix and a postcode that fits that country's pattern: `D-45127` → DE.
/// Only with a separator (`D-45127`, `CH 3011`), so that an Italian `20121` is never read as one.
pub fn postcode_country(formats: &Formats, text: &str) -> Option<String> {
    let t = text.trim().to_uppercase();
    let (prefix, body) = t.split_once(['-', ' ', '–'])?;
    let prefix = prefix.trim();
    if prefix.is_empty() || prefix.len() > 3 || !prefix.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let body = body.trim();
    if !body.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let country = VEHICLE_PREFIXES
        .iter()
        .find(|(v, _)| *v == prefix)
        .map(|(_, iso)| iso.to_string())
        .or_else(|| {
            formats
                .codes()
                .find(|c| {
                    *c == prefix
                        || formats.country(c).is_some_and(|f| {
                            f.data.postprefix.trim_end_matches(['-', ' ']) == prefix
                        })
                })
                .cloned()
        })?;
    if matches!(country.as_str(), "IT" | "VA") {
        return None;
    }
    let format = formats.country(&country)?;
    matches!(format.judge_postcode(body), Postcode::Valid(_)).then_some(country)
}

/// The signals in a record's postcode, city and address line: the country they point to.
pub fn country(register: &Register, postcode: &str, city: &str, address: &str) -> Option<String> {
    let formats = &register.postal;
    if let Some(c) = postcode_country(formats, postcode) {
        return Some(c);
    }
    // `D-45127 Essen` in the city field, or at the end of the address line after a comma
    let tail = address.rsplit(',').next().unwrap_or("");
    for text in [city, tail] {
        let words: Vec<&str> = text.split_whitespace().collect();
        for n in [1, 2] {
            if words.len() >= n {
                if let Some(c) = postcode_country(formats, &words[..n].join(" ")) {
                    return Some(c);
                }
            }
        }
    }
    let city = fold(city);
    if city.len() >= 3 {
        if let Some(c) = super::registers::country_of_locality(register, &city) {
            return Some(c);
        }
    }
    None
}
