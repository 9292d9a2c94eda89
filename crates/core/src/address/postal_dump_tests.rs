//! GeoNames' postal-code dump (`export/zip/IT.zip`) as an operator-supplied source of hamlets and
//! their postcodes, and a postcode alone naming its municipality from every current source
//! (issue 29, items 2 and 4–5), on registers imported from the real `shared/data`.
//!
//! `shared/data` holds no copy of the postal dump: the one written here is today's postcode list
//! (`gi_cap`, every row under its municipality's ISTAT name and code, as the dump lists a town's
//! own postcode) and Rossano's rows of the published dump (`87067 Rossano`, `87067 Rossano
//! Stazione`, Corigliano-Rossano 078157 — the frazione's own postcode, which no file of
//! `shared/data` gives; the MIUR school list of `shared/benchmarks/address` writes it too), at
//! the points of GeoNames' `cities1000` extract, in the published column order, zipped.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

use super::tests::answer_in as answer;
use super::*;
use crate::import::csv_reader;
use crate::test_register::{self, Subset};

const MUNICIPALITIES: Subset<'static> = Subset {
    it_folders: &["comuni", "esteri"],
    street_regions: &[],
    contact: false,
};

/// The register of `MUNICIPALITIES` with the postal dump written in `it/cap/IT.zip`.
fn with_dump() -> Option<&'static Register> {
    static REGISTER: OnceLock<Option<Register>> = OnceLock::new();
    REGISTER
        .get_or_init(|| {
            let shared = test_register::shared_data();
            if !shared.join("it/comuni").exists() {
                return None;
            }
            let base = tempfile::tempdir().expect("temp dir");
            let source = base.path().join("source");
            test_register::link_subset(&shared, &MUNICIPALITIES, &source).unwrap();
            write_dump(&shared, &source.join("it/cap"));
            let dir = base.path().join("data");
            crate::import::run(&source, &dir).expect("import");
            let register = Register::open(&dir).expect("open");
            // the environment stays mapped once open
            std::mem::forget(base);
            Some(register)
        })
        .as_ref()
}

/// `IT.txt` in the layout of https://download.geonames.org/export/zip/ (country, postcode, place,
/// admin name1, admin code1, admin name2, admin code2, admin name3, admin code3, latitude,
/// longitude, accuracy), zipped as GeoNames ships it beside a readme.
fn write_dump(shared: &Path, into: &Path) {
    // ISTAT: name, province plate, province name, region code and name, by ISTAT code
    let mut istat: HashMap<String, [String; 5]> = HashMap::new();
    let mut rdr = csv_reader(
        &shared.join("it/comuni/istat_elenco_comuni_2023-11.csv.gz"),
        b';',
    )
    .unwrap();
    let headers = rdr.headers().unwrap().clone();
    let col = |prefix: &str| {
        headers
            .iter()
            .position(|h| h.trim().starts_with(prefix))
            .unwrap()
    };
    let cols = [
        col("Codice Comune formato alfanumerico"),
        col("Denominazione in italiano"),
        col("Sigla automobilistica"),
        col("Denominazione dell'Unit"),
        col("Codice Regione"),
        col("Denominazione Regione"),
    ];
    for row in rdr.records() {
        let row = row.unwrap();
        let get = |i: usize| row.get(cols[i]).unwrap_or("").trim().to_string();
        istat.insert(get(0), [get(1), get(2), get(3), get(4), get(5)]);
    }
    // the extract's points by name and province
    let mut points: HashMap<(String, String), (String, String)> = HashMap::new();
    let mut rdr = csv_reader(
        &shared.join("it/comuni/geonames_it_cities1000.csv.gz"),
        b',',
    )
    .unwrap();
    let headers = rdr.headers().unwrap().clone();
    let at = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (name, lat, lon, province) = (
        at("name"),
        at("latitude"),
        at("longitude"),
        at("admin2_code"),
    );
    for row in rdr.records() {
        let row = row.unwrap();
        points.insert(
            (row[name].to_string(), row[province].to_string()),
            (row[lat].to_string(), row[lon].to_string()),
        );
    }
    let line = |pc: &str, place: &str, code: &str, with_code: bool| -> String {
        let [name, plate, province, region_code, region] = &istat[code];
        let (lat, lon) = points
            .get(&(place.to_string(), plate.clone()))
            .cloned()
            .unwrap_or_default();
        let code = if with_code { code } else { "" };
        format!("IT\t{pc}\t{place}\t{region}\t{region_code}\t{province}\t{plate}\t{name}\t{code}\t{lat}\t{lon}\t4\n")
    };
    let mut table = String::new();
    let gi = std::fs::read_to_string(shared.join("it/comuni/gi_cap_2026-01-31.csv")).unwrap();
    for (i, row) in gi.lines().skip(1).enumerate() {
        let Some((code, pc)) = row.split_once(';') else {
            continue;
        };
        if let Some([name, ..]) = istat.get(code) {
            // every other row without its ISTAT code: matched by name within the province
            table.push_str(&line(pc, &name.clone(), code, i % 2 == 0));
        }
    }
    table.push_str(&line("87067", "Rossano", "078157", true));
    table.push_str(&line("87067", "Rossano Stazione", "078157", true));
    // another country's row of a dump of several is not Italy's
    table.push_str("SM\t47890\tRossano\tSan Marino\t\t\t\t\t\t43.9\t12.4\t4\n");
    std::fs::create_dir_all(into).unwrap();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(into.join("IT.zip")).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    zip.start_file("readme.txt", options).unwrap();
    zip.write_all(b"GeoNames postal code dump\n").unwrap();
    zip.start_file("IT.txt", options).unwrap();
    zip.write_all(table.as_bytes()).unwrap();
    zip.finish().unwrap();
}

/// Without the dump no file gives 87067: the one-line input abstains, it is never answered wrong.
#[test]
fn without_the_dump_a_frazione_postcode_no_source_gives_abstains() {
    let Some(register) = super::tests::register() else {
        return;
    };
    let r = answer(register, "Via Roma 5 87067 CS", "", "", "");
    assert!(r.municipality.is_none(), "{r:?}");
}

#[test]
fn a_postcode_alone_names_its_municipality_from_the_dump() {
    let Some(register) = with_dump() else {
        return;
    };
    let m = register
        .municipalities
        .by_istat("078157")
        .and_then(|r| r.current.as_ref())
        .unwrap();
    // the municipality's list is gi_cap's; the frazione's postcode belongs beside it
    assert_eq!(m.postcodes, vec!["87064".to_string()]);
    assert_eq!(m.place_postcodes, vec!["87067".to_string()]);
    for (address, postcode) in [("Via Roma 5 87067 CS", ""), ("Via Roma 5, 87067", "")] {
        let r = answer(register, address, postcode, "", "");
        assert_eq!(
            (r.municipality.as_deref(), r.normalized.province.as_str()),
            (Some("Corigliano-Rossano"), "CS"),
            "{address}: {:?}",
            r.outcome
        );
        assert_eq!(r.normalized.postcode, "87067", "{address}");
    }
    // written beside the municipality's name, it stays
    let r = answer(register, "Via Roma 5", "87067", "Corigliano-Rossano", "CS");
    assert_eq!(r.normalized.postcode, "87067", "{:?}", r.outcome);
    assert!(
        !r.outcome.contains(&"MODIFIED".to_string()),
        "{:?}",
        r.outcome
    );
    // a province that contradicts it: no municipality taken, Corigliano-Rossano suggested
    for (address, postcode, province) in [
        ("Via Roma 5", "87067", "RM"),
        ("Via Roma 5 87067 RM", "", ""),
    ] {
        let r = answer(register, address, postcode, "", province);
        assert!(r.municipality.is_none(), "{address}: {:?}", r.outcome);
        assert!(
            r.outcome.contains(&"CITY_NOT_FOUND".to_string()),
            "{:?}",
            r.outcome
        );
        assert!(r
            .candidates
            .iter()
            .any(|c| c.municipality.as_deref() == Some("Corigliano-Rossano")));
    }
}

#[test]
fn a_hamlet_of_the_dump_resolves_with_its_postcode() {
    let Some(register) = with_dump() else {
        return;
    };
    // Rossano Stazione: the extract ties it to Rossano's old ISTAT code, the dump to today's
    for (city, hamlet) in [
        ("Rossano Stazione", "Rossano Stazione"),
        ("Rossano", "Rossano"),
    ] {
        let r = answer(register, "Via Roma 1", "", city, "CS");
        assert_eq!(
            r.municipality.as_deref(),
            Some("Corigliano-Rossano"),
            "{city}: {:?}",
            r.outcome
        );
        assert_eq!(r.hamlet.as_deref(), Some(hamlet), "{city}");
        assert_eq!(r.normalized.postcode, "87067", "{city}: {:?}", r.outcome);
    }
    // the hamlet's postcode written with it is kept
    let r = answer(register, "Via Roma 1", "87067", "Rossano Stazione", "");
    assert_eq!(r.normalized.postcode, "87067", "{:?}", r.outcome);
    // a row matched by name alone (no ISTAT code) gave its municipality the same postcodes:
    // every municipality's postcodes of the dump are its list's; a code added is a hamlet's
    // (Rossano's here, Wikidata's labelled ones: Breuil-Cervinia's 11021), nothing else
    let ms = &register.municipalities;
    let added: Vec<_> = ms
        .records
        .iter()
        .filter_map(|r| r.current.as_ref().map(|c| (r, c)))
        .filter(|(_, c)| !c.place_postcodes.is_empty())
        .collect();
    assert!(added
        .iter()
        .any(|(_, c)| c.name == "Corigliano-Rossano"
            && c.place_postcodes == vec!["87067".to_string()]));
    for (r, c) in &added {
        for pc in &c.place_postcodes {
            assert!(
                ms.places
                    .iter()
                    .any(|p| p.cadastral_code == r.cadastral_code && p.postcodes.contains(pc)),
                "{} {pc}: no hamlet of it has the code",
                c.name
            );
        }
    }
    let read = register
        .summary
        .datasets
        .iter()
        .find(|d| d.name == "postcodes_and_hamlets")
        .expect("the dump is listed");
    // every gi_cap row of a municipality ISTAT lists, and Rossano's two; not San Marino's
    assert!(read.rows > 8_000, "{}", read.rows);
}
