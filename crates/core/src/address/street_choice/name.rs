//! The comparison of one written street name with one of a register's names: the forms built for
//! each (`NameKey`, kept by the register: built by the foreign register's expander, or by Italy's
//! keys for a municipality), how close two of them are (`score`) and
//! how many typing slips lie between two stems (`typo_edits`).

use crate::register::street::edit_distance;
pub use crate::register::street::NameKey;

/// Edits (with transpositions) between two stems, None when more than a typo: one edit from
/// six letters, two from twelve. A single edit cannot change both the first and the last letter,
/// which keeps the scan of an area cheap. The distance is Italy's (`edit_distance`, bounded).
pub fn typo_edits(a: &str, b: &str) -> Option<usize> {
    let longest = a.len().max(b.len());
    let allowed = match longest {
        0..=5 => return None,
        6..=11 => 1,
        _ => 2,
    };
    if a.len().abs_diff(b.len()) > allowed {
        return None;
    }
    if allowed == 1
        && a.as_bytes().first() != b.as_bytes().first()
        && a.as_bytes().last() != b.as_bytes().last()
    {
        return None;
    }
    edit_distance(a, b, allowed)
}

/// How well a written name fits one of the register's names, 0..1. A different street type
/// (`Rue X` for `Avenue X`, `Eichholzhof` for `Eichholzstrasse`) stays below the answer line.
pub fn score(q: &NameKey, s: &NameKey) -> f64 {
    if q.key == s.key {
        return 1.0;
    }
    let same_types = q.types.is_empty() || s.types.is_empty() || q.types == s.types;
    if q.core == s.core || q.compact == s.compact {
        return if same_types { 0.96 } else { 0.82 };
    }
    if q.sorted == s.sorted {
        return if same_types { 0.94 } else { 0.8 };
    }
    if !same_types {
        return 0.0;
    }
    if q.stem == s.stem {
        // the same name with another concatenated type
        return 0.82;
    }
    let mut best = 0.0f64;
    // a typo is corrected only between names that both carry a type or both lack one
    // (`Am Schank` is not `Schangstrasse`)
    let typed = |k: &NameKey| !k.types.is_empty() || k.stem != k.compact;
    if typed(q) != typed(s) {
    } else if let Some(e) = typo_edits(&q.stem, &s.stem).filter(|_| particles(q) == particles(s)) {
        best = 0.96 * (0.93 - 0.03 * e as f64);
    } else if q.tokens.len() > 1 && q.sorted != q.core {
        if let Some(e) = typo_edits(&q.sorted_compact, &s.sorted_compact) {
            best = 0.94 * (0.93 - 0.03 * e as f64);
        }
    }
    // a name written without a first name or title: every written word is one of the register's
    if q.compact.len() >= 5
        && q.compact.len() * 2 >= s.compact.len()
        && q.tokens.iter().all(|t| s.tokens.contains(t))
    {
        best = best.max(0.85 * 0.96);
    }
    best
}

/// The words of a name that are neither its type nor its core (`IM` of `Im Winkel`, `DE` of
/// `Rue de Bonnevoie`): a typo is corrected only on a name otherwise written whole, since a typo
/// and a missing word are two differences (`Wenkel` is not `Im Winkel`).
fn particles(k: &NameKey) -> usize {
    let types = k.types.split(' ').filter(|t| !t.is_empty()).count();
    k.key
        .split(' ')
        .count()
        .saturating_sub(k.tokens.len() + types)
}

/// Whether a name can fit by a typo or a word order (the forms equal are found by index).
pub(super) fn near(q: &NameKey, k: &NameKey) -> bool {
    k.stem.len().abs_diff(q.stem.len()) <= 2
        || k.sorted_compact.len().abs_diff(q.sorted_compact.len()) <= 2
}

/// How well a written name fits a street: the best of its names (`keys`, its name then its
/// other names).
pub fn street_score(q: &NameKey, keys: &[NameKey]) -> f64 {
    keys.iter().map(|k| score(q, k)).fold(0.0, f64::max)
}
