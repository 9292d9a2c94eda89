//! Slovenia: GURS's Register prostorskih enot (RPE) tables as CSV: every street (UL, with its
//! second-language name in the bilingual areas), settlement (NA, bilingual names), municipality
//! (OB) and postal district (PT). The house-number table (HS) is not in the folder, so Slovenia is
//! verified at street level: every street of a settlement is known, numbers and postcodes are not
//! tied to streets. A postal district's postcode goes to the settlement of the same name.

use std::collections::HashMap;
use std::path::Path;

use super::world::{expander, info, read_file, text_after_bom, Imported};
use crate::foreign::model::{CountryRegister, Locality, PostcodeList};
use crate::normalize::fold;
use crate::{Error, Result};

pub const ATTRIBUTION: &str =
    "Vir: Geodetska uprava Republike Slovenije, Register prostorskih enot (CC BY 4.0)";

fn table(path: &Path) -> Result<Vec<HashMap<String, String>>> {
    let text = text_after_bom(&read_file(path)?);
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let headers = rd
        .headers()
        .map_err(|e| Error::BadInput(e.to_string()))?
        .clone();
    rd.records()
        .map(|r| {
            let r = r.map_err(|e| Error::BadInput(e.to_string()))?;
            Ok(headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.trim().to_string()))
                .collect())
        })
        .collect()
}

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/si");
    let mut reg = CountryRegister::new(
        info(
            "SI",
            "RPE",
            "2024-02-21",
            "national",
            "inspire",
            "rpe",
            ATTRIBUTION,
            "obcina",
        ),
        expander(world, &["sl", "it", "hu"]),
        false,
        true,
    );
    let g = |row: &HashMap<String, String>, k: &str| row.get(k).cloned().unwrap_or_default();
    let municipalities: HashMap<String, (String, String)> = table(&dir.join("rpe_OB.csv"))?
        .into_iter()
        .map(|r| (g(&r, "OB_MID"), (g(&r, "OB_UIME"), g(&r, "OB_ID"))))
        .collect();
    let mut postcodes: HashMap<String, Vec<String>> = HashMap::new();
    // PT lists every postal district of the country: a postcode it lacks is not Slovenian
    let mut all = std::collections::HashSet::new();
    for r in table(&dir.join("rpe_PT.csv"))? {
        all.insert(g(&r, "PT_ID"));
        postcodes
            .entry(fold(&g(&r, "PT_UIME")))
            .or_default()
            .push(g(&r, "PT_ID"));
    }
    // a postal district's settlements are not listed: a settlement's postcodes are not all known
    reg.all_postcodes = Some(PostcodeList { all, paired: false });
    let mut settlements: HashMap<String, u32> = HashMap::new();
    for r in table(&dir.join("rpe_NA.csv"))? {
        let (municipality, code) = municipalities
            .get(&g(&r, "OB_MID"))
            .cloned()
            .unwrap_or_default();
        let name = g(&r, "NA_UIME");
        let alt: Vec<String> = Some(g(&r, "NA_DJ"))
            .filter(|s| !s.is_empty())
            .into_iter()
            .collect();
        let id = reg.locality(Locality {
            postcodes: postcodes.get(&fold(&name)).cloned().unwrap_or_default(),
            name,
            alt_names: alt,
            municipality,
            municipality_code: code,
            complete_streets: true,
            ..Default::default()
        });
        settlements.insert(g(&r, "NA_MID"), id);
    }
    for r in table(&dir.join("rpe_UL.csv"))? {
        let Some(&loc) = settlements.get(&g(&r, "NA_MID")) else {
            continue;
        };
        let s = reg.street(loc, &g(&r, "UL_UIME"));
        reg.alt_name(s, &g(&r, "UL_DJ"));
    }
    Ok(reg)
}
