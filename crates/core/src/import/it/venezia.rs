//! Venice's historic centre numbers its houses per *sestiere*, not per street (`Cannaregio 5555`):
//! the DoVe app's list (`dove_civici_sestieri.json`: `{sestiere code: {number: {lat, lng}}}`, built
//! from the Comune di Venezia's carta tecnica and OpenStreetMap) gives every number of the seven
//! sestieri a point. ANNCSU has each sestiere as a street `SESTIERE <name>`; the numbers go there.

use std::collections::HashMap;

use serde::Deserialize;

use super::house_number;
use crate::import::street_builder::StreetBuilder;
use crate::import::{open_text, ImportContext, PROGRESS};
use crate::register::street::HouseNumberEntry;
use crate::Result;

const CADASTRAL: &str = "L736";
const NUMBERS: &str = "it/civici/venezia/dove_civici_sestieri.json.gz";
pub const ATTRIBUTION: &str = crate::register::attribution::VENEZIA;

/// The file's codes, the ANNCSU street name and the sestiere's postcode. Each sestiere has its own
/// CAP (Poste Italiane's street guide for Venezia centro storico); all seven are among Venezia's
/// current CAPs in `comuni/gi_cap_2026-01-31.csv` (30121–30125, 30133, 30135).
const SESTIERI: &[(&str, &str, &str)] = &[
    ("CN", "CANNAREGIO", "30121"),
    ("CS", "CASTELLO", "30122"),
    ("DD", "DORSODURO", "30123"),
    ("SM", "SAN MARCO", "30124"),
    ("SP", "SAN POLO", "30125"),
    ("GD", "GIUDECCA", "30133"),
    ("SC", "SANTA CROCE", "30135"),
];

#[derive(Deserialize)]
struct Point {
    lat: f64,
    lng: f64,
}

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let path = ctx.source.join(NUMBERS);
    if !path.exists() {
        return Ok(());
    }
    let file: HashMap<String, HashMap<String, Point>> = serde_json::from_reader(open_text(&path)?)?;
    let city = builder.city(CADASTRAL);
    PROGRESS.start("house numbers: Venezia", 33_848);
    let mut rows = 0;
    for (code, name, postcode) in SESTIERI {
        let Some(numbers) = file.get(*code) else {
            continue;
        };
        let street = city.find_or_add("SESTIERE", name);
        for (written, p) in numbers {
            let Some((number, suffix)) = house_number::split(written) else {
                continue;
            };
            city.add_number(
                street,
                HouseNumberEntry {
                    number,
                    suffix,
                    postcode: postcode.to_string(),
                    district: String::new(),
                    lat: p.lat,
                    lon: p.lng,
                },
            );
            rows += 1;
            PROGRESS.advance(1);
        }
    }
    city.numbers_complete_from("municipal");
    ctx.record("house_numbers_venezia", &path, rows, ATTRIBUTION);
    Ok(())
}
