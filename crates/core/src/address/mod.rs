//! Contact verification for Italy: the address line parsed, the municipality, street and house
//! number resolved against the register, the postcode checked, a point found, and the result
//! with the spec's outcome codes. `verify` is one contact; `verify_batch` runs a batch (on rayon when it
//! is large).

pub mod answer;
mod country;
pub mod key;
pub mod outcome;
pub mod parse;
pub mod repair;
pub mod resolve;
pub mod rules;

/// Italy's street types, where the importers and the other matchers have always found them.
pub use rules::it::street_type;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::normalize::fold;
use crate::register::municipality::MunicipalityRecord;
use crate::register::street::{CityStreets, HouseNumberEntry, Street};
use crate::register::{Municipality, Register};
use country::{detect_country, foreign_country, postcode_country, ForeignCountry};
use outcome::{Change, Outcome};
use parse::{NumberStatus, ParsedAddress, SubAddress};
use resolve::{CityMatch, CityResolution, StreetMatch, StreetResolution};

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct ContactInput {
    #[serde(default)]
    pub address: Option<String>,
    #[serde(default)]
    pub postcode: Option<String>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub province: Option<String>,
    #[serde(default)]
    pub country_code: Option<String>,
    #[serde(default)]
    pub country: Option<String>,
    #[serde(default)]
    pub tax_code: Option<String>,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub first_name: Option<String>,
    #[serde(default)]
    pub gender: Option<String>,
    #[serde(default)]
    pub birth_date: Option<String>,
    /// ISO alpha-2 of a country the caller found named in the city field or at the end of the
    /// address line (`src/countries/resolve.ts`, the owner of country names): read only under
    /// `foreign: detect`, once the city is not an Italian municipality.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_named: Option<String>,
}

/// Where records without a declared country are placed, for contacts and dedupe alike (English
/// values only: the Italian `dichiarati` / `rileva` are mapped in `src/http/keys.ts`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Foreign {
    /// Only records that state a country are foreign.
    #[default]
    Declared,
    /// A record without country that Italy does not know, naming a country clearly, is foreign.
    Detect,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VerifyOptions {
    /// 1 (exact forms only) to 5 (most tolerant); default 3. Above 3 matching is approximate.
    #[serde(default = "default_precision")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub precision: u8,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub preserve_original: bool,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub postal_form: bool,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub foreign: Foreign,
    /// Adds `debug`: the repairs, matching step, score and reason of the answer.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub debug: bool,
}

/// A batch of contacts verified with one set of options (`verifyContacts`; `verifyForeign`
/// reads the items only).
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ContactBatch {
    pub items: Vec<ContactInput>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub options: VerifyOptions,
}

fn default_precision() -> u8 {
    3
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            precision: 3,
            preserve_original: false,
            postal_form: false,
            foreign: Foreign::Declared,
            debug: false,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Normalized {
    pub address: String,
    pub postcode: String,
    pub city: String,
    pub province: String,
    pub country: String,
    pub country_code: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Geo {
    pub lat: f64,
    pub lon: f64,
    /// house_number, interpolated, street, municipality
    pub precision: &'static str,
    /// The spec's enumeration (anncsu | inspire | osm): every Italian point comes from the national
    /// address register family, ANNCSU, or the municipal registers that feed it.
    pub source: &'static str,
    /// Where the point really comes from: anncsu (INDIR), municipal (a municipality's own open
    /// data), wikidata (municipality centre).
    pub dataset: &'static str,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Territory {
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub istat_code: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub cadastral_code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub street_id: Option<String>,
    /// Other countries (crate::foreign): ISO alpha-2, the register's municipality code and its kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub municipality_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub municipality_code_type: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CityType {
    pub provincial_capital: Option<bool>,
    /// provincial_capital, municipality, unknown (the text in the request language is chosen in TypeScript)
    pub label: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PostcodeCheck {
    pub source: &'static str,
    /// house_number, interpolated, street, locality, municipality
    pub precision: &'static str,
    pub house_numbers: u32,
    pub agreement: f64,
    pub confirmed: bool,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ContactResult {
    pub ok: bool,
    pub outcome: Vec<String>,
    pub normalized: Normalized,
    /// The postal form (upper case, no accents), with `postal_form`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub normalized_postal: Option<Normalized>,
    /// The envelope lines of a foreign address in its country's order, without the country line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub postal_lines: Vec<String>,
    /// The register's address and city, with `preserve_original` (normalized keeps what was written).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub canonical_address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub canonical_city: Option<String>,
    pub municipality: Option<String>,
    /// The frazione (or merged municipality) written as the city, by its name: `Mestre` of Venezia.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub hamlet: Option<String>,
    pub district: Option<String>,
    pub address_key: String,
    pub geo: Option<Geo>,
    pub territory: Option<Territory>,
    pub city_type: Option<CityType>,
    pub postcode_check: Option<PostcodeCheck>,
    pub sub_address: Vec<SubAddress>,
    /// true or null, never false: the register holds no units, so never true today.
    pub sub_address_confirmed: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub care_of: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub foreign_address: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tax_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tax_code_outcome: Option<Vec<String>>,
    /// With `STREET_AMBIGUOUS` (or `STREET_TYPE_MISSING`): the streets that fit as well.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub candidates: Vec<Candidate>,
    /// With `debug`: how the answer was reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub debug: Option<Debug>,
    /// Attribution lines of the data the answer used (the message is written from them).
    pub attribution: Vec<&'static str>,
    /// The foreign national register the record was verified in (for the message; not output).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub verified_in: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Candidate {
    /// Type and name in the form people read: `Via Giuseppe Mazzini` (empty for a municipality).
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub street: String,
    /// With `CITY_AMBIGUOUS` or `CITY_NOT_FOUND`: a municipality the city may name, and its province.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub municipality: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub province: Option<String>,
    /// The frazione or district the street lies in, where the register says.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub locality: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub street_id: Option<String>,
    pub postcodes: Vec<String>,
}

/// Why the answer is what it is: the fields repaired, the step of the street search that answered,
/// its score (1 = as registered) and the reason in words.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Debug {
    pub repairs: Vec<&'static str>,
    /// same, form, changed
    pub city_match: &'static str,
    pub street_step: &'static str,
    pub edits: u32,
    pub score: f64,
    pub reason: &'static str,
    /// found, interpolated, not_found, not_checked
    pub house_number: &'static str,
}

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
    let first_name = |w: &str| register.names.known_gender(w).is_some();
    let detect = options.foreign == Foreign::Detect;
    let (record, m, how) = match locate_municipality(
        register,
        input,
        &written,
        &parsed,
        precision,
        &first_name,
        detect,
    ) {
        Located::Found(record, m, how, hamlet) => {
            r.hamlet = hamlet.map(str::to_string).or_else(|| {
                // a frazione or località of the street register written as the city
                let city = written.city.trim();
                (how == CityMatch::Changed
                    && register
                        .streets
                        .hamlet(city)
                        .contains(&record.cadastral_code))
                .then(|| display_name(&fold(city)))
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
        &first_name,
    );
    let found = street.as_ref().and_then(|s| s.found);
    let (number_entry, geo) = match (streets.as_deref(), found) {
        (Some(city), Some((s, _))) => {
            check_house_number(&mut r, &mut out, city, &record.cadastral_code, s, &parsed)
        }
        _ => (None, None),
    };
    present_street_line(&mut r, &mut out, found, &parsed, &written, options);
    let (postcode, check) = check_postcode(
        m,
        streets.as_deref(),
        found.map(|(s, _)| s),
        &parsed,
        number_entry,
        &written.postcode,
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
    // a register reads fields: the parts the country's format reads off a one-line address
    let read = crate::foreign::has_register(&foreign.code)
        .then(|| crate::postal::contact::read_input(register, &foreign.code, input))
        .flatten();
    if let Some(verified) =
        crate::foreign::verify(&foreign.code, read.as_ref().unwrap_or(input), &r)
    {
        return verified;
    }
    foreign_result(register, r, input, options, foreign)
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
    first_name: &dyn Fn(&str) -> bool,
    detect: bool,
) -> Located<'r> {
    let probe = |cadastral: &str| -> bool {
        register.streets.city(cadastral).is_some_and(|c| {
            matches!(
                resolve::street(&c, parsed, "", precision, first_name),
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
    r.attribution.push(ISTAT_ATTRIBUTION);
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
    first_name: &dyn Fn(&str) -> bool,
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
        r.attribution.push(STREET_ATTRIBUTION);
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
            if let Some(a) = municipal_attribution(cadastral) {
                r.attribution.push(a);
            }
        }
        Some("anncsu") => r.attribution.push(INDIR_ATTRIBUTION),
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

/// Step 7: the postcode answered and how sure it is (the number's, the street's, the city's).
#[allow(clippy::too_many_arguments)]
fn check_postcode(
    m: &Municipality,
    city: Option<&CityStreets>,
    street: Option<&Street>,
    parsed: &ParsedAddress,
    number: Option<&HouseNumberEntry>,
    given: &str,
    source: &'static str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    let house_number = parsed
        .house_number
        .as_ref()
        .filter(|h| h.km.is_none() && !h.without_number)
        .map(|h| h.number);
    postcode(m, city, street, house_number, number, given, source, out)
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

/// At most this many streets are listed with `STREET_AMBIGUOUS`.
const MAX_CANDIDATES: usize = 5;

fn candidate(s: &Street) -> Candidate {
    Candidate {
        street: display_name(&format!("{} {}", s.street_type, s.name)),
        locality: Some(title_case(&s.locality))
            .filter(|l| !l.is_empty())
            .or_else(|| Some(s.district.clone()).filter(|d| !d.is_empty())),
        street_id: (s.id != 0).then(|| s.id.to_string()),
        postcodes: s.postcodes.iter().map(|(p, _)| p.clone()).collect(),
        municipality: None,
        province: None,
    }
}

/// A municipality the written city may name, for `CITY_AMBIGUOUS` and `CITY_NOT_FOUND`.
fn city_candidate(m: &Municipality) -> Candidate {
    Candidate {
        street: String::new(),
        locality: None,
        street_id: None,
        postcodes: m.postcodes.clone(),
        municipality: Some(m.name.clone()),
        province: Some(m.province.clone()),
    }
}

const ISTAT_ATTRIBUTION: &str = "Fonte: ISTAT – Elenco comuni italiani (novembre 2023), CC BY 4.0";
const STREET_ATTRIBUTION: &str = crate::register::import::it::anncsu_street_names::ATTRIBUTION;
const INDIR_ATTRIBUTION: &str = crate::register::import::it::anncsu::ATTRIBUTION;

fn municipal_attribution(cadastral: &str) -> Option<&'static str> {
    use crate::register::import::it::{alessandria, bologna, milano};
    match cadastral {
        "A182" => Some(alessandria::ATTRIBUTION),
        "A944" => Some(bologna::ATTRIBUTION),
        "F205" => Some(milano::ATTRIBUTION),
        _ => None,
    }
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
    is_first_name: &dyn Fn(&str) -> bool,
    out: &mut Outcome,
) -> StreetAnswer<'c> {
    let (resolution, step) =
        resolve::street_explained(city, parsed, postcode, precision, is_first_name);
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

/// `Via Roma 12`: the register's type and name in the form people read, then the number.
fn street_line(s: &Street, number: &str, parsed: &ParsedAddress) -> String {
    let mut line = display_name(&format!("{} {}", s.street_type, s.name));
    if !number.is_empty() {
        line.push(' ');
        line.push_str(number);
    }
    for extra in &parsed.extra {
        line.push_str(", ");
        line.push_str(extra);
    }
    line
}

/// The register's capitals in Poste Italiane's mixed case: `Via Vittorio Emanuele II`,
/// `Via dell'Indipendenza`, `Piazza di Porta San Donato`, `Via de' Gessi`, `Piazza San Niccolò`.
/// Prepositions are lower case; `di`, `de` keep their capital inside a person's name
/// (`Via Alcide De Gasperi`), `da` names an origin and does not (`Via Leonardo da Vinci`); articles that begin a surname stay capital (`Via Ugo La Malfa`).
/// A street's type and name in the form people read (Italy's rules).
pub fn display_name(upper: &str) -> String {
    rules::italy().display_name(upper)
}

fn title_case(upper: &str) -> String {
    rules::italy().title_case(upper)
}

/// The street as written, with the number in its normal form.
fn written_line(parsed: &ParsedAddress, number: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !parsed.street_type_raw.is_empty() {
        parts.push(match parsed.street_type {
            // the type's display form: the folded `LOCALITA` is `Località`
            Some(t) => display_name(t),
            None => parsed.street_type_raw.clone(),
        });
    }
    if !parsed.name.is_empty() {
        parts.push(parsed.name.clone());
    }
    if !number.is_empty() {
        parts.push(number.to_string());
    }
    let mut line = parts.join(" ");
    for extra in &parsed.extra {
        line.push_str(", ");
        line.push_str(extra);
    }
    line
}

/// The number was rewritten beyond spacing, case and separators (`12 bis` → `12/BIS` is form).
fn number_changed(parsed: &ParsedAddress) -> bool {
    let Some(h) = &parsed.house_number else {
        return false;
    };
    let squash = |s: &str| -> String {
        fold(s)
            .split(' ')
            .filter(|w| !matches!(*w, "N" | "NR" | "NUM" | "CIV" | "NO" | "KM"))
            .collect::<String>()
    };
    squash(&parsed.house_number_raw) != squash(&h.display())
}

/// The postcode answered and how sure it is.
#[allow(clippy::too_many_arguments)]
fn postcode(
    m: &Municipality,
    city: Option<&CityStreets>,
    street: Option<&Street>,
    house_number: Option<u32>,
    number: Option<&crate::register::street::HouseNumberEntry>,
    given: &str,
    source: &'static str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    let in_city = |p: &str| m.postcodes.iter().any(|c| c == p);
    // the number's own postcode
    if let Some(n) = number.filter(|n| !n.postcode.is_empty()) {
        return certain(n.postcode.clone(), source, "house_number", 1, given, out);
    }
    // one postcode for the municipality, unless the one written is a frazione's of its own that
    // the register's numbers carry (Rossano's 87067 in Corigliano-Rossano)
    if m.postcodes.len() == 1 {
        let pc = m.postcodes[0].clone();
        if given != pc && !given.is_empty() && numbers_carry(city, given) {
            let check = PostcodeCheck {
                source,
                precision: "locality",
                house_numbers: 0,
                agreement: 1.0,
                confirmed: true,
            };
            return (given.to_string(), check);
        }
        return certain(pc, "register", "municipality", 0, given, out);
    }
    // a number the register lacks, between two numbers of the same side with one postcode
    if let (Some(s), Some(n)) = (street.filter(|s| s.postcodes.len() > 1), house_number) {
        if let Some(pc) = neighbours_postcode(s, n) {
            return certain(pc, source, "interpolated", 2, given, out);
        }
    }
    // a street without postcodes of its own, in a locality whose streets share one
    if let Some((pc, count)) = street
        .filter(|s| s.postcodes.is_empty() && !s.locality.is_empty())
        .and_then(|s| locality_postcode(city, &s.locality))
    {
        return certain(pc, source, "locality", count, given, out);
    }
    // the street's postcodes
    if let Some(s) = street.filter(|s| !s.postcodes.is_empty()) {
        let total: u32 = s.postcodes.iter().map(|(_, c)| *c).sum();
        let (top, count) = s.postcodes[0].clone();
        let agreement = if total == 0 {
            1.0 / s.postcodes.len() as f64
        } else {
            f64::from(count) / f64::from(total)
        };
        let unanimous = s.postcodes.len() == 1;
        // one postcode on every number of the street (or a street table) is certain; one on the
        // few numbers that carry one (Milano's municipi 5 and 9) is not, against a written postcode
        // of the municipality (Corso Lodi 62 is 20139, its numbers with a postcode all 20135)
        let every_number = total == 0 || total as usize >= s.numbers.len();
        if unanimous && (every_number || given.is_empty() || !in_city(given)) {
            return certain(top, source, "street", total, given, out);
        }
        let check = PostcodeCheck {
            source,
            precision: "street",
            house_numbers: total,
            agreement,
            confirmed: false,
        };
        if s.postcodes.iter().any(|(p, _)| p == given) || (!given.is_empty() && in_city(given)) {
            out.condition("POSTCODE_UNCONFIRMED");
            return (given.to_string(), check);
        }
        out.condition("POSTCODE_PRESUMED");
        out.change(Change::Postcode);
        return (top, check);
    }
    let check = PostcodeCheck {
        source: "register",
        precision: "municipality",
        house_numbers: 0,
        agreement: if m.postcodes.is_empty() {
            0.0
        } else {
            1.0 / m.postcodes.len() as f64
        },
        confirmed: false,
    };
    out.condition("POSTCODE_UNCONFIRMED");
    (given.to_string(), check)
}

/// A postcode known for certain: `MODIFIED POSTCODE` when it differs from the one given.
fn certain(
    postcode: String,
    source: &'static str,
    precision: &'static str,
    house_numbers: u32,
    given: &str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    if given != postcode {
        out.change(Change::Postcode);
    }
    (
        postcode,
        PostcodeCheck {
            source,
            precision,
            house_numbers,
            agreement: 1.0,
            confirmed: true,
        },
    )
}

/// Whether a house number of the municipality carries this postcode.
fn numbers_carry(city: Option<&CityStreets>, postcode: &str) -> bool {
    city.is_some_and(|c| {
        c.streets()
            .iter()
            .any(|s| s.postcodes.iter().any(|(p, _)| p == postcode))
    })
}

/// The postcode of the nearest numbers below and above on the same side, when they agree.
fn neighbours_postcode(s: &Street, n: u32) -> Option<String> {
    let side = |e: &&crate::register::street::HouseNumberEntry| {
        e.number % 2 == n % 2 && !e.postcode.is_empty()
    };
    let below = s.numbers.iter().rev().filter(side).find(|e| e.number < n)?;
    let above = s.numbers.iter().filter(side).find(|e| e.number > n)?;
    (below.postcode == above.postcode).then(|| below.postcode.clone())
}

/// The one postcode of the streets of a locality (frazione), with how many numbers carry it.
fn locality_postcode(city: Option<&CityStreets>, locality: &str) -> Option<(String, u32)> {
    let mut found: Option<(String, u32)> = None;
    for s in city?.streets().iter().filter(|s| s.locality == locality) {
        for (pc, count) in &s.postcodes {
            match &mut found {
                None => found = Some((pc.clone(), *count)),
                Some((p, c)) if p == pc => *c += count,
                Some(_) => return None,
            }
        }
    }
    found
}

fn postal(n: &Normalized) -> Normalized {
    let up = |s: &str| fold(s);
    Normalized {
        address: up(&n.address.replace('/', " ")).replace(" BIS", "BIS"),
        postcode: n.postcode.clone(),
        city: up(&n.city),
        province: n.province.clone(),
        country: up(&n.country),
        country_code: n.country_code.clone(),
    }
}

/// The tax code of the contact, checked by the tax-code module against the personal data.
fn tax_code(register: &Register, input: &ContactInput, r: &mut ContactResult) {
    use crate::tax_code::{process, Action, BatchItem};
    let code = text(&input.tax_code);
    if code.is_empty() {
        return;
    }
    let item = BatchItem {
        tax_code: Some(code.to_string()),
        last_name: input.last_name.clone(),
        first_name: input.first_name.clone(),
        gender: input.gender.clone(),
        birth_date: input.birth_date.clone(),
        ..Default::default()
    };
    let personal = [
        &input.last_name,
        &input.first_name,
        &input.gender,
        &input.birth_date,
    ]
    .iter()
    .any(|f| !text(f).is_empty());
    let today = chrono::Utc::now().date_naive();
    let validated = process(register, Action::Validate, &item, today);
    let mut outcome: Vec<String> = validated.outcome.iter().map(|s| s.to_string()).collect();
    if personal && validated.ok {
        let compared = process(register, Action::Compare, &item, today);
        if compared.outcome.contains(&"MISMATCH") {
            outcome.insert(0, "TAX_CODE_MISMATCH".into());
        }
    }
    r.tax_code = validated.tax_code.or_else(|| Some(code.to_string()));
    r.tax_code_outcome = Some(outcome);
}

/// The postal form of the country (`crate::postal`).
fn foreign_result(
    register: &Register,
    r: ContactResult,
    input: &ContactInput,
    options: &VerifyOptions,
    c: ForeignCountry,
) -> ContactResult {
    let country = crate::postal::contact::Country {
        code: &c.code,
        name: &c.name,
        resolved: c.resolved,
    };
    crate::postal::contact::foreign_result(register, r, input, options, country)
}

#[cfg(test)]
mod places_tests;
#[cfg(test)]
mod tests;
