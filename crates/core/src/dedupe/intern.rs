//! The strings the pair loop compares for equality (names, countries, cities, postcodes,
//! numbers, streets, phones, e-mails) numbered once per job, so that each equality is one integer
//! comparison: profiling the 100,000-record run showed `memcmp` as the largest single cost of
//! the pair loop. 0 stands for the empty string.

use std::collections::HashMap;

use super::prepare::Prepared;

#[derive(Default)]
struct Numbering<'a> {
    ids: HashMap<&'a str, u32>,
}

impl<'a> Numbering<'a> {
    fn id(&mut self, s: &'a str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        let next = self.ids.len() as u32 + 1;
        *self.ids.entry(s).or_insert(next)
    }
}

/// Numbers of one record's compared strings (see `Prepared::ids`, `Addr::ids`, `Detail::id`).
#[derive(Debug, Clone, Default)]
pub struct RecordIds {
    /// The record's country key (`Prepared::country`).
    pub country: u32,
    pub last: u32,
    pub first: u32,
    pub words: u32,
    pub canonical: Vec<u32>,
    pub addresses: Vec<AddrIds>,
    pub phones: Vec<u32>,
    pub emails: Vec<u32>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AddrIds {
    pub country: u32,
    pub city: u32,
    pub postcode: u32,
    pub number: u32,
    /// The street as normalised and as written (0 when it was not changed).
    pub streets: [u32; 2],
}

impl AddrIds {
    /// Some street written the same way on both (the caller has checked both have one).
    pub fn same_street(&self, o: &AddrIds) -> bool {
        self.streets
            .iter()
            .any(|&x| x != 0 && o.streets.contains(&x))
    }
}

/// Every record of one job numbered with one numbering (records and reference list together).
pub fn intern(records: &mut [Prepared]) {
    let mut numbering = Numbering::default();
    let ids: Vec<RecordIds> = records
        .iter()
        .map(|p| record_ids(&mut numbering, p))
        .collect();
    drop(numbering);
    for (p, ids) in records.iter_mut().zip(ids) {
        p.ids = ids;
    }
}

fn record_ids<'a>(n: &mut Numbering<'a>, p: &'a Prepared) -> RecordIds {
    RecordIds {
        country: n.id(&p.country),
        last: n.id(&p.last_compact),
        first: n.id(&p.first_key.compact),
        words: n.id(&p.name_words),
        canonical: p.first_key.canonical.iter().map(|c| n.id(c)).collect(),
        addresses: p
            .addresses
            .iter()
            .map(|a| AddrIds {
                country: n.id(&a.country),
                city: n.id(&a.city),
                postcode: n.id(&a.postcode),
                number: n.id(&a.number),
                streets: [
                    n.id(&a.street),
                    n.id(a.street_as_written.as_deref().unwrap_or("")),
                ],
            })
            .collect(),
        phones: p.phones.iter().map(|d| n.id(&d.value)).collect(),
        emails: p.emails.iter().map(|d| n.id(&d.value)).collect(),
    }
}
