//! The comparison forms of a street name (`NameKey`) that the street choice
//! (`address::street_choice`) scores every register's names by, and Italy's way of building them
//! from a type and a name with Italy's keys (`rules::key`: canonical words, particles, numbers
//! written one way), so that a municipality's streets (`CityStreets`) are read by the same choice
//! as the foreign registers. Data only: how two forms compare is the choice's.

use crate::rules::it::street_type;
use crate::rules::key::{canonical_tokens, loose_tokens};

/// The comparison forms of one name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NameKey {
    /// every token, expanded: `RUE DE BONNEVOIE`
    pub key: String,
    /// without street types and stop words: `BONNEVOIE`
    pub core: String,
    /// core tokens sorted, for names written in another word order
    pub sorted: String,
    /// core without spaces, for `Haupt Strasse` / `Hauptstrasse` and typo distance
    pub compact: String,
    /// the street-type tokens, sorted, to tell `Rue X` from `Avenue X`
    pub types: String,
    /// core tokens
    pub tokens: Vec<String>,
    /// compact without a concatenated type (`RUTTENSCHEIDER` for `RUTTENSCHEIDERSTRASSE`):
    /// typo distance is measured on what tells names apart
    pub stem: String,
    /// the sorted core without spaces
    pub sorted_compact: String,
    /// a written name as it was written, type left out (`Martiri Liber.`), where the reader keeps
    /// it for partial names (words cut short with a dot, a lone `S.`); empty otherwise
    pub written: String,
}

/// Italy's forms of a name of type `ty` (folded, as the register writes it; empty when none was
/// written): the key is every canonical word, type included (`full_key` with spaces); the core
/// the name without particles (`loose_tokens`, `loose_key` without spaces). Italian names carry
/// no concatenated type, so the stem is the compact core.
pub fn italian_name_key(ty: &str, name: &str) -> NameKey {
    let tokens = loose_tokens(name);
    let mut sorted = tokens.clone();
    sorted.sort();
    let compact = tokens.concat();
    NameKey {
        key: canonical_tokens(&format!("{ty} {name}")).join(" "),
        core: tokens.join(" "),
        sorted: sorted.join(" "),
        sorted_compact: sorted.concat(),
        stem: compact.clone(),
        compact,
        types: ty.to_string(),
        tokens,
        written: String::new(),
    }
}

/// Italy's forms of a name written with its type in one text (`VIA DEL FAGGIOLO`, a street's
/// other name): the type as `street_type::split` reads it.
pub fn italian_text_key(text: &str) -> NameKey {
    let (ty, name) = street_type::split(text);
    italian_name_key(&ty, &name)
}
