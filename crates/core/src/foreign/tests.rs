//! Real rows of the imported registers, written the way people write them.

use std::path::PathBuf;
use std::sync::OnceLock;

use super::*;
use crate::address::ContactInput;

fn world_dir() -> PathBuf {
    let base = std::env::var("RECAPITO_SOURCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    base.join("world")
}

fn world() -> &'static World {
    static W: OnceLock<World> = OnceLock::new();
    W.get_or_init(|| {
        let (w, missing) = World::import(&world_dir());
        assert!(missing.is_empty(), "{missing:?}");
        w
    })
}

fn check(cc: &str, address: &str, postcode: &str, city: &str) -> Option<ContactResult> {
    let input = ContactInput {
        address: Some(address.into()),
        postcode: Some(postcode.into()),
        city: Some(city.into()),
        country_code: Some(cc.into()),
        ..Default::default()
    };
    let reg = world().registers.get(cc)?;
    matcher::verify(reg, &input, &ContactResult::default())
}

#[test]
fn luxembourg_number_first_fills_the_postcode_of_the_number() {
    let r = check("LU", "14, Rue de Bonnevoie", "", "Luxembourg").expect("in register");
    assert_eq!(r.normalized.address, "14, Rue de Bonnevoie");
    assert_eq!(r.normalized.postcode, "1260");
    assert_eq!(r.outcome, vec!["FOREIGN", "MODIFIED", "POSTCODE"]);
    let t = r.territory.unwrap();
    assert_eq!(t.municipality_code_type, Some("lu_commune"));
    // a typo, no accents, number after the street
    let r = check("LU", "Rue de Bonnevoi 14", "1260", "luxembourg").expect("in register");
    assert_eq!(r.normalized.address, "14, Rue de Bonnevoie");
    assert!(r.outcome.contains(&"STREET".to_string()), "{:?}", r.outcome);
}

#[test]
fn name_keys_of_abbreviations_and_concatenated_types() {
    let de = crate::register::import::world::expander(&world_dir(), &["de"]);
    let k = de.name_key("Sandstr.");
    assert_eq!((k.key.as_str(), k.stem.as_str()), ("SANDSTRASSE", "SAND"));
    let fr = crate::register::import::world::expander(&world_dir(), &["fr", "de", "lb"]);
    assert_eq!(fr.name_key("R. de la Gare").key, "RUE DE LA GARE");
    assert_eq!(fr.name_key("R. de la Gare").core, "GARE");
}

#[test]
fn norwegian_vn_abbreviation_reads_as_veien() {
    // `vn.` abbreviates both `veien` and `vegen`: the register's `Tyrihansveien` is found
    let r = check("NO", "Tyrihansvn. 38", "4638", "Kristiansand S").expect("in register");
    assert_eq!(r.normalized.address, "Tyrihansveien 38");
    assert_eq!(r.normalized.postcode, "4638");
    assert!(!r.outcome.iter().any(|c| c.contains("NOT_FOUND")), "{:?}", r.outcome);
    let nb = crate::register::import::world::expander(&world_dir(), &["nb"]);
    assert_eq!(
        nb.name_key("Tyrihansvn.").key,
        nb.name_key("Tyrihansveien").key
    );
}

#[test]
fn suggest_offers_the_streets_of_the_place_then_their_numbers() {
    use super::suggest::{house_numbers, search_streets, StreetQuery};
    let reg = world().registers.get("LU").expect("LU");
    let q = StreetQuery {
        country: "LU".into(),
        query: "rue de bonnev".into(),
        city: "Luxembourg".into(),
        ..Default::default()
    };
    let hints = search_streets(reg, &q);
    assert_eq!(hints[0].name, "Rue de Bonnevoie", "{hints:?}");
    assert_eq!(hints[0].source, "registry");
    // a typo still finds it
    let typo = StreetQuery {
        query: "Rue de Bonnevoei".into(),
        ..q
    };
    assert_eq!(search_streets(reg, &typo)[0].name, "Rue de Bonnevoie");
    let index: u32 = hints[0].id.split(':').nth(1).unwrap().parse().unwrap();
    let n = house_numbers(reg, index, "14");
    assert!(n.exists && n.numbers.iter().all(|l| l.starts_with("14")), "{:?}", n.numbers);
    assert!(n.complete);
}
