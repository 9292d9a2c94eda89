//! The country-neutral register: localities (with their municipality and postcodes), streets
//! with alternative and multilingual names, house numbers with suffixes, postcodes and points,
//! and per locality whether the register holds every street and every number of it.
//! Every importer fills one `CountryRegister` through the same builder calls.

use std::collections::HashMap;

use serde::Serialize;

use super::grams::GramIndex;
use super::text::{Expander, NameKey};
use crate::normalize::fold;
use crate::register::street::StreetFacts;

/// What a register says about itself: the catalogue reads this.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ForeignRegister"))]
pub struct RegisterInfo {
    /// ISO 3166-1 alpha-2
    pub country: &'static str,
    /// The register's own name (`CACLR`, `GWR`, `BAG`…)
    pub register: &'static str,
    /// Date of the data as published
    pub date: String,
    /// What a record of the country is verified against: house_number, street, postcode
    pub verification: Vec<&'static str>,
    /// Where the register covers streets and numbers: `national`, or the areas imported
    pub coverage: String,
    /// geo.source: inspire (national register) or osm
    pub source: &'static str,
    /// geo.dataset and postcode_check.source
    pub dataset: &'static str,
    pub attribution: &'static str,
    pub municipality_code_type: &'static str,
    pub localities: usize,
    pub streets: usize,
    pub house_numbers: usize,
    pub points: usize,
}

/// A register's source listing every postcode of its country: a postcode it lacks is not the
/// country's; `paired` when each locality carries every postcode it has (a locality named so
/// without the postcode is another place).
#[derive(Debug, Clone, Default)]
pub struct PostcodeList {
    pub all: std::collections::HashSet<String>,
    pub paired: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Locality {
    pub name: String,
    /// other names (other languages, old names, aliases)
    pub alt_names: Vec<String>,
    pub municipality: String,
    pub municipality_code: String,
    pub district: Option<String>,
    pub postcodes: Vec<String>,
    pub point: Option<(f64, f64)>,
    /// the register holds every street of this locality
    pub complete_streets: bool,
    /// the register holds every house number of this locality
    pub complete_numbers: bool,
}

#[derive(Debug, Clone)]
pub struct HouseNumber {
    pub number: u32,
    /// as the register writes it (`A`, `a`, `bis`); compared in lower case
    pub suffix: String,
    pub postcode: Option<String>,
    pub point: Option<(f64, f64)>,
}

impl HouseNumber {
    pub fn label(&self) -> String {
        format!("{}{}", self.number, self.suffix)
    }
}

#[derive(Debug, Clone)]
pub struct Street {
    pub name: String,
    pub alt_names: Vec<String>,
    pub locality: u32,
    pub district: Option<String>,
    /// where the street's municipality is known apart from its locality (DK postal districts)
    pub municipality_code: Option<String>,
    pub postcodes: Vec<String>,
    pub numbers: Vec<HouseNumber>,
    /// comparison forms of `name` and of each alternative name
    pub keys: Vec<NameKey>,
}

impl Street {
    pub fn find_number(&self, number: u32, suffix: &str) -> Option<&HouseNumber> {
        self.numbers
            .iter()
            .find(|h| h.number == number && h.suffix.eq_ignore_ascii_case(suffix))
    }

    /// Mean of the street's points: a street-level position.
    pub fn centre(&self) -> Option<(f64, f64)> {
        let pts: Vec<(f64, f64)> = self.numbers.iter().filter_map(|h| h.point).collect();
        if pts.is_empty() {
            return None;
        }
        let n = pts.len() as f64;
        Some((
            pts.iter().map(|p| p.0).sum::<f64>() / n,
            pts.iter().map(|p| p.1).sum::<f64>() / n,
        ))
    }
}

pub struct CountryRegister {
    pub info: RegisterInfo,
    /// the country writes the number before the street (`14, rue de Bonnevoie`)
    pub number_first: bool,
    /// the street and number tables cover the whole country
    pub national: bool,
    /// every postcode of the country, when the register's source lists them all
    /// (`crate::postal::registers::postcode_listed`)
    pub all_postcodes: Option<PostcodeList>,
    pub expander: Expander,
    pub localities: Vec<Locality>,
    pub streets: Vec<Street>,
    locality_ids: HashMap<(String, String), u32>,
    street_ids: HashMap<(u32, String), u32>,
    // indexes, built by `finish`
    pub locality_by_name: HashMap<String, Vec<u32>>,
    pub localities_by_postcode: HashMap<String, Vec<u32>>,
    pub streets_by_locality: Vec<Vec<u32>>,
    pub streets_by_postcode: HashMap<String, Vec<u32>>,
    pub streets_by_token: HashMap<String, Vec<u32>>,
    /// every comparison form (key, core, sorted, compact) → streets
    pub streets_by_exact_form: HashMap<String, Vec<u32>>,
    /// bigrams of every name: the streets a typo can stand for
    pub grams: GramIndex,
}

impl CountryRegister {
    pub fn new(info: RegisterInfo, expander: Expander, number_first: bool, national: bool) -> Self {
        CountryRegister {
            info,
            number_first,
            national,
            all_postcodes: None,
            expander,
            localities: Vec::new(),
            streets: Vec::new(),
            locality_ids: HashMap::new(),
            street_ids: HashMap::new(),
            locality_by_name: HashMap::new(),
            localities_by_postcode: HashMap::new(),
            streets_by_locality: Vec::new(),
            streets_by_postcode: HashMap::new(),
            streets_by_token: HashMap::new(),
            streets_by_exact_form: HashMap::new(),
            grams: GramIndex::default(),
        }
    }

    /// The locality of that name in that municipality, added the first time.
    pub fn locality(&mut self, l: Locality) -> u32 {
        let k = (fold(&l.name), l.municipality_code.clone());
        if let Some(&id) = self.locality_ids.get(&k) {
            let have = &mut self.localities[id as usize];
            for p in l.postcodes {
                if !have.postcodes.contains(&p) {
                    have.postcodes.push(p);
                }
            }
            return id;
        }
        let id = self.localities.len() as u32;
        self.localities.push(l);
        self.locality_ids.insert(k, id);
        id
    }

    pub fn locality_mut(&mut self, id: u32) -> &mut Locality {
        &mut self.localities[id as usize]
    }

    /// The street of that name in that locality, added the first time.
    pub fn street(&mut self, locality: u32, name: &str) -> u32 {
        let name = name.trim();
        let k = (locality, fold(name));
        if let Some(&id) = self.street_ids.get(&k) {
            return id;
        }
        let id = self.streets.len() as u32;
        self.streets.push(Street {
            name: name.to_string(),
            alt_names: Vec::new(),
            locality,
            district: None,
            municipality_code: None,
            postcodes: Vec::new(),
            numbers: Vec::new(),
            keys: Vec::new(),
        });
        self.street_ids.insert(k, id);
        id
    }

    pub fn street_mut(&mut self, id: u32) -> &mut Street {
        &mut self.streets[id as usize]
    }

    pub fn alt_name(&mut self, street: u32, name: &str) {
        let s = &mut self.streets[street as usize];
        let name = name.trim();
        if !name.is_empty()
            && fold(name) != fold(&s.name)
            && !s.alt_names.iter().any(|a| fold(a) == fold(name))
        {
            s.alt_names.push(name.to_string());
        }
    }

    pub fn street_postcode(&mut self, street: u32, postcode: &str) {
        let s = &mut self.streets[street as usize];
        if !postcode.is_empty() && !s.postcodes.iter().any(|p| p == postcode) {
            s.postcodes.push(postcode.to_string());
        }
    }

    /// A house number as the register writes it (`12`, `12a`, `12 A`, `12bis`); false when it is
    /// not a number.
    pub fn number(
        &mut self,
        street: u32,
        written: &str,
        postcode: Option<&str>,
        point: Option<(f64, f64)>,
    ) -> bool {
        let Some((number, suffix)) = split_number(written) else {
            return false;
        };
        self.number_parts(street, number, &suffix, postcode, point);
        true
    }

    pub fn number_parts(
        &mut self,
        street: u32,
        number: u32,
        suffix: &str,
        postcode: Option<&str>,
        point: Option<(f64, f64)>,
    ) {
        let postcode = postcode.map(str::trim).filter(|p| !p.is_empty());
        if let Some(p) = postcode {
            self.street_postcode(street, p);
        }
        let s = &mut self.streets[street as usize];
        if s.find_number(number, suffix).is_some() {
            return;
        }
        s.numbers.push(HouseNumber {
            number,
            suffix: suffix.to_string(),
            postcode: postcode.map(str::to_string),
            point,
        });
    }

    /// The streets one of whose names has a form equal to one of the written name's.
    pub fn streets_by_form(&self, q: &NameKey) -> Vec<u32> {
        let mut v: Vec<u32> = [&q.key, &q.core, &q.sorted, &q.compact]
            .into_iter()
            .filter_map(|f| self.streets_by_exact_form.get(f))
            .flatten()
            .copied()
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Comparison keys and indexes; counts into `info`.
    pub fn finish(&mut self) {
        let expander = &self.expander;
        for s in &mut self.streets {
            s.keys = std::iter::once(&s.name)
                .chain(s.alt_names.iter())
                .map(|n| expander.name_key(n))
                .collect();
        }
        self.streets_by_locality = vec![Vec::new(); self.localities.len()];
        for (i, s) in self.streets.iter().enumerate() {
            let id = i as u32;
            self.streets_by_locality[s.locality as usize].push(id);
            for p in &s.postcodes {
                self.streets_by_postcode
                    .entry(p.clone())
                    .or_default()
                    .push(id);
            }
            for k in &s.keys {
                for form in [&k.key, &k.core, &k.sorted, &k.compact] {
                    let v = self.streets_by_exact_form.entry(form.clone()).or_default();
                    if v.last() != Some(&id) {
                        v.push(id);
                    }
                }
                for t in k.core.split(' ') {
                    let v = self.streets_by_token.entry(t.to_string()).or_default();
                    if v.last() != Some(&id) {
                        v.push(id);
                    }
                }
            }
        }
        for (i, l) in self.localities.iter().enumerate() {
            let id = i as u32;
            for n in std::iter::once(&l.name).chain(l.alt_names.iter()) {
                let v = self.locality_by_name.entry(fold(n)).or_default();
                if !v.contains(&id) {
                    v.push(id);
                }
            }
            for p in l.postcodes.iter().filter(|p| !p.is_empty()) {
                let v = self.localities_by_postcode.entry(p.clone()).or_default();
                if !v.contains(&id) {
                    v.push(id);
                }
            }
        }
        self.grams = GramIndex::build(self.streets.iter().map(|s| s.keys.as_slice()));
        let numbers: usize = self.streets.iter().map(|s| s.numbers.len()).sum();
        let points = self
            .streets
            .iter()
            .flat_map(|s| s.numbers.iter())
            .filter(|h| h.point.is_some())
            .count();
        self.info.localities = self.localities.len();
        self.info.streets = self.streets.len();
        self.info.house_numbers = numbers;
        self.info.points = points;
        let mut levels = Vec::new();
        if numbers > 0 {
            levels.push("house_number");
        }
        if !self.streets.is_empty() {
            levels.push("street");
        }
        if !self.localities_by_postcode.is_empty()
            || self.streets.iter().any(|s| !s.postcodes.is_empty())
        {
            levels.push("postcode");
        }
        self.info.verification = levels;
    }
}

/// The register's streets as the street engine asks about them (ids are the register's).
impl StreetFacts for CountryRegister {
    /// The type words of the street's name (`RUE`, `STRASSE`): foreign names hold their type.
    fn street_type(&self, street: u32) -> &str {
        self.streets[street as usize]
            .keys
            .first()
            .map_or("", |k| k.types.as_str())
    }
    fn name(&self, street: u32) -> &str {
        &self.streets[street as usize].name
    }
    fn alt_names(&self, street: u32) -> &[String] {
        &self.streets[street as usize].alt_names
    }
    fn has_number(&self, street: u32, number: u32, suffix: &str) -> bool {
        self.streets[street as usize]
            .find_number(number, suffix)
            .is_some()
    }
    fn lists_numbers(&self, street: u32) -> bool {
        !self.streets[street as usize].numbers.is_empty()
    }
    fn has_postcode(&self, street: u32, postcode: &str) -> bool {
        self.streets[street as usize]
            .postcodes
            .iter()
            .any(|p| p == postcode)
    }
}

/// `12` → (12, ""), `12a` / `12 A` / `12-a` → (12, "a"), `12bis` → (12, "bis"); ranges and
/// slashes keep the first number (`12-14` → 12). None when it does not start with a number.
pub fn split_number(written: &str) -> Option<(u32, String)> {
    let w = written.trim();
    let digits: String = w.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() || digits.len() > 6 {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    let after = &w[digits.len()..];
    // `8-10`: a range is a number of its own in registers that list it (CACLR)
    if let Some(to) = after.strip_prefix('-') {
        if !to.is_empty() && to.len() <= 4 && to.chars().all(|c| c.is_ascii_digit()) {
            return Some((number, format!("-{to}")));
        }
    }
    let rest = after.trim_start_matches([' ', '-', '/', '.']);
    let suffix: String = rest.chars().take_while(|c| c.is_alphabetic()).collect();
    // `12-14`: a range keeps its first number; a long word is not a suffix
    if suffix.chars().count() > 3 {
        return Some((number, String::new()));
    }
    Some((number, suffix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_numbers_split_into_number_and_suffix() {
        assert_eq!(split_number("12"), Some((12, String::new())));
        assert_eq!(split_number("12a"), Some((12, "a".into())));
        assert_eq!(split_number("12 A"), Some((12, "A".into())));
        assert_eq!(split_number("12-14"), Some((12, "-14".into())));
        assert_eq!(split_number("12bis"), Some((12, "bis".into())));
        assert_eq!(split_number("Nord"), None);
    }
}
