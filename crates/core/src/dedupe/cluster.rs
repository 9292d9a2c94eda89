//! Pairs into groups (union-find, strongest pairs first), the record to keep and why, and the
//! consolidated record: best name, union of addresses, phones and e-mails with provenance.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::prepare::{same_place, AddressOut, Prepared};
use super::score::{Judged, Level, Pair};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PairOut {
    pub a: Value,
    pub b: Value,
    pub a_index: usize,
    pub b_index: usize,
    pub level: Level,
    pub score: u8,
    pub reasons: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MainRecord {
    pub id: Value,
    pub index: usize,
    /// valid_tax_code, most_complete or first_in_list.
    pub reason: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AddressMerged {
    #[serde(flatten)]
    pub address: AddressOut,
    pub provenance: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DetailMerged {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub label: Option<String>,
    pub type_normalized: &'static str,
    pub value: String,
    pub provenance: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Consolidated {
    pub last_name: String,
    pub first_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub gender: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tax_code: Option<String>,
    pub addresses: Vec<AddressMerged>,
    pub phones: Vec<DetailMerged>,
    pub emails: Vec<DetailMerged>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Group {
    /// 1-based number, stable for the saved job (review and incremental matching use it).
    pub group: usize,
    pub members: Vec<Value>,
    pub member_index: Vec<usize>,
    pub level: Level,
    pub reasons: Vec<String>,
    pub pairs: Vec<PairOut>,
    pub main_record: MainRecord,
    pub record: Consolidated,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Single {
    pub id: Value,
    pub index: usize,
    pub outcome: Vec<&'static str>,
    // Boxed: most records of a long list are singles without one, and the answer holds them all.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub record: Option<Box<Consolidated>>,
}

/// A group of a saved job, fed back for incremental matching.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SeedGroup {
    pub group: usize,
    pub member_index: Vec<usize>,
    pub level: Level,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub reasons: Vec<String>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub pairs: Vec<PairOut>,
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
        }
    }
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
}

/// Share of the pairs between two groups that must be linked for a link below certain to join
/// them (average linkage on the links): a record joins a group through one weak link only when
/// the group is small.
const SUPPORT: f64 = 0.3;
/// The same for two groups of people (a first name on both records of the link): a person's
/// records carry two names and often a birth date, while one organisation's sites share its name,
/// its switchboard and its mailbox, so a weak link between two people's records chains less.
const PERSON_SUPPORT: f64 = 0.05;

/// Groups from the pairs at or above `min_level`; a group's level is its weakest link. Seeds are
/// saved groups that keep their number; new groups are numbered after `numbered` and the seeds.
pub fn build(
    records: &[Prepared],
    judged: &Judged,
    min_level: Level,
    seeds: &[SeedGroup],
    numbered: usize,
) -> (Vec<Group>, Vec<Single>) {
    let n = records.len();
    let mut uf = UnionFind::new(n);
    // Per root: level, reasons, pairs, the seed number it continues.
    let mut level: Vec<Option<Level>> = vec![None; n];
    let mut reasons: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
    let mut links: Vec<Vec<PairOut>> = vec![Vec::new(); n];
    let mut number: Vec<Option<usize>> = vec![None; n];
    // Valid tax codes consistent with the name in each group: two different ones never join,
    // even through a third record whose code weighs nothing.
    let mut codes: Vec<Vec<&str>> = records
        .iter()
        .map(|p| {
            p.tax
                .as_ref()
                .filter(|t| t.consistent)
                .map(|t| vec![t.code.as_str()])
                .unwrap_or_default()
        })
        .collect();

    let mut births: Vec<Vec<super::prepare::Birth>> = records
        .iter()
        .map(|p| p.birth.into_iter().collect())
        .collect();
    // The genders of each group as a mask, one bit each (`prepare` keeps only M and F): a list
    // per record was a million small allocations.
    let bit = |g: Option<char>| match g {
        Some('M') => 1u8,
        Some('F') => 2,
        _ => 0,
    };
    let mut genders: Vec<u8> = records
        .iter()
        .map(|p| bit(p.gender.or(p.name_gender)))
        .collect();
    // Some gender of one group differs from some gender of the other.
    let differ = |x: u8, y: u8| (x & 1 != 0 && y & 2 != 0) || (x & 2 != 0 && y & 1 != 0);
    // The members of each group (its root alone while empty), to count the links between two.
    let mut grouped: Vec<Vec<u32>> = vec![Vec::new(); n];
    let support = super::knob("support", SUPPORT);
    let person_support = super::knob("psupport", PERSON_SUPPORT);
    for s in seeds {
        let members: Vec<usize> = s.member_index.iter().copied().filter(|&i| i < n).collect();
        let Some(&root) = members.first() else {
            continue;
        };
        for &m in &members[1..] {
            let r = uf.find(m);
            if r != root {
                uf.parent[r] = root;
                join_members(&mut grouped, root, r);
                let moved = std::mem::take(&mut codes[r]);
                codes[root].extend(moved);
                let moved = std::mem::take(&mut births[r]);
                births[root].extend(moved);
                genders[root] |= genders[r];
            }
        }
        level[root] = Some(s.level);
        reasons[root].extend(s.reasons.iter().cloned());
        links[root].extend(s.pairs.iter().cloned());
        number[root] = Some(s.group);
    }

    let mut order: Vec<&Pair> = judged
        .pairs
        .iter()
        .filter(|p| p.level >= min_level)
        .collect();
    order.sort_by(|x, y| {
        (y.level, y.score)
            .cmp(&(x.level, x.score))
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    // Each record's linked partners (at or above the level), side by side.
    let mut start = vec![0u32; n + 1];
    for p in &order {
        start[p.a as usize + 1] += 1;
        start[p.b as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut partners = vec![0u32; start[n] as usize];
    for p in &order {
        for (x, y) in [(p.a, p.b), (p.b, p.a)] {
            partners[fill[x as usize] as usize] = y;
            fill[x as usize] += 1;
        }
    }
    drop(fill);
    for p in order {
        let (a, b) = (p.a as usize, p.b as usize);
        let (ra, rb) = (uf.find(a), uf.find(b));
        let pair_reasons = judged.reasons(p);
        let out = PairOut {
            a: records[a].id.clone(),
            b: records[b].id.clone(),
            a_index: a,
            b_index: b,
            level: p.level,
            score: p.score,
            reasons: pair_reasons.iter().map(|r| r.to_string()).collect(),
        };
        if ra == rb {
            // Within an existing group: recorded, but it does not change the weakest link.
            links[ra].push(out);
            continue;
        }
        if codes[ra].iter().any(|x| codes[rb].iter().any(|y| x != y)) {
            continue;
        }
        // Birth dates that differ never meet in one group (father and son, through a third
        // record without a date); two genders not at probable or above either.
        if births[ra]
            .iter()
            .any(|x| births[rb].iter().any(|y| super::score::births_differ(x, y)))
            || (p.level >= Level::Probable && differ(genders[ra], genders[rb]))
        {
            continue;
        }
        // Two groups meet below certain only where enough of their records are linked: one
        // weak link (a switchboard number, a namesake) must not chain two groups into one.
        if p.level < Level::Certain {
            let size = |r: usize, g: &[Vec<u32>]| g[r].len().max(1);
            let (small, big) = if size(ra, &grouped) <= size(rb, &grouped) {
                (ra, rb)
            } else {
                (rb, ra)
            };
            let (ns, nb) = (size(small, &grouped), size(big, &grouped));
            if ns * nb > 1 {
                let list: Vec<u32> = if grouped[small].is_empty() {
                    vec![small as u32]
                } else {
                    grouped[small].clone()
                };
                let mut linked = 0usize;
                for m in list {
                    for &q in &partners[start[m as usize] as usize..start[m as usize + 1] as usize]
                    {
                        if uf.find(q as usize) == big {
                            linked += 1;
                        }
                    }
                }
                let people = |i: usize| !records[i].first_key.compact.is_empty();
                let needed = if people(a) && people(b) {
                    person_support
                } else {
                    support
                };
                if (linked as f64) < needed * (ns * nb) as f64 {
                    continue;
                }
            }
        }
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        join_members(&mut grouped, keep, gone);
        uf.parent[gone] = keep;
        let moved = std::mem::take(&mut codes[gone]);
        codes[keep].extend(moved);
        let moved = std::mem::take(&mut births[gone]);
        births[keep].extend(moved);
        genders[keep] |= genders[gone];
        let joined = [level[keep], level[gone], Some(p.level)]
            .into_iter()
            .flatten()
            .min();
        level[keep] = joined;
        let moved = std::mem::take(&mut reasons[gone]);
        reasons[keep].extend(moved);
        reasons[keep].extend(pair_reasons.iter().map(|r| r.to_string()));
        let moved = std::mem::take(&mut links[gone]);
        links[keep].extend(moved);
        links[keep].push(out);
        number[keep] = match (number[keep], number[gone]) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
    }

    let mut members: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        let r = uf.find(i);
        members[r].push(i);
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut singles: Vec<Single> = Vec::new();
    let mut next = seeds
        .iter()
        .map(|s| s.group)
        .max()
        .unwrap_or(0)
        .max(numbered);
    let mut roots: Vec<usize> = (0..n).filter(|&r| !members[r].is_empty()).collect();
    // Seeded groups keep their numbers; new ones follow in input order.
    roots.sort_by_key(|&r| (number[r].is_none(), number[r], members[r][0]));
    for r in roots {
        let m = &members[r];
        if m.len() == 1 {
            let p = &records[m[0]];
            singles.push(Single {
                id: p.id.clone(),
                index: m[0],
                outcome: if p.internal_duplicate {
                    vec!["INTERNAL_DUPLICATE"]
                } else {
                    vec![]
                },
                record: p
                    .internal_duplicate
                    .then(|| Box::new(consolidate(records, m, m[0]))),
            });
            continue;
        }
        let group = number[r].unwrap_or_else(|| {
            next += 1;
            next
        });
        let main = main_record(records, m);
        let mut pairs = std::mem::take(&mut links[r]);
        pairs.sort_by_key(|p| (p.a_index, p.b_index));
        groups.push(Group {
            group,
            members: m.iter().map(|&i| records[i].id.clone()).collect(),
            member_index: m.clone(),
            level: level[r].unwrap_or(Level::Ambiguous),
            reasons: std::mem::take(&mut reasons[r]).into_iter().collect(),
            pairs,
            record: consolidate(records, m, main.index),
            main_record: main,
        });
    }
    groups.sort_by_key(|g| g.group);
    singles.sort_by_key(|s| s.index);
    (groups, singles)
}

/// The members of group `gone` moved to group `keep` (an empty list is the root alone).
fn join_members(grouped: &mut [Vec<u32>], keep: usize, gone: usize) {
    let moved = if grouped[gone].is_empty() {
        vec![gone as u32]
    } else {
        std::mem::take(&mut grouped[gone])
    };
    if grouped[keep].is_empty() {
        grouped[keep].push(keep as u32);
    }
    grouped[keep].extend(moved);
}

fn completeness(p: &Prepared) -> usize {
    let full_address = p
        .addresses
        .iter()
        .any(|a| !a.street.is_empty() && !a.number.is_empty());
    let named = !p.first_key.is_empty() && p.first_key.compact.len() > 1;
    let postcodes = p
        .addresses
        .iter()
        .filter(|a| !a.postcode.is_empty())
        .count();
    3 * full_address as usize
        + named as usize
        + p.addresses.len()
        + postcodes
        + p.phones.len()
        + p.emails.len()
}

/// The record to keep: a valid tax code consistent with the name first, then the most
/// complete record (full address, first name, postcodes, number of details), then the first in the list.
pub fn main_record(records: &[Prepared], members: &[usize]) -> MainRecord {
    let taxed: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| records[i].tax.as_ref().is_some_and(|t| t.consistent))
        .collect();
    let pool: &[usize] = if taxed.is_empty() || taxed.len() == members.len() {
        members
    } else {
        &taxed
    };
    let best = pool
        .iter()
        .map(|&i| completeness(&records[i]))
        .max()
        .unwrap_or(0);
    let top: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| completeness(&records[i]) == best)
        .collect();
    let index = top[0];
    let reason = if pool.len() < members.len() {
        "valid_tax_code"
    } else if top.len() == 1 && members.len() > 1 {
        "most_complete"
    } else {
        "first_in_list"
    };
    MainRecord {
        id: records[index].id.clone(),
        index,
        reason,
    }
}

/// Best name: a full first name (not a nickname or an initial), preferring the main record.
fn best_name(records: &[Prepared], members: &[usize], main: usize) -> usize {
    let rank = |i: usize| {
        let p = &records[i];
        let k = &p.first_key;
        (
            p.has_name(),
            k.compact.len() > 1,
            k.canonical.len() == 1 && k.known,
            k.canonical.len() == 1,
            i == main,
            k.compact.len(),
        )
    };
    members
        .iter()
        .copied()
        .max_by_key(|&i| (rank(i), std::cmp::Reverse(i)))
        .unwrap_or(main)
}

pub fn consolidate(records: &[Prepared], members: &[usize], main: usize) -> Consolidated {
    let named = &records[best_name(records, members, main)];
    // Main record first, so its forms and labels win ties.
    let order: Vec<usize> = std::iter::once(main)
        .chain(members.iter().copied().filter(|&i| i != main))
        .collect();
    let mut addresses: Vec<(super::prepare::Addr, Vec<Value>)> = Vec::new();
    let mut phones: Vec<DetailMerged> = Vec::new();
    let mut normalized_phones: Vec<String> = Vec::new();
    let mut emails: Vec<DetailMerged> = Vec::new();
    let mut normalized_emails: Vec<String> = Vec::new();
    for &i in &order {
        let p = &records[i];
        for a in &p.addresses {
            match addresses.iter_mut().find(|(x, _)| same_place(x, a)) {
                Some((x, prov)) => {
                    push_unique(prov, &p.id);
                    if x.shown.label.is_none() {
                        x.shown.label = a.shown.label.clone();
                        x.shown.type_normalized = a.shown.type_normalized;
                    }
                }
                None => addresses.push((a.clone(), vec![p.id.clone()])),
            }
        }
        for (list, seen, details) in [
            (&mut phones, &mut normalized_phones, &p.phones),
            (&mut emails, &mut normalized_emails, &p.emails),
        ] {
            for d in details {
                match seen.iter().position(|v| *v == d.value) {
                    Some(k) => {
                        push_unique(&mut list[k].provenance, &p.id);
                        if list[k].label.is_none() && d.label.is_some() {
                            list[k].label = d.label.clone();
                            list[k].type_normalized = d.type_normalized;
                        }
                    }
                    None => {
                        seen.push(d.value.clone());
                        list.push(DetailMerged {
                            label: d.label.clone(),
                            type_normalized: d.type_normalized,
                            value: d.original.trim().to_string(),
                            provenance: vec![p.id.clone()],
                        });
                    }
                }
            }
        }
    }
    let tax = order
        .iter()
        .filter_map(|&i| records[i].tax.as_ref())
        .find(|t| t.consistent)
        .map(|t| t.code.clone());
    let gender = order
        .iter()
        .find_map(|&i| records[i].gender)
        .map(|g| g.to_string());
    Consolidated {
        last_name: named.last_shown.clone(),
        first_name: named.first_shown.clone(),
        gender,
        tax_code: tax,
        addresses: addresses
            .into_iter()
            .map(|(a, provenance)| AddressMerged {
                address: a.shown,
                provenance,
            })
            .collect(),
        phones,
        emails,
    }
}

fn push_unique(list: &mut Vec<Value>, id: &Value) {
    if !list.contains(id) {
        list.push(id.clone());
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dedupe::tests::register;

    fn pair(a: u32, b: u32, level: Level) -> Pair {
        Pair {
            a,
            b,
            level,
            score: 70,
            reasons: 0,
        }
    }

    /// Four records linked at certain, a fifth linked to one of them only, below certain: one
    /// weak link does not chain it in; linked to two of the four it joins.
    #[test]
    fn one_weak_link_does_not_chain_a_record_into_a_group() {
        let Some(reg) = register() else { return };
        let records: Vec<_> = (0..5)
            .map(|i| json!({"id": i, "last_name": format!("Sede {i}")}))
            .collect();
        let records = crate::dedupe::prepare_all(
            reg,
            serde_json::from_value(json!(records)).unwrap(),
            0,
            Default::default(),
        );
        let mut pairs = Vec::new();
        for a in 0..4 {
            for b in a + 1..4 {
                pairs.push(pair(a, b, Level::Certain));
            }
        }
        pairs.push(pair(3, 4, Level::Probable));
        let mut judged = Judged {
            pairs,
            reasons: vec![vec![]],
            model: None,
        };
        let (groups, singles) = build(&records, &judged, Level::Probable, &[], 0);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].member_index, vec![0, 1, 2, 3]);
        assert_eq!(singles.len(), 1);
        judged.pairs.push(pair(2, 4, Level::Probable));
        let (groups, singles) = build(&records, &judged, Level::Probable, &[], 0);
        assert_eq!(groups[0].member_index, vec![0, 1, 2, 3, 4]);
        assert!(singles.is_empty());
        // Two records alone meet on their one link, whatever its level.
        let judged = Judged {
            pairs: vec![pair(0, 1, Level::Ambiguous)],
            reasons: vec![vec![]],
            model: None,
        };
        let (groups, _) = build(&records, &judged, Level::Ambiguous, &[], 0);
        assert_eq!(groups[0].member_index, vec![0, 1]);
    }
}
