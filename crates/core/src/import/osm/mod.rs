//! OpenStreetMap extracts (Geofabrik `.osm.pbf`) for countries whose address register does not
//! publish: Monaco, Andorra, and Liechtenstein's streets beside swisstopo's localities. Every
//! node or way with `addr:street` and `addr:housenumber` is one house number (a way at the mean of
//! its nodes); an extract's border buffer (French addresses in the Monaco file) is left out by
//! the country's postcode form. OSM data is © OpenStreetMap contributors, ODbL: the attribution
//! rides in every answer's message, and `geo.source` is `osm`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use osmpbf::{Element, ElementReader};

use super::world::{expander, info, Imported};
use crate::foreign::model::{CountryRegister, Locality, RegisterInfo};
use crate::{Error, Result};

pub const ATTRIBUTION: &str =
    "© OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright); extract by Geofabrik";
pub const ATTRIBUTION_LI: &str = "© OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright); localities: Federal Office of Topography swisstopo";

/// One address of the extract.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OsmAddress {
    pub street: String,
    pub housenumber: String,
    pub postcode: String,
    pub city: String,
    pub country: String,
    pub point: Option<(f64, f64)>,
}

/// Geofabrik's file names per country: `monaco-latest.osm.pbf`, `liechtenstein-….osm.pbf`.
fn extract(world: &Path, cc: &str) -> Result<PathBuf> {
    let stem = match cc {
        "MC" => "monaco",
        "AD" => "andorra",
        "LI" => "liechtenstein",
        "SM" => "san-marino",
        "VA" => "vatican",
        _ => return Err(Error::BadInput(format!("no OSM extract known for {cc}"))),
    };
    let dir = world.join("osm");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|_| super::world::missing(&dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with(stem) && n.ends_with(".osm.pbf")
            })
        })
        .collect();
    // the newest by the date in the name
    files.sort();
    files
        .pop()
        .ok_or_else(|| Error::BadInput(format!("no {stem}-*.osm.pbf in {}", dir.display())))
}

/// Every address of a PBF extract.
pub fn read_addresses(path: &Path) -> Result<Vec<OsmAddress>> {
    let bad = |e: osmpbf::Error| Error::BadInput(format!("{}: {e}", path.display()));
    let mut nodes: HashMap<i64, (f64, f64)> = HashMap::new();
    let mut out = Vec::new();
    let with_tags = |tags: &mut dyn Iterator<Item = (&str, &str)>| -> Option<OsmAddress> {
        let mut a = OsmAddress::default();
        for (k, v) in tags {
            match k {
                "addr:street" | "addr:place" if a.street.is_empty() => a.street = v.to_string(),
                "addr:housenumber" => a.housenumber = v.to_string(),
                "addr:postcode" => a.postcode = v.to_string(),
                "addr:city" => a.city = v.to_string(),
                "addr:country" => a.country = v.to_uppercase(),
                _ => {}
            }
        }
        (!a.street.is_empty() && !a.housenumber.is_empty()).then_some(a)
    };
    ElementReader::from_path(path)
        .map_err(bad)?
        .for_each(|element| match element {
            Element::Node(n) => {
                nodes.insert(n.id(), (n.lat(), n.lon()));
                if let Some(mut a) = with_tags(&mut n.tags()) {
                    a.point = Some((n.lat(), n.lon()));
                    out.push(a);
                }
            }
            Element::DenseNode(n) => {
                nodes.insert(n.id(), (n.lat(), n.lon()));
                if let Some(mut a) = with_tags(&mut n.tags()) {
                    a.point = Some((n.lat(), n.lon()));
                    out.push(a);
                }
            }
            Element::Way(w) => {
                if let Some(mut a) = with_tags(&mut w.tags()) {
                    let pts: Vec<(f64, f64)> =
                        w.refs().filter_map(|r| nodes.get(&r).copied()).collect();
                    if !pts.is_empty() {
                        let n = pts.len() as f64;
                        a.point = Some((
                            pts.iter().map(|p| p.0).sum::<f64>() / n,
                            pts.iter().map(|p| p.1).sum::<f64>() / n,
                        ));
                    }
                    out.push(a);
                }
            }
            Element::Relation(_) => {}
        })
        .map_err(bad)?;
    Ok(out)
}

/// Whether an address of the extract lies in the country (not in the border buffer).
fn in_country(cc: &str, a: &OsmAddress) -> bool {
    if !a.country.is_empty() {
        return a.country == cc;
    }
    let pc = crate::postal::postcode::key(cc, &a.postcode);
    match cc {
        "MC" => pc.starts_with("980"),
        "AD" => pc.starts_with("AD") || pc.is_empty(),
        "LI" => (9485..=9498).contains(&pc.parse::<u32>().unwrap_or(0)),
        _ => true,
    }
}

fn osm_info(cc: &'static str, attribution: &'static str, date: String) -> RegisterInfo {
    let mut i = info(
        cc,
        "OpenStreetMap",
        &date,
        "",
        "osm",
        "openstreetmap",
        attribution,
        "osm",
    );
    i.date = date;
    i
}

/// The extract's date from its name (`monaco-20260710.osm.pbf` → 2026-07-10).
fn date_of(path: &Path) -> String {
    let n = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let d: String = n.chars().filter(char::is_ascii_digit).take(8).collect();
    if d.len() == 8 {
        format!("{}-{}-{}", &d[..4], &d[4..6], &d[6..])
    } else {
        String::new()
    }
}

/// Adds the country's addresses of the extract; localities by postcode when the register has
/// them (LI), else by `addr:city`.
fn add(reg: &mut CountryRegister, cc: &str, addresses: &[OsmAddress], fallback_city: &str) {
    let mut by_postcode: HashMap<String, u32> = HashMap::new();
    for (i, l) in reg.localities.iter().enumerate() {
        for p in &l.postcodes {
            by_postcode.entry(p.clone()).or_insert(i as u32);
        }
    }
    for a in addresses.iter().filter(|a| in_country(cc, a)) {
        let pc = crate::postal::postcode::key(cc, &a.postcode);
        let loc = match by_postcode.get(&pc) {
            Some(&l) => l,
            None => {
                let city = if a.city.is_empty() {
                    fallback_city
                } else {
                    a.city.as_str()
                };
                reg.locality(Locality {
                    name: city.to_string(),
                    municipality: city.to_string(),
                    postcodes: vec![pc.clone()],
                    ..Default::default()
                })
            }
        };
        let s = reg.street(loc, &a.street);
        // OSM is never complete: no number or street is said not to exist
        reg.number(s, &a.housenumber, Some(&pc), a.point);
    }
    let areas: Vec<String> = {
        let mut v: Vec<String> = reg
            .streets
            .iter()
            .map(|s| reg.localities[s.locality as usize].name.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    reg.info.coverage = format!("OpenStreetMap addresses of {}", areas.join(", "));
}

pub fn import_mc(world: &Path) -> Imported {
    import_small(world, "MC", "Monaco", &["fr"])
}

pub fn import_ad(world: &Path) -> Imported {
    import_small(world, "AD", "Andorra la Vella", &["ca", "es", "fr"])
}

fn import_small(world: &Path, cc: &'static str, city: &str, languages: &[&str]) -> Imported {
    let path = extract(world, cc)?;
    let mut reg = CountryRegister::new(
        osm_info(cc, ATTRIBUTION, date_of(&path)),
        expander(world, languages),
        false,
        false,
    );
    add(&mut reg, cc, &read_addresses(&path)?, city);
    Ok(reg)
}

/// Liechtenstein: swisstopo's localities (with their BFS numbers), OSM's streets and numbers.
pub fn import_li(world: &Path) -> Imported {
    let mut reg = super::ch::import_li(world)?;
    let Ok(path) = extract(world, "LI") else {
        return Ok(reg);
    };
    let date = date_of(&path);
    let addresses = read_addresses(&path)?;
    reg.info = RegisterInfo {
        register: "OpenStreetMap + Ortschaftenverzeichnis",
        source: "osm",
        dataset: "openstreetmap",
        attribution: ATTRIBUTION_LI,
        ..osm_info("LI", ATTRIBUTION_LI, date)
    };
    reg.info.municipality_code_type = "bfs";
    add(&mut reg, "LI", &addresses, "Vaduz");
    Ok(reg)
}
