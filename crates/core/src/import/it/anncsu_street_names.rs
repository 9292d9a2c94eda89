//! ANNCSU street names of all Italy, one file per region as onData publishes them
//! (`odonimi_XX.csv.gz`: Progressivo_nazionale, Codice_comunale, DUG, DUF, Denominazione_lingua1,
//! Denominazione_lingua2, codice_belfiore, codice_regione). A missing region is reported, not fatal.

use crate::import::street_builder::StreetBuilder;
use crate::import::{csv_reader, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::street::Street;
use crate::Result;

pub const FOLDER: &str = "it/anncsu_odonimi";
pub const ATTRIBUTION: &str = crate::register::attribution::ANNCSU_STREETS;

/// Reads every region present; returns the two-digit codes of the regions missing.
pub fn import(ctx: &mut ImportContext, builder: &mut StreetBuilder) -> Result<Vec<String>> {
    let mut missing = Vec::new();
    PROGRESS.start("streets: ANNCSU odonimi", 1_212_881);
    for region in 1..=20 {
        let path = ctx
            .source
            .join(FOLDER)
            .join(format!("odonimi_{region:02}.csv.gz"));
        if !path.exists() {
            missing.push(format!("{region:02}"));
            continue;
        }
        let rows = read(&path, builder)?;
        ctx.record(&format!("streets_{region:02}"), &path, rows, ATTRIBUTION);
    }
    Ok(missing)
}

fn read(path: &std::path::Path, builder: &mut StreetBuilder) -> Result<u64> {
    let mut rdr = csv_reader(path, b',')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let (id, dug, duf, l1, l2, belfiore) = (
        col("Progressivo_nazionale"),
        col("DUG"),
        col("DUF"),
        col("Denominazione_lingua1"),
        col("Denominazione_lingua2"),
        col("codice_belfiore"),
    );
    let mut rows = 0;
    let mut record = csv::StringRecord::new();
    while rdr.read_record(&mut record)? {
        let get = |i: Option<usize>| i.and_then(|i| record.get(i)).unwrap_or("").trim();
        let cadastral = get(belfiore);
        let name = get(duf);
        if cadastral.is_empty() || name.is_empty() {
            continue;
        }
        let name = with_apostrophes(name);
        let alt_names: Vec<String> = [get(l1), get(l2)]
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|s| with_apostrophes(s).into_owned())
            .collect();
        // `ASSENTE` is ANNCSU's word for "no type" (`ASSENTE` `IL CAMPO`, Siena's Piazza del
        // Campo): a street without one, never a type called so
        let street_type = Some(get(dug))
            .filter(|t| !t.eq_ignore_ascii_case("ASSENTE"))
            .map(fold)
            .unwrap_or_default();
        builder.city(cadastral).add_registered(Street {
            id: get(id).parse().unwrap_or(0),
            street_type,
            name: name.into_owned(),
            alt_names,
            ..Default::default()
        });
        rows += 1;
        if rows % 10_000 == 0 {
            PROGRESS.advance(10_000);
        }
    }
    Ok(rows)
}

/// Some municipalities write the apostrophe as a backtick, 2,458 names in all: an accent after a
/// vowel (`LIBERTA``, `GIOSUE`` CARDUCCI`) or an elision, often spaced (`SANT`` ANTONIO`,
/// `DELL`` ACQUA BIANCA`). Written as the register writes every other name: `LIBERTA'`,
/// `SANT'ANTONIO`, so that the name reads and displays alike (`Sant'Antonio`, not `Sant` Antonio`).
fn with_apostrophes(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.contains('`') {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '`' {
            out.push(c);
            continue;
        }
        let after_vowel = out.chars().last().is_some_and(|p| "AEIOUaeiou".contains(p));
        out.push('\'');
        if !after_vowel {
            // an elision joins the next word
            while chars.peek().is_some_and(|n| *n == ' ') {
                chars.next();
            }
        }
    }
    std::borrow::Cow::Owned(out)
}
