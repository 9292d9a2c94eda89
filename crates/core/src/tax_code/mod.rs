//! The Italian tax code (codice fiscale) of natural persons: generate, validate, extract, compare.
//!
//! The one implementation the whole service uses. Other modules call these plain functions:
//!
//! - [`validate()`]`(register, code) -> Validation`: cleans spaces, separators and case, completes a
//!   15-character code with its check character, decodes homocodes (`homocode`, `decoded`), runs
//!   every check (`outcome` holds `TAX_CODE_INVALID` and the `TAX_CODE_*` checks, `error` the short
//!   form of the first: empty, length, format, homocode, month, date, place, check_digit) and
//!   rebuilds the correct code in `suggestion` when it can. `valid` and `person` (the decoded
//!   fields) are what callers usually need.
//! - [`extract()`]`(register, &person, today) -> Option<Extraction>`: birth date with the century
//!   chosen (`ambiguous_year`), age, gender and [`BirthPlace`] named as on the birth date.
//! - [`generate()`]`(register, &Person, today) -> Result<Generated, GenerateError>`; the error names
//!   the missing or unresolved datum ([`GenerateError::datum`]).
//! - [`compare()`]`(register, code, &Person, today) -> Comparison` with `differences`;
//!   [`consistent_with()`]`(register, code, last_name, first_name, gender, birth_date) -> bool`
//!   (each datum `Option<&str>`, None = not given) for contact verification and deduplication.
//! - [`parse_gender`], [`parse_birth_date`] for the forms people type.
//!
//! [`batch()`] serves the `tax_code.batch` operation: `{action, items, today?}` in, one
//! [`ItemResult`] per item out (English keys and codes; texts are chosen in TypeScript).

pub mod code;
pub mod compare;
pub mod dates;
pub mod extract;
pub mod generate;
pub mod place;
pub mod validate;

#[cfg(test)]
mod tests;

use chrono::NaiveDate;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use compare::{compare, consistent_with, Comparison};
pub use dates::parse_birth_date;
pub use extract::{extract, Extraction};
pub use generate::{generate, parse_gender, GenerateError, Generated, Person};
pub use place::{BirthPlace, PlaceOption, Standing};
pub use validate::{validate, Decoded, Validation};

use crate::register::Register;

/// English values only: `genera`, `valida`, `estrai`, `confronta` are mapped in TypeScript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Action {
    Generate,
    Validate,
    Extract,
    Compare,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct BatchItem {
    pub action: Option<Action>,
    pub id: Option<serde_json::Value>,
    pub tax_code: Option<String>,
    pub last_name: Option<String>,
    pub first_name: Option<String>,
    pub gender: Option<String>,
    pub birth_date: Option<String>,
    pub birth_place: Option<String>,
    /// A foreign country the caller recognised in a language the register does not hold.
    pub birth_place_iso3: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct BatchInput {
    /// The action of items that name none.
    #[serde(default)]
    pub action: Option<Action>,
    pub items: Vec<BatchItem>,
    /// ISO date standing for today (ages, future dates, centuries); the real date when absent.
    #[serde(default)]
    pub today: Option<String>,
}

/// One item's answer: English keys, outcome codes and note codes (texts are chosen in TypeScript).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ItemResult {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub id: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tax_code: Option<String>,
    pub outcome: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub suggestion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub homocode: Option<bool>,
    /// The homocode with its letters turned back into digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub decoded: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub birth_date: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub age: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub gender: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ambiguous_year: Option<bool>,
    /// Municipality (as named on the birth date) or foreign country of birth.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub place: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub province: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub cadastral_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub born_abroad: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub birth_country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub iso3: Option<String>,
    /// Today's name of a municipality renamed since the birth date.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub current_name: Option<String>,
    /// Province of the municipality today, when it differs from `province` (the one of the birth date).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub current_province: Option<String>,
    /// Full province names for the comment texts (`province`, and today's).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub province_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub current_province_name: Option<String>,
    /// The day the place became a municipality (again) after the birth date.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub since: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub differences: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub options: Option<Vec<PlaceOption>>,
    /// Comment codes on the place of birth, then and today: place_not_yet (not yet a municipality on the
    /// birth date), place_absorbed (part of another municipality then), place_ceased_before (suppressed
    /// before the birth date), place_today (named or placed otherwise today).
    pub comments: Vec<&'static str>,
    /// Note codes: homocode, place_ceased, place_renamed, place_not_in_force, place_part_of, italy_needs_municipality,
    /// transliteration, ambiguous_year, unreadable_gender, unreadable_birth_date, unreadable_birth_place.
    pub notes: Vec<&'static str>,
}

pub fn today_or(text: Option<&str>) -> NaiveDate {
    text.and_then(|t| NaiveDate::parse_from_str(t.trim(), "%Y-%m-%d").ok())
        .unwrap_or_else(|| chrono::Utc::now().date_naive())
}

/// Serves `tax_code.batch`: every item in parallel, answers in request order.
pub fn batch(register: &Register, input: &BatchInput) -> Vec<ItemResult> {
    let today = today_or(input.today.as_deref());
    input
        .items
        .par_iter()
        .map(|item| answer(register, input, item, today))
        .collect()
}

/// One item of `input`: its own action or the batch's, answered with its id.
pub fn answer(
    register: &Register,
    input: &BatchInput,
    item: &BatchItem,
    today: NaiveDate,
) -> ItemResult {
    let mut r = match item.action.or(input.action) {
        Some(a) => process(register, a, item, today),
        None => ItemResult {
            error: Some("action"),
            ..Default::default()
        },
    };
    r.id = item.id.clone();
    r
}

pub fn process(
    register: &Register,
    action: Action,
    item: &BatchItem,
    today: NaiveDate,
) -> ItemResult {
    let person = Person {
        last_name: item.last_name.as_deref(),
        first_name: item.first_name.as_deref(),
        gender: item.gender.as_deref(),
        birth_date: item.birth_date.as_deref(),
        birth_place: item.birth_place.as_deref(),
        birth_place_iso3: item
            .birth_place_iso3
            .as_deref()
            .filter(|s| !s.trim().is_empty()),
    };
    let code = item.tax_code.as_deref().unwrap_or("");
    match action {
        Action::Generate => generated(register, &person, today),
        Action::Validate => validated(register, &validate(register, code), today, false),
        Action::Extract => validated(register, &validate(register, code), today, true),
        Action::Compare => compared(&compare(register, code, &person, today)),
    }
}

/// The place's fields moved into the answer (not copied: every validation answers one).
fn put_place(r: &mut ItemResult, p: BirthPlace) {
    r.born_abroad = Some(p.born_abroad);
    if p.born_abroad {
        r.birth_country = Some(p.name.clone());
        r.iso3 = p.iso3;
    }
    r.place = Some(p.name);
    r.province = p.province;
    r.cadastral_code = Some(p.cadastral_code);
    if p.ceased {
        r.notes.push("place_ceased");
    }
    if p.current_name.is_some() && !p.ceased {
        r.current_name = p.current_name.clone();
        r.notes.push("place_renamed");
    }
    // the comment on the place's history says what "not in force" meant
    if p.in_force == Some(false) && p.standing.is_none() {
        r.notes.push("place_not_in_force");
    }
    if p.part_of {
        r.notes.push("place_part_of");
    }
    r.province_name = p.province_name;
    r.since = p.since;
    match p.standing {
        Some(Standing::NotYet) => r.comments.push("place_not_yet"),
        Some(Standing::Absorbed) => r.comments.push("place_absorbed"),
        Some(Standing::Ceased) => r.comments.push("place_ceased_before"),
        None => {}
    }
    if p.current_province.is_some()
        && (p.current_province != r.province || p.current_name.is_some() || p.standing.is_some())
    {
        r.current_name = p.current_name;
        r.current_province = p.current_province;
        r.current_province_name = p.current_province_name;
        r.comments.push("place_today");
    }
}

fn validation_fields(v: &Validation) -> ItemResult {
    let mut r = ItemResult {
        ok: v.valid,
        tax_code: Some(v.tax_code.clone()).filter(|c| !c.is_empty()),
        outcome: v.outcome.clone(),
        error: v.error,
        suggestion: v.suggestion.clone(),
        ..Default::default()
    };
    if v.valid {
        r.homocode = Some(v.homocode);
        r.decoded = v.decoded.clone();
        if v.homocode {
            r.notes.push("homocode");
        }
    }
    r
}

fn validated(register: &Register, v: &Validation, today: NaiveDate, full: bool) -> ItemResult {
    let mut r = validation_fields(v);
    let Some(person) = &v.person else {
        return r;
    };
    let Some(e) = extract(register, person, today) else {
        return r;
    };
    let Extraction {
        birth_date,
        age,
        gender,
        ambiguous_year,
        place,
    } = e;
    if let Some(p) = place {
        put_place(&mut r, p);
    }
    if full {
        r.birth_date = Some(birth_date.to_string());
        r.age = Some(age);
        r.gender = Some(gender.to_string());
        r.ambiguous_year = Some(ambiguous_year);
        if ambiguous_year {
            r.notes.push("ambiguous_year");
        }
    }
    r
}

fn generated(register: &Register, person: &Person, today: NaiveDate) -> ItemResult {
    match generate(register, person, today) {
        Ok(g) => {
            let mut r = ItemResult {
                ok: true,
                tax_code: Some(g.tax_code),
                outcome: vec!["GENERATED"],
                birth_date: Some(g.birth_date.to_string()),
                gender: Some(g.gender.to_string()),
                ..Default::default()
            };
            put_place(&mut r, g.place);
            r
        }
        Err(e) => {
            let mut r = ItemResult {
                outcome: vec!["INCOMPLETE_DATA"],
                error: Some(e.datum()),
                ..Default::default()
            };
            match e {
                GenerateError::AmbiguousPlace(options) => r.options = Some(options),
                GenerateError::BirthPlace {
                    not_in_force,
                    italy,
                } => {
                    if not_in_force {
                        r.notes.push("place_not_in_force");
                    }
                    if italy {
                        r.notes.push("italy_needs_municipality");
                    }
                }
                _ => {}
            }
            r
        }
    }
}

fn compared(c: &Comparison) -> ItemResult {
    let mut r = validation_fields(&c.validation);
    for field in &c.unreadable {
        r.notes.push(match *field {
            "gender" => "unreadable_gender",
            "birth_date" => "unreadable_birth_date",
            _ => "unreadable_birth_place",
        });
    }
    if !c.validation.valid {
        r.ok = false;
        return r;
    }
    if c.compared.is_empty() {
        // the contract's code for too little information, as a failed generate; `error` says what is missing
        r.ok = false;
        r.outcome = vec!["INCOMPLETE_DATA"];
        r.error = Some("personal_data");
        return r;
    }
    let mut outcome = vec![if c.differences.is_empty() {
        "MATCH"
    } else {
        "MISMATCH"
    }];
    outcome.extend(c.validation.outcome.iter().copied());
    r.outcome = outcome;
    r.differences = Some(c.differences.clone());
    if c.transliteration {
        r.notes.push("transliteration");
    }
    r
}
