//! A foreign record verified in its country's register: the locality from city and postcode,
//! the street by its comparison forms (exact, abbreviation, word order, then typo distance), the
//! house number, the postcode, the point. A street is answered only when one name stands clear of
//! every other: a typo or a partial name that fits two names is never settled by the number.

use std::collections::HashSet;

use super::line::{self, Reading};
use super::model::{CountryRegister, Street};
use super::text::{self, NameKey};
use crate::address::outcome::{Change, Outcome};
use crate::address::{ContactInput, ContactResult, Geo, Normalized, PostcodeCheck, Territory};
use crate::normalize::fold;

/// Lowest score of an answered street.
const ACCEPT: f64 = 0.83;
/// How far the next other name must stay below the best.
const MARGIN: f64 = 0.05;
/// Scores from here up are the name's own forms (exact, abbreviation, word order); below, the
/// street was reached through a typo.
const OWN_FORM: f64 = 0.94;

fn text(s: &Option<String>) -> &str {
    s.as_deref().map(str::trim).unwrap_or("")
}

/// Edits (with transpositions) between two stems, None when more than a typo: one edit from
/// six letters, two from twelve. A single edit cannot change both the first and the last letter,
/// which keeps the scan of an area cheap.
fn typo_edits(a: &str, b: &str) -> Option<usize> {
    let longest = a.len().max(b.len());
    let allowed = match longest {
        0..=5 => return None,
        6..=11 => 1,
        _ => 2,
    };
    if a.len().abs_diff(b.len()) > allowed {
        return None;
    }
    if allowed == 1
        && a.as_bytes().first() != b.as_bytes().first()
        && a.as_bytes().last() != b.as_bytes().last()
    {
        return None;
    }
    let d = strsim::osa_distance(a, b);
    (d <= allowed).then_some(d)
}

/// How well a written name fits one of the register's names, 0..1. A different street type
/// (`Rue X` for `Avenue X`, `Eichholzhof` for `Eichholzstrasse`) stays below the answer line.
pub fn score(q: &NameKey, s: &NameKey) -> f64 {
    if q.key == s.key {
        return 1.0;
    }
    let same_types = q.types.is_empty() || s.types.is_empty() || q.types == s.types;
    if q.core == s.core || q.compact == s.compact {
        return if same_types { 0.96 } else { 0.82 };
    }
    if q.sorted == s.sorted {
        return if same_types { 0.94 } else { 0.8 };
    }
    if !same_types {
        return 0.0;
    }
    if q.stem == s.stem {
        // the same name with another concatenated type
        return 0.82;
    }
    let mut best = 0.0f64;
    // a typo is corrected only between names that both carry a type or both lack one
    // (`Am Schank` is not `Schangstrasse`)
    let typed = |k: &NameKey| !k.types.is_empty() || k.stem != k.compact;
    if typed(q) != typed(s) {
    } else if let Some(e) = typo_edits(&q.stem, &s.stem).filter(|_| particles(q) == particles(s)) {
        best = 0.96 * (0.93 - 0.03 * e as f64);
    } else if q.tokens.len() > 1 && q.sorted != q.core {
        if let Some(e) = typo_edits(&q.sorted_compact, &s.sorted_compact) {
            best = 0.94 * (0.93 - 0.03 * e as f64);
        }
    }
    // a name written without a first name or title: every written word is one of the register's
    if q.compact.len() >= 5
        && q.compact.len() * 2 >= s.compact.len()
        && q.tokens.iter().all(|t| s.tokens.contains(t))
    {
        best = best.max(0.85 * 0.96);
    }
    best
}

/// The words of a name that are neither its type nor its core (`IM` of `Im Winkel`, `DE` of
/// `Rue de Bonnevoie`): a typo is corrected only on a name otherwise written whole, since a typo
/// and a missing word are two differences (`Wenkel` is not `Im Winkel`).
fn particles(k: &NameKey) -> usize {
    let types = k.types.split(' ').filter(|t| !t.is_empty()).count();
    k.key
        .split(' ')
        .count()
        .saturating_sub(k.tokens.len() + types)
}

/// Whether a name can fit by a typo or a word order (the forms equal are found by index).
fn near(q: &NameKey, k: &NameKey) -> bool {
    k.stem.len().abs_diff(q.stem.len()) <= 2
        || k.sorted_compact.len().abs_diff(q.sorted_compact.len()) <= 2
}

/// The streets of the register that can fit `q` by a typo or by holding every written word (the
/// forms equal are found by index): the bigram index's candidates and the rarest word's streets.
/// None when the name is too short for bigrams (the area is scanned then).
fn candidates(reg: &CountryRegister, q: &NameKey) -> Option<Vec<u32>> {
    let mut out = reg.grams.candidates(q)?;
    if let Some(rarest) = q
        .tokens
        .iter()
        .filter_map(|t| reg.streets_by_token.get(t))
        .min_by_key(|v| v.len())
    {
        out.extend(rarest.iter().copied());
        out.sort_unstable();
        out.dedup();
    }
    Some(out)
}

/// The streets of `ids` worth scoring for `q`: near in length, or holding every written word.
fn scan(reg: &CountryRegister, q: &NameKey, ids: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = ids
        .iter()
        .copied()
        .filter(|&id| reg.streets[id as usize].keys.iter().any(|k| near(q, k)))
        .collect();
    if let Some(rarest) = q
        .tokens
        .iter()
        .filter_map(|t| reg.streets_by_token.get(t))
        .min_by_key(|v| v.len())
    {
        let wanted: HashSet<u32> = ids.iter().copied().collect();
        out.extend(rarest.iter().copied().filter(|id| wanted.contains(id)));
        out.sort_unstable();
        out.dedup();
    }
    out
}

pub fn street_score(q: &NameKey, s: &Street) -> f64 {
    s.keys.iter().map(|k| score(q, k)).fold(0.0, f64::max)
}

/// The localities a city name designates: exactly, or by one clear typo.
pub fn localities_by_city(reg: &CountryRegister, city: &str) -> Vec<u32> {
    let f = fold(city);
    if f.is_empty() {
        return Vec::new();
    }
    if let Some(v) = reg.locality_by_name.get(&f) {
        return v.clone();
    }
    // `Luxembourg-Ville`, `Bern 14`: a known name followed by words or a district number
    let first: String = f.split(' ').next().unwrap_or("").to_string();
    if first.len() >= 4 {
        if let Some(v) = reg.locality_by_name.get(&first) {
            return v.clone();
        }
    }
    let mut best: Vec<(f64, u32)> = Vec::new();
    for (name, ids) in &reg.locality_by_name {
        if name.len().abs_diff(f.len()) > 2 {
            continue;
        }
        let sim = strsim::normalized_damerau_levenshtein(name, &f);
        if sim >= 0.85 {
            best.extend(ids.iter().map(|&i| (sim, i)));
        }
    }
    best.sort_by(|a, b| b.0.total_cmp(&a.0));
    let Some(&(top, _)) = best.first() else {
        return Vec::new();
    };
    best.into_iter()
        .take_while(|(s, _)| *s >= top - 1e-9)
        .map(|(_, i)| i)
        .collect()
}

/// The streets of the localities written (city, postcode) and of the postcode.
struct Area<'a> {
    reg: &'a CountryRegister,
    localities: &'a [u32],
    postcode: &'a str,
    empty: bool,
}

impl Area<'_> {
    fn contains(&self, street: u32) -> bool {
        let s = &self.reg.streets[street as usize];
        self.localities.contains(&s.locality)
            || (!self.postcode.is_empty() && s.postcodes.iter().any(|p| p == self.postcode))
    }
}

struct Candidate {
    street: u32,
    score: f64,
}

/// Scores the streets of `ids` for the reading; best first.
fn rank(reg: &CountryRegister, q: &NameKey, ids: &[u32]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = ids
        .iter()
        .map(|&id| Candidate {
            street: id,
            score: street_score(q, &reg.streets[id as usize]),
        })
        .filter(|c| c.score >= 0.6)
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

enum Decision {
    Found(u32, f64),
    /// one name in several places that neither the postcode nor the number tells apart
    Ambiguous,
    /// two different names fit alike
    Unclear,
    NotFound,
}

fn decide(
    reg: &CountryRegister,
    ranked: &[Candidate],
    number: Option<&(u32, String)>,
    postcode: &str,
    area: &Area,
    city: &HashSet<u32>,
) -> Decision {
    let Some(top) = ranked.first() else {
        return Decision::NotFound;
    };
    if top.score < ACCEPT {
        return Decision::NotFound;
    }
    let top_name = &reg.streets[top.street as usize].keys[0].key;
    // another name close to the best: a typo or partial name fits both
    if ranked.iter().any(|c| {
        c.score > top.score - MARGIN && reg.streets[c.street as usize].keys[0].key != *top_name
    }) {
        return Decision::Unclear;
    }
    let mut same: Vec<&Candidate> = ranked
        .iter()
        .filter(|c| {
            reg.streets[c.street as usize].keys[0].key == *top_name && c.score >= top.score - 1e-9
        })
        .collect();
    if same.len() > 1 && !area.empty {
        let inside: Vec<&Candidate> = same
            .iter()
            .copied()
            .filter(|c| area.contains(c.street))
            .collect();
        if !inside.is_empty() {
            same = inside;
        }
    }
    // the city written outweighs a postcode of another place
    if same.len() > 1 && !city.is_empty() {
        let inside: Vec<&Candidate> = same
            .iter()
            .copied()
            .filter(|c| city.contains(&reg.streets[c.street as usize].locality))
            .collect();
        if !inside.is_empty() {
            same = inside;
        }
    }
    // the number written before the postcode: of one name split by postcode (Bern's
    // `Bottigenstrasse` in 3019 and 3020), a wrong postcode must not pick the part where the
    // number is not
    if same.len() > 1 {
        if let Some((n, suffix)) = number {
            let with: Vec<&Candidate> = same
                .iter()
                .copied()
                .filter(|c| {
                    reg.streets[c.street as usize]
                        .find_number(*n, suffix)
                        .is_some()
                })
                .collect();
            if !with.is_empty() {
                same = with;
            }
        }
    }
    if same.len() > 1 && !postcode.is_empty() {
        let with: Vec<&Candidate> = same
            .iter()
            .copied()
            .filter(|c| {
                reg.streets[c.street as usize]
                    .postcodes
                    .iter()
                    .any(|p| p == postcode)
            })
            .collect();
        if !with.is_empty() {
            same = with;
        }
    }
    // the same street split by locality inside one municipality is one answer
    let municipalities: HashSet<&str> = same
        .iter()
        .map(|c| {
            reg.localities[reg.streets[c.street as usize].locality as usize]
                .municipality_code
                .as_str()
        })
        .collect();
    if same.len() > 1 && municipalities.len() > 1 {
        return Decision::Ambiguous;
    }
    if top.score < OWN_FORM
        && !corroborated(&reg.streets[same[0].street as usize], number, postcode)
    {
        return Decision::Unclear;
    }
    Decision::Found(same[0].street, top.score)
}

/// Whether the number written, absent from the street found, is a number of another street of
/// the place one typo away from the name written: the name may be a typo of that one (`29M, An
/// Urbech` in Buschdorf, whose `An Uerbech` has 29M), and two names are never settled by the number.
fn namesake_holds_number(
    reg: &CountryRegister,
    reading: &Reading,
    street: u32,
    area: &Area,
) -> bool {
    let Some((n, suffix)) = &reading.number else {
        return false;
    };
    let found = &reg.streets[street as usize];
    if found.find_number(*n, suffix).is_some() || area.empty {
        return false;
    }
    let q = reg.expander.name_key(&reading.street);
    let Some(ids) = candidates(reg, &q) else {
        return false;
    };
    ids.into_iter().any(|id| {
        let s = &reg.streets[id as usize];
        id != street
            && area.contains(id)
            && s.keys[0].key != found.keys[0].key
            && s.find_number(*n, suffix).is_some()
            && street_score(&q, s) >= ACCEPT
    })
}

/// Whether the record backs a street reached through a typo: a name one letter away from a
/// register's may be another real street (`Streckweg` is not `Steckweg`), so the typo is
/// corrected only when the number written is one of the street's and the postcode written one
/// of its postcodes — at least one of them given, neither contradicting.
fn corroborated(street: &Street, number: Option<&(u32, String)>, postcode: &str) -> bool {
    let by_number = match number {
        Some(_) if street.numbers.is_empty() => None,
        Some((n, suffix)) => Some(street.find_number(*n, suffix).is_some()),
        None => None,
    };
    let by_postcode = match postcode {
        "" => None,
        _ if street.postcodes.is_empty() => None,
        p => Some(street.postcodes.iter().any(|s| s == p)),
    };
    by_number != Some(false)
        && by_postcode != Some(false)
        && (by_number == Some(true) || by_postcode == Some(true))
}

/// Verifies the record in the register; None when the record lies outside what the register
/// covers at street level (the postal form answers it then).
pub fn verify(
    reg: &CountryRegister,
    input: &ContactInput,
    base: &ContactResult,
) -> Option<ContactResult> {
    if reg.streets.is_empty() {
        return None;
    }
    let cc = reg.info.country;
    let address = text(&input.address);
    let city_in = text(&input.city);
    let line = line::read(address, city_in, &reg.expander);
    let written_pc = text(&input.postcode);
    let postcode_in = if written_pc.is_empty() {
        line.postcode
            .as_deref()
            .map(|p| text::postcode(cc, p))
            .unwrap_or_default()
    } else {
        text::postcode(cc, written_pc)
    };

    // the area: localities of the city and of the postcode
    let by_city = localities_by_city(reg, city_in);
    let by_pc: Vec<u32> = match postcode_in.is_empty() {
        true => Vec::new(),
        false => reg
            .localities_by_postcode
            .get(&postcode_in)
            .cloned()
            .unwrap_or_default(),
    };
    let mut area_localities: Vec<u32> = by_city.clone();
    area_localities.extend(by_pc.iter().copied());
    area_localities.sort_unstable();
    area_localities.dedup();
    let pc_streets: &[u32] = match postcode_in.is_empty() {
        true => &[],
        false => reg
            .streets_by_postcode
            .get(&postcode_in)
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    };
    let area = Area {
        reg,
        localities: &area_localities,
        postcode: &postcode_in,
        empty: pc_streets.is_empty()
            && area_localities
                .iter()
                .all(|&l| reg.streets_by_locality[l as usize].is_empty()),
    };
    if area.empty && !reg.national {
        return None;
    }
    let city_set: HashSet<u32> = by_city.iter().copied().collect();
    // the streets of the area, listed only when a typo needs them scanned
    let mut area_list: Option<Vec<u32>> = None;
    let mut list_area = || -> Vec<u32> {
        area_list
            .get_or_insert_with(|| {
                let mut v: Vec<u32> = area_localities
                    .iter()
                    .flat_map(|&l| reg.streets_by_locality[l as usize].iter().copied())
                    .chain(pc_streets.iter().copied())
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .clone()
    };
    let streets_complete = reg.national
        || (!area_localities.is_empty()
            && area_localities
                .iter()
                .all(|&l| reg.localities[l as usize].complete_streets));

    // each reading of the line against the area, then the whole country
    let mut best: Option<(Decision, &Reading, f64)> = None;
    for reading in &line.readings {
        let q = reg.expander.name_key(&reading.street);
        if q.compact.is_empty() {
            continue;
        }
        // exact forms first: only a typo needs the area scanned
        let exact: Vec<u32> = reg
            .streets_by_form(&q)
            .into_iter()
            .filter(|&id| area.empty || area.contains(id))
            .collect();
        let mut ranked = rank(reg, &q, &exact);
        let settled = ranked.first().is_some_and(|c| c.score >= 0.94)
            && (area.empty || ranked.iter().any(|c| area.contains(c.street)));
        if !settled {
            let ids: Vec<u32> = match candidates(reg, &q) {
                _ if area.empty => Vec::new(),
                Some(c) => c.into_iter().filter(|&id| area.contains(id)).collect(),
                None => scan(reg, &q, &list_area()),
            };
            ranked = rank(reg, &q, &ids);
        }
        let clear = ranked.first().is_some_and(|c| c.score >= ACCEPT);
        // the whole country: only streets sharing a word of the name (a typo across the
        // country would answer strangers)
        if !clear && reg.national {
            let mut ids: Vec<u32> = Vec::new();
            for t in q.core.split(' ') {
                if let Some(v) = reg.streets_by_token.get(t) {
                    if v.len() <= 3000 {
                        ids.extend(v.iter().copied());
                    }
                }
            }
            ids.sort_unstable();
            ids.dedup();
            ranked = rank(reg, &q, &ids);
        }
        let top = ranked.first().map(|c| c.score).unwrap_or(0.0);
        let d = decide(
            reg,
            &ranked,
            reading.number.as_ref(),
            &postcode_in,
            &area,
            &city_set,
        );
        let better = match &best {
            None => true,
            Some((bd, br, bs)) => {
                // a street in the place written (city, postcode) outranks one found elsewhere in
                // the country: `3, Rue Napoléon 1er` in Olm is not `1, Rue Napoléon` of Koetschette
                let rank_of = |d: &Decision| match d {
                    Decision::Found(id, _) if area.empty || area.contains(*id) => 4,
                    Decision::Found(..) => 3,
                    Decision::Ambiguous => 2,
                    Decision::Unclear => 1,
                    Decision::NotFound => 0,
                };
                let (a, b) = (rank_of(&d), rank_of(bd));
                a > b
                    || (a == b && top > *bs + 1e-9)
                    || (a == b
                        && (top - *bs).abs() < 1e-9
                        && reading.number.is_some()
                        && br.number.is_none())
            }
        };
        if better {
            best = Some((d, reading, top));
        }
    }

    let mut r = base.clone();
    r.ok = true;
    r.foreign_address = Some(true);
    r.verified_in = Some(reg.info.register);
    r.attribution = vec![reg.info.attribution];
    let mut out = Outcome::default();
    out.condition("FOREIGN");
    r.normalized = Normalized {
        address: address.to_string(),
        postcode: if postcode_in.is_empty() {
            written_pc.to_string()
        } else {
            text::display_postcode(cc, &postcode_in)
        },
        city: city_in.to_string(),
        province: text(&input.province).to_string(),
        country: cc.to_string(),
        country_code: cc.to_string(),
    };
    let Some((decision, reading, _)) = best else {
        if address.is_empty() {
            return None;
        }
        out.condition("STREET_NOT_FOUND");
        r.outcome = out.codes();
        return streets_complete.then_some(r);
    };
    let (street_id, street_score) = match decision {
        Decision::Found(id, s) => (id, s),
        Decision::Ambiguous => {
            out.condition("STREET_AMBIGUOUS");
            r.outcome = out.codes();
            return Some(r);
        }
        Decision::Unclear | Decision::NotFound => {
            if !streets_complete {
                return None;
            }
            out.condition("STREET_NOT_FOUND");
            r.outcome = out.codes();
            return Some(r);
        }
    };
    let street = &reg.streets[street_id as usize];
    let locality = &reg.localities[street.locality as usize];
    if namesake_holds_number(reg, reading, street_id, &area) {
        out.condition("STREET_AMBIGUOUS");
        r.outcome = out.codes();
        return Some(r);
    }

    // the street as the register writes it
    if fold(&reading.street) != fold(&street.name) {
        let written_key = reg.expander.name_key(&reading.street);
        let form_only = street.keys.iter().any(|k| k.key == written_key.key);
        out.change(if form_only || street_score >= 0.999 {
            Change::StreetForm
        } else {
            Change::Street
        });
    } else if reading.street != street.name {
        out.change(Change::StreetForm);
    }
    if fold(city_in) != fold(&locality.name) {
        let alt = locality.alt_names.iter().any(|a| fold(a) == fold(city_in));
        if !alt {
            out.change(Change::City);
        }
    } else if city_in != locality.name {
        out.change(Change::CityForm);
    }

    // the house number
    let found = reading.number.as_ref().and_then(|(n, s)| {
        street.find_number(*n, s).or_else(|| {
            // `12 B` written for a flat or staircase of number 12 that the register lists bare
            (!s.is_empty())
                .then(|| street.find_number(*n, ""))
                .flatten()
        })
    });
    let number_label = match (&reading.number, found) {
        (_, Some(h)) => h.label(),
        (Some((n, s)), None) => format!("{n}{s}"),
        (None, None) => String::new(),
    };
    match (&reading.number, found) {
        (None, _) => out.condition("HOUSE_NUMBER_MISSING"),
        (Some(_), None) if locality.complete_numbers => out.condition("HOUSE_NUMBER_NOT_FOUND"),
        _ => {}
    }

    // the postcode: the number's, else the street's only one
    let known: Option<(&str, &'static str)> = found
        .and_then(|h| h.postcode.as_deref())
        .map(|p| (p, "house_number"))
        .or(match street.postcodes.as_slice() {
            [one] => Some((one.as_str(), "street")),
            _ => None,
        });
    let (postcode, confirmed, precision) = match known {
        Some((p, precision)) => {
            if postcode_in != p {
                out.change(Change::Postcode);
            }
            (p.to_string(), true, precision)
        }
        None if street.postcodes.contains(&postcode_in) => (postcode_in.clone(), true, "street"),
        None if street.postcodes.is_empty() && locality.postcodes.contains(&postcode_in) => {
            out.condition("POSTCODE_UNCONFIRMED");
            (postcode_in.clone(), false, "locality")
        }
        None => {
            out.condition("POSTCODE_UNCONFIRMED");
            (postcode_in.clone(), false, "street")
        }
    };
    if precision != "locality" || confirmed {
        r.postcode_check = Some(PostcodeCheck {
            source: reg.info.dataset,
            precision,
            house_numbers: street
                .numbers
                .iter()
                .filter(|h| h.postcode.as_deref() == Some(postcode.as_str()))
                .count() as u32,
            agreement: if confirmed { 1.0 } else { 0.0 },
            confirmed,
        });
    } else {
        r.postcode_check = Some(PostcodeCheck {
            source: reg.info.dataset,
            precision,
            house_numbers: 0,
            agreement: 0.0,
            confirmed,
        });
    }

    // the point
    let (point, geo_precision) = match found.and_then(|h| h.point) {
        Some(p) => (Some(p), "house_number"),
        None => match street.centre() {
            Some(p) => (Some(p), "street"),
            None => (locality.point, "municipality"),
        },
    };
    r.geo = point.map(|(lat, lon)| Geo {
        lat,
        lon,
        precision: geo_precision,
        source: reg.info.source,
        dataset: reg.info.dataset,
    });

    let line_out = if number_label.is_empty() {
        street.name.clone()
    } else if reg.number_first {
        format!("{number_label}, {}", street.name)
    } else if matches!(cc, "ES" | "AD") {
        format!("{}, {number_label}", street.name)
    } else {
        format!("{} {number_label}", street.name)
    };
    let line_out = if reading.sub_address.is_empty() {
        line_out
    } else {
        format!("{line_out}, {}", reading.sub_address)
    };
    r.normalized.address = line_out;
    r.normalized.postcode = text::display_postcode(cc, &postcode);
    r.normalized.city = locality.name.clone();
    r.municipality = Some(locality.municipality.clone());
    r.district = street
        .district
        .clone()
        .or_else(|| locality.district.clone());
    r.territory = Some(Territory {
        country: Some(cc.to_string()),
        municipality_code: street
            .municipality_code
            .clone()
            .or_else(|| Some(locality.municipality_code.clone()))
            .filter(|c| !c.is_empty()),
        municipality_code_type: Some(reg.info.municipality_code_type),
        ..Default::default()
    });
    r.address_key = address_key(cc, &postcode, &street.keys[0], &number_label);
    r.outcome = out.codes();
    Some(r)
}

/// The same key for every spelling of one address: country, postcode, the street's comparison
/// form, the number.
fn address_key(cc: &str, postcode: &str, street: &NameKey, number: &str) -> String {
    let mut k = format!("{cc} {postcode} {}", street.key);
    if !number.is_empty() {
        k.push(' ');
        k.push_str(&number.to_uppercase());
    }
    k
}
