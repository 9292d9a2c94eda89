//! Foreign countries with their cadastral Z codes: ANPR's table (ISO alpha-3, validity) and
//! python-codicefiscale's lists (names, spellings, ceased states such as Czechoslovakia).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::import::{csv_reader, open_text, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::country::Country;
use crate::Result;

const ANPR: &str = "it/esteri/anpr_stati_esteri.csv";
const CF_COUNTRIES: &str = "it/esteri/codicefiscale_countries.json";
const CF_DELETED: &str = "it/esteri/codicefiscale_deleted-countries.json";
const CF_PATCH: &str = "it/esteri/codicefiscale_countries-patch.json";

const ANPR_ATTRIBUTION: &str =
    "Fonte: ANPR – Ministero dell'Interno, tabella Stati esteri, CC BY 4.0";
const CF_ATTRIBUTION: &str = "python-codicefiscale (Fabio Caccamo, MIT), from ANPR/ISTAT data";

pub fn import(ctx: &mut ImportContext) -> Result<()> {
    let mut countries: BTreeMap<String, Country> = BTreeMap::new();
    let path = ctx.source.join(ANPR);
    let rows = read_anpr(&path, &mut countries)?;
    ctx.record("foreign_countries", &path, rows, ANPR_ATTRIBUTION);
    for rel in [CF_COUNTRIES, CF_DELETED, CF_PATCH] {
        let path = ctx.source.join(rel);
        if path.exists() {
            let n = read_codicefiscale(&path, &mut countries)?;
            ctx.record("foreign_countries_names", &path, n, CF_ATTRIBUTION);
        }
    }
    PROGRESS.start("foreign countries: writing", countries.len() as u64);
    let mut wtxn = ctx.env.write_txn()?;
    for (code, c) in &countries {
        ctx.dbs.countries.put(&mut wtxn, code, c)?;
        PROGRESS.advance(1);
    }
    wtxn.commit()?;
    Ok(())
}

fn read_anpr(path: &Path, countries: &mut BTreeMap<String, Country>) -> Result<u64> {
    let mut rdr = csv_reader(path, b',')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (name, name_it, name_en, from, to, iso3, code) = (
        col("DENOMINAZIONE"),
        col("DENOMINAZIONEISTAT"),
        col("DENOMINAZIONEISTAT_EN"),
        col("DATAINIZIOVALIDITA"),
        col("DATAFINEVALIDITA"),
        col("CODISO3166_1_ALPHA3"),
        col("CODAT"),
    );
    PROGRESS.start("foreign countries: ANPR table", 238);
    let mut n = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim().to_string();
        let z = get(code).to_uppercase();
        if z.is_empty() {
            continue;
        }
        let valid_to = dmy_to_iso(&get(to));
        let entry = countries.entry(z.clone()).or_insert_with(|| Country {
            cadastral_code: z.clone(),
            ..Default::default()
        });
        let istat_name = get(name_it);
        entry.name = if istat_name.is_empty() {
            get(name)
        } else {
            istat_name
        };
        entry.name_en = get(name_en);
        entry.aliases.push(get(name));
        let iso = get(iso3);
        if !iso.is_empty() {
            entry.iso3 = Some(iso.to_uppercase());
        }
        entry.valid_from = dmy_to_iso(&get(from));
        entry.active = valid_to.as_str() >= "9999";
        entry.valid_to = valid_to;
        n += 1;
        PROGRESS.advance(1);
    }
    Ok(n)
}

#[derive(Deserialize)]
struct CfCountry {
    code: String,
    name: String,
    #[serde(default)]
    name_alt: String,
    #[serde(default)]
    name_alt_en: String,
    #[serde(default)]
    name_slugs: Vec<String>,
    #[serde(default)]
    active: bool,
    #[serde(default)]
    date_created: Option<String>,
    #[serde(default)]
    date_deleted: Option<String>,
}

fn read_codicefiscale(path: &Path, countries: &mut BTreeMap<String, Country>) -> Result<u64> {
    let list: Vec<CfCountry> = serde_json::from_reader(open_text(path)?)?;
    let mut n = 0;
    for c in list {
        let z = c.code.trim().to_uppercase();
        if z.is_empty() {
            continue;
        }
        let entry = countries.entry(z.clone()).or_insert_with(|| Country {
            cadastral_code: z.clone(),
            name: c.name.clone(),
            name_en: c.name_alt_en.clone(),
            valid_from: iso_day(c.date_created.as_deref()).unwrap_or_else(|| "1861-03-17".into()),
            valid_to: iso_day(c.date_deleted.as_deref()).unwrap_or_else(|| "9999-12-31".into()),
            active: c.active,
            ..Default::default()
        });
        let mut names = vec![c.name, c.name_alt, c.name_alt_en];
        names.extend(c.name_slugs.iter().map(|s| s.replace('-', " ")));
        for name in names {
            if !name.is_empty() && !entry.aliases.iter().any(|a| fold(a) == fold(&name)) {
                entry.aliases.push(name);
            }
        }
        n += 1;
    }
    Ok(n)
}

fn iso_day(s: Option<&str>) -> Option<String> {
    s.and_then(|d| d.get(..10))
        .filter(|d| !d.is_empty())
        .map(str::to_string)
}

/// `31/12/9999` → `9999-12-31`.
fn dmy_to_iso(s: &str) -> String {
    let parts: Vec<&str> = s.split('/').collect();
    match parts.as_slice() {
        [d, m, y] => format!("{y}-{m:0>2}-{d:0>2}"),
        _ => s.to_string(),
    }
}
