//! Italian streets and house numbers: ANNCSU street names come first (they carry the national
//! street id); the house-number datasets (ANNCSU addresses, then the municipal open data of
//! Alessandria, Bologna, Milano, Venezia, Fiè allo Sciliar and Villesse) attach their numbers to the street with the same name, or add it.

use super::{
    alessandria, anncsu, anncsu_street_names, bologna, fie_allo_sciliar, milano, venezia, villesse,
};
use crate::import::street_builder::{self, StreetBuilder};
use crate::import::ImportContext;
use crate::Result;

/// Street types that name a place people also write as their city (frazioni, località).
const HAMLET_TYPES: &[&str] = &[
    "FRAZIONE",
    "LOCALITA",
    "BORGATA",
    "NUCLEO ABITATO",
    "CENTRO ABITATO",
    "VILLAGGIO",
];

/// Imports every Italian street and house-number source present and writes them; the regions
/// whose ANNCSU street file is missing are recorded in the summary.
pub fn import(ctx: &mut ImportContext) -> Result<()> {
    let mut builder = StreetBuilder::default();
    let missing = anncsu_street_names::import(ctx, &mut builder)?;
    if !missing.is_empty() {
        ctx.record(
            "streets_missing_regions",
            &ctx.source.join(anncsu_street_names::FOLDER),
            missing.len() as u64,
            "",
        );
        if let Some(last) = ctx.datasets.last_mut() {
            last.name = format!("streets_missing_regions: {}", missing.join(" "));
        }
    }
    anncsu::import(ctx, &mut builder)?;
    alessandria::import(ctx, &mut builder)?;
    bologna::import(ctx, &mut builder)?;
    milano::import(ctx, &mut builder)?;
    venezia::import(ctx, &mut builder)?;
    fie_allo_sciliar::import(ctx, &mut builder)?;
    villesse::import(ctx, &mut builder)?;
    street_builder::write(ctx, builder, HAMLET_TYPES)
}
