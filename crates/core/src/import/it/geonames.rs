//! The places people write as their city that are not municipalities (hamlets, town sections:
//! Mestre, Lido di Ostia, Fregene), from GeoNames in its two published layouts:
//! - the `cities1000` extract in `it/comuni/` (a CSV with a header: places above 1,000 people);
//! - GeoNames' own dump files an operator downloads into `it/localita/` (`IT.zip` or `IT.txt` from
//!   https://download.geonames.org/export/dump/, CC BY 4.0: every populated place of Italy, the
//!   hamlets the extract lacks — Marghera, Milano Marittima, Sottomarina), tab-separated without a
//!   header, in the column order of the dump's readme.
//!
//! - GeoNames' postal-code dump an operator downloads into `it/cap/` (`IT.zip` or `IT.txt` from
//!   https://download.geonames.org/export/zip/, CC BY 4.0), tab-separated without a header in the
//!   column order of that page's readme: each row a place with its postcode — a hamlet and its
//!   own CAP (Rossano 87067, Corigliano-Rossano), or a municipality's CAP under its own name.
//!
//! Each place is tied to today's municipality by its ISTAT code (GeoNames' `admin3` in Italy).

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::import::{csv_reader, open_text};
use crate::normalize::fold;
use crate::register::municipality::{MunicipalityRecord, Place, PlaceKind};
use crate::{Error, Result};

/// The extract shipped with the default sources.
pub(super) const EXTRACT: &str = "it/comuni/geonames_it_cities1000.csv.gz";
/// Where an operator puts GeoNames' dump files (`IT.zip`, `IT.txt`).
pub(super) const DUMP_DIR: &str = "it/localita";
pub(super) const ATTRIBUTION: &str = "GeoNames (geonames.org), CC BY 4.0";

/// Where an operator puts GeoNames' postal-code dump (`IT.zip`, `IT.txt` of the `export/zip/`
/// page): a folder of its own, since its files are named as the places dump's.
pub(super) const POSTAL_DIR: &str = "it/cap";

/// The columns of GeoNames' postal-code dump (readme.txt of
/// https://download.geonames.org/export/zip/), read by position.
pub(super) const POSTAL_COLUMNS: &[&str] = &[
    "country_code",
    "postal_code",
    "place_name",
    "admin_name1",
    "admin_code1",
    "admin_name2",
    "admin_code2",
    "admin_name3",
    "admin_code3",
    "latitude",
    "longitude",
    "accuracy",
];

/// GeoNames points by folded name and province: where a municipality merged away lies.
pub(super) type Points = HashMap<(String, String), (f64, f64)>;

/// The columns of GeoNames' dump (readme.txt of https://download.geonames.org/export/dump/), by
/// the names the extract's header gives them.
pub(super) const DUMP_COLUMNS: &[&str] = &[
    "geonameid",
    "name",
    "asciiname",
    "alternatenames",
    "latitude",
    "longitude",
    "feature_class",
    "feature_code",
    "country_code",
    "cc2",
    "admin1_code",
    "admin2_code",
    "admin3_code",
    "admin4_code",
    "population",
    "elevation",
    "dem",
    "timezone",
    "modification_date",
];

/// What was read: the places, every row's point, and the files read with the places each added.
#[derive(Default)]
pub(super) struct GeoNamesPlaces {
    pub places: Vec<Place>,
    pub points: Points,
    pub files: Vec<(PathBuf, u64)>,
}

/// The hamlets of the extract and of every dump file in `it/localita/`, each place once per
/// municipality (the dump repeats the extract's).
pub(super) fn read(source: &Path, records: &[&MunicipalityRecord]) -> Result<GeoNamesPlaces> {
    let mut reader = PlaceReader::new(records);
    let mut out = GeoNamesPlaces::default();
    let extract = source.join(EXTRACT);
    if extract.exists() {
        let mut rdr = csv_reader(&extract, b',')?;
        let headers: Vec<String> = rdr.headers()?.iter().map(str::to_string).collect();
        for row in rdr.records() {
            reader.row(&headers, &row?, false, &mut out);
        }
        let found = out.places.len() as u64;
        out.files.push((extract, found));
    }
    let dump_headers: Vec<String> = DUMP_COLUMNS.iter().map(|c| c.to_string()).collect();
    for path in dump_files(&source.join(DUMP_DIR)) {
        let before = out.places.len();
        read_dump(&path, &mut |row| {
            // Italy's rows only: a dump of several countries holds others
            if row.get(8) == Some("IT") {
                reader.row(&dump_headers, row, true, &mut out);
            }
        })?;
        let found = (out.places.len() - before) as u64;
        out.files.push((path, found));
    }
    Ok(out)
}

/// What the postal-code dump gave: the hamlets with their own postcodes, every (municipality,
/// postcode) it names, and the files read with the rows each tied to a municipality.
#[derive(Default)]
pub(super) struct PostalPlaces {
    pub places: Vec<Place>,
    /// (cadastral code, postcode)
    pub postcodes: Vec<(String, String)>,
    pub files: Vec<(PathBuf, u64)>,
}

/// The rows of every postal-code dump file in `it/cap/`. A row is tied to today's municipality by
/// its ISTAT code (`admin_code3`), else by the municipality's name (`admin_name3`, else the place's)
/// within the province (`admin_code2`); its postcode belongs to that municipality, and its place,
/// when not the municipality itself, is a hamlet of it with that postcode.
pub(super) fn read_postal(source: &Path, records: &[&MunicipalityRecord]) -> Result<PostalPlaces> {
    let mut out = PostalPlaces::default();
    let files = dump_files(&source.join(POSTAL_DIR));
    if files.is_empty() {
        return Ok(out);
    }
    let current: Vec<(&str, &crate::register::municipality::Municipality)> = records
        .iter()
        .filter_map(|r| r.current.as_ref().map(|c| (r.cadastral_code.as_str(), c)))
        .collect();
    let by_istat: HashMap<&str, usize> = current
        .iter()
        .enumerate()
        .map(|(i, (_, c))| (c.istat_code.as_str(), i))
        .collect();
    let own_names = |c: &crate::register::municipality::Municipality| -> Vec<String> {
        [c.name.as_str(), c.alt_name.as_str()]
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| crate::normalize::compact(n))
            .collect()
    };
    // (folded name, province) → municipality: `Bolzano`, `Bozen` and `Bolzano/Bozen` alike
    let mut by_name: HashMap<(String, &str), Vec<usize>> = HashMap::new();
    for (i, (_, c)) in current.iter().enumerate() {
        let mut keys = own_names(c);
        keys.push(crate::normalize::compact(&format!(
            "{} {}",
            c.name, c.alt_name
        )));
        keys.dedup();
        for k in keys {
            by_name.entry((k, c.province.as_str())).or_default().push(i);
        }
    }
    let col = |name: &str| POSTAL_COLUMNS.iter().position(|c| *c == name);
    let at = |row: &csv::StringRecord, name: &str| -> String {
        col(name)
            .and_then(|i| row.get(i))
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let mut place_at: HashMap<(String, usize), usize> = HashMap::new();
    for path in files {
        let mut rows = 0u64;
        read_dump(&path, &mut |row| {
            if at(row, "country_code") != "IT" {
                return;
            }
            let postcode = at(row, "postal_code");
            if postcode.len() != 5 || !postcode.bytes().all(|b| b.is_ascii_digit()) {
                return;
            }
            let (place, province) = (at(row, "place_name"), at(row, "admin_code2"));
            let by_code = by_istat.get(at(row, "admin_code3").as_str()).copied();
            let municipality = by_code.or_else(|| {
                let named = at(row, "admin_name3");
                let name = if named.is_empty() { &place } else { &named };
                match by_name
                    .get(&(crate::normalize::compact(name), province.as_str()))
                    .map(Vec::as_slice)
                {
                    Some([one]) => Some(*one),
                    _ => None,
                }
            });
            let Some(i) = municipality else { return };
            let (code, c) = current[i];
            rows += 1;
            let pair = (code.to_string(), postcode.clone());
            if !out.postcodes.contains(&pair) {
                out.postcodes.push(pair);
            }
            let key = crate::normalize::compact(&place);
            if key.len() < 3 || own_names(c).contains(&key) {
                return;
            }
            let (lat, lon) = (
                at(row, "latitude").parse().ok(),
                at(row, "longitude").parse().ok(),
            );
            let p = *place_at.entry((key, i)).or_insert_with(|| {
                out.places.push(Place {
                    name: place.clone(),
                    cadastral_code: code.to_string(),
                    kind: PlaceKind::Hamlet,
                    lat,
                    lon,
                    postcodes: Vec::new(),
                });
                out.places.len() - 1
            });
            if !out.places[p].postcodes.contains(&postcode) {
                out.places[p].postcodes.push(postcode);
            }
        })?;
        out.files.push((path, rows));
    }
    Ok(out)
}

/// GeoNames dump files in the folder, by name: country files and extracts (`IT.zip`, `IT.txt`,
/// `cities500.zip`), not the readme nor the other tables of the dump page.
fn dump_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let stem = name.split('.').next().unwrap_or("");
            (name.ends_with(".zip") || name.ends_with(".txt"))
                && (stem.len() == 2 && stem.chars().all(|c| c.is_ascii_uppercase())
                    || stem.starts_with("cities"))
        })
        .collect();
    files.sort();
    files
}

/// Each row of a dump file (a `.txt`, or the `.txt` inside its `.zip`): tab-separated, no header,
/// no quoting (a name may hold a `"`).
fn read_dump(path: &Path, each: &mut dyn FnMut(&csv::StringRecord)) -> Result<()> {
    let rows_of = |input: Box<dyn BufRead + '_>, each: &mut dyn FnMut(&csv::StringRecord)| {
        let mut rdr = csv::ReaderBuilder::new()
            .delimiter(b'\t')
            .has_headers(false)
            .quoting(false)
            .flexible(true)
            .from_reader(input);
        for row in rdr.records() {
            each(&row?);
        }
        Ok::<(), Error>(())
    };
    if path.extension().is_some_and(|e| e == "zip") {
        let file = std::fs::File::open(path)?;
        let mut zip = zip::ZipArchive::new(file).map_err(|e| Error::BadInput(e.to_string()))?;
        let entry = (0..zip.len()).find(|&i| {
            zip.name_for_index(i).is_some_and(|n| {
                let base = n.rsplit('/').next().unwrap_or(n);
                base.ends_with(".txt") && !base.eq_ignore_ascii_case("readme.txt")
            })
        });
        let Some(i) = entry else {
            return Err(Error::BadInput(format!(
                "no GeoNames table (.txt) in {}",
                path.display()
            )));
        };
        let table = zip
            .by_index(i)
            .map_err(|e| Error::BadInput(e.to_string()))?;
        let input: Box<dyn BufRead> = Box::new(BufReader::with_capacity(1 << 16, table));
        rows_of(input, each)
    } else {
        rows_of(open_text(path)?, each)
    }
}

/// Reads rows of either layout into places, each (name, municipality) once.
struct PlaceReader<'r> {
    cadastral_by_istat: HashMap<&'r str, &'r str>,
    /// Today's name of each municipality by ISTAT code (the seat rows are told from it).
    name_by_istat: HashMap<&'r str, &'r str>,
    municipality_names: HashSet<String>,
    /// The places of the extract, by name key and municipality: a dump holds them again.
    extract_places: HashSet<(String, String)>,
}

impl<'r> PlaceReader<'r> {
    fn new(records: &[&'r MunicipalityRecord]) -> PlaceReader<'r> {
        PlaceReader {
            cadastral_by_istat: records
                .iter()
                .filter_map(|r| {
                    r.current
                        .as_ref()
                        .map(|c| (c.istat_code.as_str(), r.cadastral_code.as_str()))
                })
                .collect(),
            name_by_istat: records
                .iter()
                .filter_map(|r| {
                    r.current
                        .as_ref()
                        .map(|c| (c.istat_code.as_str(), c.name.as_str()))
                })
                .collect(),
            municipality_names: records
                .iter()
                .flat_map(|r| {
                    r.periods
                        .iter()
                        .map(|p| p.name.as_str())
                        .chain(r.current.as_ref().map(|c| c.name.as_str()))
                })
                .map(fold)
                .collect(),
            extract_places: HashSet::new(),
        }
    }

    /// One populated place that is not a municipality (`PPL`, `PPLX`, `PPLL`), tied to today's
    /// municipality by its ISTAT code: its name, plain-ASCII name and Latin-script alternate names
    /// (`Ostia Lido`), and the places a joined name holds; every row's point goes to `points`.
    /// A dump's row adds no place the extract already gave that municipality.
    fn row(
        &mut self,
        headers: &[String],
        row: &csv::StringRecord,
        of_dump: bool,
        out: &mut GeoNamesPlaces,
    ) {
        let get = |name: &str| {
            headers
                .iter()
                .position(|h| h == name)
                .and_then(|i| row.get(i))
                .unwrap_or("")
                .trim()
        };
        let (lat, lon) = (get("latitude").parse().ok(), get("longitude").parse().ok());
        let mut names: Vec<&str> = vec![get("name"), get("asciiname")];
        names.extend(
            get("alternatenames")
                .split(',')
                .filter(|a| is_latin_name(a)),
        );
        let whole = names.clone();
        for n in whole {
            names.extend(place_parts(n, &self.municipality_names));
        }
        if let (Some(la), Some(lo)) = (lat, lon) {
            let province = get("admin2_code");
            out.points
                .insert((fold(get("name")), province.to_string()), (la, lo));
            // the place's other names point there unless a place of that name does: a municipality
            // merged away may be only an alternate name (`Trivero` of `Trivero-Prativero-Ponzone`)
            for n in &names[1..] {
                out.points
                    .entry((fold(n), province.to_string()))
                    .or_insert((la, lo));
            }
        }
        let place = match get("feature_code") {
            "PPL" | "PPLX" | "PPLL" => true,
            "PPLA3" => {
                self.seat_named_otherwise(get("name"), get("admin3_code"), get("population"))
            }
            _ => false,
        };
        if !place {
            return;
        }
        let Some(&code) = self.cadastral_by_istat.get(get("admin3_code")) else {
            return;
        };
        let mut seen: Vec<String> = Vec::new();
        for n in names {
            let key = crate::normalize::compact(n);
            if key.len() < 3 || seen.contains(&key) {
                continue;
            }
            let place = (key, code.to_string());
            if of_dump && self.extract_places.contains(&place) {
                continue;
            }
            seen.push(place.0.clone());
            if !of_dump {
                self.extract_places.insert(place);
            }
            out.places.push(Place {
                name: n.trim().to_string(),
                cadastral_code: code.to_string(),
                kind: PlaceKind::Hamlet,
                lat,
                lon,
                postcodes: Vec::new(),
            });
        }
    }
}

impl PlaceReader<'_> {
    /// Whether a municipality's seat (`PPLA3`) is a town of its own name that people write as
    /// their city: `Porto Santo Stefano` is Monte Argentario's, `Pallanza-Intra-Suna` Verbania's,
    /// `Tor Lupara` Fonte Nuova's. Not when it shares a word with the municipality's name or is
    /// that name written apart (a spelling of it: `Reggio Emilia`, `Cinque Frondi`, `San Remo`), is under 1,000 inhabitants (as
    /// the other places of the extract), is a municipality's name, or begins with a street type
    /// or is one common word (`Piazza Roma`, `Chiesa`, `Villa`: the census names some seats so).
    fn seat_named_otherwise(&self, name: &str, istat: &str, population: &str) -> bool {
        let Some(municipality) = self.name_by_istat.get(istat) else {
            return false;
        };
        let significant = |n: &str| -> HashSet<String> {
            fold(n)
                .split(' ')
                .filter(|w| w.len() >= 3)
                .map(str::to_string)
                .collect()
        };
        // the name without its spaces: `San Remo` is Sanremo's own name written apart
        let compact = |n: &str| fold(n).replace(' ', "");
        let words = significant(name);
        let first = fold(name).split(' ').next().unwrap_or("").to_string();
        population.parse::<u64>().is_ok_and(|p| p >= 1_000)
            && !words.is_empty()
            && words.is_disjoint(&significant(municipality))
            && compact(name) != compact(municipality)
            && !self.municipality_names.contains(&fold(name))
            && crate::rules::it::street_type::expand(&first).is_none()
            && !(words.len() == 1 && COMMON_SEAT_WORDS.contains(&first.as_str()))
    }
}

/// One-word census names of seats that name no town (`Chiesa`, `Piazza`, `Centro`).
const COMMON_SEAT_WORDS: &[&str] = &[
    "CHIESA",
    "PIAZZA",
    "CENTRO",
    "CENTRALE",
    "VILLA",
    "CASTELLO",
    "BORGO",
    "MERCATO",
    "SALA",
    "PIANO",
    "STRADA",
    "CASALI",
    "FORNACI",
    "BETTOLA",
    "ANNUNZIATA",
    "PROGRESSO",
];

/// The places a GeoNames name holds besides itself: each of several joined by dashes (ISTAT's
/// census localities: `Acilia-Castel Fusano-Ostia Antica` is Acilia, Castel Fusano and Ostia
/// Antica), and the place a seaside hamlet is the lido or marina of when that is no municipality
/// (`Lido di Ostia` is Ostia; `Marina di Pisa` is not Pisa).
fn place_parts<'a>(name: &'a str, municipalities: &HashSet<String>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    if name.contains('-') {
        out.extend(
            name.split('-')
                .map(str::trim)
                .filter(|p| p.chars().filter(|c| c.is_alphabetic()).count() >= 4),
        );
    }
    for part in std::iter::once(name).chain(out.clone()) {
        let words: Vec<&str> = part.splitn(3, ' ').collect();
        if let [head, link, rest] = words[..] {
            let heads = ["lido", "marina"];
            let links = ["di", "del", "della", "dei", "degli", "delle"];
            if heads.contains(&head.to_lowercase().as_str())
                && links.contains(&link.to_lowercase().as_str())
                && rest.chars().filter(|c| c.is_alphabetic()).count() >= 4
                && !municipalities.contains(&fold(rest))
            {
                out.push(rest);
            }
        }
    }
    out
}

/// Letters of the Latin script, spaces, apostrophes, dots and dashes only: `Ostia Lido`, not
/// `Остия` nor a transliteration with tildes.
fn is_latin_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.chars().all(|c| {
            c.is_ascii_alphabetic()
                || matches!(c, ' ' | '\'' | '’' | '.' | '-')
                || ('À'..='ž').contains(&c)
        })
        && s.chars().next().is_some_and(|c| c.is_uppercase())
}
