//! Pairs into groups (union-find, strongest pairs first), in named steps: each record's linking
//! facts (`LinkFacts`), saved groups seeded, pairs linked strongest first where nothing forbids it
//! (`Linking::link`), the roots ordered (`link`), and each group or single written with its record
//! to keep and its consolidated record (`Linked::write`, from `consolidate.rs`).

use std::collections::{BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::consolidate::{
    consolidate, main_record, AddressMerged, Consolidated, DetailMerged, MainRecord,
};
use super::intern::Table;
use super::prepare::{Birth, Prepared};
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

/// What linking reads of one record (not the prepared record: a streamed job links without
/// holding them): its valid tax code consistent with the name, by number (0: none), its birth
/// date, its genders as a mask (M 1, F 2: declared, else the first name's), and whether it
/// names a person (a first name).
#[derive(Debug, Clone, Copy)]
pub struct LinkFacts {
    pub tax: u32,
    pub birth: Option<Birth>,
    pub genders: u8,
    pub person: bool,
}

fn gender_bit(g: Option<char>) -> u8 {
    match g {
        Some('M') => 1,
        Some('F') => 2,
        _ => 0,
    }
}

impl LinkFacts {
    pub fn of_records(records: &[Prepared]) -> Vec<LinkFacts> {
        let mut codes: HashMap<&str, u32> = HashMap::new();
        records
            .iter()
            .map(|p| {
                let tax = p.tax.as_ref().filter(|t| t.consistent).map_or(0, |t| {
                    let next = codes.len() as u32 + 1;
                    *codes.entry(t.code.as_str()).or_insert(next)
                });
                LinkFacts {
                    tax,
                    birth: p.birth,
                    genders: gender_bit(p.gender.or(p.name_gender)),
                    person: !p.first_key.compact.is_empty(),
                }
            })
            .collect()
    }

    /// The same read from the job's table (`intern`), whose numbers stand for the same strings.
    pub fn of_table(table: &Table) -> Vec<LinkFacts> {
        let g = |c: u8| (c != 0).then_some(c as char);
        table
            .facts
            .iter()
            .map(|f| LinkFacts {
                tax: if f.tax_consistent { f.tax } else { 0 },
                birth: f.birth,
                genders: gender_bit(g(f.gender).or(g(f.name_gender))),
                person: f.first != 0,
            })
            .collect()
    }
}

/// A link kept in a group: a saved one (incremental matching) or a pair judged in this job,
/// written out (ids, reasons) only when the group is.
#[derive(Debug, Clone)]
enum Link {
    Saved(Box<PairOut>),
    Judged(Pair),
}

/// The union-find of one job and what each group (by its root) carries.
struct Linking<'a> {
    facts: &'a [LinkFacts],
    uf: UnionFind,
    level: Vec<Option<Level>>,
    reasons: Vec<BTreeSet<String>>,
    links: Vec<Vec<Link>>,
    /// The saved group number a group continues.
    number: Vec<Option<usize>>,
    /// Valid tax codes consistent with the name in each group: two different ones never join,
    /// even through a third record whose code weighs nothing.
    codes: Vec<Vec<u32>>,
    births: Vec<Vec<Birth>>,
    /// The genders of each group as a mask (`LinkFacts::genders`).
    genders: Vec<u8>,
    /// The members of each group (its root alone while empty), to count the links between two.
    grouped: Vec<Vec<u32>>,
    support: f64,
    person_support: f64,
}

/// Each record's linked partners (at or above the level), side by side: `partners[start[i]..start[i + 1]]`.
struct Partners {
    start: Vec<u32>,
    partners: Vec<u32>,
}

impl Partners {
    fn of(&self, i: usize) -> &[u32] {
        &self.partners[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

impl<'a> Linking<'a> {
    fn new(facts: &'a [LinkFacts]) -> Linking<'a> {
        let n = facts.len();
        Linking {
            facts,
            uf: UnionFind::new(n),
            level: vec![None; n],
            reasons: vec![BTreeSet::new(); n],
            links: vec![Vec::new(); n],
            number: vec![None; n],
            codes: facts
                .iter()
                .map(|f| if f.tax != 0 { vec![f.tax] } else { Vec::new() })
                .collect(),
            births: facts
                .iter()
                .map(|f| f.birth.into_iter().collect())
                .collect(),
            genders: facts.iter().map(|f| f.genders).collect(),
            grouped: vec![Vec::new(); n],
            support: super::knob("support", SUPPORT),
            person_support: super::knob("psupport", PERSON_SUPPORT),
        }
    }

    /// Group `gone`'s tax codes, birth dates and genders moved to group `keep`.
    fn merge_facts(&mut self, keep: usize, gone: usize) {
        let moved = std::mem::take(&mut self.codes[gone]);
        self.codes[keep].extend(moved);
        let moved = std::mem::take(&mut self.births[gone]);
        self.births[keep].extend(moved);
        self.genders[keep] |= self.genders[gone];
    }

    /// Saved groups, joined as they were.
    fn seed(&mut self, seeds: &[SeedGroup]) {
        let n = self.facts.len();
        for s in seeds {
            let members: Vec<usize> = s.member_index.iter().copied().filter(|&i| i < n).collect();
            let Some(&root) = members.first() else {
                continue;
            };
            for &m in &members[1..] {
                let r = self.uf.find(m);
                if r != root {
                    self.uf.parent[r] = root;
                    join_members(&mut self.grouped, root, r);
                    self.merge_facts(root, r);
                }
            }
            self.level[root] = Some(s.level);
            self.reasons[root].extend(s.reasons.iter().cloned());
            self.links[root].extend(s.pairs.iter().map(|p| Link::Saved(Box::new(p.clone()))));
            self.number[root] = Some(s.group);
        }
    }

    /// Two groups whose facts forbid one group: two valid tax codes, birth dates that differ
    /// (father and son, through a third record without a date), two genders at probable or
    /// above.
    fn facts_conflict(&self, ra: usize, rb: usize, level: Level) -> bool {
        let differ = |x: u8, y: u8| (x & 1 != 0 && y & 2 != 0) || (x & 2 != 0 && y & 1 != 0);
        self.codes[ra]
            .iter()
            .any(|x| self.codes[rb].iter().any(|y| x != y))
            || self.births[ra].iter().any(|x| {
                self.births[rb]
                    .iter()
                    .any(|y| super::score::births_differ(x, y))
            })
            || (level >= Level::Probable && differ(self.genders[ra], self.genders[rb]))
    }

    /// Two groups meet below certain only where enough of their records are linked: one weak
    /// link (a switchboard number, a namesake) must not chain two groups into one.
    fn enough_support(&mut self, p: &Pair, ra: usize, rb: usize, partners: &Partners) -> bool {
        let size = |r: usize, g: &[Vec<u32>]| g[r].len().max(1);
        let (small, big) = if size(ra, &self.grouped) <= size(rb, &self.grouped) {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let (ns, nb) = (size(small, &self.grouped), size(big, &self.grouped));
        if ns * nb <= 1 {
            return true;
        }
        let list: Vec<u32> = if self.grouped[small].is_empty() {
            vec![small as u32]
        } else {
            self.grouped[small].clone()
        };
        let mut linked = 0usize;
        for m in list {
            for &q in partners.of(m as usize) {
                if self.uf.find(q as usize) == big {
                    linked += 1;
                }
            }
        }
        let needed = if self.facts[p.a as usize].person && self.facts[p.b as usize].person {
            self.person_support
        } else {
            self.support
        };
        (linked as f64) >= needed * (ns * nb) as f64
    }

    /// One pair, strongest first: recorded in its group, or joining two groups when nothing
    /// forbids it.
    fn link(&mut self, p: &Pair, judged: &Judged, partners: &Partners) {
        let (ra, rb) = (self.uf.find(p.a as usize), self.uf.find(p.b as usize));
        if ra == rb {
            // Within an existing group: recorded, but it does not change the weakest link.
            self.links[ra].push(Link::Judged(*p));
            return;
        }
        if self.facts_conflict(ra, rb, p.level) {
            return;
        }
        if p.level < Level::Certain && !self.enough_support(p, ra, rb, partners) {
            return;
        }
        let (keep, gone) = if ra < rb { (ra, rb) } else { (rb, ra) };
        join_members(&mut self.grouped, keep, gone);
        self.uf.parent[gone] = keep;
        self.merge_facts(keep, gone);
        self.level[keep] = [self.level[keep], self.level[gone], Some(p.level)]
            .into_iter()
            .flatten()
            .min();
        let moved = std::mem::take(&mut self.reasons[gone]);
        self.reasons[keep].extend(moved);
        self.reasons[keep].extend(judged.reasons(p).iter().map(|r| r.to_string()));
        let moved = std::mem::take(&mut self.links[gone]);
        self.links[keep].extend(moved);
        self.links[keep].push(Link::Judged(*p));
        self.number[keep] = match (self.number[keep], self.number[gone]) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
    }
}

/// The pairs at or above `min_level`, strongest first (then by position: one order, one answer),
/// and each record's partners among them.
fn ordered_pairs(judged: &Judged, min_level: Level, n: usize) -> (Vec<&Pair>, Partners) {
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
    (order, Partners { start, partners })
}

/// The groups of one job once every pair is linked, roots in output order (seeded groups by
/// their number, then new ones by their first member), members side by side.
pub struct Linked {
    /// (root, members[start..end]) in output order.
    roots: Vec<(u32, u32, u32)>,
    members: Vec<u32>,
    level: Vec<Option<Level>>,
    reasons: Vec<BTreeSet<String>>,
    links: Vec<Vec<Link>>,
    number: Vec<Option<usize>>,
    /// The number the first new group follows.
    next: usize,
}

/// A group or a single, as `Linked::write` gives them out.
pub enum Found {
    Group(Box<Group>),
    Single(Single),
}

/// Every pair at or above `min_level` linked into groups (a group's level is its weakest link).
/// Seeds are saved groups that keep their number; new groups are numbered after `numbered` and
/// the seeds.
pub fn link(
    facts: &[LinkFacts],
    judged: &Judged,
    min_level: Level,
    seeds: &[SeedGroup],
    numbered: usize,
) -> Linked {
    let n = facts.len();
    let mut linking = Linking::new(facts);
    linking.seed(seeds);
    let (order, partners) = ordered_pairs(judged, min_level, n);
    for p in order {
        linking.link(p, judged, &partners);
    }
    drop(partners);
    let Linking {
        mut uf,
        level,
        reasons,
        links,
        number,
        ..
    } = linking;
    // Members by root, side by side (counting sort by root; each root's members ascending).
    let root_of: Vec<u32> = (0..n).map(|i| uf.find(i) as u32).collect();
    drop(uf);
    let mut start = vec![0u32; n + 1];
    for &r in &root_of {
        start[r as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut members = vec![0u32; n];
    for (i, &r) in root_of.iter().enumerate() {
        members[fill[r as usize] as usize] = i as u32;
        fill[r as usize] += 1;
    }
    drop(fill);
    drop(root_of);
    let mut roots: Vec<(u32, u32, u32)> = (0..n)
        .filter(|&r| start[r + 1] > start[r])
        .map(|r| (r as u32, start[r], start[r + 1]))
        .collect();
    // Seeded groups keep their numbers; new ones follow in input order.
    roots.sort_by_key(|&(r, s, _)| {
        let r = r as usize;
        (number[r].is_none(), number[r], members[s as usize])
    });
    let next = seeds
        .iter()
        .map(|s| s.group)
        .max()
        .unwrap_or(0)
        .max(numbered);
    Linked {
        roots,
        members,
        level,
        reasons,
        links,
        number,
        next,
    }
}

impl Linked {
    /// The roots in output order, each with its members.
    pub fn groups(&self) -> impl Iterator<Item = &[u32]> + '_ {
        self.roots
            .iter()
            .map(|&(_, s, e)| &self.members[s as usize..e as usize])
    }

    /// Each group and single in output order to `out`, with its record to keep and its
    /// consolidated record. `records` gives the prepared record of each member of a group and of
    /// each single that repeats a detail (`internal_duplicate`); `ids` and `internal` those of
    /// every record. A streamed job loads the records a few groups at a time: `range` limits the
    /// call to those roots (positions in output order).
    pub fn write<R>(
        &mut self,
        range: std::ops::Range<usize>,
        records: &R,
        ids: &dyn Fn(usize) -> Value,
        internal: &dyn Fn(usize) -> bool,
        judged: &Judged,
        out: &mut dyn FnMut(Found),
    ) where
        R: std::ops::Index<usize, Output = Prepared> + ?Sized,
    {
        for k in range {
            let (r, s, e) = self.roots[k];
            let r = r as usize;
            let m: Vec<usize> = self.members[s as usize..e as usize]
                .iter()
                .map(|&i| i as usize)
                .collect();
            if m.len() == 1 {
                let i = m[0];
                let dup = internal(i);
                out(Found::Single(Single {
                    id: ids(i),
                    index: i,
                    outcome: if dup {
                        vec!["INTERNAL_DUPLICATE"]
                    } else {
                        vec![]
                    },
                    record: dup.then(|| Box::new(consolidate(records, &m, i))),
                }));
                continue;
            }
            let group = self.number[r].unwrap_or_else(|| {
                self.next += 1;
                self.next
            });
            let main = main_record(records, &m);
            let mut pairs: Vec<PairOut> = std::mem::take(&mut self.links[r])
                .into_iter()
                .map(|l| match l {
                    Link::Saved(p) => *p,
                    Link::Judged(p) => {
                        let (a, b) = (p.a as usize, p.b as usize);
                        PairOut {
                            a: records[a].id.clone(),
                            b: records[b].id.clone(),
                            a_index: a,
                            b_index: b,
                            level: p.level,
                            score: p.score,
                            reasons: judged.reasons(&p).iter().map(|r| r.to_string()).collect(),
                        }
                    }
                })
                .collect();
            pairs.sort_by_key(|p| (p.a_index, p.b_index));
            out(Found::Group(Box::new(Group {
                group,
                members: m.iter().map(|&i| records[i].id.clone()).collect(),
                member_index: m.clone(),
                level: self.level[r].unwrap_or(Level::Ambiguous),
                reasons: std::mem::take(&mut self.reasons[r]).into_iter().collect(),
                pairs,
                record: consolidate(records, &m, main.index),
                main_record: main,
            })));
        }
    }

    pub fn len(&self) -> usize {
        self.roots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }
}

/// Groups from the pairs at or above `min_level`; a group's level is its weakest link. Seeds are
/// saved groups that keep their number; new groups are numbered after `numbered` and the seeds.
pub fn build(
    records: &[Prepared],
    judged: &Judged,
    min_level: Level,
    seeds: &[SeedGroup],
    numbered: usize,
) -> (Vec<Group>, Vec<Single>) {
    let facts = LinkFacts::of_records(records);
    let mut linked = link(&facts, judged, min_level, seeds, numbered);
    drop(facts);
    let mut groups: Vec<Group> = Vec::new();
    let mut singles: Vec<Single> = Vec::new();
    let all = 0..linked.len();
    linked.write(
        all,
        records,
        &|i| records[i].id.clone(),
        &|i| records[i].internal_duplicate,
        judged,
        &mut |found| match found {
            Found::Group(g) => groups.push(*g),
            Found::Single(s) => singles.push(s),
        },
    );
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
