//! Spain: the Dirección General del Catastro's INSPIRE Addresses GML, one file per municipality
//! as its ATOM service publishes them (`A.ES.SDGC.AD.<GGMMM>.zip` holding the `.gml`, or the
//! `.gml` itself), read by the generic INSPIRE reader. Catastro writes street names in capitals
//! with a two-letter type code and the place in brackets (`CL EMILIANO DIAZ CASTRO (FASNIA)`):
//! the type is written out and the brackets left to the locality.

use std::path::Path;

use super::inspire;
use super::world::{expander, info, read_file, zip_entry, Imported};
use crate::foreign::model::{split_number, CountryRegister, Locality};
use crate::{Error, Result};

pub const ATTRIBUTION: &str = "© Dirección General del Catastro";

/// Catastro's street-type codes whose meaning is one (`CM` is camino or carmen: left as written).
const TYPES: &[(&str, &str)] = &[
    ("AV", "Avenida"),
    ("CL", "Calle"),
    ("CR", "Carretera"),
    ("CJ", "Callejón"),
    ("PZ", "Plaza"),
    ("PS", "Paseo"),
    ("TR", "Travesía"),
    ("UR", "Urbanización"),
    ("LG", "Lugar"),
    ("BO", "Barrio"),
    ("DS", "Diseminado"),
    ("RB", "Rambla"),
    ("RD", "Ronda"),
    ("GV", "Gran Vía"),
    ("PJ", "Pasaje"),
    ("GL", "Glorieta"),
    ("BJ", "Bajada"),
    ("AU", "Autopista"),
];

const PARTICLES: &[&str] = &["de", "del", "la", "las", "los", "el", "y", "en", "a"];

fn title(upper: &str) -> String {
    upper
        .split_whitespace()
        .enumerate()
        .map(|(i, w)| {
            let lower = w.to_lowercase();
            if i > 0 && PARTICLES.contains(&lower.as_str()) {
                return lower;
            }
            let mut c = lower.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `CL EMILIANO DIAZ CASTRO (FASNIA)` → `Calle Emiliano Diaz Castro`.
pub fn street_name(catastro: &str) -> String {
    let bare = match catastro.find('(') {
        Some(i) => &catastro[..i],
        None => catastro,
    }
    .trim();
    let (code, rest) = bare.split_once(' ').unwrap_or(("", bare));
    match TYPES.iter().find(|(c, _)| *c == code) {
        // `CJ CALLEJON`: the type is the whole name
        Some((_, word)) if crate::normalize::fold(word) == crate::normalize::fold(rest) => {
            word.to_string()
        }
        Some((_, word)) => format!("{word} {}", title(rest)),
        None if code.len() == 2 && !rest.is_empty() => format!("{code} {}", title(rest)),
        None => title(bare),
    }
}

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/es");
    let mut reg = CountryRegister::new(
        info(
            "ES",
            "Catastro",
            "",
            "",
            "inspire",
            "catastro",
            ATTRIBUTION,
            "ine",
        ),
        expander(world, &["es", "ca", "gl", "eu"]),
        false,
        false,
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|_| super::world::missing(&dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.to_string_lossy().to_lowercase();
            n.ends_with(".gml") || (n.ends_with(".zip") && n.contains(".ad."))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::BadInput(format!(
            "no Catastro INSPIRE AD file in {}",
            dir.display()
        )));
    }
    let mut areas = Vec::new();
    let mut newest = String::new();
    for path in files {
        let bytes = if path.extension().is_some_and(|e| e == "zip") {
            zip_entry(&path, ".gml")?
        } else {
            read_file(&path)?
        };
        let file = inspire::read(&bytes)?;
        if let Some(area) = add_file(&mut reg, &file)? {
            areas.push(area);
        }
        newest = newest.max(file_date(&bytes));
    }
    reg.info.date = newest;
    reg.info.coverage = areas.join(", ");
    Ok(reg)
}

/// The newest `beginLifespanVersion` of the file: the data's date as published.
fn file_date(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("<AD:beginLifespanVersion>")
        .filter_map(|(i, m)| text.get(i + m.len()..i + m.len() + 10))
        .max()
        .unwrap_or("")
        .to_string()
}

/// The addresses of one municipality's file; its name when it held any.
fn add_file(reg: &mut CountryRegister, file: &inspire::File) -> Result<Option<String>> {
    let mut area = None;
    for a in &file.addresses {
        let parts = file.parts(a);
        let (Some(street), Some(admin)) = (parts.street, parts.admin) else {
            continue;
        };
        let municipality = title(&admin.name);
        let postcode = parts.postcode.cloned().unwrap_or_default();
        // the file is one cut of a municipality: whether it holds every address is not known
        let loc = reg.locality(Locality {
            name: municipality.clone(),
            municipality: municipality.clone(),
            municipality_code: admin.code.replace('.', ""),
            postcodes: vec![postcode.clone()],
            ..Default::default()
        });
        area.get_or_insert(municipality);
        let name = street_name(street);
        let s = reg.street(loc, &name);
        reg.alt_name(s, &title(street.split('(').next().unwrap_or(street)));
        reg.street_postcode(s, &postcode);
        for d in &a.designators {
            if let Some((n, suffix)) = split_number(d) {
                reg.number_parts(s, n, &suffix, Some(&postcode), a.point);
                break;
            }
        }
    }
    Ok(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catastro_names_are_written_out() {
        assert_eq!(
            street_name(" CL EMILIANO DIAZ CASTRO (FASNIA)"),
            "Calle Emiliano Diaz Castro"
        );
        assert_eq!(street_name("CL F (LAS ERAS) (ERAS LAS)"), "Calle F");
        assert_eq!(street_name("MC ABASTOS (RESTO)"), "MC Abastos");
        assert_eq!(street_name(" CJ CALLEJON (FASNIA)"), "Callejón");
    }
}
