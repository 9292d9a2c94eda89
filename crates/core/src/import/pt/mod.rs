//! Portugal: CTT's postcode files as its download delivers them (`todos_cp.txt`,
//! `concelhos.txt`, `distritos.txt`; ISO-8859-1, `;`, layout in CTT's `leiame.txt`). Each row of
//! `todos_cp` is a street (or a stretch of one) of a locality with its seven-digit postcode
//! `CP4-CP3`; rows of a large customer (`CLIENTE`) are not streets. The street lists are complete
//! per locality; CTT lists no house numbers (the stretches say which numbers a postcode covers).

use std::collections::HashMap;
use std::path::Path;

use super::world::{expander, info, latin1, read_file, Imported};
use crate::foreign::model::{CountryRegister, Locality};
use crate::{Error, Result};

pub const ATTRIBUTION: &str = "Fonte: CTT – Correios de Portugal, códigos postais";

/// `DD;CC;DESIG` → (DD+CC) → municipality name.
pub fn municipalities(dir: &Path) -> Result<HashMap<String, String>> {
    let path = [dir.join("concelhos.txt"), dir.join("ctt_concelhos.txt")]
        .into_iter()
        .find(|p| p.exists())
        .ok_or_else(|| super::world::missing(&dir.join("concelhos.txt")))?;
    let text = latin1(&read_file(&path)?);
    Ok(text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.trim_end_matches('\r').split(';').collect();
            (f.len() >= 3).then(|| (format!("{}{}", f[0], f[1]), f[2].trim().to_string()))
        })
        .collect())
}

pub fn import(world: &Path) -> Imported {
    let dir = world.join("registers/pt");
    let names = municipalities(&dir)?;
    let streets_file = [dir.join("todos_cp.txt"), dir.join("ctt_todos_cp.txt")]
        .into_iter()
        .find(|p| p.exists())
        .ok_or_else(|| {
            Error::BadInput(format!(
                "{}: CTT's todos_cp.txt is missing (the municipality list alone verifies nothing)",
                dir.display()
            ))
        })?;
    let mut reg = CountryRegister::new(
        info(
            "PT",
            "CTT códigos postais",
            "",
            "national",
            "inspire",
            "ctt",
            ATTRIBUTION,
            "dicofre_concelho",
        ),
        expander(world, &["pt"]),
        false,
        false,
    );
    let text = latin1(&read_file(&streets_file)?);
    for line in text.lines() {
        let f: Vec<&str> = line
            .trim_end_matches('\r')
            .split(';')
            .map(str::trim)
            .collect();
        if f.len() < 16 || !f[13].is_empty() {
            continue;
        }
        let code = format!("{}{}", f[0], f[1]);
        let municipality = names
            .get(&code)
            .cloned()
            .unwrap_or_else(|| f[3].to_string());
        let postcode = format!("{}{}", f[14], f[15]);
        if postcode.len() != 7 || !postcode.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let loc = reg.locality(Locality {
            name: f[3].to_string(),
            municipality,
            municipality_code: code,
            postcodes: vec![postcode.clone()],
            complete_streets: true,
            ..Default::default()
        });
        let street: Vec<&str> = f[5..10].iter().copied().filter(|w| !w.is_empty()).collect();
        if street.is_empty() {
            continue;
        }
        let s = reg.street(loc, &street.join(" "));
        reg.street_postcode(s, &postcode);
    }
    Ok(reg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctt_municipalities_are_read_and_the_street_file_is_asked_for() {
        let world =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/world");
        let m = municipalities(&world.join("registers/pt")).expect("concelhos");
        assert_eq!(m.len(), 308);
        assert_eq!(m.get("0107").map(String::as_str), Some("Espinho"));
        let err = import(&world)
            .err()
            .expect("no todos_cp.txt in the snapshot");
        assert!(err.to_string().contains("todos_cp.txt"), "{err}");
    }
}
