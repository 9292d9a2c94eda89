//! Comparison forms of street names. The register and what people type go through the same
//! functions, so two spellings of one street meet on the same key: `S. Giovanni` and
//! `San Giovanni`, `XX Settembre` and `Venti Settembre`, `Gen. Cantore` and `Generale Cantore`.

use std::borrow::Cow;

use super::{italy, CountryRules};
use crate::normalize::fold;

/// Titles and particles as Italy's rules know them (see `rules`).
pub fn is_title(w: &str) -> bool {
    italy().is_title(w)
}

pub fn is_particle(w: &str) -> bool {
    italy().is_particle(w)
}

/// Canonical tokens of a street text (type included or not): folded, abbreviations of saints,
/// titles and numbers written out one way. Particles are kept (see `loose_tokens`).
pub fn canonical_tokens(text: &str) -> Vec<String> {
    let rules = italy();
    let folded = fold(text);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied();
        // two-token abbreviations that folding split at the dot: F.LLI, N.S., SS.MA
        if let Some(joined) =
            next.and_then(|n| rules.joined_abbreviation(w, n, words.len() > i + 2))
        {
            out.extend(joined.iter().map(|s| s.to_string()));
            i += 2;
            continue;
        }
        // `Ercole I d'Este`, `Umberto I`: after a word that is no particle, `I` is the number
        if w == "I" && i >= 1 && !rules.is_particle(words[i - 1]) {
            out.push("1".to_string());
            i += 1;
            continue;
        }
        let next_is_month = next.is_some_and(|n| rules.is_month(n));
        let last_of_many = next.is_none() && i >= 1;
        out.push(canonical_word(rules, w, next_is_month, last_of_many).to_string());
        i += 1;
    }
    out
}

/// The country's form of a word, else its Roman numeral's value (`XX` → `20`).
fn canonical_word<'w>(
    rules: &dyn CountryRules,
    w: &'w str,
    next_is_month: bool,
    last_of_many: bool,
) -> Cow<'w, str> {
    if let Some(c) = rules.canonical_word(w, next_is_month, last_of_many) {
        return c;
    }
    // `2º`, `1ª`: the ordinal indicator is part of the number (`2°` folds to `2` already)
    if let Some(n) = w
        .strip_suffix(['º', 'ª'])
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return Cow::Borrowed(n);
    }
    if w.len() >= 2 || next_is_month {
        if let Some(n) = roman(w) {
            return Cow::Owned(n.to_string());
        }
    }
    Cow::Borrowed(w)
}

/// Whether a word is a Roman numeral of two letters or more (`II`, `XXIII`): kept in capitals.
pub fn is_roman(word: &str) -> bool {
    let up = word.to_uppercase();
    up.len() >= 2 && roman(&up).is_some()
}

/// Strict Roman numerals made of I, V, X, L up to 89 (`XX`, `XXIV`, `IV`).
fn roman(w: &str) -> Option<u32> {
    if w.is_empty() || !w.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L')) {
        return None;
    }
    let value = |c: char| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        _ => 50,
    };
    let chars: Vec<u32> = w.chars().map(value).collect();
    let mut total = 0i32;
    for (i, &v) in chars.iter().enumerate() {
        if chars.get(i + 1).is_some_and(|&n| n > v) {
            total -= v as i32;
        } else {
            total += v as i32;
        }
    }
    let total = u32::try_from(total).ok().filter(|t| *t > 0)?;
    // strictness: the canonical spelling of the value must be what was written
    (to_roman(total) == w).then_some(total)
}

fn to_roman(mut n: u32) -> String {
    let table = [
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut s = String::new();
    for (v, r) in table {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

/// The key for an exact match: every canonical token, type included, no spaces.
pub fn full_key(text: &str) -> String {
    canonical_tokens(text).concat()
}

/// Name tokens without particles (type excluded by the caller).
pub fn loose_tokens(name: &str) -> Vec<String> {
    let tokens = canonical_tokens(name);
    let kept: Vec<String> = tokens.iter().filter(|t| !is_particle(t)).cloned().collect();
    if kept.is_empty() {
        tokens
    } else {
        kept
    }
}

/// The key for a match without type and particles; also the fuzzy index's key.
pub fn loose_key(name: &str) -> String {
    loose_tokens(name).concat()
}

/// The key for a match in any word order.
pub fn sorted_key(name: &str) -> String {
    let mut t = loose_tokens(name);
    t.sort();
    t.join(" ")
}

/// The comparison form dedupe uses: canonical type and name, then the house number.
pub fn address_key(street_type: &str, name: &str, house_number: &str) -> String {
    let street_type = italy().street_type(street_type).unwrap_or(street_type);
    let mut tokens = canonical_tokens(&format!("{street_type} {name}"));
    let number = fold(house_number).replace(' ', "");
    if !number.is_empty() {
        tokens.push(number);
    }
    tokens.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saints_titles_and_numbers_meet() {
        assert_eq!(
            full_key("Via S. Giovanni Bosco"),
            full_key("VIA SAN GIOVANNI BOSCO")
        );
        assert_eq!(full_key("Via Santa Lucia"), full_key("via s.lucia"));
        assert_eq!(
            full_key("Via XX Settembre"),
            full_key("VIA VENTI SETTEMBRE")
        );
        assert_eq!(full_key("Via 20 Settembre"), full_key("VIA XX SETTEMBRE"));
        assert_eq!(full_key("Corso IV Novembre"), full_key("CORSO 4 NOVEMBRE"));
        assert_eq!(full_key("Via I Maggio"), full_key("VIA PRIMO MAGGIO"));
        assert_eq!(
            full_key("Via Gen. Cantore"),
            full_key("VIA GENERALE CANTORE")
        );
        assert_eq!(
            full_key("Via F.lli Rosselli"),
            full_key("VIA FRATELLI ROSSELLI")
        );
        assert_eq!(
            full_key("Via Papa Giovanni XXIII"),
            full_key("VIA PAPA GIOVANNI 23")
        );
        assert_eq!(
            full_key("Corso Vittorio Emanuele II"),
            full_key("CORSO VITTORIO EMANUELE SECONDO")
        );
        assert_eq!(full_key("Corso Umberto I"), full_key("CORSO UMBERTO PRIMO"));
        assert_ne!(full_key("Via Dei Mille"), full_key("Via 501 Mille"));
        // numbers in every written form are one token: Roman, digits, words, ordinals
        for written in ["Corso XXII Marzo", "Corso 22 Marzo", "CORSO VENTIDUE MARZO"] {
            assert_eq!(full_key(written), full_key("CORSO 22 MARZO"), "{written}");
        }
        assert_eq!(
            full_key("Via XXIV Maggio"),
            full_key("VIA VENTIQUATTRO MAGGIO")
        );
        assert_eq!(
            full_key("Via Papa Giovanni XXIII"),
            full_key("VIA PAPA GIOVANNI VENTITREESIMO")
        );
        assert_eq!(
            full_key("Via Vittorio Emanuele 2°"),
            full_key("VIA VITTORIO EMANUELE II")
        );
        assert_eq!(
            full_key("Via Vittorio Emanuele 2º"),
            full_key("VIA VITTORIO EMANUELE SECONDO")
        );
        assert_eq!(
            full_key("Piazza XVIII Ottobre"),
            full_key("PIAZZA DICIOTTESIMO OTTOBRE")
        );
        assert_eq!(full_key("Via Trentesimo"), full_key("VIA 30"));
        assert_eq!(
            full_key("Corso Ercole I d'Este"),
            full_key("CORSO ERCOLE PRIMO D'ESTE")
        );
        assert_eq!(
            full_key("Via Card. Ferrari"),
            full_key("VIA CARDINAL FERRARI")
        );
        assert_eq!(
            full_key("C.so di P.ta Romana"),
            full_key("C.SO DI PORTA ROMANA")
        );
        assert_eq!(loose_key("della Chiesa"), loose_key("Chiesa"));
        assert_eq!(sorted_key("Alighieri Dante"), sorted_key("Dante Alighieri"));
    }

    #[test]
    fn address_key_is_one_form_for_two_spellings() {
        assert_eq!(
            address_key("V.LE", "S. Martino", "12/a"),
            address_key("VIALE", "SAN MARTINO", "12 A")
        );
        assert_eq!(address_key("VIA", "ROMA", "12"), "VIA ROMA 12");
    }
}
