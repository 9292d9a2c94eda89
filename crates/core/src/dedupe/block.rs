//! Blocking: each record gets a few keys (tax code, phones, e-mails, street and number, name in
//! the city); only records sharing a key are compared. Small blocks are compared in full,
//! large ones (a street of a big city, a switchboard number) by sorted neighbourhood, so the
//! work stays near-linear in the number of records.

use rayon::prelude::*;

use super::intern::Table;
use super::prepare::Prepared;

/// Blocks up to this size are compared pair by pair.
pub const FULL_BLOCK: usize = 40;
/// Larger blocks: each record against the next WINDOW in name order.
pub const WINDOW: usize = 8;

/// The two sizes above, or the bench's `RECAPITO_DEDUPE_FULL_BLOCK` / `RECAPITO_DEDUPE_WINDOW`
/// (to measure what they cost and find, never needed in service).
fn sizes() -> (usize, usize) {
    let var = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|&v: &usize| v >= 1)
            .unwrap_or(default)
    };
    (
        var("RECAPITO_DEDUPE_FULL_BLOCK", FULL_BLOCK),
        var("RECAPITO_DEDUPE_WINDOW", WINDOW),
    )
}

/// How many pairs ahead a partner's line, then its lists and addresses, are asked for.
const PREFETCH_FACTS: usize = 6;
const PREFETCH_LISTS: usize = 3;

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
    // Without a street (a register of people by town or postcode), the last name alone in the
    // place: the first name written another way or missing, and a lone name (in either field)
    // as the last name. With a street, the street and house-number keys above find them.
    for a in p.addresses.iter().filter(|a| a.street.is_empty()) {
        let place = if a.city.is_empty() {
            &a.postcode
        } else {
            &a.city
        };
        let last = if p.last_compact.is_empty() {
            &p.first_key.compact
        } else {
            &p.last_compact
        };
        if !place.is_empty() && !last.is_empty() {
            keys.push(format!("L{}|{place}|{last}", a.country));
        }
    }
    // The name alone, wherever the record lives: a typo in the city, or no address at all.
    for n in &name_forms {
        keys.push(format!("F{}|{n}", p.country));
    }
    // The birth date with either name: a person who moved, with a typo in the other name. One
    // key for both fields, so that swapped names meet too.
    if let Some(b) = &p.birth {
        let date = format!("{:02}{:02}{:02}", b.year % 100, b.month, b.day);
        if !p.last_compact.is_empty() {
            keys.push(format!("DN{date}|{}", p.last_compact));
        }
        if !p.first_key.is_empty() {
            keys.push(format!("DN{date}|{}", p.first_key.compact));
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

/// A blocking key as a number: the keys of a million records are tens of millions, and only
/// their equality matters (a collision of two 64-bit hashes costs one comparison more).
fn hashed(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

/// Record `i`'s blocking keys as entries of `fold_blocks`: three u32 each (the key's high and
/// low halves, the record), which sort as (key, record) do: 12 bytes instead of a padded 16, for
/// the twenty-odd keys of each record (at a million records these entries were the peak of
/// scoring). A streamed job computes them chunk by chunk and drops the prepared records.
pub fn entries(i: u32, p: &Prepared) -> impl Iterator<Item = [u32; 3]> {
    let mut ks: Vec<u64> = keys(p).iter().map(|k| hashed(k)).collect();
    ks.sort_unstable();
    ks.dedup();
    ks.into_iter().map(move |k| [(k >> 32) as u32, k as u32, i])
}

/// Every candidate pair (i < j) once, folded into `A` as it is found (`fold` per pair, `merge`
/// of the parallel parts); `keep` filters them (two-list and incremental modes). The pairs are
/// never all held at once: each record gathers its partners from its blocks (all of a small
/// block, the WINDOW neighbours on each side in name order in a large one), and only what the
/// fold keeps is kept.
/// Read from the records' table and their key entries (`entries`), never the records.
pub fn fold_blocks<A, I, F, M>(
    table: &Table,
    mut entries: Vec<[u32; 3]>,
    keep: &(dyn Fn(usize, usize) -> bool + Sync),
    init: I,
    fold: F,
    merge: M,
) -> A
where
    A: Send,
    I: Fn() -> A + Sync + Send,
    F: Fn(&mut A, u32, u32) + Sync,
    M: Fn(A, A) -> A + Sync + Send,
{
    let n = table.facts.len();
    let (full_block, window) = sizes();
    // Name order, then place (a large block of one name has the people of one street side by
    // side), then position: the order of a large block's sorted neighbourhood.
    let mut order: Vec<u32> = (0..n as u32).collect();
    let place = |i: u32| {
        table
            .addresses(&table.facts[i as usize])
            .first()
            .map(|a| (a.city, a.streets[0]))
            .unwrap_or_default()
    };
    let s = &table.strings;
    order.par_sort_unstable_by(|&i, &j| {
        let (a, b) = (&table.facts[i as usize], &table.facts[j as usize]);
        (s.get(a.last), s.get(a.first), place(i), i).cmp(&(
            s.get(b.last),
            s.get(b.first),
            place(j),
            j,
        ))
    });
    let mut rank = vec![0u32; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i as usize] = r as u32;
    }
    // Every (key, rank) sorted: a block is a run of one key, its members in name order.
    let rank = &rank;
    entries
        .par_iter_mut()
        .for_each(|e| e[2] = rank[e[2] as usize]);
    entries.par_sort_unstable();
    let mut members: Vec<u32> = Vec::new();
    let mut blocks: Vec<(u32, u32)> = Vec::new();
    let mut x = 0;
    while x < entries.len() {
        let mut y = x + 1;
        while y < entries.len() && entries[y][..2] == entries[x][..2] {
            y += 1;
        }
        if y - x > 1 {
            blocks.push((members.len() as u32, (y - x) as u32));
            members.extend(entries[x..y].iter().map(|e| order[e[2] as usize]));
        }
        x = y;
    }
    drop(entries);
    drop(order);
    // Each record's places in `members`, and the block of each place.
    let mut start = vec![0u32; n + 1];
    for &m in &members {
        start[m as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut places = vec![0u32; members.len()];
    let mut block_of = vec![0u32; members.len()];
    for (b, &(s, l)) in blocks.iter().enumerate() {
        for p in s..s + l {
            block_of[p as usize] = b as u32;
            let m = members[p as usize] as usize;
            places[fill[m] as usize] = p;
            fill[m] += 1;
        }
    }
    drop(fill);
    (0..n)
        .into_par_iter()
        .with_min_len(64)
        .fold(
            || (init(), Vec::new()),
            |(mut acc, mut partners): (A, Vec<u32>), i| {
                partners.clear();
                for &p in &places[start[i] as usize..start[i + 1] as usize] {
                    let (s, l) = blocks[block_of[p as usize] as usize];
                    let (s, l, p) = (s as usize, l as usize, p as usize);
                    let range = if l <= full_block {
                        s..s + l
                    } else {
                        p.saturating_sub(window).max(s)..(p + window + 1).min(s + l)
                    };
                    partners.extend(
                        members[range]
                            .iter()
                            .filter(|&&j| j as usize > i && keep(i, j as usize)),
                    );
                }
                partners.sort_unstable();
                partners.dedup();
                // A partner's data is anywhere in memory: asked for a few pairs ahead, its line
                // first, then (once that is there) its lists and addresses.
                for (k, &j) in partners.iter().enumerate() {
                    if let Some(&ahead) = partners.get(k + PREFETCH_FACTS) {
                        table.prefetch_facts(ahead as usize);
                    }
                    if let Some(&near) = partners.get(k + PREFETCH_LISTS) {
                        table.prefetch_lists(near as usize);
                    }
                    fold(&mut acc, i as u32, j);
                }
                (acc, partners)
            },
        )
        .map(|(acc, _)| acc)
        .reduce(&init, &merge)
}
