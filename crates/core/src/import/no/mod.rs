//! Norway: Kartverket's Matrikkelen – Adresse CSV (`Basisdata_*_MatrikkelenAdresse_CSV`), one
//! row per address with street, number, letter, postcode, post town, municipality number and a
//! point in the file's UTM zone (`EPSG-kode`). Only the municipalities in the file are covered.

use std::path::Path;

use super::world::{expander, info, read_file, text_after_bom, Imported};
use crate::foreign::geo::utm_to_wgs84;
use crate::foreign::model::{CountryRegister, Locality};
use crate::Error;

pub const ATTRIBUTION: &str = "© Kartverket, Matrikkelen (CC BY 4.0)";

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/no");
    let mut reg = CountryRegister::new(
        info(
            "NO",
            "Matrikkelen",
            "2021-01-04",
            "",
            "inspire",
            "matrikkelen",
            ATTRIBUTION,
            "kommunenummer",
        ),
        expander(world, &["nb"]),
        false,
        false,
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().contains("atrikkelenAdresse"))
        .collect();
    files.sort();
    let mut areas: Vec<String> = Vec::new();
    for path in files {
        let text = text_after_bom(&read_file(&path)?);
        let mut rd = csv::ReaderBuilder::new()
            .delimiter(b';')
            .from_reader(text.as_bytes());
        let headers = rd
            .headers()
            .map_err(|e| Error::BadInput(e.to_string()))?
            .clone();
        let col = |name: &str| headers.iter().position(|h| h == name);
        let (
            Some(kn),
            Some(kname),
            Some(street),
            Some(num),
            Some(letter),
            Some(epsg),
            Some(north),
            Some(east),
            Some(pc),
            Some(town),
        ) = (
            col("kommunenummer"),
            col("kommunenavn"),
            col("adressenavn"),
            col("nummer"),
            col("bokstav"),
            col("EPSG-kode"),
            col("Nord"),
            col("Øst"),
            col("postnummer"),
            col("poststed"),
        )
        else {
            return Err(Error::BadInput(format!(
                "{}: not a Matrikkelen address CSV",
                path.display()
            )));
        };
        for row in rd.records() {
            let row = row.map_err(|e| Error::BadInput(e.to_string()))?;
            let g = |i: usize| row.get(i).unwrap_or("").trim();
            let Ok(number) = g(num).parse::<u32>() else {
                continue;
            };
            let zone = g(epsg)
                .strip_prefix("258")
                .and_then(|z| z.parse::<u8>().ok());
            let point = match (zone, g(east).parse::<f64>(), g(north).parse::<f64>()) {
                (Some(z), Ok(e), Ok(n)) => Some(utm_to_wgs84(z, e, n)),
                _ => None,
            };
            let municipality = title(g(kname));
            if !areas.contains(&municipality) {
                areas.push(municipality.clone());
            }
            let loc = reg.locality(Locality {
                name: title(g(town)),
                municipality,
                municipality_code: g(kn).to_string(),
                postcodes: vec![g(pc).to_string()],
                ..Default::default()
            });
            let s = reg.street(loc, g(street));
            reg.number_parts(s, number, g(letter), Some(g(pc)), point);
        }
    }
    reg.info.coverage = areas.join(", ");
    Ok(reg)
}

/// `KRISTIANSAND S` → `Kristiansand S`.
fn title(upper: &str) -> String {
    upper
        .split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) if w.chars().count() > 1 => f
                    .to_uppercase()
                    .chain(c.flat_map(char::to_lowercase))
                    .collect(),
                Some(f) => f.to_string(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
