//! The national registers of other countries, each read by its own importer from the files as
//! their publishers release them (`registers/<cc>/…` and `osm/…` under the world folder), into
//! the country-neutral model of `crate::foreign`.

use std::io::Read;
use std::path::Path;

use crate::foreign::model::{CountryRegister, RegisterInfo};
use crate::foreign::text::Expander;
use crate::{Error, Result};

pub type Imported = Result<CountryRegister>;
type Importer = fn(&Path) -> Imported;

/// Every country this build knows how to import, each from its own files.
pub fn import_all(world: &Path) -> Vec<(&'static str, Imported)> {
    let jobs: Vec<(&'static str, Importer)> = vec![
        ("LU", super::lu::import),
        ("CH", super::ch::import_ch),
        ("LI", super::osm::import_li),
        ("MC", super::osm::import_mc),
        ("AD", super::osm::import_ad),
        ("DE", super::de::import),
        ("DK", super::dk::import),
        ("NO", super::no::import),
        ("SI", super::si::import),
        ("FI", super::fi::import),
        ("BE", super::be::import),
        ("CZ", super::cz::import),
        ("ES", super::es::import),
        ("NL", super::nl::import),
        ("PT", super::pt::import),
    ];
    use rayon::prelude::*;
    let import = || jobs.into_par_iter().map(|(cc, f)| (cc, f(world))).collect();
    // On a pool of its own: the callers that wait for this import (`foreign::current`) may be the
    // global pool's workers, verifying a batch; blocked on the import's lock, they would never run
    // the import's tasks and the process would hang (seen with gdb).
    match rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("world-import-{i}"))
        .build()
    {
        Ok(pool) => pool.install(import),
        Err(_) => import(),
    }
}

/// The expander of a country's languages, from libpostal's dictionaries.
pub fn expander(world: &Path, languages: &[&str]) -> Expander {
    Expander::load(&world.join("libpostal").join("dictionaries"), languages)
}

#[allow(clippy::too_many_arguments)]
pub fn info(
    country: &'static str,
    register: &'static str,
    date: &str,
    coverage: &str,
    source: &'static str,
    dataset: &'static str,
    attribution: &'static str,
    municipality_code_type: &'static str,
) -> RegisterInfo {
    RegisterInfo {
        country,
        register,
        date: date.to_string(),
        verification: Vec::new(),
        coverage: coverage.to_string(),
        source,
        dataset,
        attribution,
        municipality_code_type,
        localities: 0,
        streets: 0,
        house_numbers: 0,
        points: 0,
    }
}

pub fn missing(path: &Path) -> Error {
    Error::BadInput(format!("{} is missing", path.display()))
}

/// One file of a zip archive, whole: by its name, or by its extension when `name_ends` starts
/// with a dot.
pub fn zip_entry(path: &Path, name_ends: &str) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|_| missing(path))?;
    let mut zip = zip::ZipArchive::new(file).map_err(|e| Error::BadInput(e.to_string()))?;
    for i in 0..zip.len() {
        let mut f = zip
            .by_index(i)
            .map_err(|e| Error::BadInput(e.to_string()))?;
        let base = f.name().rsplit('/').next().unwrap_or("");
        let hit = if name_ends.starts_with('.') {
            base.ends_with(name_ends)
        } else {
            base == name_ends
        };
        if hit {
            let mut buf = Vec::with_capacity(f.size() as usize);
            f.read_to_end(&mut buf)?;
            return Ok(buf);
        }
    }
    Err(Error::BadInput(format!(
        "{name_ends} not in {}",
        path.display()
    )))
}

/// A whole file, gunzipped when its name ends in `.gz`.
pub fn read_file(path: &Path) -> Result<Vec<u8>> {
    let raw = std::fs::read(path).map_err(|_| missing(path))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        return Ok(out);
    }
    Ok(raw)
}

/// ISO-8859-1 bytes to text.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| b as char).collect()
}

/// Title case of an upper-case name, keeping short particles low (`RUE DE LA GARE` stays as
/// registers that publish mixed case write it; used only where a register has upper case alone).
pub fn text_after_bom(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    s.trim_start_matches('\u{feff}').to_string()
}
