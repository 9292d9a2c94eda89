//! Which street of a register a written name means, for every register country: the names
//! compared (`name`: forms, score, typo distance), the candidates gathered and ranked (`gather`:
//! exact forms, typo candidates, the place's streets, the typed prefix of a suggestion), and the
//! decision (`decide`: one name clear of every other, streets of one name told apart by the
//! place, the city, the number and the postcode through `narrow`, a typo corrected only when the
//! record backs it). A street is answered only when one name stands clear of every other: a typo
//! or a partial name that fits two names is never settled by the number.
//!
//! The choice reads a register through the traits below (`NamedStreets`, `ChoiceFacts`) and the
//! place written through `StreetPlace`; a register implements them (the foreign registers in
//! `foreign/choice.rs`, Italy's municipalities in `address/resolve/choice.rs`), so the choice
//! depends on no register's model.
//!
//! Italy answers through this engine (`address/resolve/choice.rs::street_chosen`, since stop 48);
//! its former named steps (`address/resolve/street_match.rs`, `cover.rs`) stay only as the
//! meter's reference (`choice_against_named_steps`) until they are deleted. How each maps onto the
//! stages here (issue 31, item 1):
//!
//! | Italy's step | gather (forms, candidates) | decide |
//! |---|---|---|
//! | `full` | `by_form` on `key` (type and name): score 1 | `disambiguate` = `narrow` (postcode, then number; here number, then postcode) plus "the spelling with numbers"; `conflict` ≈ `namesakes_holding_number`, but over longer names holding the words written (`Via Lodi` / Via Luigi Lodi), not a typo away |
//! | `full_as_via`, `name_with_type_word` | a second written form (`VIA` + type + name; the name alone) | found under another type: a STREET_TYPE change |
//! | `loose` | `by_form` on `core`/`compact`: 0.96, another type 0.82 | `by_words`, where the country's `ChoiceRules::type_changes_alone` (Italy): postcode and number first, the type written chooses among namesakes, one street of another type is still found, several types and none written is `Decision::TypeMissing`; abroad another type stays below `ACCEPT` and names of several types are `Unclear` |
//! | `any_order` | `by_form` on `sorted`: 0.94 | as `loose` |
//! | `partial` (`cover.rs::covering`, `partial`) | `partial::covering`: the streets of the rarest written word (one typo beside a word written right), each name scored by its tier, the first names and titles written it lacks, the typos, the words left out; the words people leave out are the country's data (`rules::PartialNames`: titles, titles of nobility, particles, words that name a place, words cut short with a dot) and the register's first names (`ChoiceFacts::is_first_name`), none abroad | `partial::partial`, in `decide` where the country reads partial names and no street has an own form of the name: fewest typos, fewest dropped, tier, type written; postcode then number among one name; `MAX_CANDIDATES` with candidates; a partial name with every word written beats any typo, one with a typo beside the typo's street is an ambiguity; a street found so is not doubted by `namesakes_holding_number` |
//! | `typo` | `by_typo` (Italy: deletion index, `fuzzy_scan` for two substitutions) | the country's `rules::TypoRule` in `name::typo_edits_by` (Italy: one edit from five letters, two from eight, under ten only with the first letter, digits alike, corrected without the record backing it, the fewest edits winning (`fewest_edits_win`: `Via Calizano` is Via Calizzano); abroad six and twelve, ends standing, particles alike, only when `corroborated`, names within the margin `Unclear`); a typo of the type written only (a typo and another type score 0) |
//! | precision (the request's 1–5) | `ChoiceRules::precision`, Italy's rules at each level (`CountryRules::street_choice`): below 3 no typo candidates; 4 and 5 one edit more (`TypoRule::more_from`) | below 2 no word order, partial names or `holding_words_of_type`; below 3 no typo, no partial name with a typo, no `namesakes_holding_number` |
//! | `typo_or_partial` | both of the above | two names that fit: Italy answers `Ambiguous` with both; here `Decision::Unclear` with the best street of each name; one word a typo away from a whole name and as near a word of longer names (`Via Mandolfo`: Via Landolfo or Via Ugo Guido Mondolfo) is `decide::typo_beside_partial_names`: the postcode and number tell them apart, else `Unclear` |
//! | Italy's doubts (`keep_elided_particle`, `type_word_as_name`, `Piazza De Ferrari`, `Via Canefri`) | — | country-specific rules: `keep_elided_particle` is `partial::elided_particle_doubt` (the country's `PartialNames::has_elided_particle`, read in `choose`); `type_word_as_name` reads the parser's raw type word, so Italy's `choose_in_municipality` applies it after `choose`; `Piazza De Ferrari` is `decide::partial_of_type_written` (no street of the type written has the name, one does as a partial name with every word as written); `Vicolo Gregoraci` and `Via Canefri` (a type changed while streets of the type written hold every word in a longer name) are `by_words`' `holding_words_of_type` |
//! | `disambiguate` (postcode, then number; the spelling with numbers) | — | `by_scores`' `narrow`, in the order of the country's `ChoiceRules::postcode_before_number` (Italy: postcode first), and `ChoiceRules::spelling_with_numbers` (Italy: of one street listed twice, the one that lists numbers) |
//! | the type written among partial names | `partial::covering` | `partial::of_type_written`, read by both engines: the type written does not outweigh a word of unknown kind left out (`Via Garibaldi`, Pesaro: Via Brigata Garibaldi or Piazzale Giuseppe Garibaldi, a doubt; issue 29 item 6); among fits that leave out first names only, it decides |
//!
//! Done: a `Decision` carries its candidates (`Ambiguous`, `Unclear`, `TypeMissing`), and a
//! country's rules (`rules::ChoiceRules`, read through `NamedStreets::rules`; none abroad) say
//! whether a changed type alone is a change or another street, how partial names are read
//! (`partial`, Italy's words; `cover.rs` keeps the named steps' own copy only until Italy
//! switches) and what a typo is (`TypoRule`). One rule is the engine's alone: a partial name whose
//! street's name goes on after the words written with words of unknown kind, no phrase opened by a
//! particle (`Via Roma` for Via Roma Libera), is a doubt with the street as candidate, where the
//! named steps correct it (issue 29). Done since: the precision levels (`ChoiceRules::precision`);
//! among typo candidates the fewest edits (`TypoRule::fewest_edits_win`); the `Via Mandolfo` doubt;
//! an elided particle written that the street lacks (`Via D'Aosta` is no confident Via Aosta:
//! `partial::elided_particle_doubt`); `type_word_as_name` (`Ponte Bagni`), `Piazza De Ferrari`,
//! the order of postcode and number and the spelling with numbers (`ChoiceRules`), the type
//! written among partial names (`partial::of_type_written`). Done in stop 48: a partial name
//! whose street's name goes on after the words written is a doubt only after a municipality's
//! name (`ChoiceFacts::names_a_municipality`: `Via Roma` for Via Roma Imperiale), and a person's
//! street is a doubt for a provincial capital's name written alone (`partial::a_person_named_as_a_city`,
//! `ChoiceFacts::names_a_provincial_capital`: `Via Roma` for Via Giulio Roma), not after a
//! person's name (`Via Dante` for Via Dante Alighieri); the meter's rows (a particle run together
//! with its word is the name's own form, `name::score`; a farther typo is no rival,
//! `namesakes_holding_number`; the named steps' `conflict` as
//! `decide::longer_names_holding_number`; exact other names told apart by postcode and number,
//! `decide::exact_names_told_apart`; one street under two spellings, `decide::one_spelling`; a
//! typo's reach counted on the letters written, `TypoRule::on_written`); the other readings of
//! the line (`full_as_via`, `name_with_type_word`: `choice.rs::readings`); and `Step` /
//! `StreetMatch` read back from the form that scored (`choice.rs::explain`, with `decide::By`).
//! Left: deleting the named steps (`street_match.rs`, `cover.rs`; `same_name.rs`'s `narrow` moves
//! here), moving `type_word_as_name` and `mistyped_type` beside `choice.rs`, and rewriting the
//! tests that compare both engines as tests of this one; the meter's rows still apart are
//! explained in `choice_tests.rs::the_rows_the_meter_printed`.
//! `partial` comes before the typo rule in `decide`: the typo rule alone let a typo beat a partial
//! name (`Via Patti` as Via dei Piatti, not Via Adelina Patti; `a_partial_name_beats_a_typo`).

pub mod decide;
pub mod gather;
pub mod name;
pub mod partial;

use crate::register::street::StreetFacts;
use crate::rules::ChoiceRules;

pub use decide::{By, Decision};
pub use name::NameKey;

/// The streets of a register as the choice reads them: their comparison forms and the indexes
/// candidates are gathered from. Ids are the register's.
pub trait NamedStreets: StreetFacts {
    /// How many streets the register holds (ids are `0..street_count`).
    fn street_count(&self) -> usize;
    /// The comparison forms of the street's names: its name first, then its other names.
    fn keys(&self, street: u32) -> &[NameKey];
    /// The comparison forms of a written name, built as the register builds its own.
    fn name_key(&self, text: &str) -> NameKey;
    /// The streets one of whose names has a form equal to one of the written name's.
    fn by_form(&self, q: &NameKey) -> Vec<u32>;
    /// The streets the typo index reaches for the name; None when the name is too short for it.
    fn by_typo(&self, q: &NameKey) -> Option<Vec<u32>>;
    /// The streets one of whose core words is `word`.
    fn by_word(&self, word: &str) -> Option<&[u32]>;
    /// Whether the register covers the whole country (a street may be looked for in all of it).
    fn national(&self) -> bool;
    /// The name of the street's municipality (suggestions list one street per name and
    /// municipality).
    fn municipality_name(&self, street: u32) -> &str;
    /// The words of the register's names within `distance` edits of `word` (a partial name
    /// written with a typo); none where the register has no index of its words' typos.
    fn words_near(&self, _word: &str, _distance: u32) -> Vec<&str> {
        Vec::new()
    }
    /// The rules of the register's country the choice reads (none by default).
    fn rules(&self) -> &'static ChoiceRules {
        &ChoiceRules::NONE
    }
}

/// What the decision reads besides the names: the municipality a street belongs to (a street
/// split by locality inside one municipality is one answer); numbers and postcodes come from
/// `StreetFacts`.
pub trait ChoiceFacts: NamedStreets {
    /// The code of the street's municipality.
    fn municipality_code(&self, street: u32) -> &str;
    /// Whether the register gives the street any postcode.
    fn lists_postcodes(&self, street: u32) -> bool;
    /// Whether the word is a first name people leave out of a street's name (`Giuseppe` of Via
    /// Giuseppe Garibaldi), for partial names (`ChoiceRules::partial_names`); none by default.
    fn is_first_name(&self, _word: &str) -> bool {
        false
    }
    /// Whether the register holds every house number of the streets (only then is a number
    /// absent from a street's list evidence against it: `decide::longer_names_holding_number`);
    /// not by default.
    fn numbers_complete(&self) -> bool {
        false
    }
    /// Whether the word is a municipality's whole name (`Roma`): a street's name that goes on
    /// after it names another place, not a person (`partial`); none by default.
    fn names_a_municipality(&self, _word: &str) -> bool {
        false
    }
    /// Whether the word is a provincial capital's whole name (`Roma`, `Aosta`): a street that
    /// puts first names before it honours a person named so, not the city people mean by it
    /// (`partial`); none by default.
    fn names_a_provincial_capital(&self, _word: &str) -> bool {
        false
    }
}

/// The words of a register the choice reads partial names with: its first names and its
/// municipalities' names (`ChoiceFacts::is_first_name`, `names_a_municipality`). A closure is
/// first names alone.
pub trait RegisterWords {
    fn is_first_name(&self, word: &str) -> bool;
    fn names_a_municipality(&self, _word: &str) -> bool {
        false
    }
    fn names_a_provincial_capital(&self, _word: &str) -> bool {
        false
    }
}

impl<F: Fn(&str) -> bool> RegisterWords for F {
    fn is_first_name(&self, word: &str) -> bool {
        self(word)
    }
}

/// The place a record names (city, postcode) as the choice reads it.
pub trait StreetPlace {
    /// Neither the city nor the postcode holds a street: the name is looked for without place.
    fn empty(&self) -> bool;
    /// Whether the street lies in the place (its localities, or carries its postcode).
    fn contains(&self, street: u32) -> bool;
    /// Whether the street lies in a locality of the city written (which outweighs a postcode of
    /// another place).
    fn in_city(&self, street: u32) -> bool;
    /// The postcode written, in the register's form (empty when none).
    fn postcode(&self) -> &str;
    /// Every street of the place (scanned when a name is too short for the typo index).
    fn streets(&self) -> &[u32];
}

/// One reading of the street line: the name written and the house number read with it.
pub struct Written<'a> {
    pub name: NameKey,
    pub number: Option<&'a (u32, String)>,
}

/// The choice among the readings: the decision, the reading it was made on, the best score.
pub struct Choice {
    pub decision: Decision,
    pub reading: usize,
    pub score: f64,
    /// How the decision was reached: by a partial name (`partial`: every word written is in
    /// the street's name), by the names' forms or typos, or both agreeing.
    pub by: By,
}

/// The reading whose street the place (then the country) answers best, with its decision. A
/// street found whose number is missing while a namesake one typo away holds it is no answer
/// (`Decision::Ambiguous`, with both). None when no reading has a name.
pub fn choose<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    place: &P,
    readings: &[Written],
) -> Option<Choice> {
    let mut best: Option<Choice> = None;
    for (i, reading) in readings.iter().enumerate() {
        let q = &reading.name;
        if q.compact.is_empty() {
            continue;
        }
        let ranked = gather::rank_reading(reg, q, place);
        let top = ranked.first().map(|c| c.score).unwrap_or(0.0);
        let (d, by) = decide::decide(reg, q, &ranked, reading.number, place);
        let better = match &best {
            None => true,
            Some(b) => {
                let (x, y) = (d.rank(place), b.decision.rank(place));
                x > y
                    || (x == y && top > b.score + 1e-9)
                    || (x == y
                        && (top - b.score).abs() < 1e-9
                        && reading.number.is_some()
                        && readings[b.reading].number.is_none())
            }
        };
        if better {
            best = Some(Choice {
                decision: d,
                reading: i,
                score: top,
                by,
            });
        }
    }
    let mut choice = best?;
    // a partial name holds every word written: a namesake a typo away is no rival
    if let (Decision::Found(id, _), false) = (&choice.decision, choice.by == By::Partial) {
        let id = *id;
        let reading = &readings[choice.reading];
        let mut others =
            decide::namesakes_holding_number(reg, &reading.name, reading.number, id, place);
        if others.is_empty() {
            others = decide::longer_names_holding_number(reg, &reading.name, reading.number, id);
        }
        if !others.is_empty() {
            choice.decision = Decision::Ambiguous(std::iter::once(id).chain(others).collect());
        }
    }
    // a particle written elided (`D'Aosta`) that the street's names lack: a word missing
    if let Decision::Found(id, _) = choice.decision {
        let q = &readings[choice.reading].name;
        if let Some(v) = partial::elided_particle_doubt(reg, q, id) {
            choice.decision = Decision::Ambiguous(v);
        }
    }
    Some(choice)
}
