//! Where the open data is expected, and what to tell a user who does not have it.

use std::path::Path;

use crate::{Error, Result};

/// Files the default register needs, relative to the source folder, with where to get them.
pub const REQUIRED: &[(&str, &str)] = &[
    (
        "it/comuni/anpr_archivio_comuni.csv.gz",
        "ANPR archivio storico dei comuni (ANPR_archivio_comuni.csv, gzip it): https://github.com/italia/anpr/tree/master/src/archivi",
    ),
    (
        "it/comuni/Elenco-comuni-italiani.csv",
        "ISTAT Elenco comuni italiani, as downloaded (or a UTF-8 copy named istat_elenco_comuni_<yyyy-mm>.csv[.gz]; the downloaded file wins, then the newest copy): https://www.istat.it/classificazione/codici-dei-comuni-delle-province-e-delle-regioni/",
    ),
    (
        "it/esteri/anpr_stati_esteri.csv",
        "ANPR tabella Stati esteri (tab_Stati_Esteri.xlsx saved as CSV): https://github.com/italia/anpr/tree/master/src/_static/xlsx",
    ),
];

/// Files that add streets and house numbers when present; each missing one only narrows what is
/// verified (a missing ANNCSU region is listed in the import summary as `streets_missing_regions`).
pub const OPTIONAL: &[(&str, &str)] = &[
    (
        "it/anncsu_odonimi/odonimi_XX.csv.gz",
        "ANNCSU street names per region, XX = ISTAT region code 01-20 (onData archivio_anncsu, output/odonimi_XX.csv.gz): https://github.com/ondata/archivio_anncsu",
    ),
    (
        "it/anncsu_indirizzi/",
        "ANNCSU open-data extracts INDIR_* / STRAD_* (national or regional, CSV or zip) from the Agenzia delle Entrate ANNCSU portal",
    ),
    (
        "it/civici/alessandria/numeri-civici.csv.gz",
        "Comune di Alessandria house numbers (+ viario.csv.gz): https://github.com/ComunediAlessandria/open-data",
    ),
    (
        "it/civici/bologna/civici_2012.csv.gz",
        "Comune di Bologna house numbers (2012)",
    ),
    (
        "it/civici/milano/Civici_20181001.csv.gz",
        "Comune di Milano ds634 Numeri civici (+ Viario_20181001.csv.gz, TIPOVIA.csv, ds634_civici_coordinategeografiche_*.json.gz for postcodes)",
    ),
];

/// Whether a required file is there: ISTAT's list under its published name or a dated copy.
fn present(source: &Path, rel: &str) -> bool {
    let istat_dir = source.join("it/comuni");
    if source.join(rel) == istat_dir.join(crate::import::it::istat::PUBLISHED) {
        return crate::import::it::istat::list_in(&istat_dir).is_some();
    }
    source.join(rel).exists()
}

pub fn check(source: &Path) -> Result<()> {
    let missing: Vec<String> = REQUIRED
        .iter()
        .filter(|(rel, _)| !present(source, rel))
        .map(|(rel, how)| format!("  {} — {}", source.join(rel).display(), how))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Error::SourceMissing(format!(
        "the open data the register is built from is not in {}. Download these files and put them at the paths shown:\n{}\nThen run `recapito import --source {}`. docs/data.md lists every optional dataset too.",
        source.display(),
        missing.join("\n"),
        source.display()
    )))
}
