//! Germany: official house coordinates (Hauskoordinaten) as the Länder and cities publish them
//! in GeoJSON: street key, street name, number, suffix, point. Here the City of Essen's file
//! (`registers/de/hauskoordinaten_<city>_*.zip`); every file of that form is imported as one
//! municipality whose numbers are complete. The file carries no postcode.

use std::path::Path;

use serde::Deserialize;

use super::world::{expander, info, zip_entry, Imported};
use crate::foreign::model::{CountryRegister, Locality};
use crate::{Error, Result};

pub const ATTRIBUTION: &str = "Stadt Essen, FB 62 – Amt für Geoinformation, Vermessung und Kataster; Datenlizenz Deutschland – Namensnennung – Version 2.0";

/// Municipalities whose house-coordinate file this importer knows: file stem, name, AGS.
const CITIES: &[(&str, &str, &str)] = &[("essen", "Essen", "05113000")];

#[derive(Deserialize)]
struct Collection {
    features: Vec<Feature>,
}

#[derive(Deserialize)]
struct Feature {
    properties: Props,
    geometry: Option<Geometry>,
}

#[derive(Deserialize)]
struct Props {
    strname: Option<String>,
    hsnr: Option<String>,
    hsnrzu: Option<String>,
}

#[derive(Deserialize)]
struct Geometry {
    coordinates: Vec<f64>,
}

pub fn import(world: &Path) -> Imported {
    let mut reg = CountryRegister::new(
        info(
            "DE",
            "Hauskoordinaten",
            "2022-08-22",
            "",
            "inspire",
            "hauskoordinaten",
            ATTRIBUTION,
            "ags",
        ),
        expander(world, &["de"]),
        false,
        false,
    );
    let dir = world.join("registers/de");
    let mut areas = Vec::new();
    for (stem, name, ags) in CITIES {
        let Some(path) = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.file_name().is_some_and(|n| {
                    n.to_string_lossy()
                        .starts_with(&format!("hauskoordinaten_{stem}"))
                })
            })
        else {
            continue;
        };
        read_city(&mut reg, &path, name, ags)?;
        areas.push(*name);
    }
    if areas.is_empty() {
        return Err(Error::BadInput(format!(
            "no hauskoordinaten_*.zip in {}",
            dir.display()
        )));
    }
    reg.info.coverage = areas.join(", ");
    Ok(reg)
}

fn read_city(reg: &mut CountryRegister, path: &Path, name: &str, ags: &str) -> Result<()> {
    let bytes = zip_entry(path, ".geojson")?;
    let fc: Collection = serde_json::from_slice(&bytes)?;
    let loc = reg.locality(Locality {
        name: name.to_string(),
        municipality: name.to_string(),
        municipality_code: ags.to_string(),
        complete_streets: true,
        complete_numbers: true,
        ..Default::default()
    });
    for f in fc.features {
        let (Some(street), Some(number)) = (f.properties.strname, f.properties.hsnr) else {
            continue;
        };
        if street.starts_with('#') {
            continue;
        }
        let Ok(n) = number.trim().parse::<u32>() else {
            continue;
        };
        let point = f
            .geometry
            .filter(|g| g.coordinates.len() >= 2)
            .map(|g| (g.coordinates[1], g.coordinates[0]));
        let s = reg.street(loc, &street);
        let suffix = f.properties.hsnrzu.unwrap_or_default();
        reg.number_parts(s, n, suffix.trim(), None, point);
    }
    Ok(())
}
