//! Finland: Posti's postal code file (PCF, fixed width, ISO-8859-1, in its zip): every postcode
//! with its Finnish and Swedish names and municipality. Postcode level only (Posti's street file
//! BAF is not in the folder).

use std::path::Path;

use super::world::{expander, info, latin1, zip_entry, Imported};
use crate::foreign::model::{CountryRegister, Locality, PostcodeList};
use crate::Error;

pub const ATTRIBUTION: &str = "Lähde: Posti Oy, postinumerotiedosto";

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/fi");
    let path = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("PCF_"))
        })
        .ok_or_else(|| Error::BadInput(format!("no PCF_*.zip in {}", dir.display())))?;
    let bytes = zip_entry(&path, ".dat")?;
    let mut date = String::new();
    let mut reg = CountryRegister::new(
        info(
            "FI",
            "Posti PCF",
            "",
            "national",
            "inspire",
            "posti",
            ATTRIBUTION,
            "kuntanumero",
        ),
        expander(world, &["fi", "sv"]),
        false,
        false,
    );
    for l in bytes
        .split(|&b| b == b'\n')
        .filter(|l| l.len() >= 199 && l.starts_with(b"PONOT"))
    {
        let f = |a: usize, b: usize| latin1(&l[a..b.min(l.len())]).trim().to_string();
        if date.is_empty() {
            let d = f(5, 13);
            date = format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..8]);
        }
        let sv = f(48, 78);
        // Posti's postal code file lists every Finnish postcode
        // (each post office's name with every postcode it has)
        reg.all_postcodes
            .get_or_insert_with(|| PostcodeList {
                paired: true,
                ..Default::default()
            })
            .all
            .insert(f(13, 18));
        reg.locality(Locality {
            name: f(18, 48),
            alt_names: if sv.is_empty() { Vec::new() } else { vec![sv] },
            municipality: f(179, 199),
            municipality_code: f(176, 179),
            postcodes: vec![f(13, 18)],
            ..Default::default()
        });
    }
    reg.info.date = date;
    Ok(reg)
}
