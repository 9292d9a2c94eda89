//! Switzerland and Liechtenstein: swisstopo's Amtliches Ortschaftenverzeichnis (every locality
//! and postcode of CH and FL with its BFS municipality number and a point), and the federal
//! building register GWR's building entrances (street, number, postcode, point) for the areas
//! whose GWR download is imported (`registers/ch/gwr_*.csv[.gz]`; Bern here).

use std::collections::HashMap;
use std::path::Path;

use super::world::{expander, info, read_file, text_after_bom, Imported};
use crate::foreign::model::{CountryRegister, Locality, PostcodeList};
use crate::{Error, Result};

pub const ATTRIBUTION_CH: &str = "Quelle: Bundesamt für Statistik, Eidg. Gebäude- und Wohnungsregister (GWR); Federal Office of Topography swisstopo, Amtliches Ortschaftenverzeichnis";
pub const ATTRIBUTION_LI: &str =
    "Source: Federal Office of Topography swisstopo, Amtliches Ortschaftenverzeichnis";

/// Reads the locality directory into `reg` for one country (`li`: the rows without canton).
fn localities(
    world: &Path,
    reg: &mut CountryRegister,
    li: bool,
) -> Result<HashMap<(String, String), u32>> {
    let bytes = read_file(&world.join("registers/ch/AMTOVZ_CSV_WGS84.csv"))?;
    let text = text_after_bom(&bytes);
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rd = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_reader(body.as_bytes());
    let mut by_plz_name = HashMap::new();
    for row in rd.records() {
        let row = row.map_err(|e| Error::BadInput(e.to_string()))?;
        let g = |i: usize| row.get(i).unwrap_or("").trim();
        if g(5).is_empty() != li {
            continue;
        }
        let point = match (g(7).parse::<f64>(), g(6).parse::<f64>()) {
            (Ok(lat), Ok(lon)) => Some((lat, lon)),
            _ => None,
        };
        // the official directory lists every postcode of CH and of FL
        // (each locality with every postcode it has)
        reg.all_postcodes
            .get_or_insert_with(|| PostcodeList {
                paired: true,
                ..Default::default()
            })
            .all
            .insert(g(1).to_string());
        let id = reg.locality(Locality {
            name: g(0).to_string(),
            municipality: g(3).to_string(),
            municipality_code: g(4).to_string(),
            postcodes: vec![g(1).to_string()],
            point,
            ..Default::default()
        });
        by_plz_name.insert((g(1).to_string(), g(0).to_string()), id);
    }
    Ok(by_plz_name)
}

pub fn import_ch(world: &Path) -> Imported {
    let mut reg = CountryRegister::new(
        info(
            "CH",
            "GWR",
            "2024-09",
            "",
            "inspire",
            "gwr",
            ATTRIBUTION_CH,
            "bfs",
        ),
        expander(world, &["de", "fr", "it", "gsw"]),
        false,
        false,
    );
    let by_plz_name = localities(world, &mut reg, false)?;
    let mut areas: Vec<String> = Vec::new();
    let dir = world.join("registers/ch");
    let mut files: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("gwr_"))
        })
        .collect();
    files.sort();
    for path in files {
        let bytes = read_file(&path)?;
        let mut rd = csv::Reader::from_reader(&bytes[..]);
        for row in rd.records() {
            let row = row.map_err(|e| Error::BadInput(e.to_string()))?;
            let g = |i: usize| row.get(i).unwrap_or("").trim();
            // Strasse,Hausnummer,PLZ,Ort,EGID,Breitengrad,Längengrad,Bau,Abbruch: demolished stay out
            if !g(8).is_empty() || g(0).is_empty() {
                continue;
            }
            let (plz, ort) = (g(2).to_string(), g(3).to_string());
            let loc = match by_plz_name.get(&(plz.clone(), ort.clone())) {
                Some(&l) => l,
                None => reg.locality(Locality {
                    name: ort.clone(),
                    postcodes: vec![plz.clone()],
                    ..Default::default()
                }),
            };
            let l = reg.locality_mut(loc);
            l.complete_streets = true;
            l.complete_numbers = true;
            if !areas.contains(&ort) {
                areas.push(ort);
            }
            let point = match (g(5).parse::<f64>(), g(6).parse::<f64>()) {
                (Ok(lat), Ok(lon)) => Some((lat, lon)),
                _ => None,
            };
            let street = reg.street(loc, g(0));
            reg.number(street, g(1), Some(&plz), point);
        }
    }
    // the localities that share a name with a covered one (Bern 3000–3030) are covered too
    let covered: Vec<String> = areas.iter().map(|a| crate::normalize::fold(a)).collect();
    for l in reg.localities.iter_mut() {
        if covered.contains(&crate::normalize::fold(&l.name)) {
            l.complete_streets = true;
            l.complete_numbers = true;
        }
    }
    reg.info.coverage = areas.join(", ");
    Ok(reg)
}

pub fn import_li(world: &Path) -> Imported {
    let mut reg = CountryRegister::new(
        info(
            "LI",
            "Ortschaftenverzeichnis",
            "",
            "",
            "inspire",
            "swisstopo",
            ATTRIBUTION_LI,
            "bfs",
        ),
        expander(world, &["de", "gsw"]),
        false,
        false,
    );
    localities(world, &mut reg, true)?;
    Ok(reg)
}
