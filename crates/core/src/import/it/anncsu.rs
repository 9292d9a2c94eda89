//! The official ANNCSU open-data extracts of the Agenzia delle Entrate: STRAD (streets) and INDIR
//! (house numbers with WGS84 coordinates), national or regional, plain or zipped
//! (`STRAD_ITA.csv`, `INDIR_<REG>_<date>.csv`, `stradario<Region><date>.zip`). Every file in
//! `it/anncsu_indirizzi/` is read; its header tells which kind it is.

use std::collections::BTreeSet;
use std::io::Read;

use crate::import::checkpoint::Work;
use crate::import::spill::{pack_code, SpilledNumber};
use crate::import::street_builder::StreetBuilder;
use crate::import::{CountingReader, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::street::{HouseNumberEntry, Street};
use crate::rules::it::street_type;
use crate::Result;

pub const FOLDER: &str = "it/anncsu_indirizzi";
pub const ATTRIBUTION: &str = crate::register::attribution::ANNCSU_NUMBERS;

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
    let mut complete = BTreeSet::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let rel = path
            .strip_prefix(ctx.source)
            .unwrap_or(&path)
            .display()
            .to_string();
        if name.ends_with(".zip") {
            let file = std::fs::File::open(&path)?;
            let mut zip = zip::ZipArchive::new(file)?;
            for i in 0..zip.len() {
                let entry = zip.by_index(i)?;
                if !entry.name().to_lowercase().ends_with(".csv") {
                    continue;
                }
                let (size, key) = (entry.size(), format!("{rel}/{}", entry.name()));
                let source = Source {
                    key: &key,
                    size,
                    input: Box::new(entry),
                };
                let rows = read(source, builder, &mut ctx.work, &mut complete)?;
                ctx.record("anncsu_extract", &path, rows, ATTRIBUTION);
            }
        } else if name.ends_with(".csv") || name.ends_with(".csv.gz") {
            // a gzipped file's size says nothing of its text: no percentage then
            let size = if name.ends_with(".gz") {
                0
            } else {
                std::fs::metadata(&path)?.len()
            };
            let source = Source {
                key: &rel,
                size,
                input: crate::import::open_text(&path)?,
            };
            let rows = read(source, builder, &mut ctx.work, &mut complete)?;
            ctx.record("anncsu_extract", &path, rows, ATTRIBUTION);
        }
    }
    // an INDIR file lists every access of the municipalities it covers
    for c in complete {
        builder.city(&c).numbers_complete_from("anncsu");
    }
    Ok(())
}

/// One extract being read: its name in the checkpoint, its size in bytes (0: unknown), its text.
struct Source<'a> {
    key: &'a str,
    size: u64,
    input: Box<dyn Read + 'a>,
}

/// Decimal comma or point, without allocating (25 million rows have two each).
fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    let mut buf = [0u8; 40];
    if s.len() > buf.len() {
        return None;
    }
    for (b, c) in buf.iter_mut().zip(s.bytes()) {
        *b = if c == b',' { b'.' } else { c };
    }
    std::str::from_utf8(&buf[..s.len()]).ok()?.parse().ok()
}

/// Streams one extract: streets into the builder, house numbers into the spill's bounded buffer
/// (a run is written and checkpointed each time it fills). The records an interrupted import
/// already committed are read again for their streets only. Returns the rows read.
fn read(
    source: Source,
    builder: &mut StreetBuilder,
    work: &mut Work,
    complete: &mut BTreeSet<String>,
) -> Result<u64> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(b';')
        .flexible(true)
        .from_reader(CountingReader(source.input));
    let headers = rdr.headers()?.clone();
    let col = |name: &str| {
        headers.iter().position(|h| {
            h.trim()
                .trim_start_matches('\u{feff}')
                .eq_ignore_ascii_case(name)
        })
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
        source.size,
    );
    let committed = work.committed(source.key);
    work.spill.discard_buffer();
    let mut rows = 0;
    let mut records: u64 = 0;
    let mut record = csv::StringRecord::new();
    let mut last_city = String::new();
    let mut packed = None;
    while rdr.read_record(&mut record)? {
        records += 1;
        let get = |i: Option<usize>| i.and_then(|i| record.get(i)).unwrap_or("").trim();
        let raw = get(cad);
        let full = get(odonimo);
        if raw.is_empty() || full.is_empty() {
            continue;
        }
        if !last_city.eq_ignore_ascii_case(raw) {
            last_city = raw.to_uppercase();
            packed = pack_code(&last_city);
        }
        let street_id: u64 = get(id).parse().unwrap_or(0);
        let city = builder.city(&last_city);
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
            let suffix = get(esponente);
            let entry = HouseNumberEntry {
                number: n,
                suffix: if suffix.is_empty() {
                    String::new()
                } else {
                    fold(suffix).replace(' ', "")
                },
                lat,
                lon,
                ..Default::default()
            };
            match packed {
                // committed by an interrupted import: already in a run
                Some(_) if records <= committed => {}
                Some(city) => {
                    work.spill.push(SpilledNumber {
                        city,
                        street: index as u32,
                        entry,
                    });
                    if work.spill.full() {
                        work.commit_records(source.key, records)?;
                    }
                }
                None => city.add_number(index, entry),
            }
            if !complete.contains(&last_city) {
                complete.insert(last_city.clone());
            }
        }
        rows += 1;
        if rows % 1024 == 0 {
            PROGRESS.advance_rows(1024);
        }
    }
    PROGRESS.advance_rows(rows % 1024);
    if house_numbers && records > committed {
        work.commit_records(source.key, records)?;
    }
    Ok(rows)
}
