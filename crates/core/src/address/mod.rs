//! Contact verification for Italy: the address line parsed, the municipality, street and house
//! number resolved against the register, the postcode checked, a point found, and the result
//! with the spec's outcome codes. `verify` is one contact; `verify_batch` runs a batch (on rayon when it
//! is large).

pub mod answer;
mod country;
mod model;
pub mod outcome;
pub mod parse;
mod postcode_check;
mod present;
pub mod repair;
pub mod resolve;
pub mod street_choice;
pub mod street_search;
mod tax_code_check;

use crate::rules::{self, key};

use rayon::prelude::*;

pub use model::*;
use postcode_check::*;
use present::*;
use tax_code_check::tax_code;

use crate::normalize::fold;
use crate::register::municipality::MunicipalityRecord;
use crate::register::street::{CityStreets, HouseNumberEntry, Street};
use crate::register::{attribution, Municipality, Register};
use country::{detect_country, foreign_country, postcode_country, ForeignCountry};
use outcome::{Change, Outcome};
use parse::{NumberStatus, ParsedAddress};
use resolve::{CityMatch, CityResolution, StreetMatch, StreetResolution};
use street_choice::RegisterWords;

/// Batches below this size are verified on the calling thread. The service's single contacts reach
/// the core in batches of one event-loop turn (a few to a few dozen, ~15 µs each): handing them to
/// rayon's workers and waking the caller again cost ~4 µs of CPU per contact more than verifying
/// them on the pool thread that took them (`bench/contact-loop.ts`, 8 and 32 calls per turn), and
/// on the 2-core machine the other core runs the event loop anyway (issue 14).
const PARALLEL_FROM: usize = 64;

/// A batch's answers, one per input, in order: on rayon from `PARALLEL_FROM` inputs.
pub fn verify_batch(
    register: &Register,
    inputs: &[ContactInput],
    options: &VerifyOptions,
) -> Vec<ContactResult> {
    if inputs.len() < PARALLEL_FROM {
        return inputs
            .iter()
            .map(|i| verify(register, i, options))
            .collect();
    }
    inputs
        .par_iter()
        .map(|i| verify(register, i, options))
        .collect()
}

fn text(s: &Option<String>) -> &str {
    s.as_deref().map(str::trim).unwrap_or("")
}

/// One contact against the register, in named steps: repair the fields → parse the line → send
/// abroad what is foreign → locate the municipality → match the street → check the house number →
/// check the postcode → present the answer.
pub fn verify(register: &Register, input: &ContactInput, options: &VerifyOptions) -> ContactResult {
    // ok is false only for INCOMPLETE_DATA (the spec's one case); everything else is an answer
    let mut r = ContactResult {
        ok: true,
        ..Default::default()
    };
    let mut out = Outcome::default();
    let precision = options.precision.clamp(1, 5);
    let fixed = repair_fields(register, input);
    let parsed = parse_line(&fixed.address);
    r.sub_address = parsed.sub_address.clone();
    r.care_of = parsed.care_of.clone();
    r.address_key = input_key(&parsed);
    tax_code(register, input, &mut r);
    if let Some(foreign) = stated_abroad(register, input, options) {
        return answer_abroad(register, r, input, options, foreign);
    }

    let written = Written::of(&fixed, &parsed);
    r.normalized = written.normalized();
    if written.address.is_empty() && written.city.is_empty() && written.postcode.is_empty() {
        return stop(r, out, "INCOMPLETE_DATA");
    }
    let first_name: &dyn RegisterWords = register;
    let detect = options.foreign == Foreign::Detect;
    let (record, m, how) = match locate_municipality(
        register, input, &written, &parsed, precision, first_name, detect,
    ) {
        Located::Found(record, m, how, hamlet) => {
            r.hamlet = hamlet.map(str::to_string).or_else(|| {
                // a frazione or località of the street register written as the city, a place
                // named after the municipality (`Lido di Camaiore`), or a quarter written after
                // its name (`Roma EUR`)
                let city = written.city.trim();
                if how != CityMatch::Changed {
                    return None;
                }
                if register
                    .streets
                    .hamlet(city)
                    .contains(&record.cadastral_code)
                    || resolve::named_after(register, city, record)
                {
                    return Some(display_name(&fold(city)));
                }
                resolve::quarter_of(register, city, record)
            });
            (record, m, how)
        }
        Located::Stop(condition, candidates) => {
            r.candidates = candidates;
            return stop(r, out, condition);
        }
        Located::Abroad(country) => return answer_abroad(register, r, input, options, country),
    };
    present_municipality(&mut r, &mut out, record, m, how, &written.province);

    let streets = register.streets.city(&record.cadastral_code);
    let street = match_street(
        &mut r,
        &mut out,
        streets.as_deref(),
        &parsed,
        &written,
        precision,
        first_name,
    );
    let found = street.as_ref().and_then(|s| s.found);
    let (number_entry, geo) = match (streets.as_deref(), found) {
        (Some(city), Some((s, _))) => {
            check_house_number(&mut r, &mut out, city, &record.cadastral_code, s, &parsed)
        }
        _ => (None, None),
    };
    present_street_line(&mut r, &mut out, found, &parsed, &written, options);
    let hamlet_postcodes = r.hamlet.as_deref().map_or_else(Vec::new, |h| {
        register
            .municipalities
            .place_postcodes(&record.cadastral_code, h)
    });
    let (postcode, check) = check_postcode(
        m,
        streets.as_deref(),
        found.map(|(s, _)| s),
        &parsed,
        number_entry,
        &written.postcode,
        !register.municipalities.lists_postcode(&written.postcode),
        &hamlet_postcodes,
        holder_source(&streets),
        &mut out,
    );
    r.normalized.postcode = postcode;
    r.postcode_check = Some(check);
    present_city(&mut r, m, &written.city, options);
    r.geo = geo.or_else(|| street_or_centre_point(found.map(|(s, _)| s), m, &streets));
    let step = street.map(|s| s.step).unwrap_or_default();
    present(
        r,
        out,
        options,
        &fixed,
        how,
        &step,
        found.is_some(),
        &parsed,
    )
}

/// Step 1: postcode and province out of the city field, the city out of the end of the line.
fn repair_fields(register: &Register, input: &ContactInput) -> repair::Repaired {
    repair::repair(
        register,
        text(&input.address),
        text(&input.postcode),
        text(&input.city),
        text(&input.province),
    )
}

/// Step 2: the address line read into type, name, number and the rest; a street type one typo away
/// (`Vai Roma`) is taken as the type.
fn parse_line(address: &str) -> ParsedAddress {
    let mut parsed = parse::parse(address);
    if parsed.street_type.is_none() {
        if let Some((ty, rest)) = resolve::mistyped_type(&parsed.name) {
            parsed.street_type = Some(ty);
            parsed.street_type_raw = parsed
                .name
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string();
            parsed.name = rest;
        }
    }
    parsed
}

/// Step 3: a declared foreign country, or (`foreign: detect`) a postcode in a foreign form
/// (`F-75001`): abroad before any Italian guess.
fn stated_abroad(
    register: &Register,
    input: &ContactInput,
    options: &VerifyOptions,
) -> Option<ForeignCountry> {
    if let Some(foreign) = foreign_country(register, input) {
        return Some(foreign);
    }
    if options.foreign != Foreign::Detect {
        return None;
    }
    postcode_country(register, text(&input.postcode))
}

/// A country with a register in service is verified in it (`crate::foreign`); elsewhere the
/// postal form of the country.
fn answer_abroad(
    register: &Register,
    r: ContactResult,
    input: &ContactInput,
    options: &VerifyOptions,
    foreign: ForeignCountry,
) -> ContactResult {
    // a register reads fields: the parts the country's format reads off a one-line address,
    // read once for the register and, when it does not answer, the postal form
    let parts = crate::foreign::has_register(&foreign.code)
        .then(|| crate::postal::contact::read_parts(register, &foreign.code, input))
        .flatten();
    let read = parts
        .as_ref()
        .and_then(|p| crate::postal::contact::read_input(input, p));
    if let Some(verified) =
        crate::foreign::verify(&foreign.code, read.as_ref().unwrap_or(input), &r)
    {
        return verified;
    }
    foreign_result(register, r, input, options, foreign, parts)
}

/// The fields as the customer wrote them once repaired: what the answer starts from.
struct Written<'a> {
    address: &'a str,
    city: String,
    postcode: String,
    province: String,
}

impl<'a> Written<'a> {
    fn of(fixed: &'a repair::Repaired, parsed: &ParsedAddress) -> Written<'a> {
        Written {
            address: fixed.address.as_str(),
            city: if fixed.city.is_empty() {
                parsed.city.clone().unwrap_or_default()
            } else {
                fixed.city.clone()
            },
            postcode: if fixed.postcode.is_empty() {
                parsed.postcode.clone().unwrap_or_default()
            } else {
                resolve::normalize_postcode(&fixed.postcode)
            },
            province: fixed.province.trim().to_string(),
        }
    }

    fn normalized(&self) -> Normalized {
        Normalized {
            address: self.address.to_string(),
            postcode: self.postcode.clone(),
            city: self.city.clone(),
            province: self.province.to_uppercase(),
            country: "Italia".into(),
            country_code: "IT".into(),
        }
    }
}

/// The answer stops at a condition the customer must act on.
fn stop(mut r: ContactResult, mut out: Outcome, condition: &'static str) -> ContactResult {
    out.condition(condition);
    if condition == "INCOMPLETE_DATA" {
        r.ok = false;
    }
    r.outcome = out.codes();
    r
}

enum Located<'r> {
    Found(
        &'r MunicipalityRecord,
        &'r Municipality,
        CityMatch,
        Option<&'r str>,
    ),
    /// A condition, with the municipalities the city may name.
    Stop(&'static str, Vec<Candidate>),
    Abroad(ForeignCountry),
}

/// Step 4: the municipality from city, postcode and province; where the name alone cannot tell
/// (two places called alike), the one that has the street wins.
fn locate_municipality<'r>(
    register: &'r Register,
    input: &ContactInput,
    written: &Written,
    parsed: &ParsedAddress,
    precision: u8,
    first_name: &dyn RegisterWords,
    detect: bool,
) -> Located<'r> {
    let probe = |cadastral: &str| -> bool {
        register.streets.city(cadastral).is_some_and(|c| {
            matches!(
                resolve::street_chosen(&c, parsed, "", precision, first_name).0,
                StreetResolution::Found(..)
            )
        })
    };
    let abroad = || {
        detect
            .then(|| {
                detect_country(
                    register,
                    input,
                    &written.city,
                    written.address,
                    &written.postcode,
                    &written.province,
                )
            })
            .flatten()
    };
    let resolution = resolve::municipality(
        register,
        &written.city,
        &written.postcode,
        &written.province,
        precision,
        &probe,
    );
    match resolution {
        // `foreign: detect`: a city Italy has not, put right by an Italian postcode alone
        // (`Calle Mayor 1, 28013 Madrid`), is abroad when the record's signals say so
        CityResolution::Found(record, m, how, hamlet) => {
            let changed = matches!(how, CityMatch::Changed) && !written.city.is_empty();
            match changed.then(abroad).flatten() {
                Some(country) => Located::Abroad(country),
                None => Located::Found(record, m, how, hamlet),
            }
        }
        CityResolution::Ambiguous(found) => {
            Located::Stop("CITY_AMBIGUOUS", city_candidates(&found))
        }
        // `foreign: detect`: a city no Italian register knows may name a foreign place, and a
        // one-line address with no Italian city in it may be abroad
        CityResolution::Suggested(_) | CityResolution::NotFound => {
            let suggested = match &resolution {
                CityResolution::Suggested(found) => city_candidates(found),
                _ => Vec::new(),
            };
            abroad().map_or(Located::Stop("CITY_NOT_FOUND", suggested), Located::Abroad)
        }
        CityResolution::Missing => abroad().map_or(
            Located::Stop("INCOMPLETE_DATA", Vec::new()),
            Located::Abroad,
        ),
    }
}

fn city_candidates(found: &[&MunicipalityRecord]) -> Vec<Candidate> {
    found
        .iter()
        .filter_map(|r| r.current.as_ref())
        .take(MAX_CANDIDATES)
        .map(city_candidate)
        .collect()
}

/// The municipality found: its name, codes and kind, and how the written city and province differ.
fn present_municipality(
    r: &mut ContactResult,
    out: &mut Outcome,
    record: &MunicipalityRecord,
    m: &Municipality,
    how: CityMatch,
    province_in: &str,
) {
    match how {
        CityMatch::Same => {}
        CityMatch::Form => out.change(Change::CityForm),
        CityMatch::Changed => out.change(Change::City),
    }
    if province_in.is_empty() || !province_matches(province_in, m) {
        out.change(Change::Province);
    }
    r.municipality = Some(m.name.clone());
    r.territory = Some(Territory {
        istat_code: m.istat_code.clone(),
        cadastral_code: record.cadastral_code.clone(),
        street_id: None,
        ..Default::default()
    });
    r.city_type = Some(CityType {
        provincial_capital: m.provincial_capital,
        label: match m.provincial_capital {
            Some(true) => "provincial_capital",
            Some(false) => "municipality",
            None => "unknown",
        },
    });
    r.attribution.push(attribution::ISTAT);
}

/// Step 5: the street in the municipality's streets (none for a PO box or an empty line, nothing
/// to match where the register lists no street); the candidates when none could be chosen.
fn match_street<'c>(
    r: &mut ContactResult,
    out: &mut Outcome,
    city: Option<&'c CityStreets>,
    parsed: &ParsedAddress,
    written: &Written,
    precision: u8,
    first_name: &dyn RegisterWords,
) -> Option<StreetAnswer<'c>> {
    if let Some(po_box) = &parsed.po_box {
        out.condition("PO_BOX");
        r.normalized.address = format!("Casella Postale {po_box}");
        return None;
    }
    if written.address.is_empty() {
        out.condition("INCOMPLETE_DATA");
        r.ok = false;
        return None;
    }
    let city = city?;
    let answer = resolve_street(city, parsed, &written.postcode, precision, first_name, out);
    r.candidates = answer
        .candidates
        .iter()
        .take(MAX_CANDIDATES)
        .map(|&i| candidate(city.street(i)))
        .collect();
    if let Some((s, _)) = answer.found {
        r.attribution.push(attribution::ANNCSU_STREETS);
        if let Some(t) = r.territory.as_mut() {
            t.street_id = (s.id != 0).then(|| s.id.to_string());
        }
        r.district = Some(s.district.clone()).filter(|d| !d.is_empty());
    }
    Some(answer)
}

/// Step 6: the house number on the street found: its entry (district, postcode) and its point,
/// with the attribution of the dataset that gave it.
fn check_house_number<'s>(
    r: &mut ContactResult,
    out: &mut Outcome,
    city: &CityStreets,
    cadastral: &str,
    street: &'s Street,
    parsed: &ParsedAddress,
) -> (Option<&'s HouseNumberEntry>, Option<Geo>) {
    let mut geo = None;
    let entry = check_number(city, street, parsed, out, &mut geo);
    if let Some(n) = entry.filter(|n| !n.district.is_empty()) {
        r.district = Some(n.district.clone());
    }
    match geo.as_ref().map(|g| g.dataset) {
        Some("municipal") => {
            if let Some(a) = attribution::municipal_house_numbers(cadastral) {
                r.attribution.push(a);
            }
        }
        Some("anncsu") => r.attribution.push(attribution::ANNCSU_NUMBERS),
        _ => {}
    }
    (entry, geo)
}

/// The address line answered: the register's street in the form people read (or the line as
/// written, with `preserve_original`), and the key dedupe compares.
fn present_street_line(
    r: &mut ContactResult,
    out: &mut Outcome,
    found: Option<(&Street, StreetMatch)>,
    parsed: &ParsedAddress,
    written: &Written,
    options: &VerifyOptions,
) {
    let number_text = parsed
        .house_number
        .as_ref()
        .map(|h| h.display())
        .unwrap_or_default();
    if let Some((s, how)) = found {
        let line = street_line(s, &number_text, parsed);
        match how {
            StreetMatch::Same => {}
            StreetMatch::Form => out.change(Change::StreetForm),
            StreetMatch::Changed => out.change(Change::Street),
        }
        r.address_key = key::address_key(&s.street_type, &s.name, &number_text);
        if options.preserve_original {
            r.canonical_address = Some(line);
            r.normalized.address = written_line(parsed, &number_text);
        } else {
            r.normalized.address = line;
        }
        if number_changed(parsed) {
            out.change(Change::Building);
        }
    } else if parsed.po_box.is_none() && !written.address.is_empty() {
        r.normalized.address = written_line(parsed, &number_text);
    }
}

/// The municipality's name and province (the city as written kept with `preserve_original`).
fn present_city(r: &mut ContactResult, m: &Municipality, city_in: &str, options: &VerifyOptions) {
    r.normalized.province = m.province.clone();
    if options.preserve_original && !city_in.is_empty() {
        r.canonical_city = Some(m.name.clone());
        r.normalized.city = city_in.to_string();
    } else {
        r.normalized.city = m.name.clone();
    }
}

/// Without the number's point: the street's, else the municipality's centre.
fn street_or_centre_point(
    street: Option<&Street>,
    m: &Municipality,
    streets: &Option<std::sync::Arc<CityStreets>>,
) -> Option<Geo> {
    let on_street = street.and_then(|s| {
        Some(Geo {
            lat: s.lat?,
            lon: s.lon?,
            precision: "street",
            source: "anncsu",
            dataset: holder_source(streets),
        })
    });
    // the municipality's centre is Wikidata's point (CC0), not a register's
    on_street.or_else(|| {
        Some(Geo {
            lat: m.lat?,
            lon: m.lon?,
            precision: "municipality",
            source: "wikidata",
            dataset: "wikidata",
        })
    })
}

/// Step 8: the answer as the caller asked for it: postal form, the steps explained, the outcome.
#[allow(clippy::too_many_arguments)]
fn present(
    mut r: ContactResult,
    out: Outcome,
    options: &VerifyOptions,
    fixed: &repair::Repaired,
    how: CityMatch,
    step: &resolve::Step,
    street_found: bool,
    parsed: &ParsedAddress,
) -> ContactResult {
    if options.postal_form {
        r.normalized_postal = Some(postal(&r.normalized));
    }
    if out.has("INCOMPLETE_DATA") {
        r.ok = false;
    }
    if options.debug {
        r.debug = Some(Debug {
            repairs: fixed.moved.clone(),
            city_match: match how {
                CityMatch::Same => "same",
                CityMatch::Form => "form",
                CityMatch::Changed => "changed",
            },
            street_step: if step.name.is_empty() {
                "not_tried"
            } else {
                step.name
            },
            edits: step.edits,
            score: step.score(),
            reason: step.reason(),
            house_number: match r.geo.as_ref().map(|g| g.precision) {
                Some("house_number") => "found",
                Some("interpolated") => "interpolated",
                _ if street_found && parsed.house_number.is_some() => "not_found",
                _ => "not_checked",
            },
        });
    }
    r.attribution.dedup();
    r.outcome = out.codes();
    r
}

fn holder_source(streets: &Option<std::sync::Arc<CityStreets>>) -> &'static str {
    match streets.as_ref().map(|c| c.record.numbers_source.as_str()) {
        Some("municipal") => "municipal",
        _ => "anncsu",
    }
}

fn province_matches(written: &str, m: &Municipality) -> bool {
    let w = fold(written.trim_matches(['(', ')']));
    w == m.province || w == fold(&m.province_name)
}

fn input_key(parsed: &ParsedAddress) -> String {
    if parsed.name.is_empty() && parsed.po_box.is_none() {
        return String::new();
    }
    if let Some(po) = &parsed.po_box {
        return format!("CASELLA POSTALE {po}");
    }
    let number = parsed
        .house_number
        .as_ref()
        .map(|h| h.display())
        .unwrap_or_default();
    key::address_key(parsed.street_type.unwrap_or(""), &parsed.name, &number)
}

/// The street found, the step that found it, and the streets that fit as well when none was chosen.
struct StreetAnswer<'c> {
    found: Option<(&'c Street, StreetMatch)>,
    step: resolve::Step,
    candidates: Vec<u32>,
}

fn resolve_street<'c>(
    city: &'c CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn RegisterWords,
    out: &mut Outcome,
) -> StreetAnswer<'c> {
    let (resolution, step) =
        resolve::street_chosen(city, parsed, postcode, precision, is_first_name);
    let candidates = match &resolution {
        StreetResolution::Ambiguous(v) | StreetResolution::TypeMissing(v) => v.clone(),
        _ => Vec::new(),
    };
    StreetAnswer {
        found: street_outcome(city, parsed, resolution, out),
        step,
        candidates,
    }
}

fn street_outcome<'c>(
    city: &'c CityStreets,
    parsed: &ParsedAddress,
    resolution: StreetResolution,
    out: &mut Outcome,
) -> Option<(&'c Street, StreetMatch)> {
    if fold(&parsed.name).is_empty() {
        if parsed
            .street_type
            .is_some_and(|t| rules::italy().is_locality_type(t))
            || parsed.street_type.is_none()
        {
            out.condition("LOCALITY_WITHOUT_STREET");
        } else {
            out.condition("STREET_NOT_FOUND");
        }
        return None;
    }
    match resolution {
        StreetResolution::Found(i, how) => Some((city.street(i), how)),
        StreetResolution::Ambiguous(_) => {
            out.condition("STREET_AMBIGUOUS");
            None
        }
        StreetResolution::TypeMissing(_) => {
            out.condition("STREET_TYPE_MISSING");
            None
        }
        StreetResolution::NotFound => {
            if parsed
                .street_type
                .is_some_and(|t| rules::italy().is_locality_type(t))
            {
                // a locality the register does not list as a street is still deliverable
                out.condition("LOCALITY_WITHOUT_STREET");
            } else {
                out.condition("STREET_NOT_FOUND");
                if parsed.street_type.is_none() {
                    out.condition("STREET_TYPE_MISSING");
                }
            }
            None
        }
    }
}

/// The house number against the street's numbers; sets the point.
fn check_number<'s>(
    city: &CityStreets,
    street: &'s Street,
    parsed: &ParsedAddress,
    out: &mut Outcome,
    geo: &mut Option<Geo>,
) -> Option<&'s crate::register::street::HouseNumberEntry> {
    let dataset = match city.record.numbers_source.as_str() {
        "municipal" => "municipal",
        _ => "anncsu",
    };
    match parsed.number_status {
        NumberStatus::Missing => {
            let locality = rules::italy().is_locality_type(&street.street_type);
            if !locality {
                out.condition("HOUSE_NUMBER_MISSING");
            }
            return None;
        }
        NumberStatus::InvalidFormat => {
            out.condition("HOUSE_NUMBER_INVALID_FORMAT");
            return None;
        }
        NumberStatus::Found => {}
    }
    let h = parsed.house_number.as_ref()?;
    if h.without_number || h.km.is_some() || street.numbers.is_empty() {
        return None;
    }
    if let Some(n) = resolve::find_number(street, h.number, &h.suffix) {
        *geo = Some(Geo {
            lat: n.lat,
            lon: n.lon,
            precision: "house_number",
            source: "anncsu",
            dataset,
        });
        return Some(n);
    }
    if city.record.complete_numbers {
        out.condition("HOUSE_NUMBER_NOT_FOUND");
    }
    if let Some((lat, lon)) = resolve::interpolate(street, h.number) {
        *geo = Some(Geo {
            lat,
            lon,
            precision: "interpolated",
            source: "anncsu",
            dataset,
        });
    }
    None
}

/// The postal form of the country (`crate::postal`).
fn foreign_result(
    register: &Register,
    r: ContactResult,
    input: &ContactInput,
    options: &VerifyOptions,
    c: ForeignCountry,
    parts: Option<crate::postal::reader::Parts>,
) -> ContactResult {
    let country = crate::postal::contact::Country {
        code: &c.code,
        name: &c.name,
        resolved: c.resolved,
    };
    crate::postal::contact::foreign_result(register, r, input, options, country, parts)
}

#[cfg(test)]
mod civici_tests;
#[cfg(test)]
mod places_tests;
#[cfg(test)]
mod postal_dump_tests;
#[cfg(test)]
mod tests;
