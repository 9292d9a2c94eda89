//! `cargo run --release --example foreign_probe -- <world dir> CC "address" "postcode" "city"`:
//! one foreign record through its register (`foreign::record::verify`), printed as JSON (for debugging by hand).
use recapito_core::address::{ContactInput, ContactResult};
use recapito_core::foreign::{record, World};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = std::time::Instant::now();
    let (w, missing) = World::import(std::path::Path::new(&a[1]));
    eprintln!("import {:?} missing {missing:?}", t.elapsed());
    for i in w.infos() {
        eprintln!("{}", serde_json::to_string(&i).unwrap());
    }
    let input = ContactInput {
        address: Some(a[3].clone()),
        postcode: Some(a[4].clone()),
        city: Some(a[5].clone()),
        ..Default::default()
    };
    let reg = w.registers.get(a[2].as_str()).expect("country");
    let r = record::verify(reg, &input, &ContactResult::default());
    if let Some(n) = a.get(6).and_then(|n| n.parse::<u32>().ok()) {
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(record::verify(reg, &input, &ContactResult::default()));
        }
        eprintln!(
            "{:.1} µs per record",
            t.elapsed().as_secs_f64() * 1e6 / f64::from(n)
        );
    }
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
}
