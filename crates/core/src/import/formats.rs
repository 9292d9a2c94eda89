//! Postal formats of every country, read as published: libaddressinput's `countryinfo.txt`
//! (line layout, required and upper-case fields, postcode pattern and examples, prefix,
//! subdivisions) and OpenCage's address-formatting configuration (line templates and their
//! replacement rules, street abbreviations per language, the languages of each country).
//! The result is kept in the register's `meta` database as `postal_formats`.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use serde_yaml::Value as Yaml;

use super::ImportContext;
use crate::postal::{CountryFormatData, FormatsData, Subdivision, Template};
use crate::{Error, Result};

pub const LIBADDRESSINPUT: &str = "world/formats/libaddressinput/countryinfo.txt";
pub const OPENCAGE: &str = "world/formats/opencage-address-formatting/conf";
pub const ATTRIBUTION: &str = "Formati postali: libaddressinput © Google Inc. (Apache-2.0); address-formatting © OpenCage GmbH (MIT)";

/// Reads the formats when `world/formats` is present; without it foreign addresses stay as written.
pub fn import(ctx: &mut ImportContext) -> Result<()> {
    if !ctx.source.join(LIBADDRESSINPUT).exists() {
        return Ok(());
    }
    super::PROGRESS.start("postal formats", 1);
    let mut data = read(ctx.source)?;
    // ISO alpha-3 codes as the Italian registry of foreign states knows them, joined on the
    // English name, so that a country found by name in Rust has its alpha-2 code too
    let rtxn = ctx.env.read_txn()?;
    for item in ctx.dbs.countries.iter(&rtxn)? {
        let (_, c) = item?;
        if let Some(iso3) = c.iso3.filter(|_| c.active) {
            if let Some(iso2) = data.iso2_by_name(&c.name_en) {
                data.iso3.insert(iso3, iso2);
            }
        }
    }
    drop(rtxn);
    let rows = data.countries.len() as u64;
    let mut wtxn = ctx.env.write_txn()?;
    ctx.dbs
        .meta
        .put(&mut wtxn, "postal_formats", &serde_json::to_value(&data)?)?;
    wtxn.commit()?;
    let file = ctx.source.join(LIBADDRESSINPUT);
    ctx.record("postal_formats", &file, rows, ATTRIBUTION);
    super::PROGRESS.advance(1);
    Ok(())
}

/// Both sources, from a folder laid out like `../shared/data` (tests and benches call it too).
pub fn read(source: &Path) -> Result<FormatsData> {
    let mut data = FormatsData::default();
    read_libaddressinput(&source.join(LIBADDRESSINPUT), &mut data)?;
    let conf = source.join(OPENCAGE);
    if conf.exists() {
        read_opencage(&conf, &mut data)?;
    }
    Ok(data)
}

fn read_libaddressinput(path: &Path, data: &mut FormatsData) -> Result<()> {
    let file = std::io::BufReader::new(
        std::fs::File::open(path).map_err(|_| Error::SourceMissing(path.display().to_string()))?,
    );
    for line in file.lines() {
        let line = line?;
        // only country records: `data/GB={…}`, not sub-regions `data/US/CA=` or languages `--fr`
        let Some((key, json)) = line.split_once('=') else {
            continue;
        };
        let Some(code) = key.strip_prefix("data/") else {
            continue;
        };
        if code.len() != 2 || !code.chars().all(|c| c.is_ascii_uppercase()) {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(json)?;
        let s = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
        let list = |k: &str| -> Vec<String> {
            let raw = s(k);
            if raw.is_empty() {
                Vec::new()
            } else {
                raw.split('~').map(str::to_string).collect()
            }
        };
        let keys = list("sub_keys");
        let names = list("sub_names");
        let lnames = list("sub_lnames");
        let isoids = list("sub_isoids");
        let zips = list("sub_zips");
        let at = |l: &[String], i: usize| l.get(i).cloned().unwrap_or_default();
        let subdivisions = keys
            .iter()
            .enumerate()
            .map(|(i, k)| Subdivision {
                key: k.clone(),
                name: at(&names, i),
                latin_name: at(&lnames, i),
                iso: at(&isoids, i),
                zip: at(&zips, i),
            })
            .collect();
        let zipex = s("zipex");
        let entry = data.countries.entry(code.to_string()).or_default();
        *entry = CountryFormatData {
            name: s("name"),
            fmt: s("fmt"),
            require: s("require"),
            upper: s("upper"),
            zip: s("zip"),
            zipex: zipex
                .split(',')
                .filter(|z| !z.is_empty())
                .map(str::to_string)
                .collect(),
            postprefix: s("postprefix"),
            languages: list("languages"),
            subdivisions,
            ..std::mem::take(entry)
        };
    }
    Ok(())
}

fn yaml(path: &Path) -> Result<Yaml> {
    let text = std::fs::read_to_string(path)
        .map_err(|_| Error::SourceMissing(path.display().to_string()))?;
    serde_yaml::from_str(&text).map_err(|e| Error::BadInput(format!("{}: {e}", path.display())))
}

fn yaml_str(v: &Yaml) -> Option<String> {
    match v {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn pairs(v: Option<&Yaml>) -> Vec<(String, String)> {
    v.and_then(Yaml::as_sequence)
        .map(|rules| {
            rules
                .iter()
                .filter_map(|r| {
                    let r = r.as_sequence()?;
                    Some((
                        yaml_str(r.first()?)?,
                        yaml_str(r.get(1)?).unwrap_or_default(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn read_opencage(conf: &Path, data: &mut FormatsData) -> Result<()> {
    let worldwide = yaml(&conf.join("countries/worldwide.yaml"))?;
    let map = worldwide
        .as_mapping()
        .ok_or_else(|| Error::BadInput("worldwide.yaml is not a mapping".into()))?;
    for (k, v) in map {
        let Some(key) = k.as_str() else { continue };
        let get = |f: &str| v.get(f).and_then(yaml_str);
        let template = Template {
            address: get("address_template").unwrap_or_default(),
            fallback: get("fallback_template").unwrap_or_default(),
            replace: pairs(v.get("replace")),
            postformat_replace: pairs(v.get("postformat_replace")),
            use_country: get("use_country").unwrap_or_default(),
            change_country: get("change_country").unwrap_or_default(),
            add_component: get("add_component").unwrap_or_default(),
        };
        if key == "default" {
            data.default_template = template;
        } else if key.len() == 2 {
            data.countries.entry(key.to_string()).or_default().template = template;
        }
    }
    // component names and their aliases (`street` is a `road`), one YAML document each
    let text = std::fs::read_to_string(conf.join("components.yaml"))?;
    for doc in serde_yaml::Deserializer::from_str(&text) {
        let Ok(v) = <Yaml as serde::Deserialize>::deserialize(doc) else {
            continue;
        };
        let Some(name) = v.get("name").and_then(yaml_str) else {
            continue;
        };
        let aliases = v
            .get("aliases")
            .and_then(Yaml::as_sequence)
            .map(|a| a.iter().filter_map(yaml_str).collect())
            .unwrap_or_default();
        data.components.push((name, aliases));
    }
    // languages per country (libaddressinput lists them for only some countries)
    let langs = yaml(&conf.join("country2lang.yaml"))?;
    if let Some(m) = langs.as_mapping() {
        for (k, v) in m {
            let (Some(code), Some(list)) = (k.as_str(), yaml_str(v)) else {
                continue;
            };
            data.countries
                .entry(code.to_string())
                .or_default()
                .opencage_languages = list
                .split(',')
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect();
        }
    }
    // English country names (the comments of country_codes.yaml) for the alpha-3 join
    let codes = std::fs::read_to_string(conf.join("country_codes.yaml"))?;
    for line in codes.lines() {
        if let Some((code, comment)) = line.split_once(": #") {
            let code = code.trim();
            if code.len() == 2 {
                data.countries
                    .entry(code.to_string())
                    .or_default()
                    .english_name = comment.trim().to_string();
            }
        }
    }
    // state codes: what templates call `state_code`, when libaddressinput has no subdivisions
    for (file, counties) in [("state_codes.yaml", false), ("county_codes.yaml", true)] {
        let states = yaml(&conf.join(file))?;
        if let Some(m) = states.as_mapping() {
            for (k, v) in m {
                let (Some(code), Some(entries)) = (k.as_str(), v.as_mapping()) else {
                    continue;
                };
                let country = data.countries.entry(code.to_string()).or_default();
                for (sk, sv) in entries {
                    let Some(state_code) = yaml_str(sk) else {
                        continue;
                    };
                    let names: Vec<String> = match sv {
                        Yaml::Mapping(alt) => alt.values().filter_map(yaml_str).collect(),
                        other => yaml_str(other).into_iter().collect(),
                    };
                    let list = if counties {
                        &mut country.county_codes
                    } else {
                        &mut country.state_codes
                    };
                    for n in names {
                        list.push((n, state_code.clone()));
                    }
                }
            }
        }
    }
    // street abbreviations, `Full: Abbr` per section, one file per language
    let dir = conf.join("abbreviations");
    let mut abbreviations: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let Some(lang) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let doc = yaml(&path)?;
        let mut list = Vec::new();
        // only the road section: the others abbreviate country, state or place names
        if let Some(m) = doc.get("road").and_then(Yaml::as_mapping) {
            for (full, abbr) in m {
                if let (Some(full), Some(abbr)) = (yaml_str(full), yaml_str(abbr)) {
                    list.push((full, abbr));
                }
            }
        }
        abbreviations.insert(lang, list);
    }
    data.abbreviations = abbreviations;
    Ok(())
}
