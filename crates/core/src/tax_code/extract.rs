//! Extraction: birth date (with the century chosen), age, gender and place of birth.

use chrono::NaiveDate;

use super::dates::age_on;
use super::place::{code_in_force, iso, place_of_code, BirthPlace};
use super::validate::{birth_years, Decoded};
use crate::register::Register;

/// Beyond this age the older century is not considered a living possibility.
pub const OLDEST_PLAUSIBLE_AGE: i32 = 110;

#[derive(Debug, Clone, PartialEq)]
pub struct Extraction {
    pub birth_date: NaiveDate,
    pub age: i32,
    pub gender: char,
    /// Both centuries are possible; `birth_date` holds the more recent one.
    pub ambiguous_year: bool,
    pub place: Option<BirthPlace>,
}

/// The birth date of a decoded code: the centuries in which the date exists and is not after
/// `today`, narrowed to those in which the place of birth existed; of two, the more recent, and
/// `ambiguous` unless the older one would make the person older than [`OLDEST_PLAUSIBLE_AGE`].
pub fn birth_date(
    register: &Register,
    person: &Decoded,
    today: NaiveDate,
) -> Option<(NaiveDate, bool)> {
    let mut dates: Vec<NaiveDate> = birth_years(person.year, person.month, person.day)
        .into_iter()
        .filter(|d| *d <= today)
        .collect();
    let existed: Vec<NaiveDate> = dates
        .iter()
        .copied()
        .filter(|d| code_in_force(register, &person.place_code, &iso(*d)))
        .collect();
    if !existed.is_empty() {
        dates = existed;
    }
    let recent = *dates.last()?;
    let ambiguous = dates.len() > 1 && age_on(dates[0], today) <= OLDEST_PLAUSIBLE_AGE;
    Some((recent, ambiguous))
}

pub fn extract(register: &Register, person: &Decoded, today: NaiveDate) -> Option<Extraction> {
    let (date, ambiguous_year) = birth_date(register, person, today)?;
    Some(Extraction {
        birth_date: date,
        age: age_on(date, today),
        gender: person.gender,
        ambiguous_year,
        place: place_of_code(register, &person.place_code, Some(date)),
    })
}
