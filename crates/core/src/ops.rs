//! The one entry point the Node binding calls: an operation name and a JSON input, answered
//! with JSON bytes. Batches come in as one call and go out as one buffer.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::register::{Municipality, MunicipalityPeriod, Register};
use crate::{Error, Result};

pub fn compute(register: Option<&Register>, op: &str, input: &[u8]) -> Result<Vec<u8>> {
    let need = || register.ok_or_else(|| Error::RegisterMissing("(not opened)".into()));
    match op {
        "register.info" => answer(&register_info(need()?)),
        "municipality.find" => answer(&find_municipalities(need()?, &parse(input)?)),
        "dedupe.run" => answer(&crate::dedupe::run(need()?, parse(input)?)?),
        "dedupe.incremental" => answer(&crate::dedupe::incremental(need()?, parse(input)?)?),
        "contact.verify" => answer(&verify_contacts(need()?, parse(input)?)),
        "street.search" => answer(&search_streets(need()?, parse(input)?)),
        "street.house_numbers" => answer(&street_numbers(need()?, parse(input)?)),
        "street.sample" => answer(&sample_streets(need()?, parse(input)?)),
        "postal.coverage" => answer(&crate::postal::coverage(need()?)),
        "postal.render" => answer(&crate::postal::render_batch(need()?, parse(input)?)),
        "tax_code.batch" => answer(&crate::tax_code::batch(need()?, &parse(input)?)),
        "foreign.registers" => answer(&crate::foreign::registers()),
        "foreign.streets" => answer(&crate::foreign::suggest::streets(&parse(input)?)),
        "foreign.house_numbers" => answer(&crate::foreign::suggest::numbers(&parse(input)?)),
        "foreign.verify" => answer(&crate::foreign::verify_batch(
            &parse::<ContactBatch>(input)?.items,
        )),
        other => Err(Error::UnknownOp(other.to_string())),
    }
}

pub fn parse<T: DeserializeOwned>(input: &[u8]) -> Result<T> {
    serde_json::from_slice(input).map_err(|e| Error::BadInput(e.to_string()))
}

pub fn answer<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    Ok(serde_json::to_vec(value)?)
}

#[derive(Serialize)]
struct RegisterInfo<'a> {
    summary: &'a crate::register::ImportSummary,
    municipalities: usize,
    active_municipalities: usize,
    countries: usize,
    attributions: Vec<String>,
}

fn register_info(register: &Register) -> RegisterInfo<'_> {
    RegisterInfo {
        summary: &register.summary,
        municipalities: register.municipalities.len(),
        active_municipalities: register.municipalities.active_count(),
        countries: register.countries.len(),
        attributions: register.attributions(),
    }
}

#[derive(Deserialize, Default)]
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

#[derive(Serialize)]
pub struct MunicipalityHit<'a> {
    pub cadastral_code: &'a str,
    pub current: Option<&'a Municipality>,
    pub periods: &'a [MunicipalityPeriod],
}

fn find_municipalities<'a>(
    register: &'a Register,
    q: &MunicipalityQuery,
) -> Vec<MunicipalityHit<'a>> {
    let m = &register.municipalities;
    let mut hits: Vec<&crate::register::municipality::MunicipalityRecord> = Vec::new();
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

#[derive(Deserialize)]
pub struct ContactBatch {
    pub items: Vec<crate::address::ContactInput>,
    #[serde(default)]
    pub options: crate::address::VerifyOptions,
}

fn verify_contacts(register: &Register, batch: ContactBatch) -> Vec<crate::address::ContactResult> {
    crate::address::verify_batch(register, &batch.items, &batch.options)
}

#[derive(Deserialize)]
pub struct StreetQuery {
    #[serde(default)]
    pub cadastral_code: Option<String>,
    #[serde(default)]
    pub province: Option<String>,
    pub query: String,
    #[serde(default = "default_limit")]
    pub limit: usize,
}

fn default_limit() -> usize {
    10
}

/// Prefix and typo-tolerant street search within a municipality, or across a province.
fn search_streets(register: &Register, q: StreetQuery) -> Vec<crate::register::street::StreetHit> {
    use crate::register::street;
    let limit = q.limit.clamp(1, 100);
    match (&q.cadastral_code, &q.province) {
        (Some(code), _) => {
            street::search_streets(&register.streets, &code.to_uppercase(), &q.query, limit)
        }
        (None, Some(p)) => street::search_streets_in_province(register, p, &q.query, limit),
        (None, None) => Vec::new(),
    }
}

#[derive(Deserialize)]
pub struct StreetRef {
    pub cadastral_code: String,
    pub index: u32,
}

fn street_numbers(
    register: &Register,
    r: StreetRef,
) -> Vec<crate::register::street::HouseNumberEntry> {
    crate::register::street::house_numbers(
        &register.streets,
        &r.cadastral_code.to_uppercase(),
        r.index,
    )
}

#[derive(Deserialize)]
pub struct SampleQuery {
    #[serde(default)]
    pub cadastral_codes: Vec<String>,
    pub count: usize,
    #[serde(default)]
    pub seed: u64,
}

fn sample_streets(
    register: &Register,
    q: SampleQuery,
) -> Vec<crate::register::street::SampledAddress> {
    crate::register::street::sample(register, &q.cadastral_codes, q.count.min(100_000), q.seed)
}
