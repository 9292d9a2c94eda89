//! Comune di Milano "ds634 Numeri civici": the street list (`Viario`, type codes in `TIPOVIA`),
//! every house number with WGS84 columns (`Civici`), and the 2020 releases of Municipio 5 and 9
//! that add the postcode of each number (JSON, joined on the number's IDMASTER).

use std::collections::HashMap;

use serde::Deserialize;

use crate::import::street_builder::{CityBuild, StreetBuilder};
use crate::import::{csv_reader, open_text, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::street::HouseNumberEntry;
use crate::Result;

const CADASTRAL: &str = "F205";
const DIR: &str = "it/civici/milano";
pub const ATTRIBUTION: &str = crate::register::attribution::MILANO;

#[derive(Deserialize)]
struct JsonNumber {
    id: u64,
    tags: JsonTags,
}

#[derive(Deserialize)]
struct JsonTags {
    #[serde(rename = "addr:postcode", default)]
    postcode: Option<String>,
}

fn number(s: &str) -> Option<f64> {
    s.trim().replace(',', ".").parse().ok()
}

pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<()> {
    let dir = ctx.source.join(DIR);
    let (viario, civici, tipi) = (
        dir.join("Viario_20181001.csv.gz"),
        dir.join("Civici_20181001.csv.gz"),
        dir.join("TIPOVIA.csv"),
    );
    if !viario.exists() || !civici.exists() || !tipi.exists() {
        return Ok(());
    }
    let mut types: HashMap<String, String> = HashMap::new();
    for row in csv_reader(&tipi, b',')?.records() {
        let row = row?;
        types.insert(
            row.get(0).unwrap_or("").trim().to_string(),
            fold(row.get(1).unwrap_or("")),
        );
    }
    // postcodes of Municipio 5 and 9, by IDMASTER
    let mut postcodes: HashMap<u64, String> = HashMap::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let p = e.path();
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            if name.starts_with("ds634_civici_coordinategeografiche") {
                let list: Vec<JsonNumber> = serde_json::from_reader(open_text(&p)?)?;
                let n = list.len() as u64;
                for item in list {
                    if let Some(pc) = item.tags.postcode.filter(|p| p.len() == 5) {
                        postcodes.insert(item.id, pc);
                    }
                }
                ctx.record("postcodes_milano", &p, n, ATTRIBUTION);
            }
        }
    }

    let city = builder.city(CADASTRAL);
    let mut streets: HashMap<String, usize> = HashMap::new();
    let mut rdr = csv_reader(&viario, b';')?;
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: usize| row.get(i).unwrap_or("").trim();
        // STATO 3 = soppressa
        if get(1) == "3" {
            continue;
        }
        let ty = types.get(get(2)).cloned().unwrap_or_default();
        let name = if get(6).is_empty() { get(3) } else { get(6) };
        if name.is_empty() {
            continue;
        }
        // the ANNCSU spelling ("VITTORIO EMANUELE SECONDO") is another name of the same street:
        // the ANNCSU street of that name when the municipal name finds none (FRA' PAOLO SARPI is
        // ANNCSU's PAOLO SARPI, not a second street)
        let anncsu = get(7);
        let by_anncsu = |city: &mut CityBuild| {
            if anncsu.is_empty() {
                return None;
            }
            let i = city.find(&ty, anncsu)?;
            city.add_alt_name(i, &ty, name);
            Some(i)
        };
        let i = match city.find(&ty, name).or_else(|| by_anncsu(city)) {
            Some(i) => i,
            None => city.find_or_add(&ty, name),
        };
        let s = &mut city.streets[i];
        if !anncsu.is_empty() && s.name != anncsu && !s.alt_names.iter().any(|a| a == anncsu) {
            s.alt_names.push(anncsu.to_string());
        }
        streets.insert(get(0).to_string(), i);
        rows += 1;
    }
    ctx.record("streets_milano", &viario, rows, ATTRIBUTION);

    PROGRESS.start("house numbers: Milano", 60_172);
    let mut rdr = csv_reader(&civici, b';')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let (via, num, letter, barra, barra2, state, lat, lon, idm) = (
        col("CODICE_VIA"),
        col("NUMERO"),
        col("LETTERA"),
        col("BARRA"),
        col("BARRA2"),
        col("STATOCIVICO"),
        col("LAT_WGS84"),
        col("LONG_WGS84"),
        col("IDMASTER"),
    );
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim();
        // 99 = soppresso; secondary accesses (driveways, shop doors: BARRA2) are not addresses
        if get(state) == "99" || !get(barra2).is_empty() {
            continue;
        }
        let Some(&i) = streets.get(get(via)) else {
            continue;
        };
        let (Ok(n), Some(la), Some(lo)) =
            (get(num).parse::<u32>(), number(get(lat)), number(get(lon)))
        else {
            continue;
        };
        let suffix = format!("{}{}", get(letter), get(barra)).to_uppercase();
        let postcode = get(idm)
            .parse::<u64>()
            .ok()
            .and_then(|id| postcodes.get(&id).cloned())
            .unwrap_or_default();
        city.add_number(
            i,
            HouseNumberEntry {
                number: n,
                suffix,
                postcode,
                district: String::new(),
                lat: la,
                lon: lo,
            },
        );
        rows += 1;
        PROGRESS.advance(1);
    }
    city.numbers_complete_from("municipal");
    ctx.record("house_numbers_milano", &civici, rows, ATTRIBUTION);
    Ok(())
}
