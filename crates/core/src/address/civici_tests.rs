//! The house-number registers of Venezia (per sestiere), Fiè allo Sciliar / Völs am Schlern
//! (bilingual) and Villesse, on a register of their three regions (Trentino-Alto Adige, Veneto,
//! Friuli-Venezia Giulia) so their numbers meet the ANNCSU streets they belong to.

use std::sync::OnceLock;

use super::*;
use crate::register::{attribution, Register};
use crate::test_register::{self, Subset};

const THREE_REGIONS: Subset<'static> = Subset {
    it_folders: &["comuni", "esteri", "civici"],
    street_regions: &["04", "05", "06"],
    contact: false,
};

fn register() -> Option<&'static Register> {
    static REGISTER: OnceLock<Option<Register>> = OnceLock::new();
    REGISTER
        .get_or_init(|| test_register::import(Some(&THREE_REGIONS)))
        .as_ref()
}

fn answer(address: &str, postcode: &str, city: &str, province: &str) -> ContactResult {
    super::tests::answer_in(
        register().expect("register"),
        address,
        postcode,
        city,
        province,
    )
}

/// The answer found the number in the municipal list: a point of that list, its attribution.
fn at_house_number(r: &ContactResult, dataset: &str) -> (f64, f64) {
    let geo = r.geo.as_ref().unwrap_or_else(|| panic!("geo: {r:?}"));
    assert_eq!(geo.precision, "house_number", "{r:?}");
    assert_eq!(geo.dataset, "municipal", "{r:?}");
    assert!(r.attribution.contains(&dataset), "{r:?}");
    (geo.lat, geo.lon)
}

/// The point the Venezia file gives a number, read from the file itself.
fn venezia_point(code: &str, number: &str) -> (f64, f64) {
    let path = test_register::shared_data().join("it/civici/venezia/dove_civici_sestieri.json.gz");
    let file: serde_json::Value = serde_json::from_reader(flate2::read::GzDecoder::new(
        std::fs::File::open(path).unwrap(),
    ))
    .unwrap();
    let p = &file[code][number];
    (p["lat"].as_f64().unwrap(), p["lng"].as_f64().unwrap())
}

/// The ANNCSU national id of a street, read from the region's street file.
fn anncsu_id(region: &str, cadastral: &str, name: &str) -> String {
    let path =
        test_register::shared_data().join(format!("it/anncsu_odonimi/odonimi_{region}.csv.gz"));
    let file = flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap());
    csv::Reader::from_reader(file)
        .records()
        .map(Result::unwrap)
        .find(|r| r.get(6) == Some(cadastral) && r.get(3) == Some(name))
        .map(|r| r[0].to_string())
        .unwrap()
}

#[test]
fn a_venice_address_is_a_sestiere_and_a_number() {
    if register().is_none() {
        return;
    }
    let cannaregio = venezia_point("CN", "5000");
    for (address, postcode, city) in [
        ("Cannaregio 5000", "30121", "Venezia"),
        ("Sestiere Cannaregio 5000", "", "Venezia"),
        ("Cannaregio 5000, 30121 Venezia", "", ""),
    ] {
        let r = answer(address, postcode, city, "");
        assert!(r.ok, "{address}: {r:?}");
        assert_eq!(r.normalized.postcode, "30121", "{address}: {r:?}");
        let (lat, lon) = at_house_number(&r, attribution::VENEZIA);
        assert!((lat - cannaregio.0).abs() < 1e-6 && (lon - cannaregio.1).abs() < 1e-6);
    }
    // each sestiere has its own postcode (San Marco 1, the Palazzo Ducale, is not in the file:
    // its numbers start at 3)
    let r = answer("Sestiere San Marco 3", "", "Venezia", "VE");
    assert!(r.ok, "{r:?}");
    assert_eq!(r.normalized.postcode, "30124", "{r:?}");
    at_house_number(&r, attribution::VENEZIA);
    let r = answer("San Polo 2000 Venezia", "", "", "");
    assert!(r.ok, "{r:?}");
    assert_eq!(r.normalized.postcode, "30125", "{r:?}");
    at_house_number(&r, attribution::VENEZIA);
}

#[test]
fn a_number_the_sestiere_lacks_is_not_found() {
    if register().is_none() {
        return;
    }
    // Cannaregio's numbers stop at 6,424
    let r = answer("Cannaregio 9999", "30121", "Venezia", "VE");
    assert!(
        r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
        "{r:?}"
    );
}

#[test]
fn fie_allo_sciliar_answers_in_german_and_in_italian() {
    if register().is_none() {
        return;
    }
    let italian = answer("Via Sciliar 50", "39050", "Fiè allo Sciliar", "BZ");
    assert!(italian.ok, "{italian:?}");
    let point = at_house_number(&italian, attribution::FIE_ALLO_SCILIAR);
    let german = answer("Schlernstraße 50", "39050", "Völs am Schlern", "BZ");
    assert!(german.ok, "{german:?}");
    assert_eq!(
        at_house_number(&german, attribution::FIE_ALLO_SCILIAR),
        point
    );
    // the shapefile's UTM 32N point, reprojected here, lies where the publisher's own WGS84
    // export (fie.csv: 11.5654120062186, 46.4975483649191) puts it, within a metre
    assert!(
        (point.0 - 46.4975483649191).abs() < 1e-5 && (point.1 - 11.5654120062186).abs() < 1e-5,
        "{point:?}"
    );
    assert_eq!(italian.district.as_deref(), Some("UMES"), "{italian:?}");
    // the province writes `VIA LAGHETTO` where ANNCSU has `VIA DEL LAGHETTO`; the German name
    // they share (Weiherstraße) ties the numbers to the ANNCSU street, so all three spellings verify
    let laghetto = anncsu_id("04", "D571", "DEL LAGHETTO");
    for (address, city) in [
        ("Via del Laghetto 30", "Fiè allo Sciliar"),
        ("Via Laghetto 30", "Fiè allo Sciliar"),
        ("Weiherstraße 30", "Völs am Schlern"),
    ] {
        let r = answer(address, "39050", city, "BZ");
        assert!(r.ok, "{address}: {r:?}");
        at_house_number(&r, attribution::FIE_ALLO_SCILIAR);
        let id = r.territory.as_ref().and_then(|t| t.street_id.clone());
        assert_eq!(id.as_deref(), Some(laghetto.as_str()), "{address}: {r:?}");
    }
}

#[test]
fn a_villesse_address_verifies_with_its_number() {
    if register().is_none() {
        return;
    }
    let r = answer("Via Aquileia 41", "34070", "Villesse", "GO");
    assert!(r.ok, "{r:?}");
    let (lat, lon) = at_house_number(&r, attribution::VILLESSE);
    // Villesse lies at about 45.87 N, 13.44 E: the RDN2008 / UTM 33N grid was read right
    assert!(
        (lat - 45.87).abs() < 0.03 && (lon - 13.44).abs() < 0.03,
        "{lat} {lon}"
    );
    let r = answer("Via Aquileia 4001", "34070", "Villesse", "GO");
    assert!(
        r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
        "{r:?}"
    );
}
