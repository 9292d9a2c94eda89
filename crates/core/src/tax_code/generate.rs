//! Generation of the code from a person's data; the place is the one in force on the birth date.

use chrono::NaiveDate;

use super::code::{check_char, first_name_part, last_name_part, month_letter};
use super::dates::parse_birth_date;
use super::place::{resolve, BirthPlace, PlaceError, PlaceOption};
use crate::normalize::fold;
use crate::register::Register;
use chrono::Datelike;

/// The person as typed; `birth_place_iso3` is a country the caller recognised in another language.
#[derive(Debug, Clone, Default)]
pub struct Person<'a> {
    pub last_name: Option<&'a str>,
    pub first_name: Option<&'a str>,
    pub gender: Option<&'a str>,
    pub birth_date: Option<&'a str>,
    pub birth_place: Option<&'a str>,
    pub birth_place_iso3: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub tax_code: String,
    pub birth_date: NaiveDate,
    pub gender: char,
    pub place: BirthPlace,
}

/// Why a code could not be generated: the datum that is missing or unresolved.
#[derive(Debug, Clone, PartialEq)]
pub enum GenerateError {
    Missing(&'static str),
    /// A name with letters outside the Latin alphabet (Cyrillic, Greek, Arabic...).
    NonLatin(&'static str),
    BirthDate,
    BirthPlace {
        not_in_force: bool,
        italy: bool,
    },
    AmbiguousPlace(Vec<PlaceOption>),
}

impl GenerateError {
    /// Short form for `error`.
    pub fn datum(&self) -> &'static str {
        match self {
            GenerateError::Missing(d) => d,
            GenerateError::NonLatin("last_name") => "last_name_non_latin",
            GenerateError::NonLatin(_) => "first_name_non_latin",
            GenerateError::BirthDate => "birth_date",
            GenerateError::BirthPlace { .. } => "birth_place",
            GenerateError::AmbiguousPlace(_) => "ambiguous_place",
        }
    }
}

/// `M`/`F` from the forms people write: M, F, male, female, maschio, femmina, uomo, donna...
pub fn parse_gender(text: &str) -> Option<char> {
    match fold(text).as_str() {
        "M" | "MALE" | "MAN" | "MASCHIO" | "MASCHILE" | "UOMO" | "MASC" | "MR" | "SIG" => Some('M'),
        "F" | "FEMALE" | "WOMAN" | "FEMMINA" | "FEMMINILE" | "DONNA" | "FEM" | "MRS" | "MS"
        | "SIGRA" | "SIG RA" => Some('F'),
        _ => None,
    }
}

/// A name folded to A-Z, or which rule it breaks.
pub fn name_letters(text: Option<&str>, field: &'static str) -> Result<String, GenerateError> {
    let folded = fold(text.unwrap_or(""));
    if folded.is_empty() {
        return Err(GenerateError::Missing(field));
    }
    if folded
        .chars()
        .any(|c| c.is_alphabetic() && !c.is_ascii_uppercase())
    {
        return Err(GenerateError::NonLatin(field));
    }
    let letters: String = folded.chars().filter(char::is_ascii_uppercase).collect();
    if letters.is_empty() {
        return Err(GenerateError::Missing(field));
    }
    Ok(letters)
}

pub fn parse_date(text: Option<&str>, today: NaiveDate) -> Result<NaiveDate, GenerateError> {
    let text = text.map(str::trim).filter(|t| !t.is_empty());
    let text = text.ok_or(GenerateError::Missing("birth_date"))?;
    parse_birth_date(text, today)
        .filter(|d| *d <= today)
        .ok_or(GenerateError::BirthDate)
}

/// The 15 characters before the check character.
pub fn body(last: &str, first: &str, gender: char, date: NaiveDate, place_code: &str) -> String {
    let day = date.day() + if gender == 'F' { 40 } else { 0 };
    format!(
        "{}{}{:02}{}{:02}{}",
        last_name_part(last),
        first_name_part(first),
        date.year().rem_euclid(100),
        month_letter(date.month()) as char,
        day,
        place_code
    )
}

pub fn generate(
    register: &Register,
    p: &Person,
    today: NaiveDate,
) -> Result<Generated, GenerateError> {
    let last = name_letters(p.last_name, "last_name")?;
    let first = name_letters(p.first_name, "first_name")?;
    let gender_text = p.gender.map(str::trim).filter(|g| !g.is_empty());
    let gender = parse_gender(gender_text.ok_or(GenerateError::Missing("gender"))?)
        .ok_or(GenerateError::Missing("gender"))?;
    let date = parse_date(p.birth_date, today)?;
    let place = resolve(
        register,
        p.birth_place.unwrap_or(""),
        p.birth_place_iso3,
        date,
    )
    .map_err(|e| match e {
        PlaceError::Missing => GenerateError::Missing("birth_place"),
        PlaceError::Unresolved {
            not_in_force,
            italy,
        } => GenerateError::BirthPlace {
            not_in_force,
            italy,
        },
        PlaceError::Ambiguous(options) => GenerateError::AmbiguousPlace(options),
    })?;
    let mut code = body(&last, &first, gender, date, &place.cadastral_code);
    let check = check_char(code.as_bytes()).ok_or(GenerateError::BirthPlace {
        not_in_force: false,
        italy: false,
    })?;
    code.push(check as char);
    Ok(Generated {
        tax_code: code,
        birth_date: date,
        gender,
        place,
    })
}
