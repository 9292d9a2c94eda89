//! Belgium: the lists FPS BOSA derives from BeST Address (postal names by postcode, in each
//! language). Postcode level only: BeST's address files are not in the folder.

use std::path::Path;

use super::world::{expander, info, read_file, Imported};
use crate::foreign::model::{CountryRegister, Locality};

pub const ATTRIBUTION: &str =
    "Source: BeST Address – FPS BOSA / regional address registers (CRAB/ICAR/UrbIS)";

pub fn import(world: &Path) -> Imported {
    let text = String::from_utf8_lossy(&read_file(
        &world.join("registers/be/best_OUT_PostalInfo.txt"),
    )?)
    .to_string();
    let mut reg = CountryRegister::new(
        info(
            "BE",
            "BeST",
            "2019-06-19",
            "national",
            "inspire",
            "best",
            ATTRIBUTION,
            "nis",
        ),
        expander(world, &["fr", "nl", "de"]),
        false,
        false,
    );
    for line in text.lines() {
        // region,postal name,language,postcode — unquoted: a name may hold a comma
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() < 4 {
            continue;
        }
        let postcode = fields[fields.len() - 1].trim();
        let name = fields[1..fields.len() - 2].join(",");
        if name.trim().is_empty() || postcode.len() != 4 {
            continue;
        }
        reg.locality(Locality {
            name: name.trim().to_string(),
            postcodes: vec![postcode.to_string()],
            ..Default::default()
        });
    }
    Ok(reg)
}
