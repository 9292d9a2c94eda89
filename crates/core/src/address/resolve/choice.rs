//! A municipality's streets (`CityStreets`) as the country-neutral street choice reads them
//! (`address::street_choice`: `NamedStreets`, `ChoiceFacts`, `StreetPlace`), the counterpart of
//! `foreign/choice.rs` for Italy: the forms of each name built by Italy's keys
//! (`register::street::italian_name_key`), the exact forms found in the municipality's key index,
//! typo candidates in its deletion index, words in its token index. The place is the
//! municipality the city step resolved: every one of its streets lies in it.
//!
//! Italy's answers are chosen here (`street_chosen`, called by the contact flow): the readings of
//! the line (`readings`), the choice, and what the answer reports read back from the form that
//! scored (`explain`). The named steps (`street_match.rs`) stay only as the meter's reference
//! (see the design note in `street_choice/mod.rs` for what is left).

use super::*;
use crate::address::street_choice::{
    self, By, Choice, ChoiceFacts, Decision, NameKey, NamedStreets, RegisterWords, StreetPlace,
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

/// A municipality's streets with the register's words partial names are read with (its first
/// names, which partial names leave out, and its municipalities' names: `RegisterWords`), and
/// Italy's rules at the request's precision: what Italy's choice reads.
pub struct Municipality<'a> {
    pub streets: &'a CityStreets,
    pub words: &'a dyn RegisterWords,
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
        self.words.is_first_name(word)
    }
    fn names_a_municipality(&self, word: &str) -> bool {
        self.words.names_a_municipality(word)
    }
    fn names_a_provincial_capital(&self, word: &str) -> bool {
        self.words.names_a_provincial_capital(word)
    }
    fn numbers_complete(&self) -> bool {
        self.streets.record.complete_numbers
    }
}

/// The register's words: the first names of its names list, the names of its municipalities
/// (today's, former and second-language ones).
impl RegisterWords for Register {
    fn is_first_name(&self, word: &str) -> bool {
        self.names.known_gender(word).is_some()
    }
    fn names_a_municipality(&self, word: &str) -> bool {
        !self.municipalities.by_name(word).is_empty()
    }
    fn names_a_provincial_capital(&self, word: &str) -> bool {
        self.municipalities.by_name(word).iter().any(|r| {
            r.current
                .as_ref()
                .is_some_and(|c| c.provincial_capital == Some(true))
        })
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
    words: &dyn RegisterWords,
) -> Option<Choice> {
    choose_readings(
        city,
        parsed,
        postcode,
        precision,
        words,
        readings(city, parsed),
    )
}

/// `choose_in_municipality` on the readings of the line (`readings`).
fn choose_readings(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    words: &dyn RegisterWords,
    names: Vec<NameKey>,
) -> Option<Choice> {
    let number = parsed
        .house_number
        .as_ref()
        .map(|h| (h.number, h.suffix.clone()));
    let readings: Vec<street_choice::Written> = names
        .into_iter()
        .map(|name| street_choice::Written {
            name,
            number: number.as_ref(),
        })
        .collect();
    let place = MunicipalityPlace::new(city, postcode);
    let streets = Municipality {
        streets: city,
        words,
        rules: crate::rules::italy().street_choice(precision),
    };
    let mut choice = street_choice::choose(&streets, &place, &readings)?;
    // Italy's parser reads a word that names a place (`Ponte`, `Monte`) as a street type: a
    // street found under another type, while others hold that word beside every word written, is
    // no confident match (`type_word_as_name`: `Ponte Bagni`)
    // (not where the street's own name holds that word: `Campo dei Fiori` is Via Campo dei Fiori)
    if let Decision::Found(id, _) = choice.decision {
        if let Some(v) = type_word_as_name(city, parsed, id) {
            let word = compact(&parsed.street_type_raw);
            if !canonical_tokens(StreetFacts::name(city, id)).contains(&word) {
                choice.decision = Decision::Ambiguous(v);
            }
        }
    }
    Some(choice)
}

/// The ways the street line may be read: the name with the type written; and where the register
/// writes it so in full, the type written as a word of a name typed `Via` (`Salita della Chiesa`
/// registered as Via Salita della Chiesa), or the name alone with a type word of its own (`Corso
/// Italia` written with no type, `Via Bastioni di Porta Nuova` where the type is Bastioni). A
/// reading the register does not write in full is no reading (the first is always one).
fn readings(city: &CityStreets, parsed: &ParsedAddress) -> Vec<NameKey> {
    let ty = parsed.street_type.unwrap_or("");
    let name = parsed.name.as_str();
    let mut name_key = italian_name_key(ty, name);
    name_key.written = parsed.name.clone();
    // the name with the type written as the register writes it: no other reading (the named
    // steps' first)
    if !CityStreets::by_key(city, KeyKind::Full, &name_key.key.replace(' ', "")).is_empty() {
        return vec![name_key];
    }
    let mut out = vec![name_key];
    let written_in_full =
        |text: &str| !CityStreets::by_key(city, KeyKind::Full, &full_key(text)).is_empty();
    if !ty.is_empty() && ty != "VIA" {
        let text = format!("VIA {ty} {name}");
        if written_in_full(&text) {
            let mut k = italian_name_key("VIA", &format!("{ty} {name}"));
            k.written = format!("{ty} {name}");
            out.push(k);
        }
    }
    // only after a plain `Via`: `Vico Via Calia` is Vico di Via Calia, not Via Calia
    let own_type_not_via = || {
        let own_type = street_type::split(name).0;
        !own_type.is_empty() && own_type != "VIA"
    };
    if (ty.is_empty() || (ty == "VIA" && own_type_not_via())) && written_in_full(name) {
        let mut k = italian_text_key(name);
        k.written = street_type::split(name).1;
        out.push(k);
    }
    out
}

/// The street of a parsed Italian address in one municipality, as the contact flow reads it: the
/// one engine's choice (`choose_in_municipality`) with what the answer reports, read back from
/// the form that scored (`explain`).
pub fn street_chosen(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    words: &dyn RegisterWords,
) -> (StreetResolution, Step) {
    let names = readings(city, parsed);
    // the name with the type written, as the register's index of full names keys it
    let full = names[0].key.replace(' ', "");
    let choice = choose_readings(city, parsed, postcode, precision, words, names);
    explain(city, parsed, &full, choice)
}

/// The choice as the answer reports it: the street with how it was found (`StreetMatch`: the name
/// as registered, another form of it, or a changed street) and the step that found it.
fn explain(
    city: &CityStreets,
    parsed: &ParsedAddress,
    full: &str,
    choice: Option<Choice>,
) -> (StreetResolution, Step) {
    let Some(choice) = choice else {
        return (
            StreetResolution::NotFound,
            Step {
                name: "none",
                edits: 0,
            },
        );
    };
    let by = choice.by;
    match choice.decision {
        Decision::Found(id, _) => {
            let step = step_of(city, parsed, full, id, by);
            (
                StreetResolution::Found(id, street_match(city, parsed, id, &step)),
                step,
            )
        }
        Decision::Ambiguous(v) | Decision::Unclear(v) => (
            StreetResolution::Ambiguous(v),
            Step {
                name: "ambiguous",
                edits: 0,
            },
        ),
        Decision::TypeMissing(v) => {
            let step = step_of(city, parsed, full, v[0], by);
            (StreetResolution::TypeMissing(v), step)
        }
        Decision::NotFound => (
            StreetResolution::NotFound,
            Step {
                name: "none",
                edits: 0,
            },
        ),
    }
}

/// The form of the name written that holds the street, in the order the answer names them: the
/// name with its type as registered (`full`), the type written as a word of the name
/// (`full_as_via`), the name alone with a type word of its own (`name_with_type_word`), without
/// type and particles (`loose`), in another word order (`any_order`); else a partial name
/// (`partial`), a typo (`typo`), or both agreeing (`typo_or_partial`), with the edits between the
/// words written and the name.
fn step_of(city: &CityStreets, parsed: &ParsedAddress, full: &str, id: u32, by: By) -> Step {
    let ty = parsed.street_type.unwrap_or("");
    let name = parsed.name.as_str();
    let holds = |kind: KeyKind, key: &str| CityStreets::by_key(city, kind, key).contains(&id);
    let name_of = |n: &'static str| Step { name: n, edits: 0 };
    if holds(KeyKind::Full, full) {
        return name_of("full");
    }
    if !ty.is_empty() && ty != "VIA" && holds(KeyKind::Full, &full_key(&format!("VIA {ty} {name}")))
    {
        return name_of("full_as_via");
    }
    if holds(KeyKind::Full, &full_key(name)) {
        return name_of("name_with_type_word");
    }
    if holds(KeyKind::Loose, &loose_key(name)) {
        return name_of("loose");
    }
    if holds(KeyKind::Sorted, &sorted_key(name)) {
        return name_of("any_order");
    }
    let written = loose_key(name);
    let names = std::iter::once(StreetFacts::name(city, id))
        .chain(city.alt_names(id).iter().map(String::as_str));
    if by == By::Partial {
        // the words written that the name holds only with a typo
        let tokens = city.name_tokens(id);
        let typos = loose_tokens(name)
            .iter()
            .filter(|t| {
                t.len() > 1
                    && !tokens
                        .iter()
                        .any(|st| st.iter().any(|w| w.starts_with(t.as_str())))
            })
            .count();
        return Step {
            name: "partial",
            edits: typos as u32,
        };
    }
    let edits = names
        .filter_map(|n| edit_distance(&loose_key(n), &written, 4))
        .min()
        .unwrap_or(0);
    Step {
        name: if by == By::NamesAndPartial {
            "typo_or_partial"
        } else {
            "typo"
        },
        edits: edits as u32,
    }
}

/// How a street found differs from what was written: the same name and type (`Same`), the name
/// with its type as registered written otherwise (`Form`: case, accents, abbreviations, or no
/// type written), or another street name or type (`Changed`).
fn street_match(city: &CityStreets, parsed: &ParsedAddress, id: u32, step: &Step) -> StreetMatch {
    let ty = parsed.street_type.unwrap_or("");
    match step.name {
        "full" => {
            // of one type the names alone are compared (most answers); else the type and name
            // as one text (a type the parser left in the name: `Mura di Porta Galliera`)
            let name = StreetFacts::name(city, id);
            let same_text = if city.street_type(id) == ty {
                fold(name) == fold(&parsed.name)
            } else {
                fold(&format!("{} {name}", city.street_type(id)))
                    == fold(&format!("{ty} {}", parsed.name))
            };
            let same = same_text
                && (parsed.street_type_raw.is_empty()
                    || fold(&parsed.street_type_raw) == city.street_type(id));
            if same {
                StreetMatch::Same
            } else {
                StreetMatch::Form
            }
        }
        "name_with_type_word" if ty.is_empty() => StreetMatch::Form,
        _ => StreetMatch::Changed,
    }
}

#[cfg(test)]
#[path = "choice_tests.rs"]
mod tests;
