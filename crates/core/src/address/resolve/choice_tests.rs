//! The country-neutral choice over Italy's real streets (Bologna, from `../shared/data`), beside
//! the named steps that still answer Italy.

use super::*;
use crate::address::parse::parse;
use crate::address::street_choice::Decision;
use crate::address::tests::register;
use crate::register::street::StreetFacts;

const BOLOGNA: &str = "A944";

fn found(c: Option<Choice>) -> Option<u32> {
    match c?.decision {
        Decision::Found(id, _) => Some(id),
        _ => None,
    }
}

/// Every street of Bologna written as the register writes it is found by the choice, or one of
/// its namesakes is (streets of one name in one locality are one street listed twice).
#[test]
fn every_street_written_in_full_is_chosen() {
    let Some(r) = register() else { return };
    let city = r.streets.city(BOLOGNA).expect("Bologna has streets");
    let mut missed = Vec::new();
    for (i, s) in city.streets().iter().enumerate() {
        let text = format!("{} {}", s.street_type, s.name);
        let parsed = parse(&text);
        let full = |j: u32| full_key(&format!("{} {}", city.street_type(j), city.name(j)));
        match found(choose_in_municipality(&city, &parsed, "")) {
            Some(j) if full(j) == full(i as u32) => {}
            other => missed.push((text, other)),
        }
    }
    // a name the parser reads otherwise than the register splits it (a type word inside the
    // name, `Via Corso …`) may be missed; never more than a handful
    assert!(missed.len() * 100 <= city.streets().len(), "{missed:?}");
}

/// A typo is corrected by the choice only where the record backs it, and then agrees with the
/// named steps; a name written as registered agrees too.
#[test]
fn agrees_with_the_named_steps_where_both_answer() {
    let Some(r) = register() else { return };
    let city = r.streets.city(BOLOGNA).expect("Bologna has streets");
    let first_name = |w: &str| r.names.known_gender(w).is_some();
    for (line, postcode) in [
        ("Via del Faggiolo 7", "40132"),
        ("Via Faggiolo 7", "40132"),
        ("Via del Fagiolo 7", "40132"),
        ("Strada Maggiore 20", "40125"),
        ("Via Ugo Bassi 1", "40121"),
    ] {
        let parsed = parse(line);
        let (named, _) = street_explained(&*city, &parsed, postcode, 3, &first_name);
        let StreetResolution::Found(want, _) = named else {
            panic!("{line}: the named steps answer it")
        };
        assert_eq!(
            found(choose_in_municipality(&city, &parsed, postcode)),
            Some(want),
            "{line}"
        );
    }
    // without number or postcode, a typo is not corrected by the choice (the named steps do)
    let parsed = parse("Via del Fagiolo");
    assert_eq!(found(choose_in_municipality(&city, &parsed, "")), None);
}

/// The name with a letter dropped from the middle of its longest word (seven letters or more).
fn drop_letter(name: &str) -> Option<String> {
    let longest = name.split(' ').max_by_key(|w| w.len())?;
    (longest.len() >= 7).then(|| {
        let mid = longest.len() / 2;
        name.replacen(
            longest,
            &format!("{}{}", &longest[..mid], &longest[mid + 1..]),
            1,
        )
    })
}

/// One way of writing a street's name (None when the street cannot be written so).
type Write = dyn Fn(&Street) -> Option<String>;

/// How far the choice is from the named steps on Bologna's streets written in the ways people
/// write them (in full, without type, a letter dropped, the first word dropped), with the house
/// number of the register and no postcode: what switching Italy to `choose` would change. A
/// measurement, printed: `cargo test -p recapito-core --features ts choice_against_named_steps
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn choice_against_named_steps() {
    let Some(r) = register() else { return };
    let city = r.streets.city(BOLOGNA).expect("Bologna has streets");
    let first_name = |w: &str| r.names.known_gender(w).is_some();
    let ways: [(&str, &Write); 4] = [
        ("full", &|s| Some(format!("{} {}", s.street_type, s.name))),
        ("no_type", &|s| Some(s.name.clone())),
        ("typo", &|s| {
            drop_letter(&s.name).map(|n| format!("{} {n}", s.street_type))
        }),
        ("first_word_dropped", &|s| {
            let (_, rest) = s.name.split_once(' ')?;
            Some(format!("{} {rest}", s.street_type))
        }),
    ];
    for (way, write) in ways {
        let mut counts = [0usize; 5];
        for s in city.streets().iter().filter(|s| !s.numbers.is_empty()) {
            let Some(text) = write(s) else { continue };
            let line = format!("{text} {}", s.numbers[0].number);
            let parsed = parse(&line);
            let named = match street_explained(&*city, &parsed, "", 3, &first_name).0 {
                StreetResolution::Found(i, _) => Some(i),
                _ => None,
            };
            let chosen = found(choose_in_municipality(&city, &parsed, ""));
            let k = match (named, chosen) {
                (Some(a), Some(b)) if a == b => 0,
                (Some(_), Some(_)) => 1,
                (Some(_), None) => 2,
                (None, Some(_)) => 3,
                (None, None) => 4,
            };
            counts[k] += 1;
        }
        println!(
            "{way:20} same {} · differ {} · named only {} · choice only {} · neither {}",
            counts[0], counts[1], counts[2], counts[3], counts[4]
        );
    }
}
