//! A foreign contact in a country without a register in service: the postal form (spec,
//! Contact rule 4). The contact flow calls `foreign_result` once it knows the country.

use crate::address::outcome::{Change, Outcome};
use crate::address::{ContactInput, ContactResult, Normalized, VerifyOptions};
use crate::normalize::fold;
use crate::register::Register;

fn text(s: &Option<String>) -> &str {
    s.as_deref().map(str::trim).unwrap_or("")
}

/// The country a foreign record names: its code (alpha-2 when the formats know it), name, and
/// whether the ISO 3166-1 catalogue knows it.
pub struct Country<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub resolved: bool,
}

/// The record's fields read by the country's format (`reader`): None when the country has none.
pub fn read_parts(
    register: &Register,
    code: &str,
    input: &ContactInput,
) -> Option<crate::postal::reader::Parts> {
    let format = crate::postal::Formats::of(register).country(code)?;
    Some(format.read(crate::postal::reader::Fields {
        address: text(&input.address),
        postcode: text(&input.postcode),
        city: text(&input.city),
        province: text(&input.province),
    }))
}

/// The record's fields once the country's format has read the line (`read_parts`): the
/// postcode, city and region written in the line put into their fields, for a national register
/// that reads fields. None when nothing was read off the line or the city field.
pub fn read_input(
    input: &ContactInput,
    parts: &crate::postal::reader::Parts,
) -> Option<ContactInput> {
    if !(parts.postcode_read || parts.city_read) {
        return None;
    }
    let mut read = input.clone();
    read.address = Some(parts.line.clone());
    read.postcode = Some(parts.postcode.clone());
    read.city = Some(parts.city.clone());
    read.province = Some(parts.region.clone());
    Some(read)
}

/// The postal form of a foreign record. `parts`: the record's fields already read by the
/// country's format (`read_parts`, for a register that did not answer), read again otherwise.
pub fn foreign_result(
    register: &Register,
    mut r: ContactResult,
    input: &ContactInput,
    options: &VerifyOptions,
    country: Country,
    parts: Option<crate::postal::reader::Parts>,
) -> ContactResult {
    let mut out = Outcome::default();
    out.condition("FOREIGN");
    if !country.resolved {
        out.condition("COUNTRY_UNRESOLVED");
    }
    let address = text(&input.address);
    let code = crate::postal::Formats::of(register)
        .iso2(country.code)
        .unwrap_or_else(|| country.code.to_string());
    r.ok = true;
    r.foreign_address = Some(true);
    r.normalized = Normalized {
        address: address.to_string(),
        postcode: text(&input.postcode).to_string(),
        city: text(&input.city).to_string(),
        province: text(&input.province).to_string(),
        country: country.name.to_string(),
        country_code: code.clone(),
    };
    let Some(format) = crate::postal::Formats::of(register)
        .country(&code)
        .filter(|_| country.resolved)
    else {
        r.outcome = out.codes();
        return r;
    };
    let written = crate::postal::Written {
        address,
        postcode: text(&input.postcode),
        city: text(&input.city),
        province: text(&input.province),
    };
    let form = match parts {
        Some(parts) => format.form_of(parts),
        None => format.form(&written),
    };
    if form.postcode_invalid {
        out.condition("POSTCODE_INVALID_FORMAT");
    }
    // only the form was worked: no outcome code says so (spec, Contact rule 4); the message, label
    // and reason do (`present` in src/contact/service.ts)
    // a part read off the line or another field is a field filled
    if form.postcode_changed || form.postcode_read {
        out.change(Change::Postcode);
    }
    if form.city_read {
        out.change(Change::City);
    }
    if form.province_changed || form.region_read {
        out.change(Change::Province);
    }
    if !form.unit.is_empty() {
        r.sub_address = vec![crate::address::parse::SubAddress {
            kind: "unit",
            value: form.unit.clone(),
        }];
    }
    if form.street_changed {
        out.change(Change::StreetForm);
    }
    let postal = Normalized {
        address: form.postal_address.clone(),
        postcode: form.postal_postcode.clone(),
        city: form.postal_city.clone(),
        province: form.postal_province.clone(),
        country: country.name.to_string(),
        country_code: code.clone(),
    };
    if options.postal_form {
        // `normalized` in the envelope's form too: capitals are a change of form
        if postal.city != r.normalized.city && !r.normalized.city.is_empty() {
            out.change(Change::CityForm);
        }
        if postal.address != form.address {
            out.change(Change::StreetForm);
        }
        r.normalized = postal.clone();
    } else {
        r.normalized.address = form.address.clone();
        r.normalized.postcode = form.postcode.clone();
        r.normalized.city = form.city.clone();
        r.normalized.province = form.province.clone();
    }
    if !form.address.is_empty() {
        r.address_key = fold(&form.address);
    }
    r.normalized_postal = Some(postal);
    r.postal_lines = form.lines;
    r.outcome = out.codes();
    r
}
