//! The foreign register as the address engine's street choice reads it
//! (`address::street_choice`): its streets' comparison forms and indexes, and the place a record
//! names.

use super::model::CountryRegister;
use super::place::Place;
use crate::address::street_choice::{ChoiceFacts, NameKey, NamedStreets, StreetPlace};

impl NamedStreets for CountryRegister {
    fn street_count(&self) -> usize {
        self.streets.len()
    }
    fn keys(&self, street: u32) -> &[NameKey] {
        &self.streets[street as usize].keys
    }
    fn name_key(&self, text: &str) -> NameKey {
        self.expander.name_key(text)
    }
    fn by_form(&self, q: &NameKey) -> Vec<u32> {
        self.streets_by_form(q)
    }
    fn by_typo(&self, q: &NameKey) -> Option<Vec<u32>> {
        self.grams.candidates(q)
    }
    fn by_word(&self, word: &str) -> Option<&[u32]> {
        self.streets_by_token.get(word).map(Vec::as_slice)
    }
    fn national(&self) -> bool {
        self.national
    }
    fn municipality_name(&self, street: u32) -> &str {
        &self.localities[self.streets[street as usize].locality as usize].municipality
    }
}

impl ChoiceFacts for CountryRegister {
    fn municipality_code(&self, street: u32) -> &str {
        &self.localities[self.streets[street as usize].locality as usize].municipality_code
    }
    fn lists_postcodes(&self, street: u32) -> bool {
        !self.streets[street as usize].postcodes.is_empty()
    }
}

impl StreetPlace for Place<'_> {
    fn empty(&self) -> bool {
        self.empty
    }
    fn contains(&self, street: u32) -> bool {
        Place::contains(self, street)
    }
    fn in_city(&self, street: u32) -> bool {
        self.city
            .contains(&self.reg.streets[street as usize].locality)
    }
    fn postcode(&self) -> &str {
        &self.postcode
    }
    fn streets(&self) -> &[u32] {
        Place::streets(self)
    }
}
