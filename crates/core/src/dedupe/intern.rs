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

use super::prepare::{Birth, Prepared};

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

/// Numbers strings in the order they are first seen. The map holds a 64-bit hash of each
/// string, not the string (the distinct strings of five million records are tens of millions:
/// owned keys would double them); a hash met with another string goes to `collided`.
struct Numbering {
    ids: HashMap<u64, u32>,
    collided: HashMap<String, u32>,
    strings: Strings,
}

impl Numbering {
    fn new() -> Numbering {
        Numbering {
            ids: HashMap::new(),
            collided: HashMap::new(),
            strings: Strings {
                text: String::new(),
                spans: vec![(0, 0)],
            },
        }
    }

    fn id(&mut self, s: &str) -> u32 {
        use std::hash::{Hash, Hasher};
        if s.is_empty() {
            return 0;
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.hash(&mut h);
        let h = h.finish();
        match self.ids.get(&h) {
            Some(&id) if self.strings.get(id) == s => id,
            Some(_) => match self.collided.get(s) {
                Some(&id) => id,
                None => {
                    let id = self.strings.push(s);
                    self.collided.insert(s.to_string(), id);
                    id
                }
            },
            None => {
                let id = self.strings.push(s);
                self.ids.insert(h, id);
                id
            }
        }
    }
}

impl Strings {
    fn push(&mut self, s: &str) -> u32 {
        let start = u32::try_from(self.text.len()).expect("under 4 GiB of distinct strings");
        self.text.push_str(s);
        self.spans.push((start, self.text.len() as u32));
        self.spans.len() as u32 - 1
    }
}

/// What the pair loop reads of one record, in one cache line: the numbers of its strings, the
/// facts compared beside them, and where its lists start in `Table::lists` and
/// `Table::addresses`. A candidate pair joins two records from anywhere in the list, and
/// reading the second one in `Prepared` (a large struct and five lists of its own on the heap)
/// cost a cache miss per field: the largest cost left in the loop once the strings were
/// numbered. Here it is one line, plus one for its lists and one for its addresses.
#[derive(Debug, Clone, Copy, Default)]
#[repr(align(64))]
pub struct Facts {
    /// The record's country key (`Prepared::country`).
    pub country: u32,
    pub last: u32,
    pub first: u32,
    /// First element of a compound first name (`FirstNameKey::head`).
    pub head: u32,
    pub words: u32,
    pub tax: u32,
    /// Canonical first names, phones, e-mails: `lists[0]..lists[1]`, `lists[1]..lists[2]`,
    /// `lists[2]..lists[3]` in `Table::lists`.
    lists: [u32; 4],
    /// `addresses[0]..addresses[1]` in `Table::addresses`.
    addresses: [u32; 2],
    pub birth: Option<Birth>,
    /// Declared (or tax-code) gender, `M` or `F` (`prepare` keeps no other); 0 when unknown.
    pub gender: u8,
    /// Gender of a common first name; 0 when none.
    pub name_gender: u8,
    /// `FirstNameKey::weak` and `known`.
    pub weak: bool,
    pub known: bool,
    /// A valid tax code, and whether it agrees with the name (`TaxCode::consistent`).
    pub taxed: bool,
    pub tax_consistent: bool,
    /// How many records of the job carry this last name, in classes (`name_frequency`).
    pub last_frequency: u8,
}

const _: () = assert!(std::mem::size_of::<Facts>() == 64);

/// A phone or e-mail in `Table::lists`: its string's number, with this bit set when it belongs
/// to a place (`Detail::shared`).
const SHARED: u32 = 1 << 31;

/// The records of one job as the pair loop reads them (`Facts`), their lists side by side.
pub struct Table {
    pub strings: Strings,
    pub facts: Vec<Facts>,
    lists: Vec<u32>,
    addresses: Vec<AddrIds>,
}

impl Table {
    pub fn canonical(&self, f: &Facts) -> &[u32] {
        &self.lists[f.lists[0] as usize..f.lists[1] as usize]
    }

    /// Phones as (number, shared).
    pub fn phones(&self, f: &Facts) -> impl Iterator<Item = (u32, bool)> + Clone + '_ {
        Self::details(&self.lists[f.lists[1] as usize..f.lists[2] as usize])
    }

    /// E-mails as (number, shared).
    pub fn emails(&self, f: &Facts) -> impl Iterator<Item = (u32, bool)> + Clone + '_ {
        Self::details(&self.lists[f.lists[2] as usize..f.lists[3] as usize])
    }

    fn details(list: &[u32]) -> impl Iterator<Item = (u32, bool)> + Clone + '_ {
        list.iter().map(|&x| (x & !SHARED, x & SHARED != 0))
    }

    pub fn addresses(&self, f: &Facts) -> &[AddrIds] {
        &self.addresses[f.addresses[0] as usize..f.addresses[1] as usize]
    }

    /// Record `i`'s line asked for ahead of its comparison (`block::fold_blocks`): the pair
    /// loop otherwise waits for it, a miss per pair.
    pub fn prefetch_facts(&self, i: usize) {
        if let Some(f) = self.facts.get(i) {
            prefetch(f);
        }
    }

    /// The same for the lists and addresses of record `i`, once its line is there (their
    /// places are on it).
    pub fn prefetch_lists(&self, i: usize) {
        if let Some(f) = self.facts.get(i) {
            if let Some(a) = self.addresses.get(f.addresses[0] as usize) {
                prefetch(a);
            }
            if let Some(l) = self.lists.get(f.lists[0] as usize) {
                prefetch(l);
            }
        }
    }
}

/// Asks the CPU to bring the line holding `value` into its cache: a hint, nothing is read.
#[inline]
fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory; the address is that of a live
    // reference, and SSE is part of every x86_64 CPU.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
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

/// Every record of one job numbered with one numbering (records and reference list together),
/// in the form the pair loop reads.
pub fn intern(records: &[Prepared]) -> Table {
    let mut interner = Interner::new();
    for p in records {
        interner.push(p);
    }
    interner.finish()
}

/// `intern` one record at a time, in list order: a streamed job numbers each chunk of records as
/// it is prepared, then drops them (the numbers are those `intern` gives the whole list).
pub struct Interner {
    numbering: Numbering,
    facts: Vec<Facts>,
    lists: Vec<u32>,
    addresses: Vec<AddrIds>,
}

impl Interner {
    pub fn new() -> Interner {
        Interner {
            numbering: Numbering::new(),
            facts: Vec::new(),
            lists: Vec::new(),
            addresses: Vec::new(),
        }
    }

    pub fn push(&mut self, p: &Prepared) {
        let f = facts(&mut self.numbering, p, &mut self.lists, &mut self.addresses);
        self.facts.push(f);
    }

    pub fn finish(self) -> Table {
        let Interner {
            numbering,
            mut facts,
            mut lists,
            addresses,
        } = self;
        drop(numbering.ids);
        drop(numbering.collided);
        name_frequency(&mut facts);
        mark_frequent(&facts, &mut lists, &addresses);
        Table {
            strings: numbering.strings,
            facts,
            lists,
            addresses,
        }
    }
}

impl Default for Interner {
    fn default() -> Interner {
        Interner::new()
    }
}

/// Classes of a last name's count in the job: up to 4 records (one person's copies, a rare
/// name), up to 16, up to 64, more (Smith, Rossi).
fn name_frequency(facts: &mut [Facts]) {
    let mut count: HashMap<u32, u32> = HashMap::new();
    for f in facts.iter().filter(|f| f.last != 0) {
        *count.entry(f.last).or_default() += 1;
    }
    for f in facts.iter_mut().filter(|f| f.last != 0) {
        f.last_frequency = match count[&f.last] {
            0..=4 => 0,
            5..=16 => 1,
            17..=64 => 2,
            _ => 3,
        };
    }
}

/// A phone or e-mail on records at this many different addresses is a place's or an
/// organisation's (a switchboard, an agency's mailbox), whatever its label: shared, as a landline.
pub const FREQUENT_PLACES: usize = 3;

/// Marks as shared each phone and e-mail of the job found on records at `FREQUENT_PLACES` or
/// more different addresses (street and number, or city where there is no street): one agency's
/// number on its sites would otherwise chain them into one group. Records without an address
/// do not count (they may be any of the places).
fn mark_frequent(facts: &[Facts], lists: &mut [u32], addresses: &[AddrIds]) {
    let frequent = super::knob("frequent", FREQUENT_PLACES as f64) as usize;
    if frequent == 0 {
        return;
    }
    // Per value, the first few distinct places seen (no more are needed).
    let mut places: HashMap<u32, Vec<[u32; 3]>> = HashMap::new();
    for f in facts {
        let Some(a) = addresses[f.addresses[0] as usize..f.addresses[1] as usize].first() else {
            continue;
        };
        let place = if a.streets[0] != 0 {
            [a.city, a.streets[0], a.number]
        } else {
            [a.city, 0, 0]
        };
        for &x in &lists[f.lists[1] as usize..f.lists[3] as usize] {
            let seen = places.entry(x & !SHARED).or_default();
            if seen.len() < frequent && !seen.contains(&place) {
                seen.push(place);
            }
        }
    }
    for f in facts {
        for x in &mut lists[f.lists[1] as usize..f.lists[3] as usize] {
            if places
                .get(&(*x & !SHARED))
                .is_some_and(|p| p.len() >= frequent)
            {
                *x |= SHARED;
            }
        }
    }
}

fn facts(
    n: &mut Numbering,
    p: &Prepared,
    lists: &mut Vec<u32>,
    addresses: &mut Vec<AddrIds>,
) -> Facts {
    let at = |v: &Vec<u32>| u32::try_from(v.len()).expect("fewer than 2^32 list entries");
    let mut bounds = [at(lists); 4];
    lists.extend(p.first_key.canonical.iter().map(|c| n.id(c)));
    bounds[1] = at(lists);
    for d in &p.phones {
        lists.push(n.id(&d.value) | if d.shared { SHARED } else { 0 });
    }
    bounds[2] = at(lists);
    for d in &p.emails {
        lists.push(n.id(&d.value) | if d.shared { SHARED } else { 0 });
    }
    bounds[3] = at(lists);
    let first_address = addresses.len() as u32;
    addresses.extend(p.addresses.iter().map(|a| AddrIds {
        country: n.id(&a.country),
        city: n.id(&a.city),
        postcode: n.id(&a.postcode),
        number: n.id(&a.number),
        streets: [
            n.id(&a.street),
            n.id(a.street_as_written.as_deref().unwrap_or("")),
        ],
        compact: n.id(&a.street_compact),
    }));
    let gender = |g: Option<char>| g.map_or(0, |c| c as u8);
    Facts {
        country: n.id(&p.country),
        last: n.id(&p.last_compact),
        first: n.id(&p.first_key.compact),
        head: n.id(&p.first_key.head),
        words: n.id(&p.name_words),
        tax: p.tax.as_ref().map_or(0, |t| n.id(&t.code)),
        lists: bounds,
        addresses: [first_address, addresses.len() as u32],
        birth: p.birth,
        gender: gender(p.gender),
        name_gender: gender(p.name_gender),
        weak: p.first_key.weak,
        known: p.first_key.known,
        taxed: p.tax.is_some(),
        tax_consistent: p.tax.as_ref().is_some_and(|t| t.consistent),
        last_frequency: 0,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dedupe::tests::register;

    /// A mobile on records at three different addresses is a switchboard's (shared); on two, or
    /// on one address written three times, it stays personal. E-mails alike.
    #[test]
    fn a_detail_found_at_many_addresses_is_a_place_s() {
        let Some(reg) = register() else { return };
        let record = |street: &str, phone: &str| {
            json!({"last_name": "Centro Infanzia", "address": street, "city": "Bologna",
                   "phone": phone, "email": format!("{phone}@example.it")})
        };
        let records = serde_json::from_value(json!([
            record("Via San Vitale 12", "3351112233"),
            record("Via Zamboni 33", "3351112233"),
            record("Strada Maggiore 4", "3351112233"),
            record("Via San Vitale 12", "3354445566"),
            record("Via San Vitale 12", "3354445566"),
            record("Via San Vitale 12", "3354445566"),
            record("Via Zamboni 33", "3357778899"),
            record("Strada Maggiore 4", "3357778899"),
        ]))
        .unwrap();
        let prepared = crate::dedupe::prepare_all(reg, records, 0, Default::default());
        let table = intern(&prepared);
        let shared = |i: usize| {
            let f = &table.facts[i];
            (
                table.phones(f).all(|(_, sh)| sh),
                table.emails(f).all(|(_, sh)| sh),
            )
        };
        assert_eq!(shared(0), (true, true));
        assert_eq!(shared(2), (true, true));
        assert_eq!(shared(3), (false, false));
        assert_eq!(shared(6), (false, false));
    }

    /// The pair loop reads the table, never the prepared records: the table must say of each
    /// record what the record says.
    #[test]
    fn the_table_says_what_each_record_says() {
        let Some(reg) = register() else { return };
        let records = serde_json::from_value(json!([
            {"first_name": "Beppe", "last_name": "Verdi", "gender": "M",
             "addresses": [{"address": "Via San Vitale 12", "city": "Bologna"},
                           {"type": "work", "address": "Via Dazio 90", "city": "Alessandria"}],
             "phones": ["051 1234567", {"type": "cell", "value": "335 1112233"}],
             "emails": ["info@verdi.it", "beppe@verdi.it"]},
            {"last_name": "Rossi Costruzioni S.r.l.", "phone": "+39 02 7654321"},
            {"first_name": "Maria Grazia", "last_name": "Neri", "birth_date": "1971-04-09",
             "tax_code": "RSSMRA80A01H501U", "address": "12 rue de la République",
             "city": "Marseille", "country_code": "FR"}
        ]))
        .unwrap();
        let prepared = crate::dedupe::prepare_all(reg, records, 0, Default::default());
        let table = intern(&prepared);
        let s = &table.strings;
        let text = |ids: &[u32]| ids.iter().map(|&i| s.get(i)).collect::<Vec<_>>();
        for (p, f) in prepared.iter().zip(&table.facts) {
            assert_eq!(s.get(f.last), p.last_compact);
            assert_eq!(s.get(f.first), p.first_key.compact);
            assert_eq!(s.get(f.head), p.first_key.head);
            assert_eq!(s.get(f.words), p.name_words);
            assert_eq!(s.get(f.country), p.country);
            assert_eq!(text(table.canonical(f)), p.first_key.canonical);
            for (list, details) in [
                (table.phones(f).collect::<Vec<_>>(), &p.phones),
                (table.emails(f).collect(), &p.emails),
            ] {
                let read: Vec<(&str, bool)> = list.iter().map(|&(i, sh)| (s.get(i), sh)).collect();
                let want: Vec<(&str, bool)> = details
                    .iter()
                    .map(|d| (d.value.as_str(), d.shared))
                    .collect();
                assert_eq!(read, want);
            }
            let addresses: Vec<[&str; 6]> = table
                .addresses(f)
                .iter()
                .map(|a| {
                    [
                        a.country,
                        a.city,
                        a.postcode,
                        a.number,
                        a.streets[0],
                        a.compact,
                    ]
                    .map(|i| s.get(i))
                })
                .collect();
            let want: Vec<[&str; 6]> = p
                .addresses
                .iter()
                .map(|a| {
                    [
                        &a.country,
                        &a.city,
                        &a.postcode,
                        &a.number,
                        &a.street,
                        &a.street_compact,
                    ]
                    .map(String::as_str)
                })
                .collect();
            assert_eq!(addresses, want);
            assert_eq!(f.birth, p.birth);
            assert_eq!(f.gender, p.gender.map_or(0, |g| g as u8));
            assert_eq!(f.name_gender, p.name_gender.map_or(0, |g| g as u8));
            assert_eq!((f.weak, f.known), (p.first_key.weak, p.first_key.known));
            assert_eq!(f.taxed, p.tax.is_some());
            assert_eq!(
                f.tax_consistent,
                p.tax.as_ref().is_some_and(|t| t.consistent)
            );
        }
        // The records are what the test says they are: two addresses, a landline (a place's)
        // and a mobile, a role mailbox, a compound first name, a foreign address.
        let beppe = &table.facts[0];
        assert_eq!(table.addresses(beppe).len(), 2);
        let shared: Vec<bool> = table.phones(beppe).map(|(_, sh)| sh).collect();
        assert_eq!(shared, vec![true, false]);
        assert!(table.emails(beppe).any(|(_, sh)| sh));
        assert_eq!(s.get(table.facts[2].head), "MARIA");
        assert_eq!(s.get(table.addresses(&table.facts[2])[0].country), "FR");
        assert_eq!(table.facts[1].first, 0);
    }
}
