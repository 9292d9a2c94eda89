//! The Netherlands: Kadaster's BAG 2.0 extract ("Extract LV"), read as published: the extract
//! zip (`lvbag-extract-nl.zip`, or a municipality's) holds one zip per object type
//! (`9999NUM08112020.zip`, `OPR`, `WPL`, `VBO`, `LIG`, `STA`; `PND` and the other parts are not
//! needed) each holding the XML chunks (`…-000001.xml`, `-000002.xml`…); the nested zips are read
//! in memory, one at a time, and each chunk streamed with the shared XML walker. Loose XML files
//! (`<gemeente>NUM…xml[.gz]`) are read too. Nummeraanduiding (number, letter, addition, postcode)
//! lies on an Openbare ruimte (street) in a Woonplaats; the point is the addressable object's
//! (verblijfsobject point, or the mean of a ligplaats/standplaats outline) in RD New. Only current
//! objects are read: a `voorkomen` with an `eindGeldigheid` is history.
//!
//! Completeness: an extract's header names its area (`Gebied-GEM` with the municipality code, or
//! `Gebied-NLD`), and the published package holds every object of it; so the woonplaatsen of an
//! extract read from its zip, every chunk's header naming an area, hold every street and number.
//! Loose XML files are never taken as whole: they may be a cut (the snapshot's Doesburg files
//! keep the header of municipality 0221 over 15 of its numbers).

use std::collections::HashMap;
use std::io::{Cursor, Read, Seek};
use std::path::{Path, PathBuf};

use super::world::{expander, info, read_file, Imported};
use super::xml::{self, attr, Node};
use crate::foreign::model::{CountryRegister, Locality};
use crate::{Error, Result};

pub const ATTRIBUTION: &str = "Bron: Basisregistratie Adressen en Gebouwen (BAG), Kadaster";

#[derive(Debug, Default, Clone)]
struct Object {
    kind: String,
    id: String,
    name: String,
    street_type: String,
    number: String,
    letter: String,
    addition: String,
    postcode: String,
    /// OPR of a NUM, WPL of an OPR (or of a NUM that names its own)
    street_ref: String,
    place_ref: String,
    /// NUM ids of an addressable object
    addresses: Vec<String>,
    coords: Vec<f64>,
    dimension: usize,
    ended: bool,
}

const KINDS: &[&str] = &[
    "Nummeraanduiding",
    "OpenbareRuimte",
    "Woonplaats",
    "Verblijfsobject",
    "Ligplaats",
    "Standplaats",
];

/// Every current object of one BAG XML file.
fn read_objects(bytes: &[u8], out: &mut Vec<Object>) -> Result<()> {
    let text = xml::decode(bytes);
    let mut current: Option<Object> = None;
    let mut depth = 0;
    xml::walk(&text, |path, node| {
        let here = path.last().map(String::as_str).unwrap_or("");
        match node {
            Node::Open(attrs) => {
                if current.is_none() {
                    if KINDS.contains(&here)
                        && path.len() >= 2
                        && path[path.len() - 2] == "bagObject"
                    {
                        current = Some(Object {
                            kind: here.to_string(),
                            dimension: 2,
                            ..Default::default()
                        });
                        depth = path.len();
                    }
                    return;
                }
                if let (Some(o), Some(d)) = (current.as_mut(), attr(attrs, "srsDimension")) {
                    o.dimension = d.parse().unwrap_or(2);
                }
            }
            Node::Text(t) => {
                let Some(o) = current.as_mut() else { return };
                let parent = path
                    .len()
                    .checked_sub(2)
                    .map(|i| path[i].as_str())
                    .unwrap_or("");
                match here {
                    "identificatie" if path.len() == depth + 1 => o.id = t.to_string(),
                    "naam" if path.len() == depth + 1 => o.name = t.to_string(),
                    "type" if path.len() == depth + 1 => o.street_type = t.to_string(),
                    "huisnummer" => o.number = t.to_string(),
                    "huisletter" => o.letter = t.to_string(),
                    "huisnummertoevoeging" => o.addition = t.to_string(),
                    "postcode" => o.postcode = t.to_string(),
                    "OpenbareRuimteRef" => o.street_ref = t.to_string(),
                    "WoonplaatsRef" => o.place_ref = t.to_string(),
                    "NummeraanduidingRef"
                        if parent == "heeftAlsHoofdadres" || parent == "heeftAlsNevenadres" =>
                    {
                        o.addresses.push(t.to_string())
                    }
                    "pos" | "posList" if o.coords.is_empty() => {
                        o.coords = t
                            .split_whitespace()
                            .filter_map(|v| v.parse().ok())
                            .collect();
                    }
                    "eindGeldigheid" => o.ended = true,
                    _ => {}
                }
            }
            Node::Close => {
                if path.len() == depth {
                    if let Some(o) = current.take() {
                        if !o.ended && !o.id.is_empty() {
                            out.push(o);
                        }
                    }
                }
            }
        }
    })
}

/// The mean of an RD New point or outline → (lat, lon).
fn point(o: &Object) -> Option<(f64, f64)> {
    let d = o.dimension.max(2);
    let pairs: Vec<(f64, f64)> = o
        .coords
        .chunks(d)
        .filter(|c| c.len() >= 2)
        .map(|c| (c[0], c[1]))
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let (x, y) = pairs.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    Some(crate::foreign::geo::rd_to_wgs84(x / n, y / n))
}

/// The object type of a BAG part by its name (`0221NUM15092020-000001.xml`,
/// `9999OPR08112020.zip`): the code after the municipality digits.
fn kind_of(name: &str) -> Option<&'static str> {
    let base = name.rsplit('/').next().unwrap_or(name).to_uppercase();
    let rest = base.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == base.len() {
        return None;
    }
    ["NUM", "OPR", "WPL", "VBO", "LIG", "STA"]
        .into_iter()
        .find(|k| rest.starts_with(k))
}

/// Loose XML parts and extract zips of the folder.
fn files(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|_| super::world::missing(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    let name = |p: &PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().to_uppercase())
            .unwrap_or_default()
    };
    let loose = paths
        .iter()
        .filter(|p| {
            let n = name(p);
            (n.ends_with(".XML") || n.ends_with(".XML.GZ")) && kind_of(&n).is_some()
        })
        .cloned()
        .collect();
    let zips = paths
        .iter()
        .filter(|p| name(p).ends_with(".ZIP"))
        .cloned()
        .collect();
    Ok((loose, zips))
}

/// Every XML part of a BAG zip, entering the zips it nests (per object type, or a
/// municipality's package) in memory; the parts of other objects (`PND`, `Inactief`,
/// `GEM-WPL-RELATIE`…) are skipped unread.
fn read_zip<R: Read + Seek>(
    zip: R,
    depth: usize,
    each: &mut dyn FnMut(&str, &[u8]) -> Result<()>,
) -> Result<()> {
    let bad = |e: zip::result::ZipError| Error::BadInput(format!("BAG extract: {e}"));
    let mut archive = zip::ZipArchive::new(zip).map_err(bad)?;
    for i in 0..archive.len() {
        let mut f = archive.by_index(i).map_err(bad)?;
        let name = f.name().to_string();
        let upper = name.to_uppercase();
        let nested = upper.ends_with(".ZIP")
            && depth < 3
            && (kind_of(&upper).is_some() || (upper.contains("GEM") && !upper.contains("RELATIE")));
        let part = upper.ends_with(".XML") && kind_of(&upper).is_some();
        if !nested && !part {
            continue;
        }
        let mut buf = Vec::with_capacity(f.size() as usize);
        f.read_to_end(&mut buf)?;
        drop(f);
        if nested {
            read_zip(Cursor::new(buf), depth + 1, each)?;
        } else {
            each(&name, &buf)?;
        }
    }
    Ok(())
}

/// What an extract's header says of its area: `Gebied-NLD`, or the municipalities of
/// `Gebied-GEM`. None when the header names none.
fn header_area(bytes: &[u8]) -> Option<Vec<String>> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4000)]);
    let info = &head[..head.find("</sl-bag-extract:bagInfo>")?];
    if info.contains("Gebied-NLD") {
        return Some(Vec::new());
    }
    let codes: Vec<String> = info
        .split("GemeenteIdentificatie>")
        .skip(1)
        .step_by(2)
        .map(|s| {
            s.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .filter(|c| !c.is_empty())
        .collect();
    (!codes.is_empty()).then_some(codes)
}

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/nl");
    let (loose, zips) = files(&dir)?;
    let mut objects = Vec::new();
    let mut date = String::new();
    // every part read says which area it is the whole of; a loose part is no proof
    let mut whole = loose.is_empty();
    let mut municipalities: Vec<String> = Vec::new();
    let mut parts = 0usize;
    let mut first_name = String::new();
    let mut each = |name: &str, bytes: &[u8]| -> Result<()> {
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4000)]);
        if let Some(i) = head.find("StandTechnischeDatum>") {
            date = head[i + 21..].chars().take(10).collect();
        }
        match header_area(bytes) {
            Some(codes) => {
                for c in codes {
                    if !municipalities.contains(&c) {
                        municipalities.push(c);
                    }
                }
            }
            None => whole = false,
        }
        if first_name.is_empty() {
            first_name = name.rsplit('/').next().unwrap_or(name).to_string();
        }
        parts += 1;
        read_objects(bytes, &mut objects)
    };
    for p in &zips {
        let file = std::fs::File::open(p).map_err(|_| super::world::missing(p))?;
        read_zip(file, 0, &mut each)?;
    }
    for p in &loose {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        each(&name, &read_file(p)?)?;
    }
    if parts == 0 {
        return Err(Error::BadInput(format!(
            "no BAG 2.0 extract (zip or XML) in {}",
            dir.display()
        )));
    }
    let whole = whole && !zips.is_empty();
    // the municipality of a GEM extract, from its header, else the digits opening the part's
    // name (`0221NUM…`); the national extract (`9999…`) names none
    let municipality_code: String = match municipalities.as_slice() {
        [one] => one.clone(),
        [] => Some(
            first_name
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>(),
        )
        .filter(|c| c != "9999")
        .unwrap_or_default(),
        _ => String::new(),
    };
    let mut reg = CountryRegister::new(
        info(
            "NL",
            "BAG",
            &date,
            "",
            "inspire",
            "bag",
            ATTRIBUTION,
            "cbs_gemeentecode",
        ),
        expander(world, &["nl"]),
        false,
        false,
    );
    let places: HashMap<&str, &str> = objects
        .iter()
        .filter(|o| o.kind == "Woonplaats")
        .map(|o| (o.id.as_str(), o.name.as_str()))
        .collect();
    let mut points: HashMap<&str, (f64, f64)> = HashMap::new();
    for o in objects.iter().filter(|o| {
        matches!(
            o.kind.as_str(),
            "Verblijfsobject" | "Ligplaats" | "Standplaats"
        )
    }) {
        if let Some(p) = point(o) {
            for a in &o.addresses {
                points.entry(a.as_str()).or_insert(p);
            }
        }
    }
    let mut locality_of_place: HashMap<&str, u32> = HashMap::new();
    let mut locality = |reg: &mut CountryRegister, place: &str| -> Option<u32> {
        let name = places.get(place)?;
        Some(
            *locality_of_place
                .entry(places.get_key_value(place)?.0)
                .or_insert_with(|| {
                    reg.locality(Locality {
                        name: name.to_string(),
                        municipality: name.to_string(),
                        municipality_code: municipality_code.clone(),
                        complete_streets: whole,
                        complete_numbers: whole,
                        ..Default::default()
                    })
                }),
        )
    };
    let mut streets: HashMap<&str, u32> = HashMap::new();
    for o in objects.iter().filter(|o| o.kind == "OpenbareRuimte") {
        let Some(loc) = locality(&mut reg, &o.place_ref) else {
            continue;
        };
        let s = reg.street(loc, &o.name);
        streets.insert(o.id.as_str(), s);
    }
    for o in objects.iter().filter(|o| o.kind == "Nummeraanduiding") {
        let (Some(&s), Ok(n)) = (streets.get(o.street_ref.as_str()), o.number.parse::<u32>())
        else {
            continue;
        };
        let postcode = o.postcode.replace(' ', "").to_uppercase();
        // `12a-2`: letter and addition, as PostNL writes them
        let suffix = match (o.letter.as_str(), o.addition.as_str()) {
            (l, "") => l.to_string(),
            ("", a) => format!("-{a}"),
            (l, a) => format!("{l}-{a}"),
        };
        let loc = reg.streets[s as usize].locality;
        if !postcode.is_empty() && !reg.localities[loc as usize].postcodes.contains(&postcode) {
            reg.locality_mut(loc).postcodes.push(postcode.clone());
        }
        reg.number_parts(
            s,
            n,
            &suffix,
            Some(&postcode),
            points.get(o.id.as_str()).copied(),
        );
    }
    let mut areas: Vec<&str> = places.values().copied().collect();
    areas.sort_unstable();
    reg.info.coverage = areas.join(", ");
    Ok(reg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::{ContactInput, ContactResult};
    use crate::foreign::record;
    use std::io::Write;

    fn snapshot() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/world")
    }

    fn zip_of(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in entries {
            w.start_file(name.as_str(), opts).unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    /// A world folder whose NL register is the snapshot's Doesburg files packaged the way
    /// Kadaster publishes an extract: one zip per object type inside the extract's zip (the
    /// snapshot's XML are the real files, unzipped once by hand).
    fn packaged_world() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let nl = tmp.path().join("registers/nl");
        std::fs::create_dir_all(&nl).unwrap();
        std::os::unix::fs::symlink(snapshot().join("libpostal"), tmp.path().join("libpostal"))
            .unwrap();
        let mut inner = Vec::new();
        let mut xmls: Vec<PathBuf> = std::fs::read_dir(snapshot().join("registers/nl"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        xmls.sort();
        for p in xmls {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let kind = kind_of(&name).unwrap();
            let part = zip_of(&[(name.clone(), std::fs::read(&p).unwrap())]);
            inner.push((format!("0221{kind}15092020.zip"), part));
        }
        // parts the importer has no use for are left unread
        inner.push(("GEM-WPL-RELATIE-15092020.zip".into(), zip_of(&[])));
        inner.push(("Leveringsdocument-BAG-Extract.xml".into(), b"<x/>".to_vec()));
        std::fs::write(nl.join("BAGGEM0221L-15092020.zip"), zip_of(&inner)).unwrap();
        tmp
    }

    fn verify(reg: &CountryRegister, address: &str) -> Option<ContactResult> {
        let input = ContactInput {
            address: Some(address.into()),
            city: Some("Doesburg".into()),
            country_code: Some("NL".into()),
            ..Default::default()
        };
        record::verify(reg, &input, &ContactResult::default())
    }

    #[test]
    fn the_extract_is_read_as_published_and_its_woonplaatsen_are_complete() {
        let world = packaged_world();
        let mut zipped = import(world.path()).expect("BAG extract zip");
        zipped.finish();
        let mut loose = import(&snapshot()).expect("BAG XML");
        loose.finish();
        let numbers =
            |r: &CountryRegister| r.streets.iter().map(|s| s.numbers.len()).sum::<usize>();
        assert_eq!(zipped.streets.len(), loose.streets.len());
        assert_eq!(numbers(&zipped), numbers(&loose));
        assert_eq!(zipped.localities[0].municipality_code, "0221");
        assert!(zipped
            .localities
            .iter()
            .all(|l| l.complete_streets && l.complete_numbers));
        assert!(loose
            .localities
            .iter()
            .all(|l| !l.complete_streets && !l.complete_numbers));

        let (street, number) = zipped
            .streets
            .iter()
            .find_map(|s| s.numbers.first().map(|h| (s.name.clone(), h.label())))
            .expect("a numbered street");
        let r = verify(&zipped, &format!("{street} {number}")).expect("in register");
        assert!(
            !r.outcome.iter().any(|c| c.contains("NOT_FOUND")),
            "{:?}",
            r.outcome
        );
        // a number the whole extract does not hold, on a street it does
        let r = verify(&zipped, &format!("{street} 9999")).expect("in register");
        assert!(
            r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
            "{:?}",
            r.outcome
        );
        // a street of Amsterdam is no street of Doesburg
        assert!(zipped.streets.iter().all(|s| s.name != "Kalverstraat"));
        let r = verify(&zipped, "Kalverstraat 1").expect("complete woonplaats");
        assert!(
            r.outcome.contains(&"STREET_NOT_FOUND".to_string()),
            "{:?}",
            r.outcome
        );
        // from the loose cut, neither is said
        assert!(verify(&loose, "Kalverstraat 1").is_none());
        let r = verify(&loose, &format!("{street} 9999")).expect("in register");
        assert!(!r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()));
    }

    #[test]
    fn doesburg_numbers_lie_on_their_streets_with_postcodes_and_points() {
        let world = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/world");
        let mut reg = import(&world).expect("BAG extract");
        reg.finish();
        assert_eq!(reg.info.coverage, "Doesburg");
        assert_eq!(reg.streets.len(), 201 - 3, "current public spaces");
        let located = reg
            .streets
            .iter()
            .flat_map(|s| &s.numbers)
            .filter(|h| h.point.is_some())
            .count();
        assert!(located >= 5, "{located}");
        let h = reg
            .streets
            .iter()
            .flat_map(|s| s.numbers.iter().map(move |h| (s, h)))
            .find(|(_, h)| h.postcode.as_deref() == Some("6982CZ"))
            .expect("6982CZ");
        assert_eq!(h.1.number, 2);
    }
}
