//! The official ANNCSU open-data extracts of the Agenzia delle Entrate: STRAD (streets) and INDIR
//! (house numbers with WGS84 coordinates), national or regional, plain or zipped
//! (`STRAD_ITA.csv`, `INDIR_<REG>_<date>.csv`, `stradario<Region><date>.zip`). Every file in
//! `it/anncsu_indirizzi/` is read; its header tells which kind it is.

use std::io::Read;

use crate::address::rules::it::street_type;
use crate::normalize::fold;
use crate::register::import::street_builder::StreetBuilder;
use crate::register::import::{ImportContext, PROGRESS};
use crate::register::street::{HouseNumberEntry, Street};
use crate::Result;

pub const FOLDER: &str = "it/anncsu_indirizzi";
pub const ATTRIBUTION: &str = "Fonte: ANNCSU – Archivio Nazionale dei Numeri Civici delle Strade Urbane, Agenzia delle Entrate e ISTAT, CC BY 4.0";

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let dir = ctx.source.join(FOLDER);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(());
    };
    let mut files: Vec<std::path::PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    // streets before house numbers, so numbers find their street by id
    files.sort_by_key(|p| {
        let n = p
            .file_name()
            .map(|n| n.to_string_lossy().to_uppercase())
            .unwrap_or_default();
        (!n.contains("STRAD"), n)
    });
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if name.ends_with(".zip") {
            let file = std::fs::File::open(&path)?;
            let mut zip = zip::ZipArchive::new(file)?;
            for i in 0..zip.len() {
                let mut entry = zip.by_index(i)?;
                if !entry.name().to_lowercase().ends_with(".csv") {
                    continue;
                }
                let mut text = Vec::with_capacity(entry.size() as usize);
                entry.read_to_end(&mut text)?;
                let rows = read(&text, builder)?;
                ctx.record("anncsu_extract", &path, rows, ATTRIBUTION);
            }
        } else if name.ends_with(".csv") || name.ends_with(".csv.gz") {
            let mut text = Vec::new();
            crate::register::import::open_text(&path)?.read_to_end(&mut text)?;
            let rows = read(&text, builder)?;
            ctx.record("anncsu_extract", &path, rows, ATTRIBUTION);
        }
    }
    Ok(())
}

/// Decimal comma or point.
fn number(s: &str) -> Option<f64> {
    s.trim().replace(',', ".").parse().ok()
}

fn read(text: &[u8], builder: &mut StreetBuilder) -> Result<u64> {
    let text = text.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(text);
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(b';')
        .flexible(true)
        .from_reader(text);
    let headers = rdr.headers()?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
    };
    let (cad, id, odonimo, locality, l1, l2) = (
        col("CODICE_COMUNE"),
        col("PROGRESSIVO_NAZIONALE"),
        col("ODONIMO"),
        col("LOCALITA'"),
        col("DIZIONE_LINGUA1"),
        col("DIZIONE_LINGUA2"),
    );
    let (civico, esponente, x, y) = (
        col("CIVICO"),
        col("ESPONENTE"),
        col("COORD_X_COMUNE"),
        col("COORD_Y_COMUNE"),
    );
    let house_numbers = civico.is_some() && x.is_some();
    PROGRESS.start(
        if house_numbers {
            "house numbers: ANNCSU INDIR"
        } else {
            "streets: ANNCSU STRAD"
        },
        0,
    );
    let mut rows = 0;
    let mut record = csv::StringRecord::new();
    let mut complete: Vec<String> = Vec::new();
    while rdr.read_record(&mut record)? {
        let get = |i: Option<usize>| i.and_then(|i| record.get(i)).unwrap_or("").trim();
        let cadastral = get(cad).to_uppercase();
        let full = get(odonimo);
        if cadastral.is_empty() || full.is_empty() {
            continue;
        }
        let street_id: u64 = get(id).parse().unwrap_or(0);
        let city = builder.city(&cadastral);
        let index = match city.by_id(street_id).filter(|_| street_id != 0) {
            Some(i) => i,
            None => {
                let (ty, name) = street_type::split(full);
                let alt_names: Vec<String> = [get(l1), get(l2)]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                city.add_registered(Street {
                    id: street_id,
                    street_type: ty,
                    name,
                    alt_names,
                    locality: get(locality).to_string(),
                    ..Default::default()
                })
            }
        };
        if house_numbers {
            let (Some(lon), Some(lat)) = (number(get(x)), number(get(y))) else {
                continue;
            };
            let Ok(n) = get(civico).parse::<u32>() else {
                continue;
            };
            city.add_number(
                index,
                HouseNumberEntry {
                    number: n,
                    suffix: fold(get(esponente)).replace(' ', ""),
                    lat,
                    lon,
                    ..Default::default()
                },
            );
            if !complete.contains(&cadastral) {
                complete.push(cadastral);
            }
        }
        rows += 1;
        PROGRESS.advance(1);
    }
    // an INDIR file lists every access of the municipalities it covers
    for c in complete {
        let city = builder.city(&c);
        city.numbers_complete_from("anncsu");
    }
    Ok(rows)
}
