//! Streets and house numbers of every municipality: stored per municipality in LMDB (one record
//! of streets with their house numbers, and one fst of their names), loaded into an in-memory
//! index the first time a municipality is asked for, and shared by every thread afterwards.
//!
//! The fst maps the loose key of every street name (`rules::key::loose_key`) to a slot of
//! street ids, so prefix search (autocomplete) and Levenshtein search (typos) are automaton
//! walks over a few kilobytes, without touching the street records.

mod area;
mod city;
mod forms;
mod index;
mod queries;
#[cfg(test)]
mod tests;
mod typo;

use serde::{Deserialize, Serialize};

pub use area::{StreetArea, StreetFacts};
pub use city::{build_fst, CityStreets, StreetFst};
pub use forms::{italian_name_key, italian_text_key, NameKey};
pub use index::StreetIndex;
pub use queries::{
    house_numbers, sample, sample_streets, street_house_numbers, SampleQuery, SampledAddress,
    StreetRef,
};
pub use typo::{edit_distance, DeletionIndex, Probes};

use crate::rules::key::{full_key, loose_key, sorted_key};

/// One house number (accesso) with its point, and its postcode / district where the source has them.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HouseNumberEntry {
    #[serde(rename = "n")]
    pub number: u32,
    /// Upper case: `A`, `BIS`, `1` (of `12/1`). Empty when none.
    #[serde(rename = "s", default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub suffix: String,
    #[serde(rename = "p", default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub postcode: String,
    #[serde(rename = "d", default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub district: String,
    #[serde(rename = "y")]
    pub lat: f64,
    #[serde(rename = "x")]
    pub lon: f64,
}

impl HouseNumberEntry {
    pub fn display(&self) -> String {
        if self.suffix.is_empty() {
            self.number.to_string()
        } else {
            format!("{}/{}", self.number, self.suffix)
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Street {
    /// ANNCSU national street id (progressivo nazionale); 0 for a street only a municipal source has.
    pub id: u64,
    /// Street type as the register writes it, folded: `VIA`, `LOCALITA`, `STRADA PROVINCIALE`.
    pub street_type: String,
    /// Street name as the register writes it (upper case, accents as apostrophes in ANNCSU).
    pub name: String,
    /// Names in a second or third official language, and other spellings of the municipal sources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alt_names: Vec<String>,
    /// Locality (frazione) the street belongs to, where the source says.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub locality: String,
    /// Postcodes of the street with the count of house numbers each (street-level CAP tables too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub postcodes: Vec<(String, u32)>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub district: String,
    /// A point of the street: the centre of its house numbers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lon: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<HouseNumberEntry>,
}

impl Street {
    /// The house number `number` with that suffix (numbers are kept in order).
    pub fn find_number(&self, number: u32, suffix: &str) -> Option<&HouseNumberEntry> {
        let from = self.numbers.partition_point(|n| n.number < number);
        self.numbers[from..]
            .iter()
            .take_while(|n| n.number == number)
            .find(|n| n.suffix == suffix)
    }
}

/// What is stored per municipality.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CityStreetsRecord {
    /// True when a source lists every house number of the municipality: only then can a number
    /// be declared not found.
    pub complete_numbers: bool,
    /// Where the house numbers come from (`anncsu`, `municipal`), for geo.source.
    #[serde(default)]
    pub numbers_source: String,
    pub streets: Vec<Street>,
    /// For each value of the stored fst, the streets under its key (written with the fst, so the
    /// two always agree).
    #[serde(default)]
    pub fst_slots: Vec<Vec<u32>>,
}

/// Another name of a street without the type it may carry (`VIA GARIBALDI`, the spelling of a
/// municipal list merged into the ANNCSU street); second-language names carry none.
pub fn alt_name_part(alt: &str) -> String {
    let (ty, name) = crate::rules::it::street_type::split(alt);
    if ty.is_empty() {
        alt.to_string()
    } else {
        name
    }
}

/// The keys every street is found under, computed the same way at import and at query time.
pub fn street_keys(street: &Street) -> Vec<(KeyKind, String)> {
    let mut keys = vec![
        (
            KeyKind::Full,
            full_key(&format!("{} {}", street.street_type, street.name)),
        ),
        (KeyKind::Loose, loose_key(&street.name)),
        (KeyKind::Sorted, sorted_key(&street.name)),
    ];
    for alt in &street.alt_names {
        keys.push((KeyKind::Full, full_key(alt)));
        keys.push((KeyKind::Loose, loose_key(&alt_name_part(alt))));
        keys.push((KeyKind::Sorted, sorted_key(&alt_name_part(alt))));
    }
    keys.retain(|(_, k)| !k.is_empty());
    keys
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyKind {
    Full,
    Loose,
    Sorted,
}
