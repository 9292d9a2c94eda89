//! The comparison of one written street name with one of a register's names: the forms built for
//! each (`NameKey`, kept by the register: built by the foreign register's expander, or by Italy's
//! keys for a municipality), how close two of them are (`score`) and
//! how many typing slips lie between two stems (`typo_edits`).

use crate::register::street::edit_distance;
pub use crate::register::street::NameKey;
use crate::rules::{ChoiceRules, TypoRule};

/// Edits (with transpositions) between two stems, None when more than a typo: one edit from
/// six letters, two from twelve (`ChoiceRules::NONE`; `typo_edits_by` for a country's rule).
pub fn typo_edits(a: &str, b: &str) -> Option<usize> {
    typo_edits_by(a, b, &ChoiceRules::NONE.typo)
}

/// Edits between two stems (`a` written, `b` the register's) as a country's rule allows them. A single edit that cannot change
/// both the first and the last letter (`ends_stand`) keeps the scan of an area cheap. The
/// distance is Italy's (`edit_distance`, bounded).
pub fn typo_edits_by(a: &str, b: &str, rule: &TypoRule) -> Option<usize> {
    // the written stem (`a`) where the country measures a typo's reach on what was written
    let longest = if rule.on_written {
        a.len()
    } else {
        a.len().max(b.len())
    };
    let allowed = rule.allowed(longest);
    if allowed == 0 {
        return None;
    }
    if a.len().abs_diff(b.len()) > allowed {
        return None;
    }
    let first = |s: &str| s.as_bytes().first().copied();
    let last = |s: &str| s.as_bytes().last().copied();
    if rule.ends_stand && allowed == 1 && first(a) != first(b) && last(a) != last(b) {
        return None;
    }
    if rule.digits_alike && digits(a) != digits(b) {
        return None;
    }
    let e = edit_distance(a, b, allowed)?;
    if e >= 2 && longest < rule.two_keep_first_below && first(a) != first(b) {
        return None;
    }
    Some(e)
}

/// The digits of a stem, in order.
fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// How well a written name fits one of the register's names, 0..1. A different street type
/// (`Rue X` for `Avenue X`, `Eichholzhof` for `Eichholzstrasse`) stays below the answer line.
pub fn score(q: &NameKey, s: &NameKey, rules: &ChoiceRules) -> f64 {
    if q.key == s.key {
        return 1.0;
    }
    let same_types = q.types.is_empty() || s.types.is_empty() || q.types == s.types;
    // every word written, run together where the register parts them (`Via Delloro` for Via
    // Dell'Oro: the particle and its word as one; `Strada ComunalePer Spigno` for Strada Comunale
    // per Spigno, the type's word too): the name's own form
    if without_spaces(&q.key).eq(without_spaces(&s.key)) {
        return 0.96;
    }
    if q.core == s.core || q.compact == s.compact {
        return if same_types { 0.96 } else { 0.82 };
    }
    if q.sorted == s.sorted && rules.any_order() {
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
    if typed(q) != typed(s) || !rules.typos() {
    } else if let Some(e) = typo_edits_by(&q.stem, &s.stem, &rules.typo)
        .filter(|_| !rules.typo.particles_alike || particles(q) == particles(s))
    {
        best = 0.96 * typo_fit(e);
    } else if q.tokens.len() > 1 && q.sorted != q.core && rules.any_order() {
        if let Some(e) = typo_edits_by(&q.sorted_compact, &s.sorted_compact, &rules.typo) {
            best = 0.94 * typo_fit(e);
        }
    }
    // a name written without a first name or title: every written word is one of the register's
    if rules.any_order()
        && q.compact.len() >= 5
        && q.compact.len() * 2 >= s.compact.len()
        && q.tokens.iter().all(|t| s.tokens.contains(t))
    {
        best = best.max(0.85 * 0.96);
    }
    best
}

/// The letters of a key without its spaces.
fn without_spaces(key: &str) -> impl Iterator<Item = u8> + '_ {
    key.bytes().filter(|&b| b != b' ')
}

/// How well a name fits through `edits` typos, before the form's weight: each of the first two
/// edits costs 0.03; the edits a request's precision 4 and 5 allow beyond them (`TypoRule::
/// more_from`) cost a thousandth each, so that a name they reach stays above the answer line
/// (`ACCEPT`) and still ranks below a nearer one.
fn typo_fit(edits: usize) -> f64 {
    let e = edits as f64;
    match edits {
        0..=2 => 0.93 - 0.03 * e,
        _ => 0.87 - 0.001 * (e - 2.0),
    }
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
pub fn street_score(q: &NameKey, keys: &[NameKey], rules: &ChoiceRules) -> f64 {
    keys.iter().map(|k| score(q, k, rules)).fold(0.0, f64::max)
}
