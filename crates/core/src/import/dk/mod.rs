//! Denmark: Danmarks Adresseregister (DAR) as Datafordeler and DAWA publish it, in both
//! generations: DAR 1.0 newline-delimited JSON (`dar10/Adresse.ndjson[.gz]`, read from the
//! official `adressebetegnelse`) and the DAR 0.9 CSV tables (husnummer → adgangspunkt with its
//! point and kommunenummer, vejnavn, postnummer intervals), with `postnumre.csv` naming every
//! postcode of the country. Only the areas in the files are covered, never as complete.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use super::world::{expander, info, read_file, Imported};
use crate::foreign::geo::utm_to_wgs84;
use crate::foreign::model::{CountryRegister, Locality};
use crate::{Error, Result};

pub const ATTRIBUTION: &str =
    "Indeholder data fra Danmarks Adresseregister (DAR), Styrelsen for Dataforsyning og Infrastruktur (SDFI)";

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/dk");
    let mut reg = CountryRegister::new(
        info(
            "DK",
            "DAR",
            "2019-05-09",
            "",
            "inspire",
            "dar",
            ATTRIBUTION,
            "kommunekode",
        ),
        expander(world, &["da"]),
        false,
        false,
    );
    let mut by_postcode: HashMap<String, u32> = HashMap::new();
    let names = read_file(&dir.join("postnumre.csv"))?;
    let mut rd = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_reader(&names[..]);
    for row in rd.records() {
        let row = row.map_err(|e| Error::BadInput(e.to_string()))?;
        let (code, name) = (
            row.get(0).unwrap_or("").trim(),
            row.get(1).unwrap_or("").trim(),
        );
        if code.is_empty() {
            continue;
        }
        let code = format!("{:0>4}", code);
        // `postnumre.csv` names every Danish postcode, a large recipient's too
        // (DAR's supplementary town names are not paired with every postcode they have)
        reg.all_postcodes
            .get_or_insert_with(Default::default)
            .all
            .insert(code.clone());
        if row.get(2) == Some("true") {
            continue;
        }
        let id = reg.locality(Locality {
            name: name.to_string(),
            postcodes: vec![code.clone()],
            ..Default::default()
        });
        by_postcode.insert(code, id);
    }
    let mut areas = 0usize;
    if let Ok(bytes) = read_file(&dir.join("dar10/Adresse.ndjson.gz"))
        .or_else(|_| read_file(&dir.join("dar10/Adresse.ndjson")))
    {
        areas += dar10(&mut reg, &by_postcode, &bytes)?;
    }
    if dir.join("dar_husnummer.csv").exists() {
        areas += dar09(&mut reg, &by_postcode, &dir)?;
    }
    if areas == 0 {
        return Err(Error::BadInput(format!(
            "no DAR address file in {}",
            dir.display()
        )));
    }
    let mut covered: Vec<String> = reg
        .localities
        .iter()
        .enumerate()
        .filter(|(i, _)| reg.streets.iter().any(|s| s.locality as usize == *i))
        .map(|(_, l)| {
            format!(
                "{} {}",
                l.postcodes.first().cloned().unwrap_or_default(),
                l.name
            )
        })
        .collect();
    covered.sort();
    reg.info.coverage = covered.join(", ");
    Ok(reg)
}

#[derive(Deserialize)]
struct Adresse {
    status: Option<String>,
    adressebetegnelse: Option<String>,
}

/// DAR 1.0: `Ridehusgade 49, 2. th, 5000 Odense C` → street, number, postcode.
fn dar10(
    reg: &mut CountryRegister,
    by_postcode: &HashMap<String, u32>,
    bytes: &[u8],
) -> Result<usize> {
    let mut n = 0;
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let a: Adresse = serde_json::from_slice(line)?;
        if a.status.as_deref() != Some("3") {
            continue;
        }
        let Some(text) = a.adressebetegnelse else {
            continue;
        };
        let parts: Vec<&str> = text.split(", ").collect();
        let (Some(first), Some(last)) = (parts.first(), parts.last()) else {
            continue;
        };
        let Some((postcode, _)) = last.split_once(' ') else {
            continue;
        };
        let Some(&loc) = by_postcode.get(postcode) else {
            continue;
        };
        let Some((street, number)) = first.rsplit_once(' ') else {
            continue;
        };
        let s = reg.street(loc, street);
        if reg.number(s, number, Some(postcode), None) {
            n += 1;
        }
    }
    Ok(n)
}

fn csv_rows(path: &Path) -> Result<Vec<csv::StringRecord>> {
    let bytes = read_file(path)?;
    let mut rd = csv::ReaderBuilder::new()
        .delimiter(b';')
        .escape(Some(b'\\'))
        .from_reader(&bytes[..]);
    rd.records()
        .map(|r| r.map_err(|e| Error::BadInput(format!("{}: {e}", path.display()))))
        .collect()
}

/// A bitemporal interval still open: the current version.
fn current(interval: &str) -> bool {
    interval.trim_end().ends_with(",)")
}

fn integers(s: &str) -> Vec<u32> {
    s.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// from, to, side (L even, U odd, else both), postcode
type PostcodeRange = (u32, u32, String, String);

/// DAR 0.9: husnummer + adgangspunkt (point, kommune) + vejnavn + postnummer intervals.
fn dar09(
    reg: &mut CountryRegister,
    by_postcode: &HashMap<String, u32>,
    dir: &Path,
) -> Result<usize> {
    // adgangspunkt id → (kommune, point)
    let mut points: HashMap<String, (String, Option<(f64, f64)>)> = HashMap::new();
    for r in csv_rows(&dir.join("dar_adgangspunkt.csv"))? {
        if !current(r.get(5).unwrap_or("")) {
            continue;
        }
        let point = ewkb_point(r.get(17).unwrap_or("")).map(|(x, y)| utm_to_wgs84(32, x, y));
        points.insert(
            r.get(1).unwrap_or("").to_string(),
            (r.get(13).unwrap_or("").to_string(), point),
        );
    }
    let mut names: HashMap<(String, String), String> = HashMap::new();
    for r in csv_rows(&dir.join("dar_vejnavn.csv"))? {
        if current(r.get(4).unwrap_or("")) {
            names.insert(
                (r.get(3).unwrap_or("").into(), r.get(2).unwrap_or("").into()),
                r.get(5).unwrap_or("").into(),
            );
        }
    }
    // (kommune, vej) → [(from, to, side, postcode)]
    let mut ranges: HashMap<(String, String), Vec<PostcodeRange>> = HashMap::new();
    for r in csv_rows(&dir.join("dar_postnr.csv"))? {
        if !current(r.get(4).unwrap_or("")) {
            continue;
        }
        let interval = r.get(5).unwrap_or("");
        let ints = integers(interval);
        let open_low = interval.trim_start_matches(['(', '[']).starts_with(',');
        let (from, to) = match (open_low, ints.as_slice()) {
            (true, [hi, ..]) => (0, *hi),
            (false, [lo, hi, ..]) => (*lo, *hi),
            (false, [lo]) => (*lo, u32::MAX),
            _ => (0, u32::MAX),
        };
        ranges
            .entry((r.get(2).unwrap_or("").into(), r.get(3).unwrap_or("").into()))
            .or_default()
            .push((
                from,
                to,
                r.get(6).unwrap_or("").into(),
                format!("{:0>4}", r.get(7).unwrap_or("")),
            ));
    }
    let mut n = 0;
    for r in csv_rows(&dir.join("dar_husnummer.csv"))? {
        if !current(r.get(6).unwrap_or("")) || r.get(4) != Some("1") {
            continue;
        }
        let Some((kommune, point)) = points.get(r.get(3).unwrap_or("")) else {
            continue;
        };
        let vej = r.get(10).unwrap_or("").to_string();
        let Some(name) = names.get(&(kommune.clone(), vej.clone())) else {
            continue;
        };
        // `(199,"")`, `(12,"A")`
        let composite = r.get(11).unwrap_or("");
        let Some(&number) = integers(composite).first() else {
            continue;
        };
        let suffix: String = composite.chars().filter(|c| c.is_alphabetic()).collect();
        let postcode = ranges.get(&(kommune.clone(), vej.clone())).and_then(|v| {
            v.iter()
                .find(|(from, to, side, _)| {
                    number >= *from
                        && number <= *to
                        && match side.as_str() {
                            "L" => number % 2 == 0,
                            "U" => number % 2 == 1,
                            _ => true,
                        }
                })
                .map(|(.., p)| p.clone())
        });
        let Some(postcode) = postcode else {
            continue;
        };
        let Some(&loc) = by_postcode.get(&postcode) else {
            continue;
        };
        let s = reg.street(loc, name);
        reg.street_mut(s).municipality_code = Some(format!("{:0>4}", kommune));
        reg.number_parts(s, number, &suffix, Some(&postcode), *point);
        n += 1;
    }
    Ok(n)
}

/// Hex EWKB point (`0101000020E8640000…`): (x, y).
fn ewkb_point(hex: &str) -> Option<(f64, f64)> {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    if bytes.len() < 25 || bytes[0] != 1 {
        return None;
    }
    let has_srid = bytes[4] & 0x20 != 0;
    let at = if has_srid { 9 } else { 5 };
    let x = f64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?);
    let y = f64::from_le_bytes(bytes.get(at + 8..at + 16)?.try_into().ok()?);
    Some((x, y))
}
