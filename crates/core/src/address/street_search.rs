//! Street autocomplete: prefix and typo-tolerant search of street names within a municipality
//! or across a province, the query read by the address parser (type optional).

use serde::{Deserialize, Serialize};

use crate::register::street::{CityStreets, Probes, StreetIndex};
use crate::register::Register;
use crate::rules::key::{loose_key, loose_tokens};

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
        let parsed = super::parse::parse(query);
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
    register: &Register,
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
pub fn query_streets(register: &Register, q: &StreetQuery) -> Vec<StreetHit> {
    let limit = q.limit.clamp(1, 100);
    match (&q.cadastral_code, &q.province) {
        (Some(code), _) => search_streets(&register.streets, &code.to_uppercase(), &q.query, limit),
        (None, Some(p)) => search_streets_in_province(register, p, &q.query, limit),
        (None, None) => Vec::new(),
    }
}
