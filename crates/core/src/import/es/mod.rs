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
        let package = path.extension().is_some_and(|e| e == "zip");
        let bytes = if package {
            zip_entry(&path, ".gml")?
        } else {
            read_file(&path)?
        };
        let file = inspire::read(&bytes)?;
        let whole = package.then(|| package_code(&path)).flatten();
        if let Some(area) = add_file(&mut reg, &file, whole.as_deref())? {
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

/// The municipality code of a package as Catastro's ATOM service names it
/// (`A.ES.SDGC.AD.38012.zip` → `38012`).
fn package_code(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().to_uppercase();
    let code = name.strip_prefix("A.ES.SDGC.AD.")?.strip_suffix(".ZIP")?;
    (code.len() == 5 && code.chars().all(|c| c.is_ascii_digit())).then(|| code.to_string())
}

/// The addresses of one municipality's file; its name when it held any. `whole` is the code of
/// the municipality when the file came in the package Catastro publishes for it, which holds
/// every address of the municipality: its streets and numbers are then complete. A loose `.gml`
/// may be a cut (the snapshot's Fasnia file holds 14 addresses), so it is never taken as whole.
fn add_file(
    reg: &mut CountryRegister,
    file: &inspire::File,
    whole: Option<&str>,
) -> Result<Option<String>> {
    let mut area = None;
    let mut localities: Vec<u32> = Vec::new();
    let mut all_of_package = true;
    for a in &file.addresses {
        let parts = file.parts(a);
        let (Some(street), Some(admin)) = (parts.street, parts.admin) else {
            continue;
        };
        let municipality = title(&admin.name);
        let postcode = parts.postcode.cloned().unwrap_or_default();
        // complete only once the whole file is read and known to be the municipality's package
        let loc = reg.locality(Locality {
            name: municipality.clone(),
            municipality: municipality.clone(),
            municipality_code: admin.code.replace('.', ""),
            postcodes: vec![postcode.clone()],
            ..Default::default()
        });
        area.get_or_insert(municipality);
        if !localities.contains(&loc) {
            localities.push(loc);
        }
        all_of_package &= whole == Some(reg.localities[loc as usize].municipality_code.as_str());
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
    // a package holding another municipality's addresses is not taken at its name
    if whole.is_some() && all_of_package {
        for loc in localities {
            let l = reg.locality_mut(loc);
            l.complete_streets = true;
            l.complete_numbers = true;
        }
    }
    Ok(area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::{ContactInput, ContactResult};
    use crate::foreign::record;
    use std::io::Write;
    use std::path::PathBuf;

    fn snapshot() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/world")
    }

    fn verify(reg: &CountryRegister, address: &str) -> Option<ContactResult> {
        let input = ContactInput {
            address: Some(address.into()),
            city: Some("Fasnia".into()),
            country_code: Some("ES".into()),
            ..Default::default()
        };
        record::verify(reg, &input, &ContactResult::default())
    }

    /// The snapshot's Fasnia GML in the package Catastro's ATOM service publishes per
    /// municipality, then under another municipality's package name.
    #[test]
    fn a_municipality_package_is_complete_and_a_loose_file_is_not() {
        let gml =
            std::fs::read(snapshot().join("registers/es/catastro_inspire_ad_38012_fasnia.gml"))
                .unwrap();
        let world_with = |package: &str| {
            let tmp = tempfile::tempdir().unwrap();
            let es = tmp.path().join("registers/es");
            std::fs::create_dir_all(&es).unwrap();
            std::os::unix::fs::symlink(snapshot().join("libpostal"), tmp.path().join("libpostal"))
                .unwrap();
            let mut w = zip::ZipWriter::new(
                std::fs::File::create(es.join(format!("{package}.zip"))).unwrap(),
            );
            w.start_file(
                format!("{package}.gml"),
                zip::write::SimpleFileOptions::default(),
            )
            .unwrap();
            w.write_all(&gml).unwrap();
            w.finish().unwrap();
            tmp
        };
        let world = world_with("A.ES.SDGC.AD.38012");
        let mut reg = import(world.path()).expect("Catastro package");
        reg.finish();
        assert!(reg
            .localities
            .iter()
            .all(|l| l.complete_streets && l.complete_numbers && l.municipality_code == "38012"));
        let r = verify(&reg, "Callejon 10A").expect("in register");
        assert!(
            !r.outcome.iter().any(|c| c.contains("NOT_FOUND")),
            "{:?}",
            r.outcome
        );
        let r = verify(&reg, "Callejon 97").expect("in register");
        assert!(
            r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
            "{:?}",
            r.outcome
        );
        let r = verify(&reg, "Calle Mayor 3").expect("complete municipality");
        assert!(
            r.outcome.contains(&"STREET_NOT_FOUND".to_string()),
            "{:?}",
            r.outcome
        );

        // the same addresses under the name of another municipality's package: not whole
        let world = world_with("A.ES.SDGC.AD.38001");
        let mut reg = import(world.path()).expect("Catastro package");
        reg.finish();
        assert!(reg
            .localities
            .iter()
            .all(|l| !l.complete_streets && !l.complete_numbers));
        // the loose file of the snapshot: a cut, never whole
        let mut reg = import(&snapshot()).expect("Catastro GML");
        reg.finish();
        assert!(reg
            .localities
            .iter()
            .all(|l| !l.complete_streets && !l.complete_numbers));
        assert!(verify(&reg, "Calle Mayor 3").is_none());
    }

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
