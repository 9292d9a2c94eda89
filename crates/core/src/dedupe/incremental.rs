//! New records against a saved one-list result: only pairs with a new record are scored.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cluster::{self, Group, SeedGroup, Single};
use super::list::prepare_all;
use super::pairs::score_pairs;
use super::prepare::Foreign;
use super::record::DedupeRecord;
use super::score::Level;
use super::Timer;
use crate::register::Register;
use crate::{Error, Result};

/// `incremental` from a JSON request to a JSON answer (the binding's door).
pub fn incremental_json(register: &Register, input: &[u8]) -> Result<Vec<u8>> {
    let timer = Timer::start();
    let request: IncrementalInput = crate::from_json(input)?;
    timer.lap("parsed");
    let result = incremental(register, request)?;
    let out = crate::to_json(&result);
    timer.lap("serialised");
    out
}

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct IncrementalInput {
    /// The saved job's records, in their order.
    pub records: Vec<DedupeRecord>,
    /// The saved job's groups (member_index, level, reasons, pairs).
    pub groups: Vec<SeedGroup>,
    pub new_records: Vec<DedupeRecord>,
    /// `probable` when absent.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_level: Level,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub foreign: Foreign,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Added {
    pub id: Value,
    pub index: usize,
    /// Group joined or formed; None when the record stands alone.
    pub group: Option<usize>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct IncrementalResult {
    /// Saved groups a new record joined or touched, and new groups; the others are unchanged.
    pub groups: Vec<Group>,
    /// New records that stand alone.
    pub singles: Vec<Single>,
    /// Saved groups merged into another one (the lowest number is kept).
    pub removed_groups: Vec<usize>,
    pub added: Vec<Added>,
    pub min_level: Level,
}

/// New records against a saved result: only pairs with a new record are scored; saved groups
/// stay as they were and may grow or merge.
pub fn incremental(register: &Register, mut input: IncrementalInput) -> Result<IncrementalResult> {
    let (min_level, foreign) = (input.min_level, input.foreign);
    let n = input.records.len();
    if let Some(bad) = input
        .groups
        .iter()
        .flat_map(|g| g.member_index.iter())
        .find(|&&i| i >= n)
    {
        return Err(Error::BadInput(format!(
            "group member index {bad} is beyond the saved records"
        )));
    }
    // Only saved records that could pair with a new one are prepared (and their groups, whose
    // consolidated record may change); the rest of the saved job is not touched at all.
    let chosen = incremental_scope(&input);
    let subset: Vec<DedupeRecord> = chosen.iter().map(|&i| input.records[i].clone()).collect();
    let mut all = prepare_all(register, subset, 0, foreign);
    // Saved records keep their saved ids (or positions) whatever their place in the subset.
    for (p, &orig) in all.iter_mut().zip(&chosen) {
        if input.records[orig].id.as_ref().is_none_or(Value::is_null) {
            p.id = Value::from(orig as u64 + 1);
        }
    }
    let m = all.len();
    let new_records = std::mem::take(&mut input.new_records);
    all.extend(prepare_all(register, new_records, n, foreign));
    let to_orig = |i: usize| if i < m { chosen[i] } else { n + (i - m) };
    let mut to_sub = std::collections::HashMap::new();
    for (s, &o) in chosen.iter().enumerate() {
        to_sub.insert(o, s);
    }
    let seeds: Vec<SeedGroup> = input
        .groups
        .iter()
        .filter(|g| g.member_index.iter().any(|i| to_sub.contains_key(i)))
        .map(|g| {
            let mut g = g.clone();
            g.member_index = g.member_index.iter().map(|i| to_sub[i]).collect();
            for p in &mut g.pairs {
                p.a_index = to_sub.get(&p.a_index).copied().unwrap_or(p.a_index);
                p.b_index = to_sub.get(&p.b_index).copied().unwrap_or(p.b_index);
            }
            g
        })
        .collect();
    // The model learns from every candidate pair of the records in scope, as a whole-list run of
    // them would: trained on the new records' pairs alone (a few dozen, most of them alike), it
    // took a surname one letter off on the same street for a probable match and merged twenty
    // separate families that the whole-list run kept apart. Only the new records' pairs are judged.
    let judged = score_pairs(&all, &|_, _| true, Some(&|a, b| a >= m || b >= m));
    let numbered = input.groups.iter().map(|g| g.group).max().unwrap_or(0);
    let (mut groups, singles) = cluster::build(&all, &judged, min_level, &seeds, numbered);
    // Back to the saved job's numbering: touched groups, and singles among the new records.
    for g in &mut groups {
        g.member_index = g.member_index.iter().map(|&i| to_orig(i)).collect();
        g.main_record.index = to_orig(g.main_record.index);
        for p in &mut g.pairs {
            p.a_index = to_orig(p.a_index);
            p.b_index = to_orig(p.b_index);
        }
    }
    let singles: Vec<Single> = singles
        .into_iter()
        .filter(|s| s.index >= m)
        .map(|mut s| {
            s.index = to_orig(s.index);
            s
        })
        .collect();
    let kept: std::collections::HashSet<usize> = groups.iter().map(|g| g.group).collect();
    let removed_groups = seeds
        .iter()
        .map(|s| s.group)
        .filter(|g| !kept.contains(g))
        .collect();
    let mut group_of = std::collections::HashMap::new();
    for g in &groups {
        for &i in &g.member_index {
            group_of.insert(i, g.group);
        }
    }
    let added = (m..all.len())
        .map(|i| Added {
            id: all[i].id.clone(),
            index: to_orig(i),
            group: group_of.get(&to_orig(i)).copied(),
        })
        .collect();
    Ok(IncrementalResult {
        groups,
        singles,
        removed_groups,
        added,
        min_level,
    })
}

/// Saved records a new one could pair with, by what needs no address verification: the head of
/// the last name (either name field of a new record, for swapped names), a phone, an e-mail, a tax
/// code; plus every member of a saved group one of them belongs to. Sorted saved indexes.
fn incremental_scope(input: &IncrementalInput) -> Vec<usize> {
    use crate::normalize::compact;
    use std::collections::HashSet;
    let head = |s: &str| -> String { compact(s).chars().take(4).collect() };
    let details = |r: &DedupeRecord| -> Vec<String> {
        let phones = r.all_phones().into_iter().map(|d| {
            let digits: String = d.value().chars().filter(char::is_ascii_digit).collect();
            format!("p{}", &digits[digits.len().saturating_sub(8)..])
        });
        let emails = r
            .all_emails()
            .into_iter()
            .map(|d| format!("e{}", d.value().trim().to_lowercase()));
        let tax = Some(compact(r.tax_code()))
            .filter(|t| !t.is_empty())
            .map(|t| format!("t{t}"));
        phones.chain(emails).chain(tax).collect()
    };
    let mut wanted: HashSet<String> = HashSet::new();
    for r in &input.new_records {
        wanted.extend(details(r));
        for name in [r.last_name(), r.first_name()] {
            if !name.trim().is_empty() {
                wanted.insert(format!("n{}", head(name)));
            }
        }
        if r.last_name().trim().is_empty() {
            wanted.insert("anonymous".into());
        }
    }
    let hit: Vec<bool> = input
        .records
        .par_iter()
        .map(|r| {
            let name = if r.last_name().trim().is_empty() {
                "anonymous".to_string()
            } else {
                format!("n{}", head(r.last_name()))
            };
            wanted.contains(&name) || details(r).iter().any(|k| wanted.contains(k))
        })
        .collect();
    let mut chosen: HashSet<usize> = (0..hit.len()).filter(|&i| hit[i]).collect();
    for g in &input.groups {
        if g.member_index.iter().any(|i| chosen.contains(i)) {
            chosen.extend(g.member_index.iter().copied());
        }
    }
    let mut chosen: Vec<usize> = chosen.into_iter().collect();
    chosen.sort_unstable();
    chosen
}
