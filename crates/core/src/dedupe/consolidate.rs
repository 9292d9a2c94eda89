//! A group's record to keep and why, and its consolidated record: best name, union of
//! addresses, phones and e-mails with provenance.

use serde::Serialize;
use serde_json::Value;

use super::prepare::{same_place, AddressOut, Prepared};

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MainRecord {
    pub id: Value,
    pub index: usize,
    /// valid_tax_code, most_complete or first_in_list.
    pub reason: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AddressMerged {
    #[serde(flatten)]
    pub address: AddressOut,
    pub provenance: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DetailMerged {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub label: Option<String>,
    pub type_normalized: &'static str,
    pub value: String,
    pub provenance: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Consolidated {
    pub last_name: String,
    pub first_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub gender: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tax_code: Option<String>,
    pub addresses: Vec<AddressMerged>,
    pub phones: Vec<DetailMerged>,
    pub emails: Vec<DetailMerged>,
}

fn completeness(p: &Prepared) -> usize {
    let full_address = p
        .addresses
        .iter()
        .any(|a| !a.street.is_empty() && !a.number.is_empty());
    let named = !p.first_key.is_empty() && p.first_key.compact.len() > 1;
    let postcodes = p
        .addresses
        .iter()
        .filter(|a| !a.postcode.is_empty())
        .count();
    3 * full_address as usize
        + named as usize
        + p.addresses.len()
        + postcodes
        + p.phones.len()
        + p.emails.len()
}

/// The record to keep: a valid tax code consistent with the name first, then the most
/// complete record (full address, first name, postcodes, number of details), then the first in the list.
pub fn main_record<R>(records: &R, members: &[usize]) -> MainRecord
where
    R: std::ops::Index<usize, Output = Prepared> + ?Sized,
{
    let taxed: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| records[i].tax.as_ref().is_some_and(|t| t.consistent))
        .collect();
    let pool: &[usize] = if taxed.is_empty() || taxed.len() == members.len() {
        members
    } else {
        &taxed
    };
    let best = pool
        .iter()
        .map(|&i| completeness(&records[i]))
        .max()
        .unwrap_or(0);
    let top: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| completeness(&records[i]) == best)
        .collect();
    let index = top[0];
    let reason = if pool.len() < members.len() {
        "valid_tax_code"
    } else if top.len() == 1 && members.len() > 1 {
        "most_complete"
    } else {
        "first_in_list"
    };
    MainRecord {
        id: records[index].id.clone(),
        index,
        reason,
    }
}

/// Best name: a full first name (not a nickname or an initial), preferring the main record.
fn best_name<R>(records: &R, members: &[usize], main: usize) -> usize
where
    R: std::ops::Index<usize, Output = Prepared> + ?Sized,
{
    let rank = |i: usize| {
        let p = &records[i];
        let k = &p.first_key;
        (
            p.has_name(),
            k.compact.len() > 1,
            k.canonical.len() == 1 && k.known,
            k.canonical.len() == 1,
            i == main,
            k.compact.len(),
        )
    };
    members
        .iter()
        .copied()
        .max_by_key(|&i| (rank(i), std::cmp::Reverse(i)))
        .unwrap_or(main)
}

pub fn consolidate<R>(records: &R, members: &[usize], main: usize) -> Consolidated
where
    R: std::ops::Index<usize, Output = Prepared> + ?Sized,
{
    let named = &records[best_name(records, members, main)];
    // Main record first, so its forms and labels win ties.
    let order: Vec<usize> = std::iter::once(main)
        .chain(members.iter().copied().filter(|&i| i != main))
        .collect();
    let mut addresses: Vec<(super::prepare::Addr, Vec<Value>)> = Vec::new();
    let mut phones: Vec<DetailMerged> = Vec::new();
    let mut normalized_phones: Vec<String> = Vec::new();
    let mut emails: Vec<DetailMerged> = Vec::new();
    let mut normalized_emails: Vec<String> = Vec::new();
    for &i in &order {
        let p = &records[i];
        for a in &p.addresses {
            match addresses.iter_mut().find(|(x, _)| same_place(x, a)) {
                Some((x, prov)) => {
                    push_unique(prov, &p.id);
                    if x.shown.label.is_none() {
                        x.shown.label = a.shown.label.clone();
                        x.shown.type_normalized = a.shown.type_normalized;
                    }
                }
                None => addresses.push((a.clone(), vec![p.id.clone()])),
            }
        }
        for (list, seen, details) in [
            (&mut phones, &mut normalized_phones, &p.phones),
            (&mut emails, &mut normalized_emails, &p.emails),
        ] {
            for d in details {
                match seen.iter().position(|v| *v == d.value) {
                    Some(k) => {
                        push_unique(&mut list[k].provenance, &p.id);
                        if list[k].label.is_none() && d.label.is_some() {
                            list[k].label = d.label.clone();
                            list[k].type_normalized = d.type_normalized;
                        }
                    }
                    None => {
                        seen.push(d.value.clone());
                        list.push(DetailMerged {
                            label: d.label.clone(),
                            type_normalized: d.type_normalized,
                            value: d.original.trim().to_string(),
                            provenance: vec![p.id.clone()],
                        });
                    }
                }
            }
        }
    }
    let tax = order
        .iter()
        .filter_map(|&i| records[i].tax.as_ref())
        .find(|t| t.consistent)
        .map(|t| t.code.clone());
    let gender = order
        .iter()
        .find_map(|&i| records[i].gender)
        .map(|g| g.to_string());
    Consolidated {
        last_name: named.last_shown.clone(),
        first_name: named.first_shown.clone(),
        gender,
        tax_code: tax,
        addresses: addresses
            .into_iter()
            .map(|(a, provenance)| AddressMerged {
                address: a.shown,
                provenance,
            })
            .collect(),
        phones,
        emails,
    }
}

fn push_unique(list: &mut Vec<Value>, id: &Value) {
    if !list.contains(id) {
        list.push(id.clone());
    }
}
