//! `cargo run --release --example dedupe_sets -- <data dir> <set.json>…`: a labelled list
//! (`{"records": [...], "truth": {id: entity}}`) through the dedupe core, pairwise P/R/F1 at each
//! level (pairs inside the predicted groups, as the benchmark scripts count them). `DIAG=probable`
//! also prints the misses at that level by comparison pattern (for working on the model by hand).
use std::collections::{HashMap, HashSet};

use recapito_core::dedupe::score::{Level, FIELDS};
use recapito_core::dedupe::{
    cluster, intern, prepare_all, record::DedupeRecord, score, score_pairs,
};
use recapito_core::register::Register;
use serde::Deserialize;

#[derive(Deserialize)]
struct Set {
    records: Vec<DedupeRecord>,
    truth: HashMap<String, String>,
}

fn id_of(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reg = Register::open(std::path::Path::new(&args[1])).expect("register");
    let diag: Option<Level> = std::env::var("DIAG")
        .ok()
        .and_then(|d| serde_json::from_value(serde_json::Value::String(d)).ok());
    for path in &args[2..] {
        let set: Set = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        let t = std::time::Instant::now();
        let records = prepare_all(&reg, set.records, 0, Default::default());
        let ids: Vec<String> = records.iter().map(|p| id_of(&p.id)).collect();
        let ent: Vec<&str> = ids.iter().map(|i| set.truth[i].as_str()).collect();
        let mut by: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, e) in ent.iter().enumerate() {
            by.entry(e).or_default().push(i);
        }
        let truth: HashSet<(usize, usize)> = by
            .values()
            .flat_map(|m| {
                m.iter()
                    .enumerate()
                    .flat_map(|(k, &a)| m[k + 1..].iter().map(move |&b| (a.min(b), a.max(b))))
            })
            .collect();
        let judged = score_pairs(&records, &|_, _| true, None);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "== {path}: {} records, {} true pairs, {secs:.1} s",
            records.len(),
            truth.len()
        );
        for level in [Level::Certain, Level::Probable, Level::Ambiguous] {
            let (groups, _) = cluster::build(&records, &judged, level, &[], 0);
            let pred: HashSet<(usize, usize)> = groups
                .iter()
                .flat_map(|g| {
                    let m = &g.member_index;
                    m.iter()
                        .enumerate()
                        .flat_map(|(k, &a)| m[k + 1..].iter().map(move |&b| (a.min(b), a.max(b))))
                        .collect::<Vec<_>>()
                })
                .collect();
            let tp = pred.intersection(&truth).count() as f64;
            let (p, r) = (
                tp / pred.len().max(1) as f64,
                tp / truth.len().max(1) as f64,
            );
            let f = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            println!(
                "{level:?}: P {p:.3} R {r:.3} F1 {f:.3} (pairs {}, tp {tp})",
                pred.len()
            );
            if diag == Some(level) {
                diagnose(&records, &judged, &truth, &pred, level, &ids);
            }
        }
    }
}

fn diagnose(
    records: &[recapito_core::dedupe::prepare::Prepared],
    judged: &score::Judged,
    truth: &HashSet<(usize, usize)>,
    pred: &HashSet<(usize, usize)>,
    level: Level,
    ids: &[String],
) {
    let model = judged.model.as_ref().unwrap();
    eprintln!("model {}", serde_json::to_string(model).unwrap());
    let table = intern::intern(records);
    let direct: HashMap<(usize, usize), Level> = judged
        .pairs
        .iter()
        .map(|p| ((p.a.min(p.b) as usize, p.a.max(p.b) as usize), p.level))
        .collect();
    let describe = |a: usize, b: usize| -> String {
        match score::compare(&table, a, b) {
            None => "no-compare".into(),
            Some(c) => {
                let g: Vec<String> = (0..FIELDS)
                    .map(|f| {
                        if c.gamma[f] == score::NULL {
                            "-".into()
                        } else {
                            c.gamma[f].to_string()
                        }
                    })
                    .collect();
                let j = model
                    .judge(&c)
                    .map(|(l, s, r)| format!("{l:?}/{s} {}", r.join(",")));
                format!(
                    "g{} n{} w{:.1} {}",
                    g.join(""),
                    c.notes,
                    model.weight(&c.gamma),
                    j.unwrap_or("none".into())
                )
            }
        }
    };
    let mut fn_kinds: HashMap<String, (usize, Vec<(usize, usize)>)> = HashMap::new();
    for &(a, b) in truth.difference(pred) {
        let kind = match direct.get(&(a, b)) {
            Some(l) if *l >= level => "linked-but-blocked-in-cluster".to_string(),
            _ => describe(a, b),
        };
        let e = fn_kinds.entry(kind).or_default();
        e.0 += 1;
        e.1.push((a, b));
    }
    let mut fp_kinds: HashMap<String, (usize, Vec<(usize, usize)>)> = HashMap::new();
    for &(a, b) in pred.difference(truth) {
        let kind = match direct.get(&(a, b)) {
            Some(l) if *l >= level => format!("direct {}", describe(a, b)),
            _ => "transitive".to_string(),
        };
        let e = fp_kinds.entry(kind).or_default();
        e.0 += 1;
        e.1.push((a, b));
    }
    let show = |title: &str, kinds: HashMap<String, (usize, Vec<(usize, usize)>)>| {
        let mut v: Vec<_> = kinds.into_iter().collect();
        v.sort_by_key(|x| std::cmp::Reverse(x.1 .0));
        eprintln!("-- {title}: {} kinds", v.len());
        for (k, (n, ex)) in v.iter().take(25) {
            let (a, b) = ex[0];
            let r = |i: usize| {
                let p = &records[i];
                format!(
                    "{}[{} {} | {} | {:?} | {}]",
                    ids[i],
                    p.first,
                    p.last,
                    p.addresses
                        .iter()
                        .map(|a| format!("{} {} {} {}", a.street, a.number, a.postcode, a.city))
                        .collect::<Vec<_>>()
                        .join("; "),
                    p.birth.map(|b| (b.year, b.month, b.day)),
                    p.phones
                        .iter()
                        .chain(&p.emails)
                        .map(|d| d.value.as_str())
                        .collect::<Vec<_>>()
                        .join(",")
                )
            };
            eprintln!("{n:6} {k}\n        {}\n        {}", r(a), r(b));
        }
    };
    show("missed", fn_kinds);
    show("false", fp_kinds);
}
