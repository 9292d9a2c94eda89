//! Comparison of a code with the person's data: which fields disagree.

use chrono::NaiveDate;
use serde::Serialize;

use super::code::{first_name_part, last_name_part};
use super::dates::parse_birth_date;
use super::generate::{name_letters, parse_gender, GenerateError, Person};
use super::place::{resolve, PlaceError};
use super::validate::{validate, Decoded, Validation};
use crate::register::Register;
use chrono::Datelike;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Comparison {
    pub validation: Validation,
    /// Fields that disagree with the code: last_name, first_name, gender, birth_date, birth_place.
    pub differences: Vec<&'static str>,
    /// Fields given and compared.
    pub compared: Vec<&'static str>,
    /// Fields given but not readable (an unknown gender word, a date in no known form, an
    /// unknown place), left out of the comparison.
    pub unreadable: Vec<&'static str>,
    /// Born abroad and a name differs: the name may have been transliterated differently.
    pub transliteration: bool,
}

fn given(v: Option<&str>) -> Option<&str> {
    v.map(str::trim).filter(|s| !s.is_empty())
}

/// Compares a code with whatever personal data are given; a valid code with no difference matches.
pub fn compare(register: &Register, tax_code: &str, p: &Person, today: NaiveDate) -> Comparison {
    let validation = validate(register, tax_code);
    let mut c = Comparison {
        validation,
        differences: Vec::new(),
        compared: Vec::new(),
        unreadable: Vec::new(),
        transliteration: false,
    };
    let Some(d) = c.validation.person.clone() else {
        return c;
    };
    compare_names(&mut c, &d, p);
    if let Some(g) = given(p.gender) {
        match parse_gender(g) {
            Some(g) => {
                c.compared.push("gender");
                if g != d.gender {
                    c.differences.push("gender");
                }
            }
            None => c.unreadable.push("gender"),
        }
    }
    let mut date = None;
    if let Some(text) = given(p.birth_date) {
        match parse_birth_date(text, today) {
            Some(b) => {
                c.compared.push("birth_date");
                date = Some(b);
                let same = b.year().rem_euclid(100) as u32 == d.year
                    && b.month() == d.month
                    && b.day() == d.day;
                if !same {
                    c.differences.push("birth_date");
                }
            }
            None => c.unreadable.push("birth_date"),
        }
    }
    if given(p.birth_place).is_some() || p.birth_place_iso3.is_some() {
        let on = date
            .or_else(|| super::extract::birth_date(register, &d, today).map(|(b, _)| b))
            .unwrap_or(today);
        let codes: Vec<String> = match resolve(
            register,
            p.birth_place.unwrap_or(""),
            p.birth_place_iso3,
            on,
        ) {
            Ok(place) => vec![place.cadastral_code],
            Err(PlaceError::Ambiguous(options)) => {
                options.into_iter().map(|o| o.cadastral_code).collect()
            }
            Err(_) => Vec::new(),
        };
        if codes.is_empty() {
            c.unreadable.push("birth_place");
        } else {
            c.compared.push("birth_place");
            if !codes.contains(&d.place_code) {
                c.differences.push("birth_place");
            }
        }
    }
    let abroad = d.place_code.starts_with('Z');
    c.transliteration = abroad
        && c.differences
            .iter()
            .any(|f| *f == "last_name" || *f == "first_name");
    c
}

/// A name field: its key, the value given, the rule that makes its three letters, the letters in the code.
type NameField<'a> = (&'static str, Option<&'a str>, fn(&str) -> String, &'a str);

fn compare_names(c: &mut Comparison, d: &Decoded, p: &Person) {
    let fields: [NameField; 2] = [
        ("last_name", p.last_name, last_name_part, &d.last_name),
        ("first_name", p.first_name, first_name_part, &d.first_name),
    ];
    for (field, value, part, expected) in fields {
        match name_letters(given(value), field) {
            Ok(letters) => {
                c.compared.push(field);
                if part(&letters) != expected {
                    c.differences.push(field);
                }
            }
            // A name in another script cannot be compared letter by letter: it differs as written.
            Err(GenerateError::NonLatin(_)) => {
                c.compared.push(field);
                c.differences.push(field);
            }
            Err(_) => {}
        }
    }
}

/// Whether a code is valid and agrees with every personal datum given (None = not given).
/// What contact verification and deduplication use to weigh a code.
pub fn consistent_with(
    register: &Register,
    tax_code: &str,
    last_name: Option<&str>,
    first_name: Option<&str>,
    gender: Option<&str>,
    birth_date: Option<&str>,
) -> bool {
    let person = Person {
        last_name,
        first_name,
        gender,
        birth_date,
        ..Default::default()
    };
    let today = chrono::Utc::now().date_naive();
    let c = compare(register, tax_code, &person, today);
    c.validation.valid && c.differences.is_empty()
}
