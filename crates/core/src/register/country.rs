//! Foreign countries as the Italian registry codes them (cadastral Z codes), current and ceased.

use std::collections::HashMap;

use heed::RoTxn;
use serde::{Deserialize, Serialize};

use super::store::Databases;
use crate::normalize::fold;
use crate::Result;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Country {
    /// Cadastral code used in the tax code (Z100 Albania...).
    pub cadastral_code: String,
    /// ISO 3166-1 alpha-3 where the state exists today.
    pub iso3: Option<String>,
    pub name: String,
    pub name_en: String,
    pub valid_from: String,
    pub valid_to: String,
    pub active: bool,
    /// Other names and spellings (Italian and English variants, native forms).
    pub aliases: Vec<String>,
}

#[derive(Default)]
pub struct Countries {
    pub records: Vec<Country>,
    by_code: HashMap<String, usize>,
    by_iso3: HashMap<String, usize>,
    by_name: HashMap<String, Vec<usize>>,
}

impl Countries {
    pub fn load(dbs: &Databases, rtxn: &RoTxn) -> Result<Countries> {
        let mut records = Vec::new();
        for item in dbs.countries.iter(rtxn)? {
            records.push(item?.1);
        }
        Ok(Countries::from_records(records))
    }

    pub fn from_records(records: Vec<Country>) -> Countries {
        let mut c = Countries {
            records,
            ..Default::default()
        };
        for (i, r) in c.records.iter().enumerate() {
            c.by_code.insert(r.cadastral_code.clone(), i);
            if let Some(iso3) = &r.iso3 {
                c.by_iso3.entry(iso3.clone()).or_insert(i);
            }
            let mut keys: Vec<String> = std::iter::once(&r.name)
                .chain(std::iter::once(&r.name_en))
                .chain(r.aliases.iter())
                .filter(|n| !n.is_empty())
                .map(|n| fold(n))
                .collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                c.by_name.entry(k).or_default().push(i);
            }
        }
        c
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn by_code(&self, code: &str) -> Option<&Country> {
        self.by_code
            .get(&code.trim().to_uppercase())
            .map(|&i| &self.records[i])
    }

    pub fn by_iso3(&self, iso3: &str) -> Option<&Country> {
        self.by_iso3
            .get(&iso3.trim().to_uppercase())
            .map(|&i| &self.records[i])
    }

    pub fn by_name(&self, name: &str) -> Vec<&Country> {
        self.by_name
            .get(&fold(name))
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }
}
