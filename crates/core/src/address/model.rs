//! What a contact verification takes and gives: the contact as written, the options, and the
//! answer with its parts (normalised fields, point, territory, postcode check, candidates, debug).

use serde::{Deserialize, Serialize};

use super::parse::SubAddress;

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
