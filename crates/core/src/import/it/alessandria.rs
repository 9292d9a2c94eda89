//! Comune di Alessandria open data: every house number (`numeri-civici.csv`, Gauss-Boaga
//! EPSG:3003 coordinates, with postcode and district) and the street list with its postcode
//! (`viario.csv`). Coordinates are converted to WGS84 here.

use crate::import::reproject::MONTE_MARIO_ZONE_1;
use crate::import::street_builder::StreetBuilder;
use crate::import::{csv_reader, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::street::HouseNumberEntry;
use crate::Result;

const CADASTRAL: &str = "A182";
const NUMBERS: &str = "it/civici/alessandria/numeri-civici.csv.gz";
const STREETS: &str = "it/civici/alessandria/viario.csv.gz";
pub const ATTRIBUTION: &str = crate::register::attribution::ALESSANDRIA;

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let numbers = ctx.source.join(NUMBERS);
    if !numbers.exists() {
        return Ok(());
    }
    let city = builder.city(CADASTRAL);
    let streets = ctx.source.join(STREETS);
    if streets.exists() {
        let mut rdr = csv_reader(&streets, b';')?;
        let mut rows = 0;
        for row in rdr.records() {
            let row = row?;
            let (dug, duf, cap, district) = (
                row.get(3).unwrap_or(""),
                row.get(4).unwrap_or(""),
                row.get(5).unwrap_or("").trim(),
                row.get(6).unwrap_or("").trim(),
            );
            if duf.trim().is_empty() {
                continue;
            }
            let i = city.find_or_add(&fold(dug), &duf.trim().to_uppercase());
            let s = &mut city.streets[i];
            if !cap.is_empty() && !s.postcodes.iter().any(|(p, _)| p == cap) {
                s.postcodes.push((cap.to_string(), 0));
            }
            if s.district.is_empty() {
                s.district = district.to_string();
            }
            rows += 1;
        }
        ctx.record("streets_alessandria", &streets, rows, ATTRIBUTION);
    }
    PROGRESS.start("house numbers: Alessandria", 26_160);
    let mut rdr = csv_reader(&numbers, b';')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let (dug, duf, cap, district, civico, esponente, x, y) = (
        col("DUG"),
        col("DUF"),
        col("CAP"),
        col("QuartiereSobborgo"),
        col("Civico"),
        col("Esponente"),
        col("CoordX"),
        col("CoordY"),
    );
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim();
        let (Ok(n), Ok(e), Ok(nn)) = (
            get(civico).parse::<u32>(),
            get(x).parse::<f64>(),
            get(y).parse::<f64>(),
        ) else {
            continue;
        };
        let (lat, lon) = MONTE_MARIO_ZONE_1.to_wgs84(e, nn);
        let i = city.find_or_add(&fold(get(dug)), &get(duf).to_uppercase());
        city.add_number(
            i,
            HouseNumberEntry {
                number: n,
                suffix: fold(get(esponente)).replace(' ', ""),
                postcode: get(cap).to_string(),
                district: get(district).to_string(),
                lat,
                lon,
            },
        );
        rows += 1;
        PROGRESS.advance(1);
    }
    city.numbers_complete_from("municipal");
    ctx.record("house_numbers_alessandria", &numbers, rows, ATTRIBUTION);
    Ok(())
}
