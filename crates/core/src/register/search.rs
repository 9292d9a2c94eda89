//! What the service asks the register directly: what it holds (`register_info`) and which
//! municipalities a name, code or postcode names (`find_municipalities`, the `/suggest` and
//! place lookups).

use serde::{Deserialize, Serialize};

use super::municipality::MunicipalityRecord;
use super::{ImportSummary, Municipality, MunicipalityPeriod, Register};

/// What the open register holds and whom it credits.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RegisterInfo<'a> {
    pub summary: &'a ImportSummary,
    pub municipalities: usize,
    pub active_municipalities: usize,
    pub countries: usize,
    pub attributions: Vec<String>,
}

pub fn register_info(register: &Register) -> RegisterInfo<'_> {
    RegisterInfo {
        summary: &register.summary,
        municipalities: register.municipalities.len(),
        active_municipalities: register.municipalities.active_count(),
        countries: register.countries.len(),
        attributions: register.attributions(),
    }
}

/// One of the keys, in this order of precedence: cadastral code, ISTAT code, name, postcode;
/// `province` narrows any of them.
#[derive(Deserialize, Default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct MunicipalityQuery {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub province: Option<String>,
    #[serde(default)]
    pub cadastral_code: Option<String>,
    #[serde(default)]
    pub istat_code: Option<String>,
    #[serde(default)]
    pub postcode: Option<String>,
}

/// A municipality as it is today (`current`, absent once ceased) and through its history.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MunicipalityHit<'a> {
    pub cadastral_code: &'a str,
    pub current: Option<&'a Municipality>,
    pub periods: &'a [MunicipalityPeriod],
}

pub fn find_municipalities<'a>(
    register: &'a Register,
    q: &MunicipalityQuery,
) -> Vec<MunicipalityHit<'a>> {
    let m = &register.municipalities;
    let mut hits: Vec<&MunicipalityRecord> = Vec::new();
    if let Some(code) = &q.cadastral_code {
        hits.extend(m.by_cadastral(code));
    } else if let Some(code) = &q.istat_code {
        hits.extend(m.by_istat(code));
    } else if let Some(name) = &q.name {
        hits = m.by_name(name);
    } else if let Some(pc) = &q.postcode {
        hits = m.by_postcode(pc);
    }
    if let Some(prov) = q
        .province
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let prov = prov.to_uppercase();
        hits.retain(|r| {
            r.current.as_ref().is_some_and(|c| c.province == prov)
                || r.periods.iter().any(|p| p.province == prov)
        });
    }
    hits.into_iter()
        .map(|r| MunicipalityHit {
            cadastral_code: &r.cadastral_code,
            current: r.current.as_ref(),
            periods: &r.periods,
        })
        .collect()
}
