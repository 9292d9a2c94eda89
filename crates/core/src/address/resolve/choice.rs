//! A municipality's streets (`CityStreets`) as the country-neutral street choice reads them
//! (`address::street_choice`: `NamedStreets`, `ChoiceFacts`, `StreetPlace`), the counterpart of
//! `foreign/choice.rs` for Italy: the forms of each name built by Italy's keys
//! (`register::street::italian_name_key`), the exact forms found in the municipality's key index,
//! typo candidates in its deletion index, words in its token index. The place is the
//! municipality the city step resolved: every one of its streets lies in it.
//!
//! Italy's answers are still chosen by the named steps (`street_match.rs`); this is the first
//! half of one engine (see the design note in `street_choice/mod.rs` for what is left).

use super::*;
use crate::address::street_choice::{
    self, Choice, ChoiceFacts, Decision, NameKey, NamedStreets, StreetPlace,
};
use crate::register::street::{italian_name_key, italian_text_key, StreetFacts};
use crate::rules::ChoiceRules;

impl NamedStreets for CityStreets {
    fn street_count(&self) -> usize {
        self.streets().len()
    }
    fn keys(&self, street: u32) -> &[NameKey] {
        self.name_forms(street)
    }
    fn name_key(&self, text: &str) -> NameKey {
        italian_text_key(text)
    }
    /// The municipality's key index holds Italy's three forms: the full name with its type
    /// (`key` without spaces), the name without type and particles (`compact`), its words sorted.
    fn by_form(&self, q: &NameKey) -> Vec<u32> {
        let full = q.key.replace(' ', "");
        let mut v: Vec<u32> = [
            (KeyKind::Full, full.as_str()),
            (KeyKind::Loose, q.compact.as_str()),
            (KeyKind::Sorted, q.sorted.as_str()),
        ]
        .into_iter()
        .filter(|(_, k)| !k.is_empty())
        .flat_map(|(kind, k)| CityStreets::by_key(self, kind, k).iter().copied())
        .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
    /// The deletion index of loose keys, as far as Italy's typo rule reaches (`TypoRule`: one
    /// edit from five letters, two from eight); two substitutions, beyond the deletion index, by
    /// a scan of the names. Shorter names are scanned by the choice.
    fn by_typo(&self, q: &NameKey) -> Option<Vec<u32>> {
        typo_candidates(self, q, self.rules())
    }
    fn by_word(&self, word: &str) -> Option<&[u32]> {
        Some(self.by_token(word)).filter(|v| !v.is_empty())
    }
    fn national(&self) -> bool {
        false
    }
    /// One municipality: suggestions list one street per name.
    fn municipality_name(&self, _street: u32) -> &str {
        ""
    }
    fn words_near(&self, word: &str, distance: u32) -> Vec<&str> {
        self.tokens_near(word, distance)
    }
    fn rules(&self) -> &'static ChoiceRules {
        crate::rules::italy().street_choice(3)
    }
}

/// The deletion index of loose keys, as far as the typo rule reaches at the request's precision;
/// nothing below precision 3 (no typo is read; the choice still reads the streets of the rarest
/// word written).
fn typo_candidates(city: &CityStreets, q: &NameKey, rules: &ChoiceRules) -> Option<Vec<u32>> {
    if !rules.typos() {
        return Some(Vec::new());
    }
    let allowed = match rules.typo.allowed(q.stem.len()) {
        0 => return None,
        n => n as u32,
    };
    let mut found = city.fuzzy(&q.compact, allowed);
    if allowed >= 2 && found.iter().all(|(_, e)| *e >= 2) {
        found = city.fuzzy_scan(&q.compact, allowed);
    }
    let mut v: Vec<u32> = found.into_iter().map(|(i, _)| i).collect();
    v.sort_unstable();
    v.dedup();
    Some(v)
}

impl ChoiceFacts for CityStreets {
    /// Streets of one name in one municipality are different streets when their localities
    /// (frazioni) differ, and one street listed twice (the national list and a municipal one)
    /// when they do not: the locality is what tells them apart.
    fn municipality_code(&self, street: u32) -> &str {
        &self.street(street).locality
    }
    fn lists_postcodes(&self, street: u32) -> bool {
        !self.street(street).postcodes.is_empty()
    }
}

/// A municipality's streets with the first names of the register's names list, which partial
/// names leave out (`ChoiceFacts::is_first_name`), and Italy's rules at the request's precision:
/// what Italy's choice reads.
pub struct Municipality<'a> {
    pub streets: &'a CityStreets,
    pub first_name: &'a dyn Fn(&str) -> bool,
    pub rules: &'static ChoiceRules,
}

impl StreetFacts for Municipality<'_> {
    fn street_type(&self, street: u32) -> &str {
        self.streets.street_type(street)
    }
    fn name(&self, street: u32) -> &str {
        StreetFacts::name(self.streets, street)
    }
    fn alt_names(&self, street: u32) -> &[String] {
        self.streets.alt_names(street)
    }
    fn has_number(&self, street: u32, number: u32, suffix: &str) -> bool {
        self.streets.has_number(street, number, suffix)
    }
    fn lists_numbers(&self, street: u32) -> bool {
        self.streets.lists_numbers(street)
    }
    fn has_postcode(&self, street: u32, postcode: &str) -> bool {
        self.streets.has_postcode(street, postcode)
    }
}

impl NamedStreets for Municipality<'_> {
    fn street_count(&self) -> usize {
        self.streets.street_count()
    }
    fn keys(&self, street: u32) -> &[NameKey] {
        self.streets.keys(street)
    }
    fn name_key(&self, text: &str) -> NameKey {
        self.streets.name_key(text)
    }
    fn by_form(&self, q: &NameKey) -> Vec<u32> {
        self.streets.by_form(q)
    }
    fn by_typo(&self, q: &NameKey) -> Option<Vec<u32>> {
        typo_candidates(self.streets, q, self.rules)
    }
    fn by_word(&self, word: &str) -> Option<&[u32]> {
        self.streets.by_word(word)
    }
    fn national(&self) -> bool {
        false
    }
    fn municipality_name(&self, street: u32) -> &str {
        self.streets.municipality_name(street)
    }
    fn words_near(&self, word: &str, distance: u32) -> Vec<&str> {
        self.streets.words_near(word, distance)
    }
    fn rules(&self) -> &'static ChoiceRules {
        self.rules
    }
}

impl ChoiceFacts for Municipality<'_> {
    fn municipality_code(&self, street: u32) -> &str {
        self.streets.municipality_code(street)
    }
    fn lists_postcodes(&self, street: u32) -> bool {
        self.streets.lists_postcodes(street)
    }
    fn is_first_name(&self, word: &str) -> bool {
        (self.first_name)(word)
    }
}

/// The municipality the city step resolved, and the postcode written.
pub struct MunicipalityPlace<'a> {
    postcode: &'a str,
    all: Vec<u32>,
}

impl<'a> MunicipalityPlace<'a> {
    pub fn new(city: &CityStreets, postcode: &'a str) -> MunicipalityPlace<'a> {
        MunicipalityPlace {
            postcode: postcode.trim(),
            all: (0..city.streets().len() as u32).collect(),
        }
    }
}

impl StreetPlace for MunicipalityPlace<'_> {
    fn empty(&self) -> bool {
        false
    }
    fn contains(&self, _street: u32) -> bool {
        true
    }
    fn in_city(&self, _street: u32) -> bool {
        true
    }
    fn postcode(&self) -> &str {
        self.postcode
    }
    fn streets(&self) -> &[u32] {
        &self.all
    }
}

/// The street the country-neutral choice answers for a parsed Italian address in one
/// municipality: the name with the type written as one reading, the number read with it.
pub fn choose_in_municipality(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    first_name: &dyn Fn(&str) -> bool,
) -> Option<Choice> {
    let number = parsed
        .house_number
        .as_ref()
        .map(|h| (h.number, h.suffix.clone()));
    let mut name = italian_name_key(parsed.street_type.unwrap_or(""), &parsed.name);
    name.written = parsed.name.clone();
    let reading = street_choice::Written {
        name,
        number: number.as_ref(),
    };
    let place = MunicipalityPlace::new(city, postcode);
    let streets = Municipality {
        streets: city,
        first_name,
        rules: crate::rules::italy().street_choice(precision),
    };
    let mut choice = street_choice::choose(&streets, &place, &[reading])?;
    // Italy's parser reads a word that names a place (`Ponte`, `Monte`) as a street type: a
    // street found under another type, while others hold that word beside every word written, is
    // no confident match (`type_word_as_name`: `Ponte Bagni`)
    // (not where the street's own name holds that word: `Campo dei Fiori` is Via Campo dei Fiori)
    if let Decision::Found(id, _) = choice.decision {
        let word = compact(&parsed.street_type_raw);
        let holds_word = canonical_tokens(StreetFacts::name(city, id)).contains(&word);
        if !holds_word {
            if let Some(v) = type_word_as_name(city, parsed, id) {
                choice.decision = Decision::Ambiguous(v);
            }
        }
    }
    Some(choice)
}

#[cfg(test)]
#[path = "choice_tests.rs"]
mod tests;
