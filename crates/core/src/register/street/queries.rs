//! What the service reads straight from the street data: a street's house numbers (autocomplete,
//! after the street), and real addresses sampled for evaluations.

use serde::{Deserialize, Serialize};

use super::{HouseNumberEntry, KeyKind, StreetIndex};
use crate::register::Register;
use crate::rules::key::{address_key, full_key};

/// The house numbers of a street, in order: what autocomplete offers after the street.
pub fn house_numbers(
    index: &StreetIndex,
    cadastral: &str,
    street_index: u32,
) -> Vec<HouseNumberEntry> {
    let Some(city) = index.city(cadastral) else {
        return Vec::new();
    };
    let Some(street) = city.streets().get(street_index as usize) else {
        return Vec::new();
    };
    let mut numbers = street.numbers.clone();
    numbers.sort_by(|a, b| (a.number, &a.suffix).cmp(&(b.number, &b.suffix)));
    numbers
}

/// A real address drawn from the register, for evaluations: the street as registered, a house
/// number of it when the register has them, and the key a correct answer carries.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SampledAddress {
    pub cadastral_code: String,
    pub city: String,
    pub province: String,
    pub province_name: String,
    pub postcode: String,
    pub street_type: String,
    pub name: String,
    pub number: Option<String>,
    pub street_id: u64,
    pub address_key: String,
    pub complete_numbers: bool,
    /// The municipality's ISTAT code and the house number's point (for accuracy measures).
    pub istat_code: String,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
}

/// `count` addresses drawn deterministically from `seed`: from `cadastral_codes` when given, else
/// from every municipality. Streets whose name is not unique in their municipality are skipped
/// (their right answer is an ambiguity, not a street).
pub fn sample(
    register: &Register,
    cadastral_codes: &[String],
    count: usize,
    seed: u64,
) -> Vec<SampledAddress> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let codes: Vec<&str> = if cadastral_codes.is_empty() {
        register
            .municipalities
            .records
            .iter()
            .filter(|r| r.current.is_some())
            .map(|r| r.cadastral_code.as_str())
            .collect()
    } else {
        cadastral_codes.iter().map(String::as_str).collect()
    };
    let mut out = Vec::with_capacity(count);
    let mut attempts = 0;
    while out.len() < count && attempts < count * 20 && !codes.is_empty() {
        attempts += 1;
        let code = codes[next() % codes.len()];
        let (Some(city), Some(m)) = (
            register.streets.city(code),
            register
                .municipalities
                .by_cadastral(code)
                .and_then(|r| r.current.as_ref()),
        ) else {
            continue;
        };
        if city.streets().is_empty() {
            continue;
        }
        let i = (next() % city.streets().len()) as u32;
        let s = city.street(i);
        let key = full_key(&format!("{} {}", s.street_type, s.name));
        if s.street_type.is_empty() || city.by_key(KeyKind::Full, &key).len() != 1 {
            continue;
        }
        let n = (!s.numbers.is_empty()).then(|| &s.numbers[next() % s.numbers.len()]);
        let number = n.map(HouseNumberEntry::display);
        let postcode = match n {
            Some(n) if !n.postcode.is_empty() => n.postcode.clone(),
            _ if m.postcodes.len() == 1 => m.postcodes[0].clone(),
            _ => String::new(),
        };
        out.push(SampledAddress {
            cadastral_code: code.to_string(),
            city: m.name.clone(),
            province: m.province.clone(),
            province_name: m.province_name.clone(),
            postcode,
            street_type: s.street_type.clone(),
            name: s.name.clone(),
            address_key: address_key(&s.street_type, &s.name, number.as_deref().unwrap_or("")),
            number,
            street_id: s.id,
            complete_numbers: city.record.complete_numbers,
            istat_code: m.istat_code.clone(),
            lat: n.map(|n| n.lat),
            lon: n.map(|n| n.lon),
        });
    }
    out
}

/// One street of a municipality, as a `StreetHit` names it.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StreetRef {
    pub cadastral_code: String,
    pub index: u32,
}

pub fn street_house_numbers(register: &Register, r: &StreetRef) -> Vec<HouseNumberEntry> {
    house_numbers(&register.streets, &r.cadastral_code.to_uppercase(), r.index)
}

/// Addresses drawn for evaluations: `count` (at most 100,000) from `seed`.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct SampleQuery {
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<Vec<String>>", optional))]
    pub cadastral_codes: Vec<String>,
    pub count: usize,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<u64>", optional))]
    pub seed: u64,
}

pub fn sample_streets(register: &Register, q: &SampleQuery) -> Vec<SampledAddress> {
    sample(register, &q.cadastral_codes, q.count.min(100_000), q.seed)
}
