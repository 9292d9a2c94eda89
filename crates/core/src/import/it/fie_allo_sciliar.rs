//! Fiè allo Sciliar / Völs am Schlern (BZ): the house numbers of the Provincia autonoma di Bolzano's
//! address layer, as its shapefile gives them (`Addresses_point.*`, ETRS89 / UTM 32N, Latin-1):
//! bilingual street names, the frazione (Fraktion), the postcode. The Italian name finds the ANNCSU
//! street; the German one is kept as another name of it, so an address written in either language
//! finds the same numbers.

use super::house_number;
use crate::import::shapefile::PointLayer;
use crate::import::street_builder::{CityBuild, StreetBuilder};
use crate::import::{ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::rules::it::street_type;
use crate::Result;

const CADASTRAL: &str = "D571";
/// The layer's three files share this name (each may be gzipped).
const LAYER: &str = "it/civici/fie_allo_sciliar/Addresses_point";
pub const ATTRIBUTION: &str = crate::register::attribution::FIE_ALLO_SCILIAR;

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let base = ctx.source.join(LAYER);
    let Some(layer) = PointLayer::open(&base)? else {
        return Ok(());
    };
    let col = |name: &str| layer.column(name);
    let (istat, it, de, number, district, zip) = (
        col("ISTAT_CODE"),
        col("STREET_IT"),
        col("STREET_DE"),
        col("HOUSE_NR"),
        col("FRAC_IT"),
        col("ZIP_CODE"),
    );
    let city = builder.city(CADASTRAL);
    PROGRESS.start("house numbers: Fiè allo Sciliar", layer.rows.len() as u64);
    let mut streets: std::collections::HashMap<String, usize> = Default::default();
    let mut rows = 0;
    for (row, point) in layer.rows.iter().zip(&layer.points) {
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).map(String::as_str).unwrap_or("");
        // the province's layer may hold several municipalities: only Fiè's rows are Fiè's
        if get(istat).parse::<f64>().ok() != Some(21031.0) {
            continue;
        }
        let (Some((n, suffix)), Some((lat, lon))) = (house_number::split(get(number)), point)
        else {
            continue;
        };
        let italian = get(it).to_uppercase();
        let i = match streets.get(&italian) {
            Some(&i) => i,
            None => {
                let german = get(de).to_uppercase();
                // ANNCSU writes some Italian names otherwise (`VIA OCHSENBUEHEL` for `OCHSENBÜHEL`,
                // `VIA DEL LAGHETTO` for `VIA LAGHETTO`) but carries the same German name: that
                // one finds the street first
                let i = match by_other_name(city, &german) {
                    Some(i) => i,
                    None => {
                        let (ty, name) = street_type::split(&italian);
                        city.find_or_add(&ty, &name)
                    }
                };
                let s = &mut city.streets[i];
                if !german.is_empty() && s.name != german && !s.alt_names.contains(&german) {
                    s.alt_names.push(german);
                }
                streets.insert(italian, i);
                i
            }
        };
        city.add_number(
            i,
            house_number::point_entry((n, suffix), get(zip), get(district), (*lat, *lon)),
        );
        rows += 1;
        PROGRESS.advance(1);
    }
    city.numbers_complete_from("municipal");
    ctx.record(
        "house_numbers_fie_allo_sciliar",
        &base.with_extension("shp.gz"),
        rows,
        ATTRIBUTION,
    );
    Ok(())
}

/// The only street whose other name (ANNCSU's second language) is `name`.
fn by_other_name(city: &CityBuild, name: &str) -> Option<usize> {
    let key = fold(name);
    if key.is_empty() {
        return None;
    }
    let hits: Vec<usize> = (0..city.streets.len())
        .filter(|&i| city.streets[i].alt_names.iter().any(|a| fold(a) == key))
        .collect();
    (hits.len() == 1).then(|| hits[0])
}
