//! Comune di Bologna house numbers (2012): every number with postcode, district and point.
//! The CSV conversion carries WGS84 columns; where a copy lacks them, the ED50 / UTM 32N
//! coordinates (EPSG:23032) are converted here.

use crate::import::reproject::ED50_UTM_32;
use crate::import::street_builder::StreetBuilder;
use crate::import::{csv_reader, ImportContext, PROGRESS};
use crate::register::street::HouseNumberEntry;
use crate::rules::it::street_type;
use crate::Result;

const CADASTRAL: &str = "A944";
const NUMBERS: &str = "it/civici/bologna/civici_2012.csv.gz";
pub const ATTRIBUTION: &str = crate::register::attribution::BOLOGNA;

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let path = ctx.source.join(NUMBERS);
    if !path.exists() {
        return Ok(());
    }
    let city = builder.city(CADASTRAL);
    PROGRESS.start("house numbers: Bologna", 40_235);
    let mut rdr = csv_reader(&path, b',')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let (civico, subciv, cap, name, district, x, y, lat, lon) = (
        col("CIVICO"),
        col("SUBCIV"),
        col("CAP"),
        col("DENOMINAZI"),
        col("QUARTIERE"),
        col("X_EPSG23032"),
        col("Y_EPSG23032"),
        col("LAT_WGS84"),
        col("LON_WGS84"),
    );
    let mut rows = 0;
    let mut streets: std::collections::HashMap<String, usize> = Default::default();
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim();
        let Ok(n) = get(civico).parse::<u32>() else {
            continue;
        };
        let point = match (get(lat).parse::<f64>(), get(lon).parse::<f64>()) {
            (Ok(a), Ok(o)) => Some((a, o)),
            _ => match (get(x).parse::<f64>(), get(y).parse::<f64>()) {
                (Ok(e), Ok(nn)) => Some(ED50_UTM_32.to_wgs84(e, nn)),
                _ => None,
            },
        };
        let Some((la, lo)) = point else { continue };
        let full = get(name).to_uppercase();
        let i = match streets.get(&full) {
            Some(&i) => i,
            None => {
                let (ty, nm) = street_type::split(&full);
                let i = city.find_or_add(&ty, &nm);
                streets.insert(full, i);
                i
            }
        };
        let postcode = get(cap);
        city.add_number(
            i,
            HouseNumberEntry {
                number: n,
                suffix: get(subciv).trim_start_matches('0').to_string(),
                postcode: if postcode.len() == 5 {
                    postcode.to_string()
                } else {
                    String::new()
                },
                district: get(district).to_string(),
                lat: la,
                lon: lo,
            },
        );
        rows += 1;
        PROGRESS.advance(1);
    }
    city.numbers_complete_from("municipal");
    ctx.record("house_numbers_bologna", &path, rows, ATTRIBUTION);
    Ok(())
}
