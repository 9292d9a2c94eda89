//! The postal form of an address in a country without a register in service (spec, Contact
//! rule 4): the postcode checked against the country's pattern and written in its canonical
//! form, street abbreviations expanded in the country's languages, subdivisions in the form the
//! post wants, capitals where it wants them, and the envelope lines in the country's order.
//! Formats come from libaddressinput and OpenCage, read by `register::import::formats`.

pub mod contact;
pub mod detect;
mod fit;
pub mod postcode;
pub mod reader;
pub mod registers;
pub mod street;
pub mod template;

use std::collections::{BTreeMap, HashMap};

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::normalize::fold;
use crate::register::Register;
use crate::Result;
use fit::{PostcodeGroup, PostcodeLengths, WrittenCounts};
pub use postcode::Postcode;
use postcode::PostcodeRule;
use street::Expansions;
use template::{Components, Rule};

/// One subdivision as libaddressinput lists it: `key` is the form the post wants on the envelope.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Subdivision {
    pub key: String,
    pub name: String,
    pub latin_name: String,
    pub iso: String,
    /// Postcode prefixes of the subdivision (a pattern), when published.
    pub zip: String,
}

/// OpenCage's template for a country.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Template {
    pub address: String,
    pub fallback: String,
    pub replace: Vec<(String, String)>,
    pub postformat_replace: Vec<(String, String)>,
    pub use_country: String,
    pub change_country: String,
    pub add_component: String,
}

/// A country's postal format as imported.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CountryFormatData {
    /// libaddressinput's name (English, capitals).
    pub name: String,
    #[serde(default)]
    pub english_name: String,
    pub fmt: String,
    pub require: String,
    pub upper: String,
    pub zip: String,
    pub zipex: Vec<String>,
    pub postprefix: String,
    pub languages: Vec<String>,
    #[serde(default)]
    pub opencage_languages: Vec<String>,
    pub subdivisions: Vec<Subdivision>,
    #[serde(default)]
    pub state_codes: Vec<(String, String)>,
    #[serde(default)]
    pub county_codes: Vec<(String, String)>,
    #[serde(default)]
    pub template: Template,
}

/// Everything the importer keeps: per country, the default template, abbreviations per language.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FormatsData {
    pub countries: BTreeMap<String, CountryFormatData>,
    pub default_template: Template,
    pub abbreviations: BTreeMap<String, Vec<(String, String)>>,
    /// ISO alpha-3 → alpha-2, for countries the Italian registry names.
    #[serde(default)]
    pub iso3: BTreeMap<String, String>,
    /// OpenCage's component names, each with its aliases.
    #[serde(default)]
    pub components: Vec<(String, Vec<String>)>,
}

impl FormatsData {
    /// The alpha-2 code of a country by its English name.
    pub fn iso2_by_name(&self, english: &str) -> Option<String> {
        let f = fold(english);
        if f.is_empty() {
            return None;
        }
        self.countries
            .iter()
            .find(|(_, c)| fold(&c.name) == f || fold(&c.english_name) == f)
            .map(|(k, _)| k.clone())
    }
}

/// A country's format, ready to use.
pub struct CountryFormat {
    pub code: String,
    pub data: CountryFormatData,
    pub postcode: Option<PostcodeRule>,
    expansions: Expansions,
    template: template::Parsed,
    fallback: template::Parsed,
    replace: Vec<Rule>,
    postformat: Vec<Rule>,
    subdivisions: rustc_hash::FxHashMap<String, usize>,
    /// Each subdivision's postcode prefixes (`zip`) compiled once, beside `data.subdivisions`.
    subdivision_zips: Vec<Option<Regex>>,
    /// Folded state and county names (and codes) → OpenCage's code.
    state_codes: rustc_hash::FxHashMap<String, String>,
    county_codes: rustc_hash::FxHashMap<String, String>,
    aliases: std::sync::Arc<Aliases>,
    /// How long a written postcode can be and still fit (`postcode_may_fit`).
    postcode_lengths: Option<PostcodeLengths>,
    /// The country's name, English name and `THE` + English name, folded (`is_country_name`).
    folded_names: [String; 3],
}

/// Postcode systems the post has changed since libaddressinput's patterns were written, added
/// beside the published pattern (which stays valid): Mauritius' five digits (Mauritius Post,
/// 2011), Tristan da Cunha's `TDCU 1ZZ` beside St Helena's and Ascension's, Tanzania's five
/// digits (2012) and Vietnam's five-digit national postcodes (2018).
const POSTCODE_UPDATES: [(&str, &str); 4] = [
    ("MU", r"\d{5}"),
    ("SH", "TDCU 1ZZ"),
    ("TZ", r"\d{5}"),
    ("VN", r"\d{5}"),
];

/// The country's postcode pattern as the post writes postcodes today.
fn postcode_pattern(code: &str, zip: &str) -> String {
    match POSTCODE_UPDATES.iter().find(|(c, _)| *c == code) {
        Some((_, added)) if !zip.is_empty() => format!("{zip}|{added}"),
        _ => zip.to_string(),
    }
}

/// Component aliases (`street` → `road`) and the names a template knows.
#[derive(Default)]
struct Aliases {
    /// Each component with its aliases in components.yaml's order: when two aliases of one
    /// component are given (`suburb` and `city_district`), the one listed first fills it, as in
    /// OpenCage's formatter (reading them from a hash map made the choice change run to run).
    ordered: Vec<(String, Vec<String>)>,
    known: rustc_hash::FxHashSet<String>,
    /// Each alias with the components it fills (their place in `ordered`) and its rank in their
    /// lists: a render looks up the few components it is given, not every alias of every
    /// component.
    fills: rustc_hash::FxHashMap<String, Vec<(usize, usize)>>,
}

/// Every country's format, loaded with the register. Fx maps: keys from published data (no
/// chosen keys to guard against) looked up for every run of words detection reads.
#[derive(Default)]
pub struct Formats {
    pub(crate) countries: rustc_hash::FxHashMap<String, CountryFormat>,
    iso3: rustc_hash::FxHashMap<String, String>,
    /// The countries with a postcode pattern, grouped by pattern and example shapes: the
    /// countries of a group judge a written postcode alike unless one of their prefixes begins it
    /// (`postcode_countries`). 177 patterns fall into 89 groups; `\d{5}` alone is 37 countries.
    postcode_groups: Vec<PostcodeGroup>,
    /// Every country's postcode prefixes (`D-`, `L`, `CH `), each with its country, sorted, and
    /// the longest's length in bytes.
    postcode_prefixes: Vec<(String, String)>,
    postcode_prefix_len: usize,
    /// Every country's subdivisions and states, folded, each with the countries that have it
    /// (`detect::place_names`).
    pub(crate) place_names: rustc_hash::FxHashMap<String, Vec<String>>,
    /// Each country's group in `postcode_groups`.
    postcode_group_of: rustc_hash::FxHashMap<String, usize>,
}

/// The old European postcode prefixes (international vehicle codes) beside the ISO codes:
/// `D-45127`, `F-75001`, `L-1234`, `CH-3011`, `A-1010`, `FL-9490`.
pub const VEHICLE_PREFIXES: &[(&str, &str)] = &[
    ("A", "AT"),
    ("B", "BE"),
    ("BG", "BG"),
    ("CH", "CH"),
    ("CY", "CY"),
    ("CZ", "CZ"),
    ("D", "DE"),
    ("DK", "DK"),
    ("E", "ES"),
    ("EST", "EE"),
    ("F", "FR"),
    ("FIN", "FI"),
    ("SF", "FI"),
    ("FL", "LI"),
    ("GB", "GB"),
    ("GR", "GR"),
    ("H", "HU"),
    ("HR", "HR"),
    ("IRL", "IE"),
    ("IS", "IS"),
    ("L", "LU"),
    ("LT", "LT"),
    ("LV", "LV"),
    ("M", "MT"),
    ("MC", "MC"),
    ("N", "NO"),
    ("NL", "NL"),
    ("P", "PT"),
    ("PL", "PL"),
    ("RO", "RO"),
    ("S", "SE"),
    ("SK", "SK"),
    ("SLO", "SI"),
    ("AND", "AD"),
    ("RSM", "SM"),
    ("USA", "US"),
    ("CDN", "CA"),
    ("RUS", "RU"),
    ("UA", "UA"),
    ("TR", "TR"),
    ("SRB", "RS"),
    ("MNE", "ME"),
    ("BIH", "BA"),
    ("AL", "AL"),
    ("MK", "MK"),
    ("MD", "MD"),
    ("BY", "BY"),
];

impl Formats {
    /// The register's postal formats, built from its data on first use (empty when
    /// `world/formats` was not imported, or when the stored data cannot be read: `open` says why).
    pub fn of(register: &Register) -> &Formats {
        static EMPTY: std::sync::OnceLock<Formats> = std::sync::OnceLock::new();
        match Formats::built(register) {
            Ok(f) => f,
            Err(_) => EMPTY.get_or_init(Formats::default),
        }
    }

    /// Builds the register's postal formats now (the service does it when it opens the
    /// register), failing when the stored data cannot be read.
    pub fn open(register: &Register) -> Result<&Formats> {
        Formats::built(register)
            .as_ref()
            .map_err(|e| crate::Error::Json(serde::de::Error::custom(e)))
    }

    fn built(register: &Register) -> &std::result::Result<Formats, String> {
        register.postal_formats(|data| match data {
            Some(v) => serde_json::from_value(v)
                .map(Formats::build)
                .map_err(|e| e.to_string()),
            None => Ok(Formats::default()),
        })
    }

    pub fn build(data: FormatsData) -> Formats {
        let abbreviations: HashMap<String, Vec<(String, String)>> =
            data.abbreviations.clone().into_iter().collect();
        let mut aliases = Aliases::default();
        for (name, list) in &data.components {
            aliases.known.insert(name.clone());
            aliases.known.extend(list.iter().cloned());
        }
        aliases.ordered = data.components.clone();
        for (at, (_, list)) in aliases.ordered.iter().enumerate() {
            for (rank, alias) in list.iter().enumerate() {
                aliases
                    .fills
                    .entry(alias.clone())
                    .or_default()
                    .push((at, rank));
            }
        }
        for k in [
            "country_code",
            "state_code",
            "county_code",
            "attention",
            "postal_city",
        ] {
            aliases.known.insert(k.to_string());
        }
        let aliases = std::sync::Arc::new(aliases);
        let mut countries = rustc_hash::FxHashMap::default();
        for (code, c) in &data.countries {
            // territories borrow another country's template (`use_country: FR` for RE)
            let own = &c.template;
            let t = if own.use_country.is_empty() {
                own
            } else {
                data.countries
                    .get(&own.use_country)
                    .map(|o| &o.template)
                    .unwrap_or(own)
            };
            let template = if t.address.is_empty() {
                data.default_template.address.clone()
            } else {
                t.address.clone()
            };
            let fallback = if t.fallback.is_empty() {
                if data.default_template.fallback.is_empty() {
                    template.clone()
                } else {
                    data.default_template.fallback.clone()
                }
            } else {
                t.fallback.clone()
            };
            let compile = |rules: &[(String, String)]| -> Vec<Rule> {
                rules
                    .iter()
                    .filter_map(|(f, t)| Rule::compile(f, t))
                    .collect()
            };
            let prefixes = postcode::country_prefixes(code, &c.postprefix);
            let mut state_codes = c.state_codes.clone();
            if state_codes.is_empty() && !own.use_country.is_empty() {
                if let Some(o) = data.countries.get(&own.use_country) {
                    state_codes = o.state_codes.clone();
                }
            }
            let mut languages = c.languages.clone();
            for l in &c.opencage_languages {
                if !languages.contains(l) {
                    languages.push(l.clone());
                }
            }
            let mut subdivisions = rustc_hash::FxHashMap::default();
            for (i, s) in c.subdivisions.iter().enumerate() {
                for name in [&s.key, &s.name, &s.latin_name, &s.iso] {
                    let f = fold(name);
                    if !f.is_empty() {
                        // IE's `Co. Dublin` is also written `Dublin`
                        if let Some(bare) = f.strip_prefix("CO ") {
                            subdivisions.entry(bare.to_string()).or_insert(i);
                        }
                        subdivisions.entry(f).or_insert(i);
                    }
                }
                if !s.iso.is_empty() {
                    subdivisions
                        .entry(fold(&format!("{code}-{}", s.iso)))
                        .or_insert(i);
                }
            }
            let mut replace = compile(&t.replace);
            replace.extend(
                compile(&own.replace)
                    .into_iter()
                    .filter(|_| !std::ptr::eq(t, own)),
            );
            let zip = postcode_pattern(code, &c.zip);
            let postcode = PostcodeRule::new(&zip, &c.zipex, prefixes);
            countries.insert(
                code.clone(),
                CountryFormat {
                    code: code.clone(),
                    folded_names: [
                        fold(&c.name),
                        fold(&c.english_name),
                        fold(&format!("THE {}", c.english_name)),
                    ],
                    postcode_lengths: postcode
                        .as_ref()
                        .and_then(|r| PostcodeLengths::of(r, &c.zipex)),
                    postcode,
                    expansions: Expansions::new(&languages, &abbreviations),
                    template: template::Parsed::new(&template),
                    fallback: template::Parsed::new(&fallback),
                    replace,
                    postformat: compile(&t.postformat_replace),
                    subdivisions,
                    subdivision_zips: c
                        .subdivisions
                        .iter()
                        .map(|s| {
                            (!s.zip.is_empty())
                                .then(|| Regex::new(&format!("^(?:{})", s.zip)).ok())
                                .flatten()
                        })
                        .collect(),
                    state_codes: folded_codes(&state_codes),
                    county_codes: folded_codes(&c.county_codes),
                    aliases: aliases.clone(),
                    data: CountryFormatData {
                        state_codes,
                        zip,
                        ..c.clone()
                    },
                },
            );
        }
        let mut groups: BTreeMap<(String, Vec<postcode::Shape>), Vec<String>> = BTreeMap::new();
        for (code, c) in &countries {
            if let Some(rule) = &c.postcode {
                groups
                    .entry((rule.pattern.as_str().to_string(), rule.shapes.clone()))
                    .or_default()
                    .push(code.clone());
            }
        }
        let postcode_groups: Vec<PostcodeGroup> = groups
            .into_values()
            .map(|codes| PostcodeGroup::of(codes, &countries))
            .collect();
        let postcode_group_of = postcode_groups
            .iter()
            .enumerate()
            .flat_map(|(i, g)| g.codes.iter().map(move |c| (c.clone(), i)))
            .collect();
        let mut postcode_prefixes: Vec<(String, String)> = countries
            .iter()
            .filter_map(|(code, c)| Some((code, c.postcode.as_ref()?)))
            .flat_map(|(code, rule)| rule.prefixes.iter().map(|p| (p.clone(), code.clone())))
            .collect();
        postcode_prefixes.sort();
        Formats {
            place_names: detect::place_names(&countries),
            countries,
            iso3: data.iso3.into_iter().collect(),
            postcode_groups,
            postcode_group_of,
            postcode_prefix_len: postcode_prefixes
                .iter()
                .map(|(p, _)| p.len())
                .max()
                .unwrap_or(0),
            postcode_prefixes,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.countries.is_empty()
    }

    /// A country by its alpha-2 or alpha-3 code.
    pub fn country(&self, code: &str) -> Option<&CountryFormat> {
        let code = code.trim().to_uppercase();
        let code = if code.len() == 3 {
            self.iso3.get(&code).cloned().unwrap_or(code)
        } else {
            code
        };
        self.countries.get(&code)
    }

    pub fn codes(&self) -> impl Iterator<Item = &String> {
        self.countries.keys()
    }

    /// The alpha-2 code of an alpha-2 or alpha-3 code.
    pub fn iso2(&self, code: &str) -> Option<String> {
        self.country(code).map(|c| c.code.clone())
    }
}

fn folded_codes(list: &[(String, String)]) -> rustc_hash::FxHashMap<String, String> {
    let mut out = rustc_hash::FxHashMap::default();
    for (name, code) in list {
        out.entry(fold(name)).or_insert_with(|| code.clone());
        out.entry(fold(code)).or_insert_with(|| code.clone());
    }
    out
}

/// The fields of an address as written.
#[derive(Debug, Clone, Default)]
pub struct Written<'a> {
    pub address: &'a str,
    pub postcode: &'a str,
    pub city: &'a str,
    pub province: &'a str,
}

/// The fields in the country's form, and the envelope.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Form {
    pub address: String,
    pub postcode: String,
    pub city: String,
    pub province: String,
    /// The fields in capitals where the post wants them.
    pub postal_address: String,
    pub postal_postcode: String,
    pub postal_city: String,
    pub postal_province: String,
    /// The envelope lines in the country's order, without the country line.
    pub lines: Vec<String>,
    pub postcode_invalid: bool,
    pub postcode_changed: bool,
    pub province_changed: bool,
    pub street_changed: bool,
    /// The subdivision was recognised.
    pub subdivision: Option<String>,
    /// Flat, floor, building read off the line.
    pub unit: String,
    /// Postcode, city, region read off the line or another field.
    pub postcode_read: bool,
    pub city_read: bool,
    pub region_read: bool,
}

fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl CountryFormat {
    /// Whether the post wants field `f` (libaddressinput letter: A street, C city, S state, Z postcode) in capitals.
    fn upper(&self, f: char) -> bool {
        self.data.upper.contains(f)
    }

    pub fn judge_postcode(&self, written: &str) -> Postcode {
        match &self.postcode {
            Some(rule) => rule.judge(written),
            None if written.trim().is_empty() => Postcode::Empty,
            None => Postcode::Unchecked(tidy(written)),
        }
    }

    /// The subdivision written any way (name, latin name, ISO code, the post's key), as the post wants it.
    pub fn subdivision(&self, written: &str) -> Option<&Subdivision> {
        self.subdivision_index(written)
            .map(|i| &self.data.subdivisions[i])
    }

    /// A subdivision by its folded name, and whether the (compact) postcode begins as its
    /// postcodes do (None when it publishes no postcode prefixes).
    pub(crate) fn subdivision_folded(
        &self,
        folded: &str,
        postcode: &str,
    ) -> Option<(&Subdivision, Option<bool>)> {
        let i = self.subdivision_index_folded(folded)?;
        let agrees = self
            .subdivision_zips
            .get(i)
            .and_then(Option::as_ref)
            .map(|zip| zip.is_match(postcode));
        Some((&self.data.subdivisions[i], agrees))
    }

    fn subdivision_index(&self, written: &str) -> Option<usize> {
        self.subdivision_index_folded(&fold(written))
    }

    /// `subdivision_index` of a name already folded (detection folds each run of words once
    /// for every country).
    fn subdivision_index_folded(&self, folded: &str) -> Option<usize> {
        if folded.is_empty() {
            return None;
        }
        self.subdivisions.get(folded).copied()
    }

    /// OpenCage's state code for a state name, where libaddressinput has no subdivisions.
    pub(crate) fn state_code(&self, written: &str) -> Option<&str> {
        self.state_code_folded(&fold(written))
    }

    pub(crate) fn state_code_folded(&self, folded: &str) -> Option<&str> {
        self.state_codes.get(folded).map(String::as_str)
    }

    /// Whether `written` can be this country's postcode at all, by length alone: the characters
    /// it keeps once a country prefix is dropped and separators are put in must be as many as
    /// the pattern matches. False means `judge_postcode` cannot find it valid (a house number
    /// `1` is no country's five-digit postcode); true says nothing.
    pub(crate) fn postcode_may_fit(&self, written: &str) -> bool {
        WrittenCounts::of(written).fit(self.postcode_lengths)
    }

    /// The postal form of one address: its parts read by the country's format (`reader`), then
    /// written as the post wants them.
    pub fn form(&self, w: &Written) -> Form {
        self.form_of(self.read(reader::Fields {
            address: w.address,
            postcode: w.postcode,
            city: w.city,
            province: w.province,
        }))
    }

    /// The postal form of an address already read into its parts (`read`).
    pub fn form_of(&self, parts: reader::Parts) -> Form {
        let mut f = Form {
            unit: parts.unit.clone(),
            postcode_read: parts.postcode_read,
            city_read: parts.city_read,
            region_read: parts.region_read,
            ..Form::default()
        };
        // postcode: canonical, or kept as written and flagged
        let written_pc = tidy(&parts.postcode);
        match self.judge_postcode(&written_pc) {
            Postcode::Empty => {}
            Postcode::Valid(c) | Postcode::Unchecked(c) => {
                f.postcode_changed = c != written_pc;
                f.postcode = c;
            }
            Postcode::Invalid => {
                f.postcode_invalid = true;
                f.postcode = written_pc;
            }
        }
        // street: abbreviations expanded, the number where the country writes it
        let line = parts.street_written.clone();
        let (street, number) = (parts.street.clone(), parts.number.clone());
        let street = self.expansions.expand(&street);
        // province: the post's form of a recognised subdivision
        let province = tidy(&parts.region);
        f.province = match self.subdivision(&province) {
            Some(s) => {
                f.subdivision = Some(s.key.clone());
                s.key.clone()
            }
            None => province.clone(),
        };
        f.province_changed = f.province != province;
        f.city = tidy(&parts.city);

        let mut c = Components::default();
        let mut put = |k: &str, v: &str| {
            if !v.is_empty() {
                c.insert(k.to_string(), v.to_string());
            }
        };
        put("road", &street);
        put("house_number", &number);
        put("city", &f.city);
        put("postcode", &f.postcode);
        put("state", &f.province);
        if let Some(s) = &f.subdivision {
            put("state_code", s);
        }
        // the street line as the template writes it (`82 Clerkenwell Road`, `Hauptstraße 5`)
        f.address = if street.is_empty() {
            line.clone()
        } else {
            let mut only = Components::default();
            only.insert("road".into(), street.clone());
            if !number.is_empty() {
                only.insert("house_number".into(), number.clone());
            }
            self.street_line(&only).unwrap_or_else(|| line.clone())
        };
        f.street_changed = f.address != line;

        let up = |on: bool, s: &str| if on { s.to_uppercase() } else { s.to_string() };
        f.postal_address = up(self.upper('A'), &f.address);
        f.postal_city = up(self.upper('C'), &f.city);
        f.postal_province = up(self.upper('S'), &f.province);
        f.postal_postcode = up(self.upper('Z'), &f.postcode);
        let mut pc = Components::default();
        for (k, v) in &c {
            let v = match k.as_str() {
                "road" | "house_number" => up(self.upper('A'), v),
                "city" => up(self.upper('C'), v),
                "state" | "state_code" => up(self.upper('S'), v),
                "postcode" => up(self.upper('Z'), v),
                _ => v.clone(),
            };
            pc.insert(k.clone(), v);
        }
        f.lines = self.render(&pc).lines().map(str::to_string).collect();
        f
    }

    /// The line of the template that holds the street, rendered alone.
    fn street_line(&self, c: &Components) -> Option<String> {
        let text = self.render(c);
        text.lines().next().map(str::to_string)
    }
}

/// What `GET /countries` says of each country: the registers in service, and the postal format
/// known for every other country.
#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Coverage {
    pub in_service: Vec<registers::InService>,
    pub formats: Vec<FormatSummary>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FormatSummary {
    pub country: String,
    /// The postcode is checked against a pattern.
    pub postcode_pattern: bool,
    /// The post's example, in canonical form.
    pub postcode_example: Option<String>,
    pub subdivisions: usize,
}

pub fn coverage(register: &crate::register::Register) -> Coverage {
    let mut formats: Vec<FormatSummary> = Formats::of(register)
        .countries
        .values()
        .map(|c| FormatSummary {
            country: c.code.clone(),
            postcode_pattern: c.postcode.is_some(),
            postcode_example: c.data.zipex.first().cloned(),
            subdivisions: c.data.subdivisions.len(),
        })
        .collect();
    formats.sort_by(|a, b| a.country.cmp(&b.country));
    Coverage {
        in_service: registers::in_service(register),
        formats,
    }
}

/// Components rendered with a country's template (the evaluation against OpenCage's cases).
#[derive(Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RenderBatch {
    pub items: Vec<Components>,
}

pub fn render_batch(
    register: &crate::register::Register,
    batch: RenderBatch,
) -> Vec<Option<String>> {
    batch
        .items
        .iter()
        .map(|c| {
            let cc = c.get("country_code")?;
            Some(Formats::of(register).country(cc)?.render(c))
        })
        .collect()
}

#[cfg(test)]
mod tests;
