//! Streets and house numbers of every municipality: stored per municipality in LMDB (one record
//! of streets with their house numbers, and one fst of their names), loaded into an in-memory
//! index the first time a municipality is asked for, and shared by every thread afterwards.
//!
//! The fst maps the loose key of every street name (`address::key::loose_key`) to a slot of
//! street ids, so prefix search (autocomplete) and Levenshtein search (typos) are automaton
//! walks over a few kilobytes, without touching the street records.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use fst::automaton::Str;
use fst::{Automaton, IntoStreamer, Streamer};
use heed::types::{Bytes, SerdeJson, Str as HeedStr};
use heed::{Database, Env};
use serde::{Deserialize, Serialize};

use crate::address::key::{full_key, loose_key, loose_tokens, sorted_key};
use crate::Result;

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
    let (ty, name) = crate::address::street_type::split(alt);
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
        })
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

/// Typo-tolerant lookup of many short keys without scanning them, nor building an automaton per
/// query: every key is filed under itself and its forms with one letter deleted; a query looks up
/// its own forms with one (and, for distance 2, two) letters deleted, and the candidates are
/// measured with `edit_distance`. Catches every key one edit or one swap away, and most two away.
#[derive(Default)]
pub struct DeletionIndex {
    keys: Vec<String>,
    forms: HashMap<String, Vec<u32>>,
    /// Per key: its length in characters and the set of its letters (`letter_set`), so that a
    /// scan measures only the keys that could be near.
    shapes: Vec<(u32, u64)>,
}

/// The letters and digits a word has, one bit each (other characters share bits by their code):
/// an edit adds or removes at most two members, so keys `d` edits apart differ in at most `2d`.
fn letter_set(word: &str) -> u64 {
    word.chars().fold(0u64, |set, c| {
        let bit = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            '0'..='9' => 26 + c as u32 - '0' as u32,
            _ => 36 + c as u32 % 28,
        };
        set | 1 << bit
    })
}

impl DeletionIndex {
    pub fn build<I: IntoIterator<Item = String>>(keys: I, min_len: usize) -> DeletionIndex {
        let keys: Vec<String> = keys.into_iter().collect();
        let mut forms: HashMap<String, Vec<u32>> = HashMap::new();
        for (id, k) in keys.iter().enumerate() {
            if k.chars().count() < min_len {
                continue;
            }
            for v in one_deletions(k) {
                let ids = forms.entry(v).or_default();
                if ids.last() != Some(&(id as u32)) {
                    ids.push(id as u32);
                }
            }
        }
        let shapes = keys
            .iter()
            .map(|k| (k.chars().count() as u32, letter_set(k)))
            .collect();
        DeletionIndex {
            keys,
            forms,
            shapes,
        }
    }

    /// Every key, in the order given to `build`.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    pub fn key(&self, id: u32) -> &str {
        self.keys.get(id as usize).map(String::as_str).unwrap_or("")
    }

    /// Keys within `distance` edits of `query` (swaps count one), with their distance.
    pub fn near(&self, query: &str, distance: u32) -> Vec<(u32, u32)> {
        self.near_probes(&Probes::new(query, distance))
    }

    /// `near` with the query's forms computed beforehand (one query, many indexes).
    pub fn near_probes(&self, probes: &Probes) -> Vec<(u32, u32)> {
        let mut ids: Vec<u32> = probes
            .forms()
            .filter_map(|p| self.forms.get(p))
            .flatten()
            .copied()
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
            .filter_map(|id| {
                edit_distance(self.key(id), &probes.query, probes.distance as usize)
                    .map(|d| (id, d as u32))
            })
            .collect()
    }
}

/// What a `DeletionIndex` is looked up with for one query: the query and its forms with one (and,
/// for distance 2, two) letters deleted, all in one buffer. Built once when many indexes are asked
/// the same thing.
pub struct Probes {
    query: String,
    distance: u32,
    text: String,
    /// End of each form in `text`.
    ends: Vec<usize>,
}

impl Probes {
    pub fn new(query: &str, distance: u32) -> Probes {
        // byte offset of every character, and the end
        let at: Vec<usize> = query
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(query.len()))
            .collect();
        let n = at.len() - 1;
        let mut text = String::with_capacity(query.len() * (1 + n + n * n / 2));
        let mut ends = Vec::with_capacity(1 + n + n * n / 2);
        text.push_str(query);
        ends.push(text.len());
        for i in 0..n {
            text.push_str(&query[..at[i]]);
            text.push_str(&query[at[i + 1]..]);
            ends.push(text.len());
        }
        // two deletions are two positions of the query (i before j): each pair once
        if distance >= 2 {
            for i in 0..n {
                for j in i + 1..n {
                    text.push_str(&query[..at[i]]);
                    text.push_str(&query[at[i + 1]..at[j]]);
                    text.push_str(&query[at[j + 1]..]);
                    ends.push(text.len());
                }
            }
        }
        Probes {
            query: query.to_string(),
            distance,
            text,
            ends,
        }
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    fn forms(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(s, &e)| &self.text[s..e])
    }
}

impl DeletionIndex {
    /// Keys within `distance` edits of `query` by a scan of every key of a similar length: for
    /// the rarer two-edit lookups the one-deletion forms cannot reach (two substitutions).
    pub fn scan(&self, query: &str, distance: u32) -> Vec<(u32, u32)> {
        let len = query.chars().count() as u32;
        let set = letter_set(query);
        let d = distance as usize;
        self.shapes
            .iter()
            .enumerate()
            .filter(|(_, (l, s))| {
                l.abs_diff(len) <= distance && (s ^ set).count_ones() <= 2 * distance
            })
            .filter_map(|(id, _)| {
                edit_distance(&self.keys[id], query, d).map(|e| (id as u32, e as u32))
            })
            .collect()
    }
}

/// The word and every form of it with one letter deleted.
fn one_deletions(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::with_capacity(chars.len() + 1);
    out.push(word.to_string());
    for i in 0..chars.len() {
        let mut v: String = chars[..i].iter().collect();
        v.extend(&chars[i + 1..]);
        out.push(v);
    }
    out
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

/// Bounded edit distance counting a swap of two neighbouring letters as one edit (optimal string
/// alignment), None when above `max`. Called for every candidate of a typo lookup: ASCII names
/// (nearly all) are compared as bytes, without allocating.
pub fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        return osa(a.as_bytes(), b.as_bytes(), max);
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    osa(&a, &b, max)
}

/// Rows of the distance table kept on the stack up to this width (street names are shorter).
const STACK_ROW: usize = 64;

fn osa<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    if w <= STACK_ROW {
        osa_rows(a, b, max, &mut [0u32; 3 * STACK_ROW])
    } else {
        osa_rows(a, b, max, &mut vec![0u32; 3 * w])
    }
}

/// The last three rows of the table in `rows` (three of `b.len() + 1` cells, in rotation).
fn osa_rows<T: PartialEq>(a: &[T], b: &[T], max: usize, rows: &mut [u32]) -> Option<usize> {
    let w = b.len() + 1;
    for (j, cell) in rows[..w].iter_mut().enumerate() {
        *cell = j as u32;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = ((i % 3) * w, ((i + 2) % 3) * w, ((i + 1) % 3) * w);
        rows[cur] = i as u32;
        let mut row_min = i as u32;
        for j in 1..=b.len() {
            let cost = u32::from(a[i - 1] != b[j - 1]);
            let mut v = (rows[prev + j] + 1)
                .min(rows[cur + j - 1] + 1)
                .min(rows[prev + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows[prev2 + j - 2] + 1);
            }
            rows[cur + j] = v;
            row_min = row_min.min(v);
        }
        if row_min as usize > max {
            return None;
        }
    }
    let d = rows[(a.len() % 3) * w + b.len()] as usize;
    (d <= max).then_some(d)
}

/// The LMDB databases of streets, and the per-process cache of loaded municipalities.
pub struct StreetIndex {
    env: Option<Env>,
    streets: Option<Database<HeedStr, SerdeJson<CityStreetsRecord>>>,
    fsts: Option<Database<HeedStr, Bytes>>,
    meta: Option<Database<HeedStr, SerdeJson<serde_json::Value>>>,
    cache: RwLock<HashMap<String, Arc<CityStreets>>>,
    /// Frazioni and località by compact name → cadastral codes, loaded on first use.
    hamlets: std::sync::OnceLock<HashMap<String, Vec<String>>>,
}

impl StreetIndex {
    pub fn empty() -> StreetIndex {
        StreetIndex {
            env: None,
            streets: None,
            fsts: None,
            meta: None,
            cache: RwLock::new(HashMap::new()),
            hamlets: std::sync::OnceLock::new(),
        }
    }

    pub fn open(
        env: Env,
        streets: Option<Database<HeedStr, SerdeJson<CityStreetsRecord>>>,
        fsts: Option<Database<HeedStr, Bytes>>,
        meta: Option<Database<HeedStr, SerdeJson<serde_json::Value>>>,
    ) -> StreetIndex {
        StreetIndex {
            env: Some(env),
            streets,
            fsts,
            meta,
            cache: RwLock::new(HashMap::new()),
            hamlets: std::sync::OnceLock::new(),
        }
    }

    /// Municipalities (cadastral codes) having a frazione or località of this name.
    pub fn hamlet(&self, name: &str) -> &[String] {
        let map = self.hamlets.get_or_init(|| {
            let (Some(env), Some(meta)) = (&self.env, &self.meta) else {
                return HashMap::new();
            };
            env.read_txn()
                .ok()
                .and_then(|rtxn| meta.get(&rtxn, "hamlets").ok().flatten())
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default()
        });
        map.get(&crate::normalize::compact(name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The streets of a municipality by cadastral code; None when the register has none.
    pub fn city(&self, cadastral: &str) -> Option<Arc<CityStreets>> {
        if let Some(c) = self
            .cache
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(cadastral)
        {
            return Some(c.clone());
        }
        let loaded = match self.load(cadastral) {
            Ok(l) => l?,
            Err(e) => {
                eprintln!("streets of {cadastral}: {e}");
                return None;
            }
        };
        let arc = Arc::new(loaded);
        self.cache
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(cadastral.to_string(), arc.clone());
        Some(arc)
    }

    fn load(&self, cadastral: &str) -> Result<Option<CityStreets>> {
        let (Some(env), Some(db)) = (&self.env, &self.streets) else {
            return Ok(None);
        };
        let rtxn = env.read_txn()?;
        let Some(record) = db.get(&rtxn, cadastral)? else {
            return Ok(None);
        };
        let fst_bytes = match &self.fsts {
            Some(f) => f.get(&rtxn, cadastral)?.map(<[u8]>::to_vec),
            None => None,
        };
        Ok(Some(CityStreets::build(record, fst_bytes)?))
    }

    /// Whether the register has streets at all (an import without ANNCSU has none).
    pub fn available(&self) -> bool {
        self.streets.is_some()
    }
}

/// One street found by a lookup, for autocomplete.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StreetHit {
    pub cadastral_code: String,
    pub street_id: u64,
    pub index: u32,
    pub street_type: String,
    pub name: String,
    pub distance: u32,
    /// The frazione or district of the street, where the register says.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub locality: String,
}

/// Prefix and typo-tolerant search of street names within one municipality: prefix hits first,
/// then names within one or two edits. `query` is what the user typed so far (type optional).
pub fn search_streets(
    index: &StreetIndex,
    cadastral: &str,
    query: &str,
    limit: usize,
) -> Vec<StreetHit> {
    StreetSearch::new(query, limit).run(index, cadastral)
}

/// One word of the query looked up among a municipality's name tokens: exactly, or within one
/// edit from five letters (`probes`).
struct TokenProbe {
    word: String,
    probes: Option<Probes>,
}

impl TokenProbe {
    fn new(word: &str) -> TokenProbe {
        TokenProbe {
            word: word.to_string(),
            probes: (word.chars().count() >= 5).then(|| Probes::new(word, 1)),
        }
    }

    fn streets(&self, city: &CityStreets) -> std::collections::HashSet<u32> {
        let tokens = match &self.probes {
            Some(p) => city.tokens_near_probes(p),
            None => city.tokens_near(&self.word, 0),
        };
        tokens
            .into_iter()
            .flat_map(|t| city.by_token(t).iter().copied())
            .collect()
    }
}

/// A street search read once (type, key, words, and the forms its typo lookups use) and run in
/// one municipality or in each municipality of a province.
struct StreetSearch {
    street_type: Option<&'static str>,
    key: String,
    key_probes: Probes,
    /// The word being typed (a prefix of a later word of the name) and the complete words before it.
    last: Option<(String, TokenProbe)>,
    before: Vec<TokenProbe>,
    limit: usize,
}

impl StreetSearch {
    fn new(query: &str, limit: usize) -> StreetSearch {
        let parsed = crate::address::parse::parse(query);
        let name = if parsed.name.is_empty() {
            query
        } else {
            &parsed.name
        };
        let key = loose_key(name);
        let d = if key.len() >= 8 { 2 } else { 1 };
        let words = loose_tokens(name);
        let (last, before) = match words.split_last().filter(|(l, _)| l.len() >= 3) {
            Some((last, before)) => (
                Some((last.clone(), TokenProbe::new(last))),
                before.iter().map(|w| TokenProbe::new(w)).collect(),
            ),
            None => (None, Vec::new()),
        };
        StreetSearch {
            street_type: parsed.street_type,
            key_probes: Probes::new(&key, d),
            key,
            last,
            before,
            limit,
        }
    }

    fn run(&self, index: &StreetIndex, cadastral: &str) -> Vec<StreetHit> {
        let Some(city) = index.city(cadastral) else {
            return Vec::new();
        };
        let limit = self.limit;
        let mut hits: Vec<StreetHit> = Vec::new();
        let push = |i: u32, d: u32, hits: &mut Vec<StreetHit>| {
            if hits.iter().any(|h| h.index == i) {
                return;
            }
            let s = city.street(i);
            if let Some(t) = self.street_type {
                if d > 0 && s.street_type != t {
                    return;
                }
            }
            hits.push(StreetHit {
                cadastral_code: cadastral.to_string(),
                street_id: s.id,
                index: i,
                street_type: s.street_type.clone(),
                name: s.name.clone(),
                distance: d,
                locality: if s.locality.is_empty() {
                    s.district.clone()
                } else {
                    s.locality.clone()
                },
            });
        };
        for i in city.prefix(&self.key, limit * 2) {
            push(i, 0, &mut hits);
        }
        if hits.len() < limit && !self.key.is_empty() {
            let mut near = city.fuzzy_probes(&self.key_probes);
            near.sort_by_key(|(_, d)| *d);
            for (i, d) in near {
                push(i, d.max(1), &mut hits);
            }
        }
        // a later word of the name typed alone (`garibaldi` → Corso Garibaldi, Via Giuseppe
        // Garibaldi): streets with a word equal to each complete word written, near it (one edit
        // from five letters) or, for the word being typed, beginning with it
        if let Some((last, last_probe)) = self.last.as_ref().filter(|_| hits.len() < limit) {
            let mut found: Vec<(u32, u32)> = city
                .tokens_starting(last)
                .iter()
                .flat_map(|t| city.by_token(t).iter().map(|&i| (i, 1)))
                .chain(last_probe.streets(&city).into_iter().map(|i| (i, 1)))
                .collect();
            for w in &self.before {
                let keep = w.streets(&city);
                found.retain(|(i, _)| keep.contains(i));
            }
            found.sort_by_key(|&(i, d)| (d, city.street(i).name.len(), i));
            found.dedup_by_key(|(i, _)| *i);
            for (i, d) in found.into_iter().take(limit * 2) {
                push(i, d, &mut hits);
            }
        }
        // the type written first, then the closest names
        if let Some(t) = self.street_type {
            hits.sort_by_key(|h| (h.street_type != t, h.distance));
        }
        hits.truncate(limit);
        hits
    }
}

/// The same across every municipality of a province (car-plate code: `MI`): the query is read
/// once and run in each.
pub fn search_streets_in_province(
    register: &super::Register,
    province: &str,
    query: &str,
    limit: usize,
) -> Vec<StreetHit> {
    let province = province.trim().to_uppercase();
    let search = StreetSearch::new(query, limit);
    let mut hits: Vec<StreetHit> = Vec::new();
    for r in &register.municipalities.records {
        let Some(m) = &r.current else { continue };
        if m.province != province {
            continue;
        }
        hits.extend(search.run(&register.streets, &r.cadastral_code));
    }
    hits.sort_by_key(|h| h.distance);
    hits.truncate(limit);
    hits
}

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
    register: &super::Register,
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
        let key = crate::address::key::full_key(&format!("{} {}", s.street_type, s.name));
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
            address_key: crate::address::key::address_key(
                &s.street_type,
                &s.name,
                number.as_deref().unwrap_or(""),
            ),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn city() -> CityStreets {
        let streets = [
            "GIUSEPPE GARIBALDI",
            "ROMA",
            "SAN GIOVANNI BOSCO",
            "DEL DUOMO",
        ]
        .iter()
        .enumerate()
        .map(|(i, n)| Street {
            id: i as u64 + 1,
            street_type: "VIA".into(),
            name: n.to_string(),
            ..Default::default()
        })
        .collect();
        CityStreets::build(
            CityStreetsRecord {
                streets,
                ..Default::default()
            },
            None,
        )
        .unwrap()
    }

    #[test]
    fn prefix_and_fuzzy_search() {
        let c = city();
        assert_eq!(c.prefix("SANGIO", 10), vec![2]);
        let near = c.fuzzy(&loose_key("Garibladi Giuseppe"), 2);
        assert!(near.is_empty(), "word order is not a typo");
        let near = c.fuzzy(&loose_key("Giuseppe Garibaldo"), 1);
        assert_eq!(near, vec![(0, 1)]);
        assert_eq!(c.by_key(KeyKind::Loose, &loose_key("Duomo")), &[3]);
        assert_eq!(edit_distance("ROMA", "RMOA", 2), Some(1));
        assert_eq!(edit_distance("NORMANDIA", "NORMANIDA", 1), Some(1));
        assert_eq!(edit_distance("NORMANDIA", "NORMADIA", 1), Some(1));
        assert_eq!(edit_distance("ROMA", "MILANO", 2), None);
    }

    #[test]
    fn typo_lookups_reach_every_key_within_their_distance() {
        // names with accents or other scripts are measured by characters, as ASCII ones by bytes
        assert_eq!(edit_distance("CITTÀ", "CITTA", 1), Some(1));
        assert_eq!(edit_distance("ÀB", "BÀ", 1), Some(1));
        assert_eq!(edit_distance("FAGGIOLO", "FAGIOLO", 2), Some(1));
        assert_eq!(edit_distance("FAGGIOLO", "FOGIALO", 2), None);
        let c = city();
        // two substitutions are beyond the deletion forms: the scan reaches them through its filters
        assert_eq!(c.fuzzy_scan("GIUSEPPEGERIBOLDI", 2), vec![(0, 2)]);
        assert!(c.fuzzy_scan("GIUSEPPEGERIBOLDI", 1).is_empty());
        // two letters too many: the query's two-deletion forms meet the key
        assert_eq!(c.fuzzy("GIUSEPPEXGARIBALDIX", 2), vec![(0, 2)]);
        // the word being typed, among the sorted tokens
        assert_eq!(c.tokens_starting("GARI"), ["GARIBALDI"]);
        assert!(c.tokens_starting("GARIX").is_empty());
        assert_eq!(c.tokens_starting("GIOV"), ["GIOVANNI"]);
    }
}

/// A street search: within a municipality (`cadastral_code`) or across a province.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct StreetQuery {
    #[serde(default)]
    pub cadastral_code: Option<String>,
    #[serde(default)]
    pub province: Option<String>,
    pub query: String,
    /// 1 to 100; 10 when absent.
    #[serde(default = "default_limit")]
    #[cfg_attr(feature = "ts", ts(as = "Option<usize>", optional))]
    pub limit: usize,
}

fn default_limit() -> usize {
    10
}

/// Prefix and typo-tolerant street search within a municipality, or across a province.
pub fn query_streets(register: &super::Register, q: &StreetQuery) -> Vec<StreetHit> {
    let limit = q.limit.clamp(1, 100);
    match (&q.cadastral_code, &q.province) {
        (Some(code), _) => search_streets(&register.streets, &code.to_uppercase(), &q.query, limit),
        (None, Some(p)) => search_streets_in_province(register, p, &q.query, limit),
        (None, None) => Vec::new(),
    }
}

/// One street of a municipality, as a `StreetHit` names it.
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StreetRef {
    pub cadastral_code: String,
    pub index: u32,
}

pub fn street_house_numbers(register: &super::Register, r: &StreetRef) -> Vec<HouseNumberEntry> {
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

pub fn sample_streets(register: &super::Register, q: &SampleQuery) -> Vec<SampledAddress> {
    sample(register, &q.cadastral_codes, q.count.min(100_000), q.seed)
}
