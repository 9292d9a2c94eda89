//! A list as sent to its prepared form, a chunk at a time (`prepare.rs` prepares one record).

use rayon::prelude::*;

use super::prepare::{self, Foreign, Prepared};
use super::record::{self, DedupeRecord};
use crate::register::Register;

/// Records prepared this many at a time: the engine inputs (copies of every address) are held
/// for one chunk, never for a million records at once.
pub(super) const PREPARE_CHUNK: usize = 100_000;

/// Every record prepared, chunk by chunk, each chunk in parallel. The records are consumed: each
/// one, its engine input, and its place in the list as sent are freed once it is prepared, so
/// that a million records are never held as sent and as prepared at once.
pub fn prepare_all(
    register: &Register,
    records: Vec<DedupeRecord>,
    offset: usize,
    foreign: Foreign,
) -> Vec<Prepared> {
    prepare_in_chunks(register, records, offset, foreign, PREPARE_CHUNK)
}

pub(super) fn prepare_in_chunks(
    register: &Register,
    records: Vec<DedupeRecord>,
    offset: usize,
    foreign: Foreign,
    chunk_size: usize,
) -> Vec<Prepared> {
    let mut out = Vec::with_capacity(records.len());
    let mut rest = records;
    while !rest.is_empty() {
        let chunk: Vec<DedupeRecord> = rest.drain(..chunk_size.min(rest.len())).collect();
        // The list's own array (a few hundred bytes a record, 450 MB for a million) shrinks
        // with each chunk taken, instead of being held to the end: it was the last chunk's
        // peak of the million-record run.
        rest.shrink_to_fit();
        let start = offset + out.len();
        out.extend(prepare_chunk(register, chunk, &|i| start + i, foreign));
    }
    out
}

/// Addresses go through the contact engine once per distinct address: lists repeat them (a
/// company's address on every employee, the same contact twice). `at`: each record's place in
/// the whole list from its place in `records`.
pub(super) fn prepare_chunk(
    register: &Register,
    records: Vec<DedupeRecord>,
    at: &(dyn Fn(usize) -> usize + Sync),
    foreign: Foreign,
) -> Vec<Prepared> {
    use std::collections::HashMap;
    fn f(x: &Option<String>) -> &str {
        x.as_deref().unwrap_or("")
    }
    type Inputs = Vec<(record::AddressIn, crate::address::ContactInput)>;
    let inputs: Vec<Inputs> = records
        .par_iter()
        .map(|r| {
            r.all_addresses()
                .into_iter()
                .map(|a| {
                    let input = prepare::engine_input(&a, r);
                    (a, input)
                })
                .collect()
        })
        .collect();
    let mut slot: HashMap<[&str; 6], usize> = HashMap::new();
    let mut unique: Vec<&crate::address::ContactInput> = Vec::new();
    let slots: Vec<Vec<usize>> = inputs
        .iter()
        .map(|list| {
            list.iter()
                .map(|(_, i)| {
                    let key = [
                        f(&i.address),
                        f(&i.postcode),
                        f(&i.city),
                        f(&i.province),
                        f(&i.country_code),
                        f(&i.country),
                    ];
                    *slot.entry(key).or_insert_with(|| {
                        unique.push(i);
                        unique.len() - 1
                    })
                })
                .collect()
        })
        .collect();
    let options = prepare::engine_options(foreign);
    let verified: Vec<prepare::Verified> = unique
        .par_iter()
        .map(|i| crate::address::verify(register, i, &options).into())
        .collect();
    drop(slot);
    drop(unique);
    records
        .into_par_iter()
        .zip(inputs.into_par_iter())
        .zip(slots.into_par_iter())
        .enumerate()
        .map(|(i, ((r, list), slots))| {
            let addresses = list
                .iter()
                .zip(slots)
                .map(|((a, input), s)| prepare::address(register, a, input, &verified[s]))
                .collect();
            prepare::prepare(register, &r, at(i), addresses)
        })
        .collect()
}
