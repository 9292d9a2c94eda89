//! The strings the pair loop compares (names, countries, cities, postcodes, numbers, streets,
//! phones, e-mails, tax codes) numbered once per job, so that each equality is one integer
//! comparison: profiling the 100,000-record run showed `memcmp` as the largest single cost of
//! the pair loop. 0 stands for the empty string.
//!
//! The numbered strings are also kept once each, side by side in one buffer (`Strings`), and the
//! pair loop reads them there rather than in the records: a candidate pair joins two records from
//! anywhere in the list, and their own strings are scattered over the heap, so that reading them
//! was a cache miss per string (the largest cost left in the loop); the distinct strings of a job
//! are few and fit the cache.

use std::collections::HashMap;

use super::prepare::Prepared;

/// Every distinct compared string of a job once, by number (0 is the empty string).
pub struct Strings {
    text: String,
    spans: Vec<(u32, u32)>,
}

impl Strings {
    pub fn get(&self, id: u32) -> &str {
        let (start, end) = self.spans[id as usize];
        &self.text[start as usize..end as usize]
    }
}

struct Numbering<'a> {
    ids: HashMap<&'a str, u32>,
    strings: Strings,
}

impl<'a> Numbering<'a> {
    fn id(&mut self, s: &'a str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        let strings = &mut self.strings;
        *self.ids.entry(s).or_insert_with(|| {
            let start = strings.text.len() as u32;
            strings.text.push_str(s);
            strings.spans.push((start, strings.text.len() as u32));
            strings.spans.len() as u32 - 1
        })
    }
}

/// Numbers of one record's compared strings (see `Prepared::ids`, `Addr::ids`, `Detail::id`).
#[derive(Debug, Clone, Default)]
pub struct RecordIds {
    /// The record's country key (`Prepared::country`).
    pub country: u32,
    pub last: u32,
    pub first: u32,
    /// First element of a compound first name (`FirstNameKey::head`).
    pub head: u32,
    pub words: u32,
    pub tax: u32,
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
    /// Abroad, the street as written without number and spaces (`Addr::street_compact`).
    pub compact: u32,
}

impl AddrIds {
    /// Some street written the same way on both (the caller has checked both have one).
    pub fn same_street(&self, o: &AddrIds) -> bool {
        self.streets
            .iter()
            .any(|&x| x != 0 && o.streets.contains(&x))
    }
}

/// Every record of one job numbered with one numbering (records and reference list together);
/// the strings by number for the pair loop.
pub fn intern(records: &mut [Prepared]) -> Strings {
    let mut numbering = Numbering {
        ids: HashMap::new(),
        strings: Strings {
            text: String::new(),
            spans: vec![(0, 0)],
        },
    };
    let ids: Vec<RecordIds> = records
        .iter()
        .map(|p| record_ids(&mut numbering, p))
        .collect();
    let Numbering {
        ids: numbered,
        strings,
    } = numbering;
    drop(numbered);
    for (p, ids) in records.iter_mut().zip(ids) {
        p.ids = ids;
    }
    strings
}

fn record_ids<'a>(n: &mut Numbering<'a>, p: &'a Prepared) -> RecordIds {
    RecordIds {
        country: n.id(&p.country),
        last: n.id(&p.last_compact),
        first: n.id(&p.first_key.compact),
        head: n.id(&p.first_key.head),
        words: n.id(&p.name_words),
        tax: p.tax.as_ref().map_or(0, |t| n.id(&t.code)),
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
                compact: n.id(&a.street_compact),
            })
            .collect(),
        phones: p.phones.iter().map(|d| n.id(&d.value)).collect(),
        emails: p.emails.iter().map(|d| n.id(&d.value)).collect(),
    }
}
