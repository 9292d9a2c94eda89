//! ISTAT's list of today's municipalities (*Elenco comuni italiani*), read as ISTAT publishes it.
//!
//! ISTAT republishes the list whenever municipalities merge or provinces change (Uggiate con
//! Ronago in 2024, Sardinia's provinces in 2025). An operator puts the file as downloaded,
//! `Elenco-comuni-italiani.csv` (Windows-1252, `;`-separated), beside the dated copy the
//! project's sources ship (`istat_elenco_comuni_<yyyy-mm>.csv.gz`, UTF-8); the downloaded file
//! wins, then the newest dated one.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::import::{newest_dated, open_text, PROGRESS};
use crate::register::municipality::{Municipality, MunicipalityRecord};
use crate::Result;

/// The file name ISTAT publishes the list under.
pub const PUBLISHED: &str = "Elenco-comuni-italiani.csv";
/// Dated copies: `istat_elenco_comuni_2023-11.csv.gz`.
const DATED_PREFIX: &str = "istat_elenco_comuni_";

/// The list to read in `dir` (`it/comuni` of the source folder): ISTAT's download if present
/// (gzipped too), else the newest dated copy.
pub fn list_in(dir: &Path) -> Option<PathBuf> {
    for published in [PUBLISHED.to_string(), format!("{PUBLISHED}.gz")] {
        let path = dir.join(published);
        if path.exists() {
            return Some(path);
        }
    }
    newest_dated(dir, DATED_PREFIX, &[".csv", ".csv.gz"])
}

/// The text of the list: UTF-8 as saved by hand, or Windows-1252 as ISTAT publishes it.
fn text_of(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    open_text(path)?.read_to_end(&mut bytes)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(e.as_bytes())
            .0
            .into_owned(),
    })
}

/// Today's municipalities: each record's `current`, by cadastral code (a municipality newer than
/// the ANPR archive gets a record of its own).
pub fn read(path: &Path, records: &mut BTreeMap<String, MunicipalityRecord>) -> Result<u64> {
    let text = text_of(path)?;
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(b';')
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = rdr.headers()?.clone();
    let col = |prefix: &str| headers.iter().position(|h| h.trim().starts_with(prefix));
    let region_code = col("Codice Regione");
    let istat = col("Codice Comune formato alfanumerico");
    let name = col("Denominazione in italiano");
    let alt = col("Denominazione altra lingua");
    let region = col("Denominazione Regione");
    let uts = col("Denominazione dell'Unit");
    let capital = col("Flag Comune capoluogo");
    let plate = col("Sigla automobilistica");
    let cadastral = col("Codice Catastale");
    PROGRESS.start("municipalities: ISTAT list", 7_901);
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim().to_string();
        let code = get(cadastral).to_uppercase();
        if code.is_empty() {
            continue;
        }
        let record = records
            .entry(code.clone())
            .or_insert_with(|| MunicipalityRecord {
                cadastral_code: code.clone(),
                ..Default::default()
            });
        record.current = Some(Municipality {
            istat_code: get(istat),
            cadastral_code: code,
            name: get(name),
            alt_name: get(alt),
            province: get(plate),
            province_name: get(uts),
            region_code: get(region_code),
            region_name: get(region),
            provincial_capital: match get(capital).as_str() {
                "1" => Some(true),
                "0" => Some(false),
                _ => None,
            },
            ..Default::default()
        });
        rows += 1;
        PROGRESS.advance(1);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list as ISTAT publishes it (Windows-1252, its own file name) reads as the UTF-8 copy
    /// the sources ship, accented names included, and wins over it.
    #[test]
    fn the_published_list_reads_as_the_utf8_copy() {
        let shared = crate::test_register::shared_data();
        let Some(copy) = list_in(&shared.join("it/comuni")) else {
            return;
        };
        let mut from_copy = BTreeMap::new();
        let n = read(&copy, &mut from_copy).unwrap();
        assert!(n > 7_800, "{n}");

        let dir = tempfile::tempdir().unwrap();
        let text = text_of(&copy).unwrap();
        let (published, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&text);
        assert!(!unmappable);
        assert!(published.iter().any(|b| *b >= 0x80)); // accents, now single bytes
        assert!(std::str::from_utf8(&published).is_err());
        std::fs::write(dir.path().join(PUBLISHED), &published).unwrap();
        std::fs::copy(&copy, dir.path().join(copy.file_name().unwrap())).unwrap();
        let chosen = list_in(dir.path()).unwrap();
        assert_eq!(chosen, dir.path().join(PUBLISHED));

        let mut from_published = BTreeMap::new();
        assert_eq!(read(&chosen, &mut from_published).unwrap(), n);
        assert_eq!(from_published, from_copy);
        let names: Vec<&str> = from_published
            .values()
            .filter_map(|r| r.current.as_ref().map(|c| c.name.as_str()))
            .collect();
        assert!(names.contains(&"Agliè"), "accented names decoded");
    }
}
