use super::*;
use crate::rules::key::loose_key;

fn city() -> CityStreets {
    let streets = [
        "GIUSEPPE GARIBALDI",
        "ROMA",
        "SAN GIOVANNI BOSCO",
        "DEL DUOMO",
    ]
    .iter()
    .enumerate()
    .map(|(i, n)| Street {
        id: i as u64 + 1,
        street_type: "VIA".into(),
        name: n.to_string(),
        ..Default::default()
    })
    .collect();
    CityStreets::build(
        CityStreetsRecord {
            streets,
            ..Default::default()
        },
        None,
    )
    .unwrap()
}

#[test]
fn prefix_and_fuzzy_search() {
    let c = city();
    assert_eq!(c.prefix("SANGIO", 10), vec![2]);
    let near = c.fuzzy(&loose_key("Garibladi Giuseppe"), 2);
    assert!(near.is_empty(), "word order is not a typo");
    let near = c.fuzzy(&loose_key("Giuseppe Garibaldo"), 1);
    assert_eq!(near, vec![(0, 1)]);
    assert_eq!(c.by_key(KeyKind::Loose, &loose_key("Duomo")), &[3]);
    assert_eq!(edit_distance("ROMA", "RMOA", 2), Some(1));
    assert_eq!(edit_distance("NORMANDIA", "NORMANIDA", 1), Some(1));
    assert_eq!(edit_distance("NORMANDIA", "NORMADIA", 1), Some(1));
    assert_eq!(edit_distance("ROMA", "MILANO", 2), None);
}

#[test]
fn typo_lookups_reach_every_key_within_their_distance() {
    // names with accents or other scripts are measured by characters, as ASCII ones by bytes
    assert_eq!(edit_distance("CITTÀ", "CITTA", 1), Some(1));
    assert_eq!(edit_distance("ÀB", "BÀ", 1), Some(1));
    assert_eq!(edit_distance("FAGGIOLO", "FAGIOLO", 2), Some(1));
    assert_eq!(edit_distance("FAGGIOLO", "FOGIALO", 2), None);
    let c = city();
    // two substitutions are beyond the deletion forms: the scan reaches them through its filters
    assert_eq!(c.fuzzy_scan("GIUSEPPEGERIBOLDI", 2), vec![(0, 2)]);
    assert!(c.fuzzy_scan("GIUSEPPEGERIBOLDI", 1).is_empty());
    // two letters too many: the query's two-deletion forms meet the key
    assert_eq!(c.fuzzy("GIUSEPPEXGARIBALDIX", 2), vec![(0, 2)]);
    // the word being typed, among the sorted tokens
    assert_eq!(c.tokens_starting("GARI"), ["GARIBALDI"]);
    assert!(c.tokens_starting("GARIX").is_empty());
    assert_eq!(c.tokens_starting("GIOV"), ["GIOVANNI"]);
}
