//! One municipality's streets in memory: the stored record, its keys and name tokens, the fst of
//! loose keys (prefix search) and the deletion indexes of tokens and keys (typo lookups).

use std::collections::HashMap;
use std::sync::OnceLock;

use fst::automaton::Str;
use fst::{Automaton, IntoStreamer, Streamer};

use super::forms::{italian_name_key, italian_text_key, NameKey};
use super::typo::{DeletionIndex, Probes};
use super::{alt_name_part, street_keys, CityStreetsRecord, KeyKind, Street};
use crate::rules::key::{loose_key, loose_tokens};
use crate::Result;

/// The in-memory index of one municipality's streets.
pub struct CityStreets {
    pub record: CityStreetsRecord,
    keys: HashMap<(KeyKind, String), Vec<u32>>,
    /// Canonical name token → streets having it (for partial names: `Garibaldi` → `Giuseppe Garibaldi`).
    tokens: HashMap<String, Vec<u32>>,
    /// Every token, and its forms with one letter deleted → token: typo-tolerant token lookup
    /// without scanning (two tokens one edit or one swap apart share a form).
    token_index: DeletionIndex,
    /// Loose keys of the names (the fst's keys), for typo-tolerant lookup of whole names.
    key_index: DeletionIndex,
    /// Loose tokens of each street's name and of each of its other names.
    name_tokens: Vec<Vec<Vec<String>>>,
    /// Loose key → slot in `slots`.
    fst: fst::Map<Vec<u8>>,
    slots: Vec<Vec<u32>>,
    /// The comparison forms of each street's names (its name, then its other names) for the
    /// street choice: built the first time the choice reads this municipality, since Italy's
    /// named steps, which answer every Italian address today, never read them.
    forms: OnceLock<Vec<Vec<NameKey>>>,
}

impl CityStreets {
    pub fn build(record: CityStreetsRecord, fst_bytes: Option<Vec<u8>>) -> Result<CityStreets> {
        let mut keys: HashMap<(KeyKind, String), Vec<u32>> = HashMap::new();
        let mut tokens: HashMap<String, Vec<u32>> = HashMap::new();
        let mut name_tokens: Vec<Vec<Vec<String>>> = Vec::with_capacity(record.streets.len());
        for s in &record.streets {
            let mut all = vec![loose_tokens(&s.name)];
            all.extend(s.alt_names.iter().map(|a| loose_tokens(&alt_name_part(a))));
            name_tokens.push(all);
        }
        for (i, s) in record.streets.iter().enumerate() {
            let i = i as u32;
            for k in street_keys(s) {
                let v = keys.entry(k).or_default();
                if v.last() != Some(&i) {
                    v.push(i);
                }
            }
            let mut toks: Vec<String> = name_tokens[i as usize].concat();
            toks.sort();
            toks.dedup();
            for t in toks {
                tokens.entry(t).or_default().push(i);
            }
        }
        // in order, so that the tokens beginning with a prefix are one range of its keys
        let mut sorted: Vec<String> = tokens.keys().cloned().collect();
        sorted.sort_unstable();
        let token_index = DeletionIndex::build(sorted, 4);
        let stored = fst_bytes
            .filter(|_| !record.fst_slots.is_empty())
            .and_then(|bytes| fst::Map::new(bytes).ok());
        let (fst, slots) = match stored {
            Some(map) => (map, record.fst_slots.clone()),
            None => build_fst(&record)?,
        };
        let mut fst_keys: Vec<String> = Vec::with_capacity(slots.len());
        let mut stream = fst.stream();
        while let Some((k, _)) = stream.next() {
            fst_keys.push(String::from_utf8_lossy(k).into_owned());
        }
        let key_index = DeletionIndex::build(fst_keys, 3);
        Ok(CityStreets {
            record,
            keys,
            tokens,
            token_index,
            key_index,
            name_tokens,
            fst,
            slots,
            forms: OnceLock::new(),
        })
    }

    /// The comparison forms of the street's names, its name first (see `forms`).
    pub fn name_forms(&self, i: u32) -> &[NameKey] {
        let forms = self.forms.get_or_init(|| {
            self.record
                .streets
                .iter()
                .map(|s| {
                    std::iter::once(italian_name_key(&s.street_type, &s.name))
                        .chain(s.alt_names.iter().map(|a| italian_text_key(a)))
                        .collect()
                })
                .collect()
        });
        forms.get(i as usize).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn streets(&self) -> &[Street] {
        &self.record.streets
    }

    pub fn street(&self, i: u32) -> &Street {
        &self.record.streets[i as usize]
    }

    pub fn by_key(&self, kind: KeyKind, key: &str) -> &[u32] {
        self.keys
            .get(&(kind, key.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn by_token(&self, token: &str) -> &[u32] {
        self.tokens.get(token).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Tokens of the municipality within `distance` edits of `token` (typo-tolerant token lookup).
    pub fn tokens_near(&self, token: &str, distance: u32) -> Vec<&str> {
        if distance == 0 {
            return self
                .tokens
                .get_key_value(token)
                .map(|(k, _)| vec![k.as_str()])
                .unwrap_or_default();
        }
        self.tokens_near_probes(&Probes::new(token, distance))
    }

    /// `tokens_near` with the token's forms computed beforehand.
    pub fn tokens_near_probes(&self, probes: &Probes) -> Vec<&str> {
        let token = probes.query();
        let mut out: Vec<&str> = self
            .token_index
            .near_probes(probes)
            .into_iter()
            .map(|(id, _)| self.token_index.key(id))
            .collect();
        if let Some((k, _)) = self.tokens.get_key_value(token) {
            if !out.contains(&k.as_str()) {
                out.push(k.as_str());
            }
        }
        out
    }

    /// Tokens of the municipality beginning with `prefix`, in order (a binary search of the
    /// sorted tokens, not a scan).
    pub fn tokens_starting(&self, prefix: &str) -> &[String] {
        let all = self.token_index.keys();
        let start = all.partition_point(|t| t.as_str() < prefix);
        let len = all[start..].partition_point(|t| t.starts_with(prefix));
        &all[start..start + len]
    }

    /// Loose tokens of a street's name, then of each of its other names.
    pub fn name_tokens(&self, i: u32) -> &[Vec<String>] {
        self.name_tokens
            .get(i as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Streets whose loose key is within `distance` edits of `key`, with that distance.
    /// Streets whose loose key is within `distance` edits of `key` (a swap is one), with that distance.
    /// `fuzzy` by a scan of every name key: reaches every name within `distance`.
    pub fn fuzzy_scan(&self, key: &str, distance: u32) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (id, d) in self.key_index.scan(key, distance) {
            for &s in self.slots.get(id as usize).into_iter().flatten() {
                out.push((s, d));
            }
        }
        out
    }

    pub fn fuzzy(&self, key: &str, distance: u32) -> Vec<(u32, u32)> {
        if key.is_empty() {
            return Vec::new();
        }
        self.fuzzy_probes(&Probes::new(key, distance))
    }

    /// `fuzzy` with the key's forms computed beforehand.
    pub fn fuzzy_probes(&self, probes: &Probes) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        if probes.query().is_empty() {
            return out;
        }
        for (id, d) in self.key_index.near_probes(probes) {
            // the index's ids are the fst's values: keys are read back in the same order
            for &s in self.slots.get(id as usize).into_iter().flatten() {
                out.push((s, d));
            }
        }
        out
    }

    /// Streets whose loose key starts with `prefix` (autocomplete), at most `limit` of them.
    pub fn prefix(&self, prefix: &str, limit: usize) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        let auto = Str::new(prefix).starts_with();
        let mut stream = self.fst.search(auto).into_stream();
        while let Some((_, slot)) = stream.next() {
            for &s in self.slots.get(slot as usize).into_iter().flatten() {
                if !out.contains(&s) {
                    out.push(s);
                }
            }
            if out.len() >= limit {
                break;
            }
        }
        out.truncate(limit);
        out
    }
}

/// Loose keys sorted, each with the streets under it: the fst's value is the slot number.
fn fst_entries(record: &CityStreetsRecord) -> Vec<(String, Vec<u32>)> {
    let mut by_key: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for (i, s) in record.streets.iter().enumerate() {
        let mut names = vec![s.name.clone()];
        names.extend(s.alt_names.iter().map(|a| alt_name_part(a)));
        for n in names {
            let k = loose_key(&n);
            if k.is_empty() {
                continue;
            }
            let v = by_key.entry(k).or_default();
            if v.last() != Some(&(i as u32)) {
                v.push(i as u32);
            }
        }
    }
    by_key.into_iter().collect()
}

/// The fst of one municipality's street names, as stored in LMDB.
/// The fst and, for each of its values, the streets under that key.
pub type StreetFst = (fst::Map<Vec<u8>>, Vec<Vec<u32>>);

pub fn build_fst(record: &CityStreetsRecord) -> Result<StreetFst> {
    let entries = fst_entries(record);
    let mut builder = fst::MapBuilder::memory();
    let mut slots = Vec::with_capacity(entries.len());
    for (i, (k, v)) in entries.into_iter().enumerate() {
        builder
            .insert(k.as_bytes(), i as u64)
            .map_err(|e| crate::Error::BadInput(e.to_string()))?;
        slots.push(v);
    }
    let bytes = builder
        .into_inner()
        .map_err(|e| crate::Error::BadInput(e.to_string()))?;
    let map = fst::Map::new(bytes).map_err(|e| crate::Error::BadInput(e.to_string()))?;
    Ok((map, slots))
}
