//! The place a foreign record names, read in its country's register: the localities of the city
//! written (exactly or by one clear typo) and of the postcode, and the streets of both.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use super::model::CountryRegister;
use crate::normalize::fold;

/// The localities a city name designates: exactly, or by one clear typo.
pub fn localities_by_city(reg: &CountryRegister, city: &str) -> Vec<u32> {
    let f = fold(city);
    if f.is_empty() {
        return Vec::new();
    }
    if let Some(v) = reg.locality_by_name.get(&f) {
        return v.clone();
    }
    // `Luxembourg-Ville`, `Bern 14`: a known name followed by words or a district number
    let first: String = f.split(' ').next().unwrap_or("").to_string();
    if first.len() >= 4 {
        if let Some(v) = reg.locality_by_name.get(&first) {
            return v.clone();
        }
    }
    let mut best: Vec<(f64, u32)> = Vec::new();
    for (name, ids) in &reg.locality_by_name {
        if name.len().abs_diff(f.len()) > 2 {
            continue;
        }
        let sim = strsim::normalized_damerau_levenshtein(name, &f);
        if sim >= 0.85 {
            best.extend(ids.iter().map(|&i| (sim, i)));
        }
    }
    best.sort_by(|a, b| b.0.total_cmp(&a.0));
    let Some(&(top, _)) = best.first() else {
        return Vec::new();
    };
    best.into_iter()
        .take_while(|(s, _)| *s >= top - 1e-9)
        .map(|(_, i)| i)
        .collect()
}

/// The place written: the localities of the city and of the postcode, and the streets of both.
pub(super) struct Place<'a> {
    pub(super) reg: &'a CountryRegister,
    localities: Vec<u32>,
    /// the postcode written, in the country's canonical form
    pub(super) postcode: String,
    /// the streets that carry the postcode
    pc_streets: &'a [u32],
    /// the localities of the city written: the city outweighs a postcode of another place
    pub(super) city: HashSet<u32>,
    /// neither the localities nor the postcode hold a street
    pub(super) empty: bool,
    /// the register holds every street of the place: a name it lacks is no street of it
    pub(super) complete_streets: bool,
    /// the streets of the place, listed only when a typo needs them scanned
    listed: OnceCell<Vec<u32>>,
}

impl<'a> Place<'a> {
    pub(super) fn new(reg: &'a CountryRegister, city: &str, postcode: String) -> Place<'a> {
        let by_city = localities_by_city(reg, city);
        let of_postcode = |index: &'a HashMap<String, Vec<u32>>| -> &'a [u32] {
            match postcode.is_empty() {
                true => &[],
                false => index.get(&postcode).map(Vec::as_slice).unwrap_or(&[]),
            }
        };
        let mut localities: Vec<u32> = by_city.clone();
        localities.extend(of_postcode(&reg.localities_by_postcode).iter().copied());
        localities.sort_unstable();
        localities.dedup();
        let pc_streets = of_postcode(&reg.streets_by_postcode);
        let empty = pc_streets.is_empty()
            && localities
                .iter()
                .all(|&l| reg.streets_by_locality[l as usize].is_empty());
        let complete_streets = reg.national
            || (!localities.is_empty()
                && localities
                    .iter()
                    .all(|&l| reg.localities[l as usize].complete_streets));
        Place {
            reg,
            localities,
            postcode,
            pc_streets,
            city: by_city.into_iter().collect(),
            empty,
            complete_streets,
            listed: OnceCell::new(),
        }
    }

    pub(super) fn contains(&self, street: u32) -> bool {
        let s = &self.reg.streets[street as usize];
        self.localities.contains(&s.locality)
            || (!self.postcode.is_empty() && s.postcodes.contains(&self.postcode))
    }

    /// Every street of the place.
    pub(super) fn streets(&self) -> &[u32] {
        self.listed.get_or_init(|| {
            let reg = self.reg;
            let mut v: Vec<u32> = self
                .localities
                .iter()
                .flat_map(|&l| reg.streets_by_locality[l as usize].iter().copied())
                .chain(self.pc_streets.iter().copied())
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
    }
}
