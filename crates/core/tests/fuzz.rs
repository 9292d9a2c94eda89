//! Property-based fuzzing of the core's entry points (issue 15): the address parser, the tax-code batch,
//! the dedupe record reader and run, and every door the Node binding opens (`crates/node/src/*`: JSON in,
//! JSON out) with arbitrary bytes and with well-shaped JSON full of hostile strings. Property: no panic; an input the
//! core cannot read is an `Err`, never a crash. Seeded (fixed RNG seed), bounded in cases.
//!
//! The worst case on long inputs is measured by `worst_case_on_long_inputs` (ignored: it prints timings,
//! run it with `cargo test --release -p recapito-core --test fuzz -- --ignored --nocapture`).

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};
use serde_json::{json, Value};

use recapito_core::address::parse::{parse, parse_number_text};
use recapito_core::dedupe::record::DedupeRecord;
use recapito_core::register::{search, street, Register};
use recapito_core::{address, dedupe, from_json, tax_code, to_json};

#[path = "../src/test_register.rs"]
mod test_register;

/// The doors of the Node binding, by the name the tests give them.
const OPS: &[&str] = &[
    "register.info",
    "municipality.find",
    "dedupe.run",
    "dedupe.incremental",
    "contact.verify",
    "street.search",
    "street.house_numbers",
    "street.sample",
    "tax_code.batch",
];

/// What each door of `crates/node/src/*` does with its JSON request: read it, ask the core, write
/// the answer.
fn door(register: &Register, op: &str, input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    match op {
        "register.info" => to_json(&search::register_info(register)),
        "municipality.find" => to_json(&search::find_municipalities(register, &from_json(input)?)),
        "dedupe.run" => to_json(&dedupe::run(register, from_json(input)?)?),
        "dedupe.incremental" => to_json(&dedupe::incremental(register, from_json(input)?)?),
        "contact.verify" => {
            let batch: address::ContactBatch = from_json(input)?;
            to_json(&address::verify_batch(
                register,
                &batch.items,
                &batch.options,
            ))
        }
        "street.search" => to_json(&address::street_search::query_streets(
            register,
            &from_json(input)?,
        )),
        "street.house_numbers" => {
            to_json(&street::street_house_numbers(register, &from_json(input)?))
        }
        "street.sample" => to_json(&street::sample_streets(register, &from_json(input)?)),
        "tax_code.batch" => to_json(&tax_code::batch(register, &from_json(input)?)),
        other => unreachable!("no door {other}"),
    }
}

/// The register: the one the TypeScript tests built (full, streets included) when present, otherwise
/// municipalities and countries imported from `shared/data` into a temporary folder.
fn register() -> Option<&'static Register> {
    static REGISTER: OnceLock<Option<Register>> = OnceLock::new();
    REGISTER
        .get_or_init(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
            let built = root.join(".tmp/test-register");
            if built.join("stamp").exists() {
                if let Ok(register) = Register::open(&built) {
                    return Some(register);
                }
            }
            test_register::import(Some(&test_register::MUNICIPALITIES))
        })
        .as_ref()
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(15),
        failure_persistence: None,
        ..Config::default()
    }
}

/// Pieces hostile to a text parser: controls, bidi overrides, look-alikes, separators, digits and
/// the words the address parser looks for.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::sample::select(vec![
            "\u{0}",
            "\u{7}",
            "\t",
            "\n",
            "\r",
            "\u{1b}",
            "\u{7f}",
            "\u{85}",
            "\u{2028}",
            "\u{feff}",
            "\u{202e}",
            "\u{202d}",
            "\u{2066}",
            "\u{2069}",
            "\u{200f}",
            "\u{061c}",
            "Rоma",
            "МILANO",
            "０１２",
            "٠١٢",
            "e\u{301}",
            "ß",
            "İ",
            "ﬁ",
            "/",
            "-",
            ",",
            ".",
            " ",
            "  ",
            "bis",
            "ter",
            "km",
            "snc",
            "sn",
            "int.",
            "scala",
            "c/o",
            "presso",
            "via",
            "viale",
            "piazza",
            "corso",
            "loc.",
            "fraz.",
            "n.",
            "nr",
            "civ.",
            "1",
            "12",
            "123A",
            "1/2",
            "00184",
            "RM",
            "ROMA",
            "20121",
            "RSSMRA85T10A562S",
            "RSSMRA85T10A5",
            "XXXXXXXXXXXXXXXX",
            "0000000000000000",
        ])
        .prop_map(str::to_string),
    ]
}

fn hostile_text() -> BoxedStrategy<String> {
    prop::collection::vec(piece(), 0..12)
        .prop_map(|p| p.concat())
        .boxed()
}

/// A JSON value of any shape with hostile strings and numbers at the limits.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        hostile_text().prop_map(Value::String),
        prop::sample::select(vec![
            json!(0),
            json!(-1),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(f64::MAX),
            json!(1e-300),
            json!(4294967296u64),
            json!(18446744073709551615u64),
        ]),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((field(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn field() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "records", "reference", "items", "options", "min_level", "foreign", "action", "today",
            "tax_code", "last_name", "first_name", "gender", "birth_date", "birth_place", "address",
            "house_number", "postcode", "city", "province", "country", "country_code", "addresses",
            "phones", "emails", "phone", "email", "id", "type", "value", "query", "limit", "count",
            "seed", "cadastral_code", "cadastral_codes", "street_id", "name", "job", "previous",
        ])
        .prop_map(str::to_string),
        1 => any::<String>(),
    ]
}

fn run_op(op: &str, input: &[u8]) {
    // Ok or Err are both fine answers; a panic fails the property
    if let Some(register) = register() {
        let _ = door(register, op, input);
    }
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn address_parser_never_panics(line in hostile_text()) {
        let parsed = parse(&line);
        let _ = parse_number_text(&line);
        // the parser keeps to what it was given: nothing it reports is longer than the line
        let reported = format!("{:?}", parsed.house_number).len();
        prop_assert!(reported <= line.len() * 8 + 256, "house number report of {} bytes", reported);
    }
}

proptest! {
    #![proptest_config(config(500))]

    #[test]
    fn every_op_survives_arbitrary_bytes(op in prop::sample::select(OPS), bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        run_op(op, &bytes);
    }

    #[test]
    fn every_op_survives_any_json(op in prop::sample::select(OPS), value in json_value()) {
        run_op(op, &serde_json::to_vec(&value).unwrap());
    }

    #[test]
    fn dedupe_record_reader_never_panics(value in json_value()) {
        if let Ok(record) = serde_json::from_value::<DedupeRecord>(value) {
            let _ = record.all_addresses();
            let _ = record.all_phones();
            let _ = record.all_emails();
            let _ = record.declared_country();
        }
    }
}

/// A well-shaped request of each op, with hostile strings in every field.
fn shaped_request() -> impl Strategy<Value = (&'static str, Value)> {
    let person = (hostile_text(), hostile_text(), hostile_text(), hostile_text(), hostile_text(), hostile_text())
        .prop_map(|(tax_code, last_name, first_name, birth_date, birth_place, city)| {
            json!({"tax_code": tax_code, "last_name": last_name, "first_name": first_name, "gender": "M",
                   "birth_date": birth_date, "birth_place": birth_place, "address": city.clone(),
                   "house_number": city.clone(), "postcode": "00184", "city": city, "province": "RM"})
        })
        .boxed();
    let action = prop::sample::select(vec![
        "generate", "validate", "extract", "compare", "genera", "x",
    ]);
    prop_oneof![
        (prop::collection::vec(person.clone(), 1..4), action).prop_map(|(items, action)| (
            "tax_code.batch",
            json!({"action": action, "items": items})
        )),
        prop::collection::vec(person.clone(), 1..4)
            .prop_map(|items| ("contact.verify", json!({"items": items}))),
        (prop::collection::vec(person.clone(), 1..6), any::<bool>()).prop_map(
            |(records, detect)| (
                "dedupe.run",
                json!({"records": records, "min_level": "ambiguous",
                "foreign": if detect { "detect" } else { "declared" }})
            )
        ),
        (hostile_text(), any::<u64>()).prop_map(|(query, limit)| (
            "street.search",
            json!({"query": query, "province": "BO", "limit": limit})
        )),
        (any::<u64>(), any::<u64>()).prop_map(|(count, seed)| (
            "street.sample",
            json!({"cadastral_codes": ["A944"], "count": count % 100_000, "seed": seed})
        )),
        hostile_text().prop_map(|name| ("municipality.find", json!({"name": name}))),
    ]
}

proptest! {
    #![proptest_config(config(100))]

    #[test]
    fn shaped_requests_with_hostile_strings_never_panic((op, value) in shaped_request()) {
        run_op(op, &serde_json::to_vec(&value).unwrap());
    }
}

/// Limits the TypeScript layer does not enforce by itself: numbers straight into the core.
#[test]
fn huge_counts_and_limits_are_answered_not_allocated() {
    for input in [
        json!({"cadastral_codes": ["A944"], "count": u64::MAX, "seed": 1}),
        json!({"query": "via", "province": "BO", "limit": u64::MAX}),
        json!({"query": "via", "cadastral_code": "A944", "limit": usize::MAX}),
    ] {
        for op in ["street.sample", "street.search"] {
            run_op(op, &serde_json::to_vec(&input).unwrap());
        }
    }
}

/// Long inputs of the shapes most likely to be slow (repetition the parsers scan or backtrack over).
fn long_inputs(len: usize) -> Vec<(&'static str, String)> {
    let fill = |unit: &str| unit.repeat(len / unit.len().max(1) + 1)[..len].to_string();
    vec![
        ("digits", fill("1")),
        ("digit words", fill("1 ")),
        ("slashes", fill("1/")),
        ("bis", fill("bis ")),
        ("via", fill("via ")),
        ("commas", fill(",")),
        ("letters", fill("a")),
        ("mixed", fill("Via Roma 12/A bis, ")),
        ("accents", fill("é")),
        ("bidi", fill("\u{202e}1")),
    ]
}

fn time_of(f: impl FnOnce()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

#[test]
#[ignore = "a measurement: prints the worst case per entry point on 10,000-character inputs"]
fn worst_case_on_long_inputs() {
    let len = 10_000; // the longest string the HTTP layer lets through (docs/conventions.md, Limits)
    let mut rows: Vec<(String, &str, Duration)> = Vec::new();
    for (shape, text) in long_inputs(len) {
        rows.push((
            "address parse".into(),
            shape,
            time_of(|| drop(parse(&text))),
        ));
        let tax = json!({"action": "validate", "items": [{"tax_code": text}]});
        rows.push((
            "tax_code.batch validate".into(),
            shape,
            time_of(|| run_op("tax_code.batch", &serde_json::to_vec(&tax).unwrap())),
        ));
        let generate = json!({"action": "generate", "items": [{"last_name": text, "first_name": text, "gender": "F", "birth_date": "1990-01-01", "birth_place": text}]});
        rows.push((
            "tax_code.batch generate".into(),
            shape,
            time_of(|| run_op("tax_code.batch", &serde_json::to_vec(&generate).unwrap())),
        ));
        let contact = json!({"items": [{"address": text, "city": text, "postcode": text}]});
        rows.push((
            "contact.verify".into(),
            shape,
            time_of(|| run_op("contact.verify", &serde_json::to_vec(&contact).unwrap())),
        ));
        let dedupe = json!({"records": [{"last_name": text, "first_name": text, "address": text, "city": "Bologna"},
                                        {"last_name": text, "first_name": text, "address": text, "city": "Bologna"}]});
        rows.push((
            "dedupe.run (2 records)".into(),
            shape,
            time_of(|| run_op("dedupe.run", &serde_json::to_vec(&dedupe).unwrap())),
        ));
    }
    println!("entry point | input shape ({len} chars) | time");
    let mut worst: std::collections::BTreeMap<String, (&str, Duration)> = Default::default();
    for (entry, shape, t) in &rows {
        println!("{entry} | {shape} | {:.2} ms", t.as_secs_f64() * 1000.0);
        let w = worst.entry(entry.clone()).or_insert((shape, *t));
        if *t > w.1 {
            *w = (shape, *t);
        }
    }
    println!("worst case per entry point:");
    for (entry, (shape, t)) in worst {
        println!("  {entry}: {:.2} ms ({shape})", t.as_secs_f64() * 1000.0);
    }
}
