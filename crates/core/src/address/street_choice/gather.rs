//! The streets worth deciding among for a written name, scored and ranked: its exact forms in the
//! place first, the typo candidates next, the country's streets sharing a word where the register
//! is national; and, for a suggestion, the streets whose names open with what was typed.

use std::collections::HashSet;

use super::name::{near, street_score, NameKey};
use super::{NamedStreets, StreetPlace};
use crate::normalize::fold;

/// Lowest score of an answered street.
pub const ACCEPT: f64 = 0.83;

/// One street scored for a written name.
pub struct Candidate {
    pub street: u32,
    pub score: f64,
}

/// The rarest core word's streets of the name (None when no word of it is a street's word).
fn rarest_word<'r, R: NamedStreets>(reg: &'r R, q: &NameKey) -> Option<&'r [u32]> {
    q.tokens
        .iter()
        .filter_map(|t| reg.by_word(t))
        .min_by_key(|v| v.len())
}

/// The streets of the register that can fit `q` by a typo or by holding every written word (the
/// forms equal are found by index): the typo index's candidates and the rarest word's streets.
/// None when the name is too short for the typo index (the area is scanned then).
pub(super) fn candidates<R: NamedStreets>(reg: &R, q: &NameKey) -> Option<Vec<u32>> {
    let mut out = reg.by_typo(q)?;
    if let Some(rarest) = rarest_word(reg, q) {
        out.extend(rarest.iter().copied());
        out.sort_unstable();
        out.dedup();
    }
    Some(out)
}

/// The streets of `ids` worth scoring for `q`: near in length, or holding every written word.
fn scan<R: NamedStreets>(reg: &R, q: &NameKey, ids: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = ids
        .iter()
        .copied()
        .filter(|&id| reg.keys(id).iter().any(|k| near(q, k)))
        .collect();
    if let Some(rarest) = rarest_word(reg, q) {
        let wanted: HashSet<u32> = ids.iter().copied().collect();
        out.extend(rarest.iter().copied().filter(|id| wanted.contains(id)));
        out.sort_unstable();
        out.dedup();
    }
    out
}

/// Scores the streets of `ids` for the reading; best first.
pub fn rank<R: NamedStreets>(reg: &R, q: &NameKey, ids: &[u32]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = ids
        .iter()
        .map(|&id| Candidate {
            street: id,
            score: street_score(q, reg.keys(id), reg.rules()),
        })
        .filter(|c| c.score >= 0.6)
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// The streets worth scoring for a name typed in part or with a typo (the suggestions' second
/// try), best first: the typo candidates `keep` lets through, ranked as the choice ranks them.
pub fn ranked_near<R: NamedStreets>(reg: &R, q: &NameKey, keep: &dyn Fn(u32) -> bool) -> Vec<u32> {
    let ids: Vec<u32> = reg
        .by_typo(q)
        .unwrap_or_default()
        .into_iter()
        .filter(|&id| keep(id))
        .collect();
    rank(reg, q, &ids).into_iter().map(|c| c.street).collect()
}

/// The streets ranked for one reading of the name: its exact forms in the place first; the place's
/// typo candidates when no form settles it; where the register is national and the place gave
/// nothing clear, the country's streets sharing a word of the name.
pub(super) fn rank_reading<R: NamedStreets, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    place: &P,
) -> Vec<Candidate> {
    // exact forms first: only a typo needs the place scanned
    let exact: Vec<u32> = reg
        .by_form(q)
        .into_iter()
        .filter(|&id| place.empty() || place.contains(id))
        .collect();
    let mut ranked = rank(reg, q, &exact);
    let settled = ranked.first().is_some_and(|c| c.score >= 0.94)
        && (place.empty() || ranked.iter().any(|c| place.contains(c.street)));
    if !settled {
        let ids: Vec<u32> = match candidates(reg, q) {
            _ if place.empty() => Vec::new(),
            Some(c) => c.into_iter().filter(|&id| place.contains(id)).collect(),
            None => scan(reg, q, place.streets()),
        };
        ranked = rank(reg, q, &ids);
    }
    let clear = ranked.first().is_some_and(|c| c.score >= ACCEPT);
    // the whole country: only streets sharing a word of the name (a typo across the country
    // would answer strangers)
    if !clear && reg.national() {
        let mut ids: Vec<u32> = Vec::new();
        for t in q.core.split(' ') {
            if let Some(v) = reg.by_word(t) {
                if v.len() <= 3000 {
                    ids.extend(v.iter().copied());
                }
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ranked = rank(reg, q, &ids);
    }
    ranked
}

/// Streets `in_place` whose name (any of its names) opens with what was typed, word by word; when
/// none does, the streets a typo of it stands for. One street per name and municipality, at most
/// `limit`, in order: shorter names first (the one typed in full before its longer namesakes),
/// a typo's by rank.
pub fn typed_prefix<R: NamedStreets>(
    reg: &R,
    typed: &str,
    in_place: &dyn Fn(u32) -> bool,
    limit: usize,
) -> Vec<u32> {
    let folded = fold(typed);
    if folded.is_empty() {
        return Vec::new();
    }
    // every typed word opens a word of the name (`bonn` → Rue de Bonnevoie, `r bon` too)
    let words: Vec<&str> = folded.split(' ').collect();
    let opens = |name: &str| {
        let f = fold(name);
        let name_words: Vec<&str> = f.split(' ').collect();
        words
            .iter()
            .all(|w| name_words.iter().any(|n| n.starts_with(w)))
    };
    let mut found: Vec<u32> = (0..reg.street_count() as u32)
        .filter(|&id| in_place(id))
        .filter(|&id| opens(reg.name(id)) || reg.alt_names(id).iter().any(|a| opens(a)))
        .collect();
    if found.is_empty() {
        // a typo: the streets the choice ranks for it, best first
        let key = reg.name_key(typed);
        found = ranked_near(reg, &key, in_place);
    } else {
        found.sort_by_key(|&id| (reg.name(id).len(), id));
    }
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|&id| seen.insert((fold(reg.name(id)), reg.municipality_name(id).to_string())))
        .take(limit)
        .collect()
}
