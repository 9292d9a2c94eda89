//! What the street engine asks of a set of streets, whatever the country: the streets under a
//! comparison key, the streets near a key or holding a word (typos and partial names), and of one
//! street its type, names, house numbers and postcodes. The engine (`address::resolve`'s named
//! steps, the foreign register's ranking) reads streets only through this trait, so a set of
//! streets is one municipality's `CityStreets` in Italy and the streets of a locality or postcode
//! in a foreign register, each behind its own indexes.
//!
//! Data and indexes only: nothing here decides which street was meant.

use super::{CityStreets, KeyKind};

/// What the engine asks of one street of a set (ids are the set's own `u32`): every register,
/// Italian or foreign, answers these.
pub trait StreetFacts {
    /// The street's type as the register writes it (folded); empty where the name holds it.
    fn street_type(&self, street: u32) -> &str;
    /// The street's name as the register writes it.
    fn name(&self, street: u32) -> &str;
    /// The street's other names (other languages, other spellings).
    fn alt_names(&self, street: u32) -> &[String];
    /// Whether the register lists that house number on the street.
    fn has_number(&self, street: u32, number: u32, suffix: &str) -> bool;
    /// Whether the register lists any house number on the street.
    fn lists_numbers(&self, street: u32) -> bool;
    /// Whether the postcode is one of the street's.
    fn has_postcode(&self, street: u32, postcode: &str) -> bool;
}

/// A set of streets the engine chooses among, with the indexes its named steps look names up in.
pub trait StreetArea: StreetFacts {
    /// The streets one of whose names has `key` as its key of `kind`.
    fn by_key(&self, kind: KeyKind, key: &str) -> &[u32];
    /// The streets whose loose key is within `distance` edits of `key`, with the edits, as the
    /// area's typo index reaches them.
    fn fuzzy(&self, key: &str, distance: u32) -> Vec<(u32, u32)>;
    /// `fuzzy` by a scan of every name: reaches what the index cannot (two substitutions).
    fn fuzzy_scan(&self, key: &str, distance: u32) -> Vec<(u32, u32)>;
    /// The streets one of whose name words is `token`.
    fn by_token(&self, token: &str) -> &[u32];
    /// The name words of the area within `distance` edits of `token`.
    fn tokens_near(&self, token: &str, distance: u32) -> Vec<&str>;
    /// The loose words of a street's name, then of each of its other names.
    fn name_tokens(&self, street: u32) -> &[Vec<String>];
    /// Whether the register holds every house number of the area (only then is a number absent).
    fn complete_numbers(&self) -> bool;
}

impl StreetArea for CityStreets {
    fn by_key(&self, kind: KeyKind, key: &str) -> &[u32] {
        CityStreets::by_key(self, kind, key)
    }
    fn fuzzy(&self, key: &str, distance: u32) -> Vec<(u32, u32)> {
        CityStreets::fuzzy(self, key, distance)
    }
    fn fuzzy_scan(&self, key: &str, distance: u32) -> Vec<(u32, u32)> {
        CityStreets::fuzzy_scan(self, key, distance)
    }
    fn by_token(&self, token: &str) -> &[u32] {
        CityStreets::by_token(self, token)
    }
    fn tokens_near(&self, token: &str, distance: u32) -> Vec<&str> {
        CityStreets::tokens_near(self, token, distance)
    }
    fn name_tokens(&self, street: u32) -> &[Vec<String>] {
        CityStreets::name_tokens(self, street)
    }
    fn complete_numbers(&self) -> bool {
        self.record.complete_numbers
    }
}

impl StreetFacts for CityStreets {
    fn street_type(&self, street: u32) -> &str {
        &self.street(street).street_type
    }
    fn name(&self, street: u32) -> &str {
        &self.street(street).name
    }
    fn alt_names(&self, street: u32) -> &[String] {
        &self.street(street).alt_names
    }
    fn has_number(&self, street: u32, number: u32, suffix: &str) -> bool {
        self.street(street).find_number(number, suffix).is_some()
    }
    fn lists_numbers(&self, street: u32) -> bool {
        !self.street(street).numbers.is_empty()
    }
    fn has_postcode(&self, street: u32, postcode: &str) -> bool {
        self.street(street)
            .postcodes
            .iter()
            .any(|(p, _)| p == postcode)
    }
}
