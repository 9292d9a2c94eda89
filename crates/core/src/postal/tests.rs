//! The postal form against the published data: OpenCage's test cases (components → expected
//! lines) and libaddressinput's postcode examples, for every country that has them.

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_yaml::Value as Yaml;

use super::*;

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

fn formats() -> Option<&'static Formats> {
    static F: OnceLock<Option<Formats>> = OnceLock::new();
    F.get_or_init(|| {
        let data = crate::register::import::formats::read(&shared()).ok()?;
        Some(Formats::build(data))
    })
    .as_ref()
}

/// (country, components, expected) of every OpenCage country test case.
fn testcases() -> Vec<(String, Components, String)> {
    let dir = shared().join("world/formats/opencage-address-formatting/testcases/countries");
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return out;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        for doc in serde_yaml::Deserializer::from_str(&text) {
            let Ok(v) = Yaml::deserialize(doc) else {
                continue;
            };
            let Some(m) = v.get("components").and_then(Yaml::as_mapping) else {
                continue;
            };
            let mut c = Components::new();
            for (k, v) in m {
                if let (Some(k), Some(v)) = (k.as_str(), template_value(v)) {
                    c.insert(k.to_string(), v);
                }
            }
            let expected = v
                .get("expected")
                .and_then(Yaml::as_str)
                .unwrap_or("")
                .to_string();
            let cc = c
                .get("country_code")
                .cloned()
                .unwrap_or_default()
                .to_uppercase();
            out.push((cc, c, expected));
        }
    }
    out
}

fn template_value(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[test]
fn opencage_testcases_render_as_expected() {
    let Some(f) = formats() else { return };
    let cases = testcases();
    assert!(cases.len() > 300, "{} cases", cases.len());
    let mut wrong = Vec::new();
    for (cc, c, expected) in &cases {
        let Some(country) = f.country(cc) else {
            continue;
        };
        let got = country.render(c);
        if got.trim() != expected.trim() {
            wrong.push(format!("{cc}: expected\n{expected}\ngot\n{got}"));
        }
    }
    let right = cases.len() - wrong.len();
    // the template engine must agree with OpenCage on nearly every case
    assert!(
        right * 100 >= cases.len() * 93,
        "{right}/{} right; first wrong:\n{}",
        cases.len(),
        wrong
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

#[test]
fn every_zipex_is_valid_and_canonical_also_as_people_write_it() {
    let Some(f) = formats() else { return };
    let mut checked = 0;
    let mut inconsistent = Vec::new();
    for code in f.codes() {
        let c = f.country(code).unwrap();
        if c.postcode.is_none() {
            continue;
        }
        for ex in &c.data.zipex {
            // libaddressinput's own slips (BY lists `20050` beside a six-digit pattern)
            if !c.postcode.as_ref().unwrap().pattern.is_match(ex) {
                inconsistent.push(format!("{code} {ex}"));
                continue;
            }
            checked += 1;
            assert_eq!(
                c.judge_postcode(ex),
                Postcode::Valid(ex.clone()),
                "{code} {ex}"
            );
            let lower = ex.to_lowercase();
            assert_eq!(
                c.judge_postcode(&lower),
                Postcode::Valid(ex.clone()),
                "{code} {lower}"
            );
            let compact: String = ex.chars().filter(|c| c.is_alphanumeric()).collect();
            assert_eq!(
                c.judge_postcode(&compact),
                Postcode::Valid(ex.clone()),
                "{code} {compact}"
            );
            let prefixed = format!("{code}-{ex}");
            assert_eq!(
                c.judge_postcode(&prefixed),
                Postcode::Valid(ex.clone()),
                "{code} {prefixed}"
            );
            let too_long = format!("{ex}99999");
            assert_eq!(
                c.judge_postcode(&too_long),
                Postcode::Invalid,
                "{code} {too_long}"
            );
        }
    }
    assert!(checked > 300, "{checked}");
    assert!(inconsistent.len() <= 3, "{inconsistent:?}");
}

#[test]
fn the_issue_examples() {
    let Some(f) = formats() else { return };
    let gb = f.country("GB").unwrap();
    assert_eq!(
        gb.judge_postcode("sw1a2aa"),
        Postcode::Valid("SW1A 2AA".into())
    );
    let form = gb.form(&Written {
        address: "12 Main St",
        postcode: "ZZZ",
        city: "London",
        ..Default::default()
    });
    assert!(form.postcode_invalid);
    assert_eq!(form.address, "12 Main Street");
    assert_eq!(form.lines, vec!["12 Main Street", "LONDON", "ZZZ"]);

    let us = f.country("US").unwrap();
    let form = us.form(&Written {
        address: "1600 Pennsylvania Ave NW",
        postcode: "20500",
        city: "Washington",
        province: "District of Columbia",
    });
    assert_eq!(form.province, "DC");
    assert!(form.province_changed);
    assert_eq!(
        form.lines,
        vec!["1600 Pennsylvania Avenue NW", "WASHINGTON, DC 20500"]
    );

    let ca = f.country("CA").unwrap();
    let form = ca.form(&Written {
        address: "24 Sussex Drive",
        postcode: "k1m1m4",
        city: "Ottawa",
        province: "Ontario",
    });
    assert_eq!(form.postcode, "K1M 1M4");
    assert_eq!(form.province, "ON");

    let es = f.country("ES").unwrap();
    assert_eq!(es.subdivision("M").map(|s| s.key.as_str()), Some("Madrid"));

    let ie = f.country("IE").unwrap();
    assert_eq!(
        ie.subdivision("Dublin").map(|s| s.key.as_str()),
        Some("Co. Dublin")
    );

    let de = f.country("DE").unwrap();
    let form = de.form(&Written {
        address: "Hauptstr. 5",
        postcode: "D-45127",
        city: "Essen",
        ..Default::default()
    });
    assert_eq!(form.postcode, "45127");
    assert_eq!(form.address, "Hauptstraße 5");
    assert_eq!(form.lines, vec!["Hauptstraße 5", "45127 Essen"]);

    let fr = f.country("FR").unwrap();
    let form = fr.form(&Written {
        address: "Av. des Champs-Élysées 10",
        postcode: "75008",
        city: "Paris",
        ..Default::default()
    });
    assert_eq!(form.address, "10 Avenue des Champs-Élysées");
    assert_eq!(
        form.lines,
        vec!["10 Avenue des Champs-Élysées", "75008 PARIS"]
    );
}

#[test]
fn foreign_postcode_forms_name_their_country() {
    let Some(f) = formats() else { return };
    for (text, country) in [
        ("L-1234", "LU"),
        ("D-45127", "DE"),
        ("CH-3011", "CH"),
        ("F-75001", "FR"),
        ("FL-9490", "LI"),
        ("A 1010", "AT"),
    ] {
        assert_eq!(
            detect::postcode_country(f, text).as_deref(),
            Some(country),
            "{text}"
        );
    }
    for text in ["20121", "I-20121", "D-1234567", "Via Roma 1", "S. Giorgio"] {
        assert_eq!(detect::postcode_country(f, text), None, "{text}");
    }
}

#[test]
#[ignore = "timing probe, run by hand"]
fn speed_probe() {
    let Some(f) = formats() else { return };
    let cases = testcases();
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..20 {
        for (cc, c, _) in &cases {
            if let Some(country) = f.country(cc) {
                let w = Written {
                    address: c.get("road").map(String::as_str).unwrap_or(""),
                    postcode: c.get("postcode").map(String::as_str).unwrap_or(""),
                    city: c.get("city").map(String::as_str).unwrap_or(""),
                    province: c.get("state").map(String::as_str).unwrap_or(""),
                };
                std::hint::black_box(country.form(&w));
                n += 1;
            }
        }
    }
    eprintln!("form: {n} in {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for (cc, c, _) in &cases {
        if let Some(country) = f.country(cc) {
            std::hint::black_box(country.render(c));
        }
    }
    eprintln!("render: {} in {:?}", cases.len(), t.elapsed());
    let t = std::time::Instant::now();
    for (cc, c, _) in &cases {
        if let Some(country) = f.country(cc) {
            std::hint::black_box(
                country.judge_postcode(c.get("postcode").map(String::as_str).unwrap_or("")),
            );
        }
    }
    eprintln!("postcode: {} in {:?}", cases.len(), t.elapsed());
    let t = std::time::Instant::now();
    for (cc, c, _) in &cases {
        if let Some(country) = f.country(cc) {
            std::hint::black_box(country.template.render(c));
        }
    }
    eprintln!("template only: {} in {:?}", cases.len(), t.elapsed());
    let t = std::time::Instant::now();
    for (cc, c, _) in &cases {
        if let Some(country) = f.country(cc) {
            let mut c = c.clone();
            template::replace_components(&mut c, &country.replace);
            std::hint::black_box(c);
        }
    }
    eprintln!("rules only: {} in {:?}", cases.len(), t.elapsed());
    let t = std::time::Instant::now();
    for (cc, c, _) in &cases {
        if let Some(country) = f.country(cc) {
            std::hint::black_box(template::clean(&country.template.render(c)));
        }
    }
    eprintln!("template+clean: {} in {:?}", cases.len(), t.elapsed());
}
