//! Italian municipalities: the one in force today and every period of its history (names,
//! ISTAT codes, provinces), keyed by cadastral (Belfiore) code.

use std::collections::HashMap;

use heed::RoTxn;
use serde::{Deserialize, Serialize};

use super::store::Databases;
use crate::normalize::fold;
use crate::Result;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Municipality {
    pub istat_code: String,
    pub cadastral_code: String,
    pub name: String,
    /// Name in the second official language (German, French, Slovenian...), empty when none.
    pub alt_name: String,
    /// Car-plate province abbreviation (RM, MI...).
    pub province: String,
    pub province_name: String,
    pub region_code: String,
    pub region_name: String,
    /// None when no source says; never guessed.
    pub provincial_capital: Option<bool>,
    pub postcodes: Vec<String>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub former_names: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MunicipalityPeriod {
    pub istat_code: String,
    pub name: String,
    pub alt_name: String,
    pub province: String,
    /// ISO dates; `valid_to` is 9999-12-31 while in force.
    pub valid_from: String,
    pub valid_to: String,
}

impl MunicipalityPeriod {
    pub fn covers(&self, iso_date: &str) -> bool {
        self.valid_from.as_str() <= iso_date && iso_date <= self.valid_to.as_str()
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct MunicipalityRecord {
    pub cadastral_code: String,
    /// The municipality in force today; None for a suppressed one.
    pub current: Option<Municipality>,
    /// Every period the archive knows, oldest first.
    pub periods: Vec<MunicipalityPeriod>,
}

impl MunicipalityRecord {
    pub fn period_on(&self, iso_date: &str) -> Option<&MunicipalityPeriod> {
        self.periods.iter().find(|p| p.covers(iso_date))
    }

    pub fn latest_period(&self) -> Option<&MunicipalityPeriod> {
        self.periods
            .iter()
            .max_by(|a, b| a.valid_to.cmp(&b.valid_to))
    }

    /// Name and province in force on a date, else the latest known.
    pub fn name_on(&self, iso_date: Option<&str>) -> Option<(&str, &str)> {
        let period = iso_date
            .and_then(|d| self.period_on(d))
            .or_else(|| self.latest_period());
        if let Some(p) = period {
            return Some((p.name.as_str(), p.province.as_str()));
        }
        self.current
            .as_ref()
            .map(|m| (m.name.as_str(), m.province.as_str()))
    }
}

/// All municipalities in memory with their lookup keys (about 10,000 records: small).
#[derive(Default)]
pub struct Municipalities {
    pub records: Vec<MunicipalityRecord>,
    by_cadastral: HashMap<String, usize>,
    by_istat: HashMap<String, usize>,
    by_name: HashMap<String, Vec<usize>>,
    by_postcode: HashMap<String, Vec<usize>>,
}

impl Municipalities {
    pub fn load(dbs: &Databases, rtxn: &RoTxn) -> Result<Municipalities> {
        let mut records = Vec::new();
        for item in dbs.municipalities.iter(rtxn)? {
            let (_, record) = item?;
            records.push(record);
        }
        Ok(Municipalities::from_records(records))
    }

    pub fn from_records(records: Vec<MunicipalityRecord>) -> Municipalities {
        let mut m = Municipalities {
            records,
            ..Default::default()
        };
        for (i, r) in m.records.iter().enumerate() {
            m.by_cadastral.insert(r.cadastral_code.clone(), i);
            let mut names: Vec<&str> = r.periods.iter().map(|p| p.name.as_str()).collect();
            names.extend(r.periods.iter().map(|p| p.alt_name.as_str()));
            if let Some(c) = &r.current {
                m.by_istat.insert(c.istat_code.clone(), i);
                names.push(&c.name);
                names.push(&c.alt_name);
                names.extend(c.former_names.iter().map(String::as_str));
                for pc in &c.postcodes {
                    m.by_postcode.entry(pc.clone()).or_default().push(i);
                }
            }
            let mut keys: Vec<String> = names
                .into_iter()
                .filter(|n| !n.is_empty())
                .map(fold)
                .collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                m.by_name.entry(k).or_default().push(i);
            }
        }
        m
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn active_count(&self) -> usize {
        self.records.iter().filter(|r| r.current.is_some()).count()
    }

    pub fn by_cadastral(&self, code: &str) -> Option<&MunicipalityRecord> {
        self.by_cadastral
            .get(&code.trim().to_uppercase())
            .map(|&i| &self.records[i])
    }

    pub fn by_istat(&self, code: &str) -> Option<&MunicipalityRecord> {
        self.by_istat.get(code.trim()).map(|&i| &self.records[i])
    }

    /// Records whose name (today's, a former one, or the second-language one) folds to `name`.
    pub fn by_name(&self, name: &str) -> Vec<&MunicipalityRecord> {
        self.by_name
            .get(&fold(name))
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }

    pub fn by_postcode(&self, postcode: &str) -> Vec<&MunicipalityRecord> {
        self.by_postcode
            .get(postcode.trim())
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }

    /// Every folded name key with the records it reaches: for fuzzy indexes built on top.
    pub fn name_keys(&self) -> impl Iterator<Item = (&String, &Vec<usize>)> {
        self.by_name.iter()
    }
}
