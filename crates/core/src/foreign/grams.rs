//! A bigram index of street names for typo-tolerant lookup without scanning an area: a name
//! within `k` edits (with transpositions) of the written one shares all but at most `3k` of the
//! written name's distinct bigrams (an edit breaks at most three of them), so the streets that
//! share fewer cannot be a typo of it and are never scored.

use std::collections::HashMap;

use super::text::NameKey;

fn bigrams(s: &str, out: &mut Vec<u64>) {
    let start = out.len();
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if let Some(p) = prev {
            out.push((u64::from(p) << 32) | u64::from(c));
        }
        prev = Some(c);
    }
    out[start..].sort_unstable();
    let mut v = out.split_off(start);
    v.dedup();
    out.extend(v);
}

/// Distinct bigrams of a string.
fn distinct(s: &str) -> Vec<u64> {
    let mut v = Vec::new();
    bigrams(s, &mut v);
    v
}

#[derive(Debug, Default)]
pub struct GramIndex {
    postings: HashMap<u64, Vec<u32>>,
    streets: usize,
}

/// Edits a typo may make in a name as long as `len`, as `street_choice::name::typo_edits` allows them (the
/// register's name may be two letters longer).
fn allowed_edits(len: usize) -> usize {
    if len + 2 >= 12 {
        2
    } else {
        1
    }
}

impl GramIndex {
    /// Every street's bigrams: of the stem and of the sorted compact core of each of its names.
    pub fn build<'a>(streets: impl Iterator<Item = &'a [NameKey]>) -> GramIndex {
        let mut postings: HashMap<u64, Vec<u32>> = HashMap::new();
        let mut n = 0;
        let mut grams = Vec::new();
        for (id, keys) in streets.enumerate() {
            n = id + 1;
            grams.clear();
            for k in keys {
                bigrams(&k.stem, &mut grams);
                bigrams(&k.sorted_compact, &mut grams);
            }
            grams.sort_unstable();
            grams.dedup();
            for g in &grams {
                postings.entry(*g).or_default().push(id as u32);
            }
        }
        GramIndex {
            postings,
            streets: n,
        }
    }

    /// The streets that can be a typo of `q` (by stem or by sorted core); None when the written
    /// name is too short for bigrams to tell (the caller scans then).
    pub fn candidates(&self, q: &NameKey) -> Option<Vec<u32>> {
        // the sorted core matters only for a name of several words written in another order
        let sorted_differs = q.tokens.len() > 1 && q.sorted != q.core;
        let forms: Vec<(Vec<u64>, usize)> = std::iter::once(&q.stem)
            .chain(sorted_differs.then_some(&q.sorted_compact))
            .map(|f| {
                let g = distinct(f);
                let lost = 3 * allowed_edits(f.chars().count());
                let need = g.len().saturating_sub(lost);
                (g, need)
            })
            .collect();
        if forms.iter().any(|(_, need)| *need < 2) {
            return None;
        }
        thread_local! {
            static COUNTS: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        COUNTS.with(|counts| {
            let mut counts = counts.borrow_mut();
            if counts.len() < self.streets {
                counts.resize(self.streets, 0);
            }
            let mut out = Vec::new();
            let mut touched: Vec<u32> = Vec::new();
            for (grams, need) in &forms {
                for g in grams {
                    for &id in self.postings.get(g).map(Vec::as_slice).unwrap_or(&[]) {
                        let c = &mut counts[id as usize];
                        if *c == 0 {
                            touched.push(id);
                        }
                        *c += 1;
                    }
                }
                for &id in &touched {
                    if usize::from(counts[id as usize]) >= *need {
                        out.push(id);
                    }
                    counts[id as usize] = 0;
                }
                touched.clear();
            }
            out.sort_unstable();
            out.dedup();
            Some(out)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::foreign::text::Expander;

    #[test]
    fn a_typo_shares_enough_bigrams_and_a_stranger_does_not() {
        let e = Expander::default();
        let names = ["Rue de Bonnevoie", "Rue de Hollerich", "Avenue de la Gare"];
        let keys: Vec<Vec<NameKey>> = names.iter().map(|n| vec![e.name_key(n)]).collect();
        let idx = GramIndex::build(keys.iter().map(Vec::as_slice));
        let typo = e.name_key("Rue de Bonnevoei");
        assert_eq!(idx.candidates(&typo), Some(vec![0]));
        assert_eq!(idx.candidates(&e.name_key("Rue de Strassen")), Some(vec![]));
    }
}
