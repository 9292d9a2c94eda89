//! The country-neutral street builder every street importer fills: streets and house numbers
//! merged per municipality (by register id, then by name), then written to LMDB with their
//! fuzzy indexes. Importers call into it; it calls no importer.

use std::collections::HashMap;

use super::spill::{pack_code, SpilledNumber};
use super::{ImportContext, PROGRESS};
use crate::register::street::{
    build_fst, edit_distance, CityStreetsRecord, HouseNumberEntry, Street,
};
use crate::rules::key::{full_key, loose_key, loose_tokens, sorted_key};
use crate::Result;

#[derive(Default)]
pub struct CityBuild {
    pub streets: Vec<Street>,
    by_id: HashMap<u64, usize>,
    /// Built on first use by a municipal source.
    keys: Option<HashMap<String, Vec<usize>>>,
    /// Loose tokens of every street's name, built on first use.
    tokens: Option<Vec<Vec<String>>>,
    /// Keys with one letter deleted (and the keys themselves), built on first use.
    deletions: Option<HashMap<String, Vec<usize>>>,
    pub complete_numbers: bool,
    pub numbers_source: String,
}

impl CityBuild {
    /// An ANNCSU street; the same id seen twice (odonimi and STRAD) is one street.
    pub fn add_registered(&mut self, street: Street) -> usize {
        if street.id != 0 {
            if let Some(&i) = self.by_id.get(&street.id) {
                let known = &mut self.streets[i];
                for alt in street.alt_names {
                    if !known.alt_names.contains(&alt) {
                        known.alt_names.push(alt);
                    }
                }
                if known.locality.is_empty() {
                    known.locality = street.locality;
                }
                return i;
            }
        }
        let i = self.streets.len();
        if street.id != 0 {
            self.by_id.insert(street.id, i);
        }
        if let Some(keys) = self.keys.as_mut() {
            for k in keys_of(&street) {
                keys.entry(k).or_default().push(i);
            }
        }
        if let Some(t) = self.tokens.as_mut() {
            t.push(loose_tokens(&street.name));
        }
        if let Some(d) = self.deletions.as_mut() {
            for v in deletions(&loose_key(&street.name)) {
                d.entry(v).or_default().push(i);
            }
        }
        self.streets.push(street);
        i
    }

    pub fn by_id(&self, id: u64) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// The street a municipal source names: same full name, else the only one with the same
    /// name without type or in another word order and the same type; else a new street.
    pub fn find_or_add(&mut self, street_type: &str, name: &str) -> usize {
        if let Some(i) = self.find(street_type, name) {
            return i;
        }
        // the same street spelled one letter apart by the two lists (STELIO / STELLIO LOZZA), or
        // without the first name the other list has (VIA GARIBALDI / VIA GIUSEPPE GARIBALDI)
        let same = self
            .one_letter_apart(street_type, name)
            .or_else(|| self.first_words_left_out(street_type, name));
        if let Some(i) = same {
            self.add_alt_name(i, street_type, name);
            return i;
        }
        self.add_registered(Street {
            street_type: street_type.to_string(),
            name: name.to_string(),
            ..Default::default()
        })
    }

    /// The one street whose full name, name, or name in any word order is this one's.
    pub fn find(&mut self, street_type: &str, name: &str) -> Option<usize> {
        if self.keys.is_none() {
            let mut keys: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, s) in self.streets.iter().enumerate() {
                for k in keys_of(s) {
                    keys.entry(k).or_default().push(i);
                }
            }
            self.keys = Some(keys);
        }
        let probe = Street {
            street_type: street_type.to_string(),
            name: name.to_string(),
            ..Default::default()
        };
        self.keys.as_ref().and_then(|keys| {
            keys_of(&probe).into_iter().enumerate().find_map(|(n, k)| {
                let hits: Vec<usize> = keys
                    .get(&k)
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .copied()
                    .filter(|&i| n == 0 || self.streets[i].street_type == street_type)
                    .collect();
                (hits.len() == 1).then(|| hits[0])
            })
        })
    }

    /// Another spelling of street `i`, with its type, so that it is an exact name of the street too.
    pub fn add_alt_name(&mut self, i: usize, street_type: &str, name: &str) {
        let alt = format!("{street_type} {name}");
        if self.streets[i].name != alt && !self.streets[i].alt_names.contains(&alt) {
            self.streets[i].alt_names.push(alt);
        }
    }

    fn one_letter_apart(&mut self, street_type: &str, name: &str) -> Option<usize> {
        let key = loose_key(name);
        if key.chars().count() < 8 {
            return None;
        }
        if self.deletions.is_none() {
            let mut d: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, s) in self.streets.iter().enumerate() {
                for v in deletions(&loose_key(&s.name)) {
                    d.entry(v).or_default().push(i);
                }
            }
            self.deletions = Some(d);
        }
        let index = self.deletions.as_ref()?;
        let mut hits: Vec<usize> = deletions(&key)
            .iter()
            .filter_map(|v| index.get(v))
            .flatten()
            .copied()
            .filter(|&i| self.streets[i].street_type == street_type)
            .filter(|&i| edit_distance(&loose_key(&self.streets[i].name), &key, 1).is_some())
            .collect();
        hits.sort();
        hits.dedup();
        (hits.len() == 1).then(|| hits[0])
    }

    /// The only street of the type whose name ends with every word of `name` (and has more).
    fn first_words_left_out(&mut self, street_type: &str, name: &str) -> Option<usize> {
        let words = loose_tokens(name);
        if words.is_empty() || words.iter().all(|w| w.len() < 4) {
            return None;
        }
        if self.tokens.is_none() {
            self.tokens = Some(self.streets.iter().map(|s| loose_tokens(&s.name)).collect());
        }
        let tokens = self.tokens.as_ref()?;
        let hits: Vec<usize> = tokens
            .iter()
            .enumerate()
            .filter(|(i, theirs)| {
                self.streets[*i].street_type == street_type
                    && theirs.len() > words.len()
                    && theirs.ends_with(&words)
            })
            .map(|(i, _)| i)
            .collect();
        (hits.len() == 1).then(|| hits[0])
    }

    /// The source lists every house number of the municipality: a number it lacks does not exist.
    pub fn numbers_complete_from(&mut self, source: &str) {
        self.complete_numbers = true;
        self.numbers_source = source.to_string();
    }

    pub fn add_number(&mut self, street: usize, entry: HouseNumberEntry) {
        self.streets[street].numbers.push(entry);
    }
}

/// The key and every form of it with one letter deleted: two keys one edit apart share one.
fn deletions(key: &str) -> Vec<String> {
    let chars: Vec<char> = key.chars().collect();
    let mut out = vec![key.to_string()];
    for i in 0..chars.len() {
        let mut v: String = chars[..i].iter().collect();
        v.extend(&chars[i + 1..]);
        out.push(v);
    }
    out
}

/// Full key first, then loose and sorted keys (prefixed so they never collide).
fn keys_of(s: &Street) -> Vec<String> {
    vec![
        format!("F{}", full_key(&format!("{} {}", s.street_type, s.name))),
        format!("L{}", loose_key(&s.name)),
        format!("S{}", sorted_key(&s.name)),
    ]
}

#[derive(Default)]
pub struct StreetBuilder {
    pub cities: HashMap<String, CityBuild>,
}

impl StreetBuilder {
    pub fn city(&mut self, cadastral: &str) -> &mut CityBuild {
        self.cities.entry(cadastral.to_string()).or_default()
    }
}

/// The last municipality written by the transactions committed so far (`checkpoint.rs`).
const WRITTEN_THROUGH: &str = "import_written_through";

/// Writes every municipality's streets, their fuzzy index and the `hamlets` table: the names of
/// places people write as their city (localities, districts, and streets of a `hamlet_types` type)
/// with the municipalities they belong to. Municipalities go in cadastral order, each with the
/// house numbers the spill's runs hold for it, in transactions of bounded size; each transaction
/// records the last municipality it holds, and a resumed import starts after it.
pub fn write(ctx: &mut ImportContext, builder: StreetBuilder, hamlet_types: &[&str]) -> Result<()> {
    PROGRESS.start("streets: writing indexes", builder.cities.len() as u64);
    let mut cities: Vec<(String, CityBuild)> = builder.cities.into_iter().collect();
    cities.sort_by(|a, b| a.0.cmp(&b.0));
    let written_through: Option<String> = {
        let rtxn = ctx.env.read_txn()?;
        ctx.dbs
            .meta
            .get(&rtxn, WRITTEN_THROUGH)?
            .and_then(|v| v.as_str().map(str::to_string))
    };
    let mut merge = ctx.work.merge()?;
    let mut hamlets: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    // the postcodes each municipality's streets and numbers carry: today's postcodes of it that
    // the municipality list may lack (a frazione's own)
    let mut carried: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut wtxn = ctx.env.write_txn()?;
    let mut pending = 0usize;
    for (code, city) in cities {
        for s in &city.streets {
            let mut names: Vec<&str> = vec![s.locality.as_str(), s.district.as_str()];
            if hamlet_types.contains(&s.street_type.as_str()) {
                names.push(s.name.as_str());
            }
            for n in names.into_iter().filter(|n| !n.is_empty()) {
                let codes = hamlets.entry(crate::normalize::compact(n)).or_default();
                if !codes.contains(&code) {
                    codes.push(code.clone());
                }
            }
        }
        let spilled = match pack_code(&code) {
            Some(p) => merge.take_city(p)?,
            None => Vec::new(),
        };
        if written_through
            .as_deref()
            .is_some_and(|w| code.as_str() <= w)
        {
            // written by the interrupted import: its postcodes are read back
            if let Some(done) = ctx.dbs.streets.get(&wtxn, &code)? {
                add_postcodes(&mut carried, &code, &done.streets);
            }
            PROGRESS.advance(1);
            continue;
        }
        let mut streets = city.streets;
        attach(&mut streets, spilled);
        let numbers: usize = streets.iter().map(|s| s.numbers.len()).sum();
        for s in &mut streets {
            finish_street(s);
        }
        add_postcodes(&mut carried, &code, &streets);
        let mut record = CityStreetsRecord {
            complete_numbers: city.complete_numbers,
            numbers_source: city.numbers_source,
            streets,
            fst_slots: Vec::new(),
        };
        let (fst, slots) = build_fst(&record)?;
        record.fst_slots = slots;
        ctx.dbs.streets.put(&mut wtxn, &code, &record)?;
        ctx.dbs
            .street_fsts
            .put(&mut wtxn, &code, fst.as_fst().as_bytes())?;
        PROGRESS.advance(1);
        // a house number is ~50 bytes of record, a street ~150 with its fst keys
        pending += numbers * 50 + record.streets.len() * 150;
        if pending >= ctx.work.options.commit_bytes {
            ctx.dbs
                .meta
                .put(&mut wtxn, WRITTEN_THROUGH, &serde_json::Value::from(code))?;
            wtxn.commit()?;
            ctx.work.chunk_done()?;
            wtxn = ctx.env.write_txn()?;
            pending = 0;
        }
    }
    ctx.dbs
        .meta
        .put(&mut wtxn, "hamlets", &serde_json::to_value(&hamlets)?)?;
    ctx.dbs.meta.put(
        &mut wtxn,
        crate::register::municipality::STREET_POSTCODES,
        &serde_json::to_value(&carried)?,
    )?;
    ctx.dbs.meta.delete(&mut wtxn, WRITTEN_THROUGH)?;
    wtxn.commit()?;
    Ok(())
}

/// The postcodes of a municipality's streets (their numbers' or a street table's), each once.
fn add_postcodes(
    carried: &mut std::collections::BTreeMap<String, Vec<String>>,
    code: &str,
    streets: &[Street],
) {
    for (pc, _) in streets.iter().flat_map(|s| &s.postcodes) {
        if pc.len() != 5 || !pc.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let of = carried.entry(code.to_string()).or_default();
        if !of.contains(pc) {
            of.push(pc.clone());
        }
    }
}

/// The spilled numbers (sorted by street) go before the ones read into memory, as they were read.
fn attach(streets: &mut [Street], spilled: Vec<SpilledNumber>) {
    if spilled.is_empty() {
        return;
    }
    let mut by_street: Vec<Vec<HouseNumberEntry>> = Vec::new();
    for n in spilled {
        let i = n.street as usize;
        if i >= streets.len() {
            continue;
        }
        if by_street.len() <= i {
            by_street.resize_with(i + 1, Vec::new);
        }
        by_street[i].push(n.entry);
    }
    for (s, mut numbers) in streets.iter_mut().zip(by_street) {
        if numbers.is_empty() {
            continue;
        }
        numbers.append(&mut s.numbers);
        s.numbers = numbers;
    }
}

/// Numbers sorted and deduplicated, postcodes counted, a point for the street.
fn finish_street(s: &mut Street) {
    s.numbers
        .sort_by(|a, b| (a.number, &a.suffix).cmp(&(b.number, &b.suffix)));
    s.numbers
        .dedup_by(|a, b| a.number == b.number && a.suffix == b.suffix);
    if s.numbers.is_empty() {
        return;
    }
    let mut counts: HashMap<&str, u32> = HashMap::new();
    let mut districts: HashMap<&str, u32> = HashMap::new();
    for n in &s.numbers {
        if !n.postcode.is_empty() {
            *counts.entry(n.postcode.as_str()).or_default() += 1;
        }
        if !n.district.is_empty() {
            *districts.entry(n.district.as_str()).or_default() += 1;
        }
    }
    if !counts.is_empty() {
        let mut pc: Vec<(String, u32)> = counts
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        pc.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        s.postcodes = pc;
    }
    if s.district.is_empty() {
        if let Some((d, _)) = districts.into_iter().max_by_key(|(_, c)| *c) {
            s.district = d.to_string();
        }
    }
    // the median point, so one stray number does not drag the street's point away
    let mut lats: Vec<f64> = s.numbers.iter().map(|n| n.lat).collect();
    let mut lons: Vec<f64> = s.numbers.iter().map(|n| n.lon).collect();
    lats.sort_by(f64::total_cmp);
    lons.sort_by(f64::total_cmp);
    s.lat = Some(lats[lats.len() / 2]);
    s.lon = Some(lons[lons.len() / 2]);
}
