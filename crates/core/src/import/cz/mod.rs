//! Czechia: Česká pošta's postcodes by part of municipality (část obce) with RÚIAN codes.
//! Postcode level only: RÚIAN's address points are not in the folder.

use std::path::Path;

use super::world::{expander, info, read_file, Imported};
use crate::foreign::model::{CountryRegister, Locality};
use crate::Error;

pub const ATTRIBUTION: &str = "Česká pošta, s.p. / ČÚZK (RÚIAN)";

pub fn import(world: &Path) -> Imported {
    let bytes = read_file(&world.join("registers/cz/psc-list.csv"))?;
    let mut reg = CountryRegister::new(
        info(
            "CZ",
            "RÚIAN / PSČ",
            "",
            "national",
            "inspire",
            "ruian",
            ATTRIBUTION,
            "kod_obce",
        ),
        expander(world, &["cs"]),
        false,
        false,
    );
    let mut rd = csv::Reader::from_reader(&bytes[..]);
    for row in rd.records() {
        let row = row.map_err(|e| Error::BadInput(e.to_string()))?;
        let g = |i: usize| row.get(i).unwrap_or("").trim().to_string();
        // kodcobce,nazcobce,psc,kodobce,nazobce,…
        reg.locality(Locality {
            name: g(1),
            municipality: g(4),
            municipality_code: g(3),
            postcodes: vec![g(2)],
            ..Default::default()
        });
    }
    Ok(reg)
}
