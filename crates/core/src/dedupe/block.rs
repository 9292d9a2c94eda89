//! Blocking: each record gets a few keys (tax code, phones, e-mails, street and number, name in
//! the city); only records sharing a key are compared. Small blocks are compared in full,
//! large ones (a street of a big city, a switchboard number) by sorted neighbourhood, so the
//! work stays near-linear in the number of records.

use std::collections::HashMap;

use rayon::prelude::*;

use super::prepare::Prepared;

/// Blocks up to this size are compared pair by pair.
pub const FULL_BLOCK: usize = 40;
/// Larger blocks: each record against the next WINDOW in name order.
pub const WINDOW: usize = 8;

pub fn keys(p: &Prepared) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    if let Some(t) = &p.tax {
        keys.push(format!("T{}", t.code));
    }
    for d in &p.phones {
        keys.push(format!("P{}", d.value));
    }
    for d in &p.emails {
        keys.push(format!("E{}", d.value));
    }
    let name_forms = name_forms(p);
    for a in &p.addresses {
        let place = format!("{}|{}", a.country, a.city);
        for street in a.streets().filter(|s| !s.is_empty()) {
            keys.push(format!("S{place}|{street}"));
        }
        // Name in the city catches a street written two ways or a typo in it.
        for n in &name_forms {
            keys.push(format!("N{place}|{n}"));
        }
        // A typo in the city too: postcode and house number.
        if !a.number.is_empty() && !a.postcode.is_empty() {
            keys.push(format!("Z{}|{}|{}", a.country, a.postcode, a.number));
        }
        // A typo in the last name and one in the street: surname head and house number.
        if !a.number.is_empty() && p.last_compact.len() >= 3 {
            let head: String = p.last_compact.chars().take(3).collect();
            keys.push(format!("H{place}|{}|{head}", a.number));
        }
    }
    // The name alone, wherever the record lives: a typo in the city, or no address at all.
    for n in &name_forms {
        keys.push(format!("F{}|{n}", p.country));
    }
    // The birth date with either name: a person who moved, with a typo in the other name.
    if let Some(b) = &p.birth {
        let date = format!("{:02}{:02}{:02}", b.year % 100, b.month, b.day);
        if !p.last_compact.is_empty() {
            keys.push(format!("DL{date}|{}", p.last_compact));
        }
        if !p.first_key.is_empty() {
            keys.push(format!("DF{date}|{}", p.first_key.compact));
        }
        for a in p.addresses.iter().filter(|a| !a.postcode.is_empty()) {
            keys.push(format!("DP{date}|{}", a.postcode));
        }
    }
    // Postcode with the head of either name: a typo in the street and in one of the names.
    for a in p.addresses.iter().filter(|a| !a.postcode.is_empty()) {
        for name in [&p.last_compact, &p.first_key.compact] {
            if name.len() >= 3 {
                let head: String = name.chars().take(3).collect();
                keys.push(format!("Q{}|{}|{head}", a.country, a.postcode));
            }
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

/// Last name with each canonical first name, the two in alphabetical order, so that swapped
/// names and nicknames meet (ROSSI|GIUSEPPE for Beppe Rossi and for Rossi Giuseppe).
fn name_forms(p: &Prepared) -> Vec<String> {
    if p.last_compact.is_empty() {
        return Vec::new();
    }
    let firsts: Vec<&str> = if p.first_key.is_empty() {
        vec![""]
    } else {
        p.first_key.canonical.iter().map(String::as_str).collect()
    };
    firsts
        .into_iter()
        .map(|f| {
            if f.is_empty() {
                p.last_compact.clone()
            } else if f < p.last_compact.as_str() {
                format!("{f}|{}", p.last_compact)
            } else {
                format!("{}|{f}", p.last_compact)
            }
        })
        .collect()
}

/// Candidate pairs (i < j), each once; `keep` filters them (two-list and incremental modes).
pub fn candidate_pairs(
    records: &[Prepared],
    keep: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Vec<(u32, u32)> {
    let per_record: Vec<Vec<String>> = records.par_iter().map(keys).collect();
    let mut blocks: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, ks) in per_record.into_iter().enumerate() {
        for k in ks {
            blocks.entry(k).or_default().push(i as u32);
        }
    }
    let blocks: Vec<Vec<u32>> = blocks.into_values().filter(|v| v.len() > 1).collect();
    let mut pairs: Vec<(u32, u32)> = blocks
        .par_iter()
        .flat_map_iter(|members| {
            let mut out: Vec<(u32, u32)> = Vec::new();
            if members.len() <= FULL_BLOCK {
                for (x, &i) in members.iter().enumerate() {
                    for &j in &members[x + 1..] {
                        out.push((i.min(j), i.max(j)));
                    }
                }
            } else {
                let mut sorted = members.clone();
                sorted.sort_by(|&i, &j| {
                    let (a, b) = (&records[i as usize], &records[j as usize]);
                    (&a.last_compact, &a.first_key.compact)
                        .cmp(&(&b.last_compact, &b.first_key.compact))
                });
                for (x, &i) in sorted.iter().enumerate() {
                    for &j in sorted.iter().skip(x + 1).take(WINDOW) {
                        out.push((i.min(j), i.max(j)));
                    }
                }
            }
            out.retain(|&(i, j)| keep(i as usize, j as usize));
            out.into_iter()
        })
        .collect();
    pairs.par_sort_unstable();
    pairs.dedup();
    pairs
}
