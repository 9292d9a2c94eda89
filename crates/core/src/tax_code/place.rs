//! Places of birth: the cadastral code in a tax code read back as a municipality (named as it
//! was on the birth date) or a foreign country, and a typed place resolved to its code.

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::normalize::fold;
use crate::register::municipality::MunicipalityRecord;
use crate::register::{Country, Register};

/// A place of birth as the tax code sees it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BirthPlace {
    pub cadastral_code: String,
    /// Municipality name on the birth date (or latest known), or the country's Italian name.
    pub name: String,
    /// Province abbreviation on the birth date; None abroad.
    pub province: Option<String>,
    pub born_abroad: bool,
    /// ISO alpha-3 of a foreign country that still exists.
    pub iso3: Option<String>,
    /// The municipality or state no longer exists (suppressed, merged, dissolved).
    pub ceased: bool,
    /// Name today when the municipality has been renamed since the birth date.
    pub current_name: Option<String>,
    /// Whether the place existed on the birth date (None when the date is not known).
    pub in_force: Option<bool>,
    /// The typed place did not exist on the birth date: this is the municipality it was part of.
    pub part_of: bool,
    /// Province abbreviation today; None abroad and for a municipality that no longer exists.
    pub current_province: Option<String>,
    /// Full names of `province` and `current_province` where the register knows them (not for
    /// provinces suppressed before the ISTAT list: Carbonia-Iglesias, Pola...).
    pub province_name: Option<String>,
    pub current_province_name: Option<String>,
    /// What the place was on the birth date when it was not a municipality of its own then.
    pub standing: Option<Standing>,
    /// The day it became a municipality (again) after the birth date, for `NotYet` and `Absorbed`.
    pub since: Option<String>,
}

/// A place that was not a municipality of its own on the birth date, read from the periods of the
/// ANPR archive: the date falls before its first period, between two, or after the last.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Not yet created: its territory belonged to another municipality (Nuxis before 1958).
    NotYet,
    /// Merged into another municipality then, re-established later (Casagiove 1928-1946).
    Absorbed,
    /// Suppressed before the birth date.
    Ceased,
}

/// One candidate of an ambiguous place name.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PlaceOption {
    pub cadastral_code: String,
    pub name: String,
    pub province: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PlaceError {
    Missing,
    /// Nothing by that name or code; `not_in_force` when the name exists but not on the birth date.
    Unresolved {
        not_in_force: bool,
        italy: bool,
    },
    Ambiguous(Vec<PlaceOption>),
}

/// A date as the register's periods write it (YYYY-MM-DD); directly, not through a strftime pattern
/// parsed on every call.
pub(super) fn iso(date: NaiveDate) -> String {
    let year = date.year();
    if !(0..=9999).contains(&year) {
        return format!("{year:04}-{:02}-{:02}", date.month(), date.day());
    }
    // digit by digit: the formatting machinery cost more than the lookups these dates serve (issue 14)
    let digit = |n: u32| char::from(b'0' + (n % 10) as u8);
    let (y, m, d) = (year as u32, date.month(), date.day());
    let mut text = String::with_capacity(10);
    text.extend([digit(y / 1000), digit(y / 100), digit(y / 10), digit(y)]);
    text.extend(['-', digit(m / 10), digit(m), '-', digit(d / 10), digit(d)]);
    text
}

/// The place a cadastral code stands for, named as on `date`.
pub fn place_of_code(
    register: &Register,
    code: &str,
    date: Option<NaiveDate>,
) -> Option<BirthPlace> {
    let code = code.trim().to_uppercase();
    if code.starts_with('Z') {
        return register
            .countries
            .by_code(&code)
            .map(|c| country_place(c, date));
    }
    register
        .municipalities
        .by_cadastral(&code)
        .map(|r| municipality_place(register, r, date))
}

/// Whether a cadastral code names a municipality or a country (any time).
pub fn code_exists(register: &Register, code: &str) -> bool {
    if code.starts_with('Z') {
        register.countries.by_code(code).is_some()
    } else {
        register.municipalities.by_cadastral(code).is_some()
    }
}

/// Whether the place of a cadastral code existed on `iso_date`.
pub fn code_in_force(register: &Register, code: &str, iso_date: &str) -> bool {
    if code.starts_with('Z') {
        register
            .countries
            .by_code(code)
            .is_some_and(|c| country_in_force(c, iso_date))
    } else {
        register
            .municipalities
            .by_cadastral(code)
            .is_some_and(|r| r.period_on(iso_date).is_some())
    }
}

fn country_place(c: &Country, date: Option<NaiveDate>) -> BirthPlace {
    BirthPlace {
        cadastral_code: c.cadastral_code.clone(),
        name: c.name.clone(),
        province: None,
        born_abroad: true,
        iso3: c.iso3.clone(),
        ceased: !c.active,
        current_name: None,
        in_force: date.map(|d| country_in_force(c, &iso(d))),
        part_of: false,
        current_province: None,
        province_name: None,
        current_province_name: None,
        standing: None,
        since: None,
    }
}

fn country_in_force(c: &Country, iso_date: &str) -> bool {
    (c.valid_from.is_empty() || c.valid_from.as_str() <= iso_date)
        && (c.valid_to.is_empty() || iso_date < c.valid_to.as_str())
}

fn municipality_place(
    register: &Register,
    r: &MunicipalityRecord,
    date: Option<NaiveDate>,
) -> BirthPlace {
    let iso_date = date.map(iso);
    let (mut name, mut province) = r
        .name_on(iso_date.as_deref())
        .map(|(n, p)| (n.to_string(), p.to_string()))
        .unwrap_or_default();
    let in_force = iso_date.as_deref().map(|d| r.period_on(d).is_some());
    let mut standing = None;
    let mut since = None;
    if let (Some(day), Some(false)) = (iso_date.as_deref(), in_force) {
        let before = r
            .periods
            .iter()
            .filter(|p| p.valid_to.as_str() < day)
            .max_by(|a, b| a.valid_to.cmp(&b.valid_to));
        let after = r
            .periods
            .iter()
            .filter(|p| p.valid_from.as_str() > day)
            .min_by(|a, b| a.valid_from.cmp(&b.valid_from));
        standing = Some(match (before, after) {
            (None, Some(_)) => Standing::NotYet,
            (Some(_), Some(_)) => Standing::Absorbed,
            _ => Standing::Ceased,
        });
        since = after.map(|p| p.valid_from.clone());
        // Named as it was last before the date (or first after); its territory lay in the province
        // it was in on either side, when that province existed on the date.
        if let Some(p) = before.or(after) {
            name = p.name.clone();
        }
        province = [before, after]
            .into_iter()
            .flatten()
            .map(|p| p.province.clone())
            .find(|p| province_existed(register, p, day))
            .unwrap_or_default();
    }
    let current_name = r
        .current
        .as_ref()
        .filter(|c| c.name != name && fold(&c.name) != fold(&name))
        .map(|c| c.name.clone());
    let current_province = r
        .current
        .as_ref()
        .map(|c| c.province.clone())
        .filter(|p| !p.is_empty());
    let current_province_name = r
        .current
        .as_ref()
        .map(|c| c.province_name.clone())
        .filter(|p| !p.is_empty());
    let province_name = if current_province.as_deref() == Some(province.as_str()) {
        current_province_name.clone()
    } else {
        province_name_of(register, &province)
    };
    BirthPlace {
        cadastral_code: r.cadastral_code.clone(),
        name,
        province: Some(province).filter(|p| !p.is_empty()),
        born_abroad: false,
        iso3: None,
        ceased: r.current.is_none(),
        current_name,
        in_force,
        part_of: false,
        current_province,
        province_name,
        current_province_name,
        standing,
        since,
    }
}

/// Whether any municipality was in `province` on `iso_date`: a province suppressed then (Caserta
/// 1927-1945) or created later (Sud Sardegna 2016) did not hold the territory on that day.
fn province_existed(register: &Register, province: &str, iso_date: &str) -> bool {
    !province.is_empty()
        && register.municipalities.records.iter().any(|r| {
            r.periods
                .iter()
                .any(|p| p.province == province && p.covers(iso_date))
        })
}

/// The full name of a province by its abbreviation, from the municipalities in it today.
fn province_name_of(register: &Register, province: &str) -> Option<String> {
    if province.is_empty() {
        return None;
    }
    register
        .municipalities
        .records
        .iter()
        .filter_map(|r| r.current.as_ref())
        .find(|c| c.province == province && !c.province_name.is_empty())
        .map(|c| c.province_name.clone())
}

fn looks_like_cadastral(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 4 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Splits `Roma (RM)`, `Roma RM`, `Roma, RM`, `Roma - RM` into name and province; the whole
/// text comes first, because some names end in a two-letter word (Vo', Ne).
fn readings(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    if let (Some(open), true) = (text.rfind('('), text.trim_end().ends_with(')')) {
        let inside = fold(&text[open + 1..text.trim_end().len() - 1]);
        let name = fold(&text[..open]);
        if inside.len() == 2 && !name.is_empty() {
            out.push((name, Some(inside)));
            return out;
        }
    }
    let folded = fold(text);
    out.push((folded.clone(), None));
    if let Some((name, last)) = folded.rsplit_once(' ') {
        if last.len() == 2 && last.bytes().all(|b| b.is_ascii_alphabetic()) {
            out.push((name.to_string(), Some(last.to_string())));
        }
    }
    out
}

fn province_fits(r: &MunicipalityRecord, province: &str) -> bool {
    r.current.as_ref().is_some_and(|c| c.province == province)
        || r.periods.iter().any(|p| p.province == province)
}

fn option_of(register: &Register, r: &MunicipalityRecord, date: NaiveDate) -> PlaceOption {
    let p = municipality_place(register, r, Some(date));
    PlaceOption {
        cadastral_code: p.cadastral_code,
        name: p.name,
        province: p.province,
    }
}

/// Municipalities in force on `day`, in one of `provinces`, whose name holds `name` as a part: where a
/// place was born when it had been merged into another (Sangiano within Leggiuno-Sangiano, 1928-1963).
fn merged_into<'a>(
    register: &'a Register,
    name: &str,
    provinces: &[String],
    day: &str,
) -> Vec<&'a MunicipalityRecord> {
    let m = &register.municipalities;
    // Folded names are keys of the register's name index: no folding per record here.
    let holds = |key: &str| {
        key != name
            && key
                .split(' ')
                .collect::<Vec<_>>()
                .windows(name.split(' ').count())
                .any(|w| w.join(" ") == name)
    };
    let mut hits: Vec<&MunicipalityRecord> = m
        .name_keys()
        .filter(|(key, _)| key.contains(name) && holds(key))
        .flat_map(|(_, ids)| ids.iter().map(|&i| &m.records[i]))
        .filter(|r| {
            r.period_on(day)
                .is_some_and(|p| provinces.contains(&p.province) && holds(&fold(&p.name)))
        })
        .collect();
    hits.sort_by(|a, b| a.cadastral_code.cmp(&b.cadastral_code));
    hits.dedup_by(|a, b| a.cadastral_code == b.cadastral_code);
    hits
}

/// Resolves a typed place of birth (municipality with or without province, a cadastral code, a
/// foreign country in Italian or English, or `iso3` found by the caller in another language)
/// to the code in force on the birth date.
pub fn resolve(
    register: &Register,
    text: &str,
    iso3: Option<&str>,
    date: NaiveDate,
) -> Result<BirthPlace, PlaceError> {
    let text = text.trim();
    if text.is_empty() && iso3.is_none() {
        return Err(PlaceError::Missing);
    }
    let day = iso(date);
    let compact: String = fold(text).replace(' ', "");
    if looks_like_cadastral(&compact) {
        return place_of_code(register, &compact, Some(date)).ok_or(PlaceError::Unresolved {
            not_in_force: false,
            italy: false,
        });
    }
    let mut not_in_force = false;
    let mut absent: Vec<(String, Vec<String>)> = Vec::new();
    for (name, province) in readings(text) {
        let mut records = register.municipalities.by_name(&name);
        if let Some(p) = &province {
            records.retain(|r| province_fits(r, p));
        }
        if records.is_empty() {
            continue;
        }
        // The municipality that bore this name on the birth date...
        let mut named: Vec<&MunicipalityRecord> = records
            .iter()
            .copied()
            .filter(|r| {
                r.period_on(&day)
                    .is_some_and(|p| fold(&p.name) == name || fold(&p.alt_name) == name)
            })
            .collect();
        // ...else one that existed then under another name (renamed since, or before).
        if named.is_empty() {
            named = records
                .iter()
                .copied()
                .filter(|r| r.period_on(&day).is_some())
                .collect();
        }
        if let Some(p) = &province {
            let on_date: Vec<&MunicipalityRecord> = named
                .iter()
                .copied()
                .filter(|r| r.period_on(&day).is_some_and(|x| &x.province == p))
                .collect();
            if !on_date.is_empty() {
                named = on_date;
            }
        }
        match named.as_slice() {
            [] => {
                not_in_force = true;
                // Only a place that had existed before the birth date was merged into another
                // then; one created later (a recent merger) has several predecessors to choose from.
                let mut provinces: Vec<String> = records
                    .iter()
                    .flat_map(|r| r.periods.iter())
                    .filter(|p| p.valid_to.as_str() < day.as_str() && fold(&p.name) == name)
                    .map(|p| p.province.clone())
                    .filter(|p| province.as_ref().is_none_or(|want| want == p))
                    .collect();
                provinces.sort();
                provinces.dedup();
                absent.push((name.clone(), provinces));
            }
            [one] => return Ok(municipality_place(register, one, Some(date))),
            many => {
                let mut options: Vec<PlaceOption> =
                    many.iter().map(|r| option_of(register, r, date)).collect();
                options.sort_by(|a, b| (&a.name, &a.province).cmp(&(&b.name, &b.province)));
                return Err(PlaceError::Ambiguous(options));
            }
        }
    }
    for (name, provinces) in absent.iter().filter(|(_, p)| !p.is_empty()) {
        match merged_into(register, name, provinces, &day).as_slice() {
            [] => {}
            [one] => {
                let mut place = municipality_place(register, one, Some(date));
                place.part_of = true;
                return Ok(place);
            }
            many => {
                return Err(PlaceError::Ambiguous(
                    many.iter().map(|r| option_of(register, r, date)).collect(),
                ))
            }
        }
    }
    if not_in_force {
        return Err(PlaceError::Unresolved {
            not_in_force: true,
            italy: false,
        });
    }
    let mut countries = register.countries.by_name(text);
    if countries.is_empty() {
        if let Some(code) = iso3 {
            countries.extend(register.countries.by_iso3(code));
        }
    }
    let in_force: Vec<&Country> = countries
        .iter()
        .copied()
        .filter(|c| country_in_force(c, &day))
        .collect();
    match (in_force.first(), countries.is_empty()) {
        (Some(c), _) => Ok(country_place(c, Some(date))),
        (None, false) => Err(PlaceError::Unresolved {
            not_in_force: true,
            italy: false,
        }),
        (None, true) => Err(PlaceError::Unresolved {
            not_in_force: false,
            italy: iso3.is_some_and(|c| c.eq_ignore_ascii_case("ITA"))
                || matches!(fold(text).as_str(), "ITALIA" | "ITALY"),
        }),
    }
}
