//! Villesse (GO): the municipality's house numbers as prepared for the regional civil protection
//! (`SHP_Civici_Villesse_format_.osm.zip`, despite its name a zipped point shapefile on RDN2008 /
//! UTM 33N): street type and name, number with its suffix, frazione, postcode. The `*_OSM` columns
//! an import preparer added are not read; the source's own columns are.

use super::house_number;
use crate::import::shapefile::PointLayer;
use crate::import::street_builder::StreetBuilder;
use crate::import::{ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::Result;

const CADASTRAL: &str = "M043";
const NUMBERS: &str = "it/civici/villesse/SHP_Civici_Villesse_format_.osm.zip";
pub const ATTRIBUTION: &str = crate::register::attribution::VILLESSE;

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let path = ctx.source.join(NUMBERS);
    let Some(layer) = PointLayer::open_zip(&path)? else {
        return Ok(());
    };
    let col = |name: &str| layer.column(name);
    let (dug, duf, number, district, zip) = (
        col("INDICE_VIA"),
        col("NOME_VIA"),
        col("CIV"),
        col("FRAZIONE"),
        col("CAP"),
    );
    let city = builder.city(CADASTRAL);
    PROGRESS.start("house numbers: Villesse", layer.rows.len() as u64);
    let mut rows = 0;
    for (row, point) in layer.rows.iter().zip(&layer.points) {
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).map(String::as_str).unwrap_or("");
        let (Some((n, suffix)), Some((lat, lon))) = (house_number::split(get(number)), point)
        else {
            continue;
        };
        if get(duf).is_empty() {
            continue;
        }
        let i = city.find_or_add(&fold(get(dug)), &get(duf).to_uppercase());
        city.add_number(
            i,
            house_number::point_entry((n, suffix), get(zip), get(district), (*lat, *lon)),
        );
        rows += 1;
        PROGRESS.advance(1);
    }
    city.numbers_complete_from("municipal");
    ctx.record("house_numbers_villesse", &path, rows, ATTRIBUTION);
    Ok(())
}
