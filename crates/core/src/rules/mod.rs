//! What differs from country to country in how addresses are written, behind one trait: the
//! matcher (parse, keys, resolve, `verify`'s steps) is country-neutral and asks a country's rules
//! for its street types, abbreviations, titles, particles, ordinals and capitalisation. A new
//! country adds a module here and a line in `for_country`, not branches in `verify`.
//!
//! A leaf of the core: the register computes its street keys with these rules (`key`), and the
//! engines read them; nothing here imports the register or an engine.
//!
//! Italy is the only country with a street register in the matcher today, so the key functions
//! (`rules::key`) and the parser read Italy's rules through `italy()`; a second country passes
//! its rules where they call `italy()`.

pub mod it;
pub mod key;

use std::borrow::Cow;

/// One country's address rules. Words are given folded (`normalize::fold`: capitals, no accents).
pub trait CountryRules: Sync {
    /// ISO 3166-1 alpha-2 code.
    fn country(&self) -> &'static str;
    /// The street type a written word or abbreviation stands for (`V.LE` → `VIALE`).
    fn street_type(&self, written: &str) -> Option<&'static str>;
    /// Whether a full street type names a place rather than a street (`LOCALITA`, `FRAZIONE`).
    fn is_locality_type(&self, full: &str) -> bool;
    /// Two words folding split at a dot that stand for one form (`F.LLI` → `FRATELLI`).
    fn joined_abbreviation(
        &self,
        word: &str,
        next: &str,
        more_after: bool,
    ) -> Option<&'static [&'static str]>;
    /// One form for a word written several ways: saints, titles, ordinals, numbers in words.
    fn canonical_word(
        &self,
        word: &str,
        next_is_month: bool,
        last_of_many: bool,
    ) -> Option<Cow<'static, str>>;
    /// Month names (`XX SETTEMBRE`: a date, so `I MAGGIO` is the first of May).
    fn is_month(&self, word: &str) -> bool;
    /// Titles and words that precede a name and that people leave out (`GENERALE`, `SAN`).
    fn is_title(&self, word: &str) -> bool;
    /// Articles and prepositions people drop or add (`Via della Chiesa` / `Via Chiesa`).
    fn is_particle(&self, word: &str) -> bool;
    /// A name written in capitals in the form people read (the register's own spelling rules).
    fn title_case(&self, upper: &str) -> String;
    /// A street's type and name in the form people read.
    fn display_name(&self, upper: &str) -> String;
    /// The kind of sub-address a keyword introduces (`SCALA` → `staircase`, `INT` → `unit`).
    fn sub_address_kind(&self, word: &str) -> Option<&'static str>;
    /// Words written after a house number as its suffix (`BIS`).
    fn is_number_suffix_word(&self, word: &str) -> bool;
    /// A house number written as "no number" (`SNC`), its words joined.
    fn means_no_number(&self, joined: &str) -> bool;
    /// Words that announce the house number (`NR`, `CIVICO`).
    fn is_number_marker(&self, word: &str) -> bool;
    /// Words that make a street name another place when left out (`PORTA`, `MONTE`).
    fn names_a_place(&self, word: &str) -> bool;
    /// How the street choice settles what a written name leaves open in this country, at the
    /// request's precision (1 to 5, 3 by default: `ChoiceRules::precision`).
    fn street_choice(&self, precision: u8) -> &'static ChoiceRules;
}

/// What a country's street choice (`address::street_choice`) decides beyond the names' scores:
/// data, read by the one choice for every register. A register without rules of its own (the
/// foreign registers today) chooses by `ChoiceRules::NONE`.
#[derive(Debug, Clone, Copy)]
pub struct ChoiceRules {
    /// A street is known by the words of its name and its type is checked, not matched: the
    /// name written in full under another type is that street with its type changed (a
    /// STREET_TYPE change in Italy: `Viale Roma` where only Via Roma is), the type written chooses
    /// among streets of one name, and where none was written the postcode and the house number
    /// tell them apart; a street of another type is no confident match while streets of the type
    /// written hold every word written (`Vicolo Gregoraci`). Without it the type is part of the
    /// name (`Rue X` is not `Avenue X`).
    pub type_changes_alone: bool,
    /// How the country's street names are read word by word for partial names (`Garibaldi` for
    /// Via Giuseppe Garibaldi); None where the country has no list of the words people leave out.
    pub partial_names: Option<PartialNames>,
    /// How far a name written with a typo may be from the register's and still be that street.
    pub typo: TypoRule,
    /// Streets of one name are told apart by the postcode written before the house number (Italy:
    /// a municipality's namesakes lie in different postal areas, and its number lists are
    /// incomplete); without it the number first (of one name split by postcode, Bern's
    /// `Bottigenstrasse` in 3019 and 3020, a wrong postcode must not pick the part where the
    /// number is not).
    pub postcode_before_number: bool,
    /// Of one street listed twice in one place (a spelling from the national list and one from a
    /// municipal list, as Italy's register holds them), the one that carries house numbers is the
    /// street; without it the first.
    pub spelling_with_numbers: bool,
    /// How far from the name written a request lets the choice go (its `precision`): 1, the
    /// name's own forms (with its type; without type and particles); 2, also its words in another
    /// order and partial names; 3 (the default, and the foreign registers'), also typos
    /// (`typo`) and a partial name's word with a typo; 4 and 5, more edits (`TypoRule::more_from`).
    pub precision: u8,
}

/// What a typo is in a country's street names (`street_choice::name::typo_edits`): how many edits
/// a stem of a length allows, which letters must stand, and what must back the correction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypoRule {
    /// Letters of the longer stem from which one edit is a typo.
    pub one_from: usize,
    /// Letters of the longer stem from which two edits are.
    pub two_from: usize,
    /// One edit never changes both the first and the last letter.
    pub ends_stand: bool,
    /// Below this many letters, two edits are a typo only where the first letter stands (people
    /// rarely mistype it; 0: no such rule).
    pub two_keep_first_below: usize,
    /// The numbers of the two names are the same (`1 Maggio` is not a typo of `Maggio`).
    pub digits_alike: bool,
    /// The two names have as many particles (`Wenkel` is not `Im Winkel`); without it particles
    /// are not compared (the stems leave them out).
    pub particles_alike: bool,
    /// A typo is corrected only where the house number or the postcode written backs it.
    pub needs_backing: bool,
    /// Letters of the longer stem from which each one more edit is a typo, beyond `one_from` and
    /// `two_from` (a request's precision 4 and 5; `usize::MAX`: none).
    pub more_from: [usize; 2],
    /// Among names reached through typos the fewest edits win (`Via Calizano` is Via Calizzano,
    /// one letter away, not a name two letters away); without it names within the choice's
    /// margin are a doubt.
    pub fewest_edits_win: bool,
    /// The edits allowed are counted from the letters written, not from the longer of the two
    /// stems (`Via Piae` is too short for a typo of Via Piave: a letter dropped from four letters
    /// reaches too many names).
    pub on_written: bool,
}

impl TypoRule {
    /// How many edits a stem of `len` letters (the longer of the two) may carry: 0 when it is too
    /// short for a typo.
    pub const fn allowed(&self, len: usize) -> usize {
        let mut n = 0;
        let from = [
            self.one_from,
            self.two_from,
            self.more_from[0],
            self.more_from[1],
        ];
        let mut i = 0;
        while i < from.len() {
            if len >= from[i] {
                n += 1;
            }
            i += 1;
        }
        n
    }
}

impl ChoiceRules {
    /// The choice by the names' scores alone.
    pub const NONE: ChoiceRules = ChoiceRules {
        type_changes_alone: false,
        partial_names: None,
        typo: TypoRule {
            one_from: 6,
            two_from: 12,
            ends_stand: true,
            two_keep_first_below: 0,
            digits_alike: false,
            particles_alike: true,
            needs_backing: true,
            more_from: [usize::MAX; 2],
            fewest_edits_win: false,
            on_written: false,
        },
        postcode_before_number: false,
        spelling_with_numbers: false,
        precision: 3,
    };

    /// The rules as a request's precision loosens them: at 4 one edit more from four letters, at
    /// 5 another from eight (the named steps' reach, issue 31); below 3 no typo is read at all
    /// (`precision` is checked where typos are gathered).
    pub const fn at(self, precision: u8) -> ChoiceRules {
        let mut typo = self.typo;
        typo.more_from = match precision {
            0..=3 => [usize::MAX; 2],
            4 => [4, usize::MAX],
            _ => [4, 8],
        };
        ChoiceRules {
            typo,
            precision,
            ..self
        }
    }

    /// Words in another order, and partial names (precision 2 up).
    pub const fn any_order(&self) -> bool {
        self.precision >= 2
    }

    /// Typos (precision 3 up).
    pub const fn typos(&self) -> bool {
        self.precision >= 3
    }
}

/// The words of a country's street names that people leave out or write otherwise, as the street
/// choice's partial names read them (`address::street_choice::partial`); first names are the
/// register's (`ChoiceFacts::is_first_name`). Words are folded.
#[derive(Debug, Clone, Copy)]
pub struct PartialNames {
    /// The canonical words of a name, particles kept (`S.` → `SAN`, `XXII` → `22`).
    pub words: fn(&str) -> Vec<String>,
    /// The words of a written name cut short with a dot, folded (`LIBER.` for Liberazione).
    pub cut_words: fn(&str) -> Vec<String>,
    /// Titles and words that precede a name and that people leave out (`GENERALE`, `SAN`).
    pub is_title: fn(&str) -> bool,
    /// Titles of nobility, after which the place is the person's name (`Conte di Cavour`).
    pub is_title_of_nobility: fn(&str) -> bool,
    /// Articles and prepositions (`DELLA`, `DI`).
    pub is_particle: fn(&str) -> bool,
    /// Words that make a street name another place when left out (`PORTA`, `MONTE`).
    pub names_a_place: fn(&str) -> bool,
    /// Whether a written name holds an elided particle (`D'Aosta`, `de' Musi`), part of a
    /// person's or a family's name rather than an article people drop: a street whose names have
    /// no particle is then no confident match (`street_choice::partial::elided_particle_doubt`).
    pub has_elided_particle: fn(&str) -> bool,
}

/// The rules of a country (ISO alpha-2), when the matcher has them.
pub fn for_country(code: &str) -> Option<&'static dyn CountryRules> {
    match code {
        "IT" => Some(&it::ITALY),
        _ => None,
    }
}

/// Italy's rules: the register's streets are Italian.
pub fn italy() -> &'static dyn CountryRules {
    &it::ITALY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn italy_is_the_one_country_with_rules_and_answers_for_its_words() {
        let it = for_country("IT").expect("Italy has rules");
        assert_eq!(it.country(), "IT");
        assert!(for_country("FR").is_none());
        assert_eq!(it.street_type("VLE"), Some("VIALE"));
        assert!(it.is_locality_type("FRAZIONE"));
        assert!(!it.is_locality_type("VIA"));
        assert_eq!(
            it.canonical_word("TRENTATRE", false, false).as_deref(),
            Some("33")
        );
        assert_eq!(it.canonical_word("I", true, false).as_deref(), Some("1"));
        assert_eq!(it.canonical_word("GARIBALDI", false, false), None);
        assert_eq!(
            it.joined_abbreviation("F", "LLI", false),
            Some(&["FRATELLI"][..])
        );
        assert!(it.is_particle("DELLA") && !it.is_particle("ROMA"));
        assert!(it.is_title("GENERALE") && it.is_month("SETTEMBRE"));
        assert_eq!(it.sub_address_kind("INT"), Some("unit"));
        assert!(it.means_no_number("SNC") && it.is_number_marker("CIVICO"));
        assert!(it.names_a_place("PORTA"));
        assert_eq!(it.title_case("CANTU'"), "Cantù");
        assert_eq!(
            it.display_name("VIA DELL'INDIPENDENZA"),
            "Via dell'Indipendenza"
        );
    }
}
