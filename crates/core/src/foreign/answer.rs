//! The answer for a foreign record once the street is chosen (`record`): the record as written,
//! verified in the register; then the street and city as the register writes them, the house
//! number, the postcode (confirmed, filled in or corrected), the point, the territory and the
//! address key.

use super::line::Reading;
use super::model::{CountryRegister, HouseNumber, Street};
use super::record::text;
use super::text::NameKey;
use crate::address::outcome::{Change, Outcome};
use crate::address::{ContactInput, ContactResult, Geo, Normalized, PostcodeCheck, Territory};
use crate::normalize::fold;
use crate::postal::postcode::display as display_postcode;

/// The answer before the street is known: the record as written, verified in the register.
pub(super) fn answer_base(
    reg: &CountryRegister,
    input: &ContactInput,
    base: &ContactResult,
    written_pc: &str,
    postcode_in: &str,
) -> ContactResult {
    let cc = reg.info.country;
    let mut r = base.clone();
    r.ok = true;
    r.foreign_address = Some(true);
    r.verified_in = Some(reg.info.register);
    r.attribution = vec![reg.info.attribution];
    r.normalized = Normalized {
        address: text(&input.address).to_string(),
        postcode: if postcode_in.is_empty() {
            written_pc.to_string()
        } else {
            display_postcode(cc, postcode_in)
        },
        city: text(&input.city).to_string(),
        province: text(&input.province).to_string(),
        country: cc.to_string(),
        country_code: cc.to_string(),
    };
    r
}

/// The street found for a reading of the line.
pub(super) struct Found<'a> {
    pub(super) reading: &'a Reading,
    pub(super) street: u32,
    pub(super) score: f64,
}

/// The answer for the street found: its name and city as the register writes them, the house
/// number, the postcode, the point and the territory.
pub(super) fn answer_street(
    reg: &CountryRegister,
    mut r: ContactResult,
    mut out: Outcome,
    found: &Found,
    city_in: &str,
    postcode_in: &str,
) -> ContactResult {
    let cc = reg.info.country;
    let reading = found.reading;
    let street = &reg.streets[found.street as usize];
    let locality = &reg.localities[street.locality as usize];
    name_changes(reg, &mut out, found, city_in);
    let number = house_number(reading, street);
    let number_label = match (&reading.number, number) {
        (_, Some(h)) => h.label(),
        (Some((n, s)), None) => format!("{n}{s}"),
        (None, None) => String::new(),
    };
    match (&reading.number, number) {
        (None, _) => out.condition("HOUSE_NUMBER_MISSING"),
        (Some(_), None) if locality.complete_numbers => out.condition("HOUSE_NUMBER_NOT_FOUND"),
        _ => {}
    }
    let postcode = check_postcode(reg, &mut r, &mut out, street, number, postcode_in);
    r.geo = point(reg, street, number);
    r.normalized.address = register_line(reg, street, &number_label, &reading.sub_address);
    r.normalized.postcode = display_postcode(cc, &postcode);
    r.normalized.city = locality.name.clone();
    r.municipality = Some(locality.municipality.clone());
    r.district = street
        .district
        .clone()
        .or_else(|| locality.district.clone());
    r.territory = Some(Territory {
        country: Some(cc.to_string()),
        municipality_code: street
            .municipality_code
            .clone()
            .or_else(|| Some(locality.municipality_code.clone()))
            .filter(|c| !c.is_empty()),
        municipality_code_type: Some(reg.info.municipality_code_type),
        ..Default::default()
    });
    r.address_key = address_key(cc, &postcode, &street.keys[0], &number_label);
    r.outcome = out.codes();
    r
}

/// The street and the city as the register writes them: a change of name or of form.
fn name_changes(reg: &CountryRegister, out: &mut Outcome, found: &Found, city_in: &str) {
    let written = &found.reading.street;
    let street = &reg.streets[found.street as usize];
    let locality = &reg.localities[street.locality as usize];
    if fold(written) != fold(&street.name) {
        let written_key = reg.expander.name_key(written);
        let form_only = street.keys.iter().any(|k| k.key == written_key.key);
        out.change(if form_only || found.score >= 0.999 {
            Change::StreetForm
        } else {
            Change::Street
        });
    } else if *written != street.name {
        out.change(Change::StreetForm);
    }
    if fold(city_in) != fold(&locality.name) {
        let alt = locality.alt_names.iter().any(|a| fold(a) == fold(city_in));
        if !alt {
            out.change(Change::City);
        }
    } else if city_in != locality.name {
        out.change(Change::CityForm);
    }
}

/// The house number written, on the street found.
fn house_number<'s>(reading: &Reading, street: &'s Street) -> Option<&'s HouseNumber> {
    reading.number.as_ref().and_then(|(n, s)| {
        street.find_number(*n, s).or_else(|| {
            // `12 B` written for a flat or staircase of number 12 that the register lists bare
            (!s.is_empty())
                .then(|| street.find_number(*n, ""))
                .flatten()
        })
    })
}

/// The postcode: the number's, else the street's only one, checked against the one written.
fn check_postcode(
    reg: &CountryRegister,
    r: &mut ContactResult,
    out: &mut Outcome,
    street: &Street,
    number: Option<&HouseNumber>,
    postcode_in: &str,
) -> String {
    let locality = &reg.localities[street.locality as usize];
    let known: Option<(&str, &'static str)> = number
        .and_then(|h| h.postcode.as_deref())
        .map(|p| (p, "house_number"))
        .or(match street.postcodes.as_slice() {
            [one] => Some((one.as_str(), "street")),
            _ => None,
        });
    let written_is = |list: &[String]| list.iter().any(|p| p == postcode_in);
    let (postcode, confirmed, precision) = match known {
        Some((p, precision)) => {
            if postcode_in != p {
                out.change(Change::Postcode);
            }
            (p.to_string(), true, precision)
        }
        None if written_is(&street.postcodes) => (postcode_in.to_string(), true, "street"),
        None if street.postcodes.is_empty() && written_is(&locality.postcodes) => {
            out.condition("POSTCODE_UNCONFIRMED");
            (postcode_in.to_string(), false, "locality")
        }
        None => {
            out.condition("POSTCODE_UNCONFIRMED");
            (postcode_in.to_string(), false, "street")
        }
    };
    let counted = precision != "locality" || confirmed;
    r.postcode_check = Some(PostcodeCheck {
        source: reg.info.dataset,
        precision,
        house_numbers: match counted {
            true => street
                .numbers
                .iter()
                .filter(|h| h.postcode.as_deref() == Some(postcode.as_str()))
                .count() as u32,
            false => 0,
        },
        agreement: if confirmed { 1.0 } else { 0.0 },
        confirmed,
    });
    postcode
}

/// The point: the number's, else the street's centre, else the locality's.
fn point(reg: &CountryRegister, street: &Street, number: Option<&HouseNumber>) -> Option<Geo> {
    let locality = &reg.localities[street.locality as usize];
    let (point, precision) = match number.and_then(|h| h.point) {
        Some(p) => (Some(p), "house_number"),
        None => match street.centre() {
            Some(p) => (Some(p), "street"),
            None => (locality.point, "municipality"),
        },
    };
    point.map(|(lat, lon)| Geo {
        lat,
        lon,
        precision,
        source: reg.info.source,
        dataset: reg.info.dataset,
    })
}

/// The address line as the country writes it: the number before or after the street, then the
/// sub-address written.
fn register_line(
    reg: &CountryRegister,
    street: &Street,
    number: &str,
    sub_address: &str,
) -> String {
    let line = if number.is_empty() {
        street.name.clone()
    } else if reg.number_first {
        format!("{number}, {}", street.name)
    } else if matches!(reg.info.country, "ES" | "AD") {
        format!("{}, {number}", street.name)
    } else {
        format!("{} {number}", street.name)
    };
    if sub_address.is_empty() {
        line
    } else {
        format!("{line}, {sub_address}")
    }
}

/// The same key for every spelling of one address: country, postcode, the street's comparison
/// form, the number.
fn address_key(cc: &str, postcode: &str, street: &NameKey, number: &str) -> String {
    let mut k = format!("{cc} {postcode} {}", street.key);
    if !number.is_empty() {
        k.push(' ');
        k.push_str(&number.to_uppercase());
    }
    k
}
