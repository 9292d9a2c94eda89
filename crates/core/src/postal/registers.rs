//! The seam between the postal form and the national registers (issue 12, engineer 12a): which
//! countries have a register in service and at which level, and which foreign localities the
//! imported registers know (a `foreign: detect` signal). The catalogue and detection read only
//! these two functions; a register importer that adds a country makes it appear here.

use serde::Serialize;

use crate::register::Register;

/// A country whose register is in service.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct InService {
    /// ISO 3166-1 alpha-2.
    pub country: String,
    /// house_number, street or postcode: the finest level the register verifies.
    pub verification: &'static str,
    /// The register's name as its publisher gives it.
    pub register: String,
    /// When the imported data was published or imported (ISO 8601 date).
    pub date: String,
}

/// Countries whose register is imported. Italy's comes from the Italian import (ANNCSU streets
/// and house numbers); the national registers of other countries are added here as they are
/// imported.
pub fn in_service(register: &Register) -> Vec<InService> {
    let has = |name: &str| {
        register
            .summary
            .datasets
            .iter()
            .any(|d| d.name.starts_with(name))
    };
    let date = register
        .summary
        .imported_at
        .get(..10)
        .unwrap_or("")
        .to_string();
    let mut out = Vec::new();
    if !register.municipalities.is_empty() {
        let (verification, name) = if has("anncsu") || has("streets") {
            (
                "house_number",
                "ANNCSU – Archivio nazionale dei numeri civici e delle strade urbane",
            )
        } else {
            ("postcode", "ISTAT – Elenco comuni italiani")
        };
        out.push(InService {
            country: "IT".into(),
            verification,
            register: name.into(),
            date,
        });
    }
    // the national registers of other countries (crate::foreign), at the finest level each verifies
    for info in crate::foreign::registers() {
        let finest = ["house_number", "street", "postcode"]
            .into_iter()
            .find(|level| info.verification.contains(level))
            .unwrap_or("postcode");
        out.push(InService {
            country: info.country.to_string(),
            verification: finest,
            register: info.register.to_string(),
            date: info.date.clone(),
        });
    }
    out
}

/// The countries whose registers know a locality of that folded name, in alphabetical order
/// (`crate::foreign::countries_of_city` for a name detection has folded already, the registers
/// taken once for every name of a record).
pub(crate) fn countries_of_locality<'w>(
    world: Option<&'w crate::foreign::World>,
    folded: &str,
) -> &'w [&'static str] {
    world.map_or(&[], |w| w.countries_of_locality(folded))
}

/// Whether a country's register lists a postcode, and whether its localities carry every
/// postcode they have: None when no register of the country is in service or its source does
/// not list every postcode of the country (`CountryRegister::all_postcodes`).
pub(crate) fn postcode_listed(
    world: Option<&crate::foreign::World>,
    country: &str,
    postcode: &str,
) -> Option<(bool, bool)> {
    let list = world?.registers.get(country)?.all_postcodes.as_ref()?;
    let listed = list.all.contains(&super::postcode::key(country, postcode));
    Some((listed, list.paired))
}

/// The country of a foreign locality the imported registers know, by its name, when only one
/// country has a locality of that name.
pub fn country_of_locality(_register: &Register, name: &str) -> Option<String> {
    match crate::foreign::countries_of_city(name).as_slice() {
        [one] => Some((*one).to_string()),
        _ => None,
    }
}
