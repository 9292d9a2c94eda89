//! Luxembourg: the CACLR (Registre national des localités et des rues, ACT), the whole country
//! as published on data.public.lu: a zip of fixed-width ISO-8859-1 files. IMMEUBLE holds every
//! house number with its postcode, RUE every street with its locality, LOCALITE and COMMUALL
//! the localities and communes, ALIAS.* the other names. No coordinates.

use std::collections::HashMap;
use std::path::Path;

use super::world::{expander, info, latin1, zip_entry, Imported};
use crate::foreign::model::{CountryRegister, Locality};

pub const ATTRIBUTION: &str =
    "Registre national des localités et des rues (CACLR), Administration du cadastre et de la topographie (ACT), Luxembourg, CC0";

/// Field `a..b` of a fixed-width line, trimmed.
fn field(line: &[u8], a: usize, b: usize) -> String {
    let b = b.min(line.len());
    if a >= b {
        return String::new();
    }
    latin1(&line[a..b]).trim().to_string()
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty())
}

pub fn import(world: &Path) -> Imported {
    let zip = world.join("registers/lu/caclr.zip");
    let entry = |name: &str| zip_entry(&zip, name);
    let date = zip_date(&zip).unwrap_or_default();
    let mut reg = CountryRegister::new(
        info(
            "LU",
            "CACLR",
            &date,
            "national",
            "inspire",
            "caclr",
            ATTRIBUTION,
            "lu_commune",
        ),
        expander(world, &["fr", "de", "lb"]),
        true,
        true,
    );

    // communes by (canton, commune)
    let mut communes: HashMap<(String, String), String> = HashMap::new();
    for l in lines(&entry("COMMUALL")?) {
        communes.insert((field(l, 92, 94), field(l, 0, 2)), field(l, 2, 42));
    }
    let mut localities: HashMap<String, u32> = HashMap::new();
    for l in lines(&entry("LOCALITE")?) {
        let (canton, commune) = (field(l, 109, 111), field(l, 112, 114));
        let municipality = communes
            .get(&(canton.clone(), commune.clone()))
            .cloned()
            .unwrap_or_default();
        let id = reg.locality(Locality {
            name: field(l, 5, 45),
            municipality,
            municipality_code: format!("{canton}{commune}"),
            complete_streets: true,
            complete_numbers: true,
            ..Default::default()
        });
        localities.insert(field(l, 0, 5), id);
    }
    for l in lines(&entry("ALIAS.LOCALITE")?) {
        if let Some(&id) = localities.get(&field(l, 94, 99)) {
            let name = field(l, 3, 43);
            let loc = reg.locality_mut(id);
            if !name.is_empty() && !loc.alt_names.contains(&name) {
                loc.alt_names.push(name);
            }
        }
    }
    let mut streets: HashMap<String, u32> = HashMap::new();
    for l in lines(&entry("RUE")?) {
        let Some(&loc) = localities.get(&field(l, 131, 136)) else {
            continue;
        };
        let id = reg.street(loc, &field(l, 5, 45));
        streets.insert(field(l, 0, 5), id);
    }
    for l in lines(&entry("ALIAS.RUE")?) {
        if let Some(&id) = streets.get(&field(l, 94, 99)) {
            reg.alt_name(id, &field(l, 3, 43));
        }
    }
    for l in lines(&entry("IMMEUBLE")?) {
        let Some(&street) = streets.get(&field(l, 49, 54)) else {
            continue;
        };
        let Ok(number) = field(l, 8, 11).parse::<u32>() else {
            continue;
        };
        let suffix = field(l, 11, 17);
        let postcode = field(l, 38, 42);
        reg.number_parts(street, number, &suffix, Some(&postcode), None);
        let loc = reg.streets[street as usize].locality;
        let l = reg.locality_mut(loc);
        if !postcode.is_empty() && !l.postcodes.contains(&postcode) {
            l.postcodes.push(postcode);
        }
    }
    Ok(reg)
}

/// The date the files were written (CACLR carries no date of its own).
fn zip_date(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let mut zip = zip::ZipArchive::new(file).ok()?;
    let f = zip.by_name("IMMEUBLE").ok()?;
    let d = f.last_modified()?;
    Some(format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day()))
}
