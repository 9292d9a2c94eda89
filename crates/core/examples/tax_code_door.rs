//! `cargo run --release --example tax_code_door -- <data dir> '<batch JSON>' [calls]`: the steps of
//! the single tax-code door (`taxCodesSync`: read the JSON, answer the item, write the JSON), timed
//! one by one over many calls, to see where its microseconds go (issue 14).
use std::hint::black_box;
use std::time::Instant;

use recapito_core::register::Register;
use recapito_core::tax_code::{self, BatchInput};

fn per_call(n: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let register = Register::open(std::path::Path::new(&a[1])).expect("register");
    let text = a[2].clone();
    let n: u32 = a.get(3).and_then(|n| n.parse().ok()).unwrap_or(200_000);
    let batch: BatchInput = serde_json::from_str(&text).expect("batch");
    let today = tax_code::today_or(batch.today.as_deref());
    let item = &batch.items[0];
    let one = [tax_code::answer(&register, &batch, item, today)];
    println!("{}", serde_json::to_string(&one).unwrap());
    for round in 0..2 {
        let read = per_call(n, || {
            black_box(serde_json::from_str::<BatchInput>(black_box(&text)).unwrap());
        });
        let today_us = per_call(n, || {
            black_box(tax_code::today_or(black_box(None)));
        });
        let answer = per_call(n, || {
            black_box(tax_code::answer(&register, &batch, item, today));
        });
        let validate = per_call(n, || {
            black_box(tax_code::validate(
                &register,
                black_box(item.tax_code.as_deref().unwrap_or("")),
            ));
        });
        let write = per_call(n, || {
            black_box(serde_json::to_string(black_box(&one)).unwrap());
        });
        println!("round {round}: read {read:.2} µs, today {today_us:.2}, answer {answer:.2} (validate {validate:.2}), write {write:.2}");
    }
}
