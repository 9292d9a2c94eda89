//! Autocomplete for the register countries: the streets whose names start with (or, for a typo,
//! come close to) what was typed, in the place given by city or postcode (found by the address
//! engine's `street_choice::gather::typed_prefix`, written here as hints), then the house numbers
//! of the street chosen. Street ids are `<country>:<index>` of the register in service, valid
//! while the process keeps it.

use serde::{Deserialize, Serialize};

use super::model::CountryRegister;
use super::place::localities_by_city;
use crate::address::street_choice::gather::typed_prefix;
use crate::normalize::fold;

#[derive(Debug, Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignStreetQuery"))]
pub struct StreetQuery {
    pub country: String,
    pub query: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub postcode: String,
    #[serde(default)]
    pub limit: Option<usize>,
}

#[derive(Debug, Serialize, Clone, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignStreetHint"))]
pub struct StreetHint {
    /// `<country>:<street index>`
    pub id: String,
    pub name: String,
    pub municipality: String,
    /// the locality (or district) of the street
    pub area: Option<String>,
    pub postcodes: Vec<String>,
    /// `registry` for national registers, `osm` where the register does not publish
    #[cfg_attr(feature = "ts", ts(type = "\"registry\" | \"osm\""))]
    pub source: &'static str,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignStreetAnswer"))]
pub struct StreetAnswer {
    /// false when the country has no register with streets in service
    pub supported: bool,
    pub hints: Vec<StreetHint>,
    pub attribution: Option<&'static str>,
}

fn hint(reg: &CountryRegister, id: u32) -> StreetHint {
    let s = &reg.streets[id as usize];
    let l = &reg.localities[s.locality as usize];
    StreetHint {
        id: format!("{}:{id}", reg.info.country),
        name: s.name.clone(),
        municipality: l.municipality.clone(),
        area: s.district.clone().or_else(|| Some(l.name.clone())),
        postcodes: s.postcodes.clone(),
        source: if reg.info.source == "osm" {
            "osm"
        } else {
            "registry"
        },
    }
}

/// The hints for what was typed in the place given: the streets the address engine's typed-prefix
/// search finds (`street_choice::gather::typed_prefix`), each in the form of a suggest answer.
pub fn street_hints(reg: &CountryRegister, q: &StreetQuery) -> Vec<StreetHint> {
    let limit = q.limit.unwrap_or(10).clamp(1, 50);
    if fold(&q.query).is_empty() {
        return Vec::new();
    }
    let localities = localities_by_city(reg, &q.city);
    let postcode = crate::postal::postcode::key(reg.info.country, &q.postcode);
    let in_place = |id: u32| {
        let s = &reg.streets[id as usize];
        (localities.is_empty() && postcode.is_empty())
            || localities.contains(&s.locality)
            || (!postcode.is_empty() && s.postcodes.contains(&postcode))
    };
    typed_prefix(reg, &q.query, &in_place, limit)
        .into_iter()
        .map(|id| hint(reg, id))
        .collect()
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignNumbersQuery"))]
pub struct NumbersQuery {
    pub street_id: String,
    #[serde(default)]
    pub typed: String,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignNumbersAnswer"))]
pub struct NumbersAnswer {
    pub supported: bool,
    /// the street as the register writes it; None for an id the register does not hold
    pub street: Option<StreetHint>,
    /// labels (`12`, `12a`) in order, those starting with what was typed
    pub numbers: Vec<String>,
    /// the typed number is one of the street's
    pub exists: bool,
    /// the register holds every number of the street's locality
    pub complete: bool,
}

pub fn house_numbers(reg: &CountryRegister, index: u32, typed: &str) -> NumbersAnswer {
    let Some(s) = reg.streets.get(index as usize) else {
        return NumbersAnswer {
            supported: true,
            street: None,
            numbers: Vec::new(),
            exists: false,
            complete: false,
        };
    };
    let mut numbers: Vec<&super::model::HouseNumber> = s.numbers.iter().collect();
    numbers.sort_by(|a, b| a.number.cmp(&b.number).then(a.suffix.cmp(&b.suffix)));
    let typed = typed.trim().to_lowercase().replace(' ', "");
    let labels: Vec<String> = numbers
        .iter()
        .map(|h| h.label())
        .filter(|l| l.to_lowercase().starts_with(&typed))
        .collect();
    let exists = !typed.is_empty() && labels.iter().any(|l| l.to_lowercase() == typed);
    NumbersAnswer {
        supported: true,
        street: Some(hint(reg, index)),
        numbers: labels,
        exists,
        complete: reg.localities[s.locality as usize].complete_numbers,
    }
}

/// The streets answer of a country: `supported: false` where no register with streets serves it.
pub fn streets(q: &StreetQuery) -> StreetAnswer {
    let cc = q.country.trim().to_uppercase();
    let world = super::current();
    let Some(reg) = world
        .as_ref()
        .and_then(|w| w.registers.get(cc.as_str()))
        .filter(|r| !r.streets.is_empty())
    else {
        return StreetAnswer {
            supported: false,
            hints: Vec::new(),
            attribution: None,
        };
    };
    StreetAnswer {
        supported: true,
        hints: street_hints(reg, q),
        attribution: Some(reg.info.attribution),
    }
}

/// The numbers answer for a street id `<country>:<index>`.
pub fn numbers(q: &NumbersQuery) -> NumbersAnswer {
    let unsupported = NumbersAnswer {
        supported: false,
        street: None,
        numbers: Vec::new(),
        exists: false,
        complete: false,
    };
    let Some((cc, index)) = q.street_id.split_once(':') else {
        return unsupported;
    };
    let Ok(index) = index.parse::<u32>() else {
        return unsupported;
    };
    let world = super::current();
    match world
        .as_ref()
        .and_then(|w| w.registers.get(cc.to_uppercase().as_str()))
    {
        Some(reg) => house_numbers(reg, index, &q.typed),
        None => unsupported,
    }
}
