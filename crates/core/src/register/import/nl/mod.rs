//! The Netherlands: Kadaster's BAG 2.0 extract (XML "Extract LV", one file or more per object
//! type: `<gemeente>NUM…xml`, `OPR`, `WPL`, `VBO`, `LIG`, `STA`), streamed with the shared XML
//! walker. Nummeraanduiding (number, letter, addition, postcode) lies on an Openbare ruimte
//! (street) in a Woonplaats; the point is the addressable object's (verblijfsobject point, or the
//! mean of a ligplaats/standplaats outline) in RD New. Only current objects are read: a
//! `voorkomen` with an `eindGeldigheid` is history.

use std::collections::HashMap;
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

fn files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|_| super::world::missing(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy().to_uppercase())
                .unwrap_or_default();
            (n.ends_with(".XML") || n.ends_with(".XML.GZ"))
                && ["NUM", "OPR", "WPL", "VBO", "LIG", "STA"]
                    .iter()
                    .any(|k| n.contains(k))
        })
        .collect();
    v.sort();
    Ok(v)
}

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/nl");
    let paths = files(&dir)?;
    if paths.is_empty() {
        return Err(Error::BadInput(format!(
            "no BAG 2.0 XML in {}",
            dir.display()
        )));
    }
    let mut objects = Vec::new();
    let mut date = String::new();
    for p in &paths {
        let bytes = read_file(p)?;
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4000)]).into_owned();
        if let Some(i) = head.find("StandTechnischeDatum>") {
            date = head[i + 21..].chars().take(10).collect();
        }
        read_objects(&bytes, &mut objects)?;
    }
    // the municipality code opens every file name (`0221NUM…`)
    let municipality_code: String = paths[0]
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect()
        })
        .unwrap_or_default();
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
                        // the public spaces of a woonplaats are all in its extract
                        complete_streets: true,
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
