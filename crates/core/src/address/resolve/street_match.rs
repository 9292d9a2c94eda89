//! Resolution against the register: the municipality from city, postcode and province; the
//! street within it; then the house number. Each step says how sure it is, and a step that is
//! not sure answers "not found" or "ambiguous" rather than a guess.

use super::key::{
    canonical_tokens, full_key, is_particle, is_title, loose_key, loose_tokens, sorted_key,
};
use super::parse::ParsedAddress;
use super::street_type;
use crate::normalize::{compact, fold};
use crate::register::municipality::{name_key, short_keys, MunicipalityRecord};
use crate::register::street::{
    edit_distance, CityStreets, DeletionIndex, HouseNumberEntry, KeyKind, Street,
};
use crate::register::{Municipality, Register};

/// `MI`, `(mi)`, `Milano` → `MI`: a province code or name as written.
pub fn province_code(register: &Register, text: &str) -> Option<String> {
    city_names(register).province_code(text)
}

/// Fuzzy lookup of municipality names, built once per process from the register.
pub struct CityNames {
    index: DeletionIndex,
    slots: Vec<Vec<usize>>,
    provinces: std::collections::HashMap<String, String>,
    /// Province names as people write them (`name_key` form) → code.
    province_keys: std::collections::HashMap<String, String>,
}

fn city_names(register: &Register) -> &CityNames {
    register
        .city_names
        .get_or_init(|| CityNames::build(register))
}

impl CityNames {
    pub fn build(register: &Register) -> CityNames {
        let mut by_key: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        let mut provinces = std::collections::HashMap::new();
        for (i, r) in register.municipalities.records.iter().enumerate() {
            let Some(c) = &r.current else { continue };
            let mut names = vec![c.name.as_str(), c.alt_name.as_str()];
            names.extend(c.former_names.iter().map(String::as_str));
            for n in names.into_iter().filter(|n| !n.is_empty()) {
                let v = by_key.entry(compact(n)).or_default();
                if !v.contains(&i) {
                    v.push(i);
                }
            }
            provinces.insert(fold(&c.province_name), c.province.clone());
            provinces.insert(c.province.clone(), c.province.clone());
        }
        // the names people write for a province: each language of `Bolzano/Bozen`, the name
        // without its joining words (`Reggio Emilia`), and its leading words where only one
        // province starts so (`Monza`, `Pesaro`) — never a code, never a key two provinces share
        let mut written: std::collections::HashMap<String, Vec<String>> = Default::default();
        for c in register
            .municipalities
            .records
            .iter()
            .filter_map(|r| r.current.as_ref())
        {
            let mut forms: Vec<String> = vec![c.province_name.clone()];
            forms.extend(c.province_name.split('/').map(str::to_string));
            let mut keys: Vec<String> = forms.iter().map(|f| name_key(f)).collect();
            for f in &forms {
                keys.extend(short_keys(f));
            }
            for k in keys.into_iter().filter(|k| k.len() > 2) {
                let v = written.entry(k).or_default();
                if !v.contains(&c.province) {
                    v.push(c.province.clone());
                }
            }
        }
        let province_keys: std::collections::HashMap<String, String> = written
            .into_iter()
            .filter(|(_, v)| v.len() == 1)
            .map(|(k, mut v)| (k, v.remove(0)))
            .collect();
        let mut keys = Vec::with_capacity(by_key.len());
        let mut slots = Vec::with_capacity(by_key.len());
        for (k, v) in by_key {
            keys.push(k);
            slots.push(v);
        }
        CityNames {
            index: DeletionIndex::build(keys, 3),
            slots,
            provinces,
            province_keys,
        }
    }

    fn near(&self, name: &str, distance: u32) -> Vec<(usize, u32)> {
        let key = compact(name);
        let mut out = Vec::new();
        for (id, d) in self.index.near(&key, distance) {
            for &i in self.slots.get(id as usize).into_iter().flatten() {
                out.push((i, d));
            }
        }
        out
    }

    /// `MI`, `mi`, `Milano`, `(MI)` → `MI`.
    pub fn province_code(&self, text: &str) -> Option<String> {
        let f = fold(text);
        if f.is_empty() {
            return None;
        }
        self.provinces
            .get(&f)
            .or_else(|| self.province_keys.get(&name_key(text)))
            .cloned()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CityMatch {
    /// Written as the register writes it (case aside).
    Same,
    /// Same name, other accents or punctuation.
    Form,
    /// Another name: former, second language, typo, or found from the postcode.
    Changed,
}

pub enum CityResolution<'r> {
    /// The municipality, how the written city reached it, and the hamlet (or merged municipality)
    /// written as the city, by its name.
    Found(
        &'r MunicipalityRecord,
        &'r Municipality,
        CityMatch,
        Option<&'r str>,
    ),
    /// More than one municipality fits as well: CITY_AMBIGUOUS with them as candidates.
    Ambiguous(Vec<&'r MunicipalityRecord>),
    /// Only a weak match (a typo, a short form or hamlet the postcode and province contradict):
    /// CITY_NOT_FOUND with what it might be.
    Suggested(Vec<&'r MunicipalityRecord>),
    NotFound,
    Missing,
}

type Cand<'r> = (&'r MunicipalityRecord, &'r Municipality, Option<&'r str>);

/// The city as written, the postcode and province; `street_probe` tells candidates apart when
/// the name alone cannot (the municipality that has the street wins).
///
/// Names are tried in two tiers: today's and former names of a municipality first; then the short
/// forms (`Montecatini`), hamlets (`Mestre`) and merged municipalities (`Rossano`). Where a
/// postcode or province is written, a tier's candidates that agree with it win; the first tier
/// also stands when nothing agrees (the province written is then corrected). A name reached only
/// by a typo must agree with the postcode or province to be taken: otherwise it is only suggested.
pub fn municipality<'r>(
    register: &'r Register,
    city: &str,
    postcode: &str,
    province: &str,
    precision: u8,
    street_probe: &dyn Fn(&str) -> bool,
) -> CityResolution<'r> {
    let names = city_names(register);
    let (city, province_in_city) = split_province(city);
    let province = if province.trim().is_empty() {
        province_in_city.unwrap_or_default()
    } else {
        province.trim().to_string()
    };
    let province = names.province_code(&province);
    let records = &register.municipalities.records;
    let pc = normalize_postcode(postcode);
    let pc = (pc.len() == 5 && pc.bytes().all(|b| b.is_ascii_digit())).then_some(pc);
    let constrained = pc.is_some() || province.is_some();
    let agreement = |c: &Municipality| -> u8 {
        u8::from(province.as_deref() == Some(c.province.as_str()))
            + u8::from(pc.as_ref().is_some_and(|p| c.postcodes.contains(p)))
    };
    // the candidates of a tier that agree best with what else was written (all when nothing was)
    let agreeing = |tier: &[Cand<'r>]| -> Vec<Cand<'r>> {
        if !constrained {
            return tier.to_vec();
        }
        let best = tier.iter().map(|(_, c, _)| agreement(c)).max().unwrap_or(0);
        if best == 0 {
            return Vec::new();
        }
        tier.iter()
            .copied()
            .filter(|(_, c, _)| agreement(c) == best)
            .collect()
    };

    let mut how: CityMatch;
    let mut cands: Vec<Cand<'r>>;
    let mut probe = true;
    if !fold(&city).is_empty() {
        let pc_known = pc
            .as_ref()
            .is_some_and(|p| !register.municipalities.by_postcode(p).is_empty());
        let contradicted =
            |c: &Municipality| pc_known && !pc.as_ref().is_some_and(|p| c.postcodes.contains(p));
        let (first, second) = tiers(register, &city, &contradicted);
        cands = agreeing(&first);
        how = official_match(&cands, &city);
        if cands.is_empty() {
            cands = agreeing(&second);
            how = CityMatch::Changed;
            // a short form or hamlet is not told from its namesakes by a street they may all have
            probe = false;
        }
        if cands.is_empty() && !first.is_empty() {
            // the name is a municipality's: the province or postcode written is what is wrong
            cands = first.clone();
            how = official_match(&cands, &city);
        }
        if cands.is_empty() && first.is_empty() && province.is_none() {
            // the old name of one municipality merged away, with its old postcode (`Pieve di
            // Coriano` 46020 is Borgo Mantovano's now)
            if let Some(found) = merged_alone(register, &city) {
                return found;
            }
        }
        if cands.is_empty() && !second.is_empty() {
            // only a short form, hamlet or old name, and the postcode or province say otherwise:
            // the name written is not dropped for the postcode's municipality, only suggested
            return CityResolution::Suggested(distinct(second.iter().map(|(r, _, _)| *r)));
        }
        if cands.is_empty() {
            let c = compact(&city);
            let d = match (precision, c.chars().count()) {
                (1, _) => 0,
                (_, n) if n >= 9 => 2 + u32::from(precision >= 5),
                (_, n) if n >= 4 => 1 + u32::from(precision >= 4),
                _ => 0,
            };
            let near = names.near(&city, d);
            if let Some(best) = near.iter().map(|(_, d)| *d).min() {
                let mut idx: Vec<usize> = near
                    .iter()
                    .filter(|(_, dd)| *dd == best)
                    .map(|(i, _)| *i)
                    .collect();
                idx.sort();
                idx.dedup();
                let fuzzy: Vec<Cand<'r>> = idx
                    .into_iter()
                    .filter_map(|i| records[i].current.as_ref().map(|c| (&records[i], c, None)))
                    .collect();
                how = if best == 0 {
                    CityMatch::Form
                } else {
                    CityMatch::Changed
                };
                // the same letters spaced otherwise stand alone; a typo needs the postcode or
                // province to agree
                cands = if best == 0 {
                    let agree = agreeing(&fuzzy);
                    if agree.is_empty() {
                        fuzzy.clone()
                    } else {
                        agree
                    }
                } else if constrained {
                    agreeing(&fuzzy)
                } else {
                    Vec::new()
                };
                if cands.is_empty() {
                    if let Some(found) =
                        by_postcode_alone(register, pc.as_deref(), province.as_deref())
                    {
                        return found;
                    }
                    return CityResolution::Suggested(distinct(fuzzy.iter().map(|(r, _, _)| *r)));
                }
            }
        }
        if cands.is_empty() {
            // the city may be unknown while the postcode is certain
            if let Some(found) = by_postcode_alone(register, pc.as_deref(), province.as_deref()) {
                return found;
            }
            return CityResolution::NotFound;
        }
    } else if pc.is_some() {
        cands = by_postcode(register, postcode, province.as_deref())
            .into_iter()
            .map(|(r, c)| (r, c, None))
            .collect();
        how = CityMatch::Changed;
        if cands.is_empty() {
            return CityResolution::NotFound;
        }
    } else {
        return CityResolution::Missing;
    }

    if cands.len() > 1 {
        // "Paternò" (CT) and "Paterno" (PZ) fold alike: the accents written decide
        let exact: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(_, c, _)| c.name.to_lowercase() == city.trim().to_lowercase())
            .collect();
        if exact.len() == 1 && how != CityMatch::Changed && !city.is_ascii() {
            cands = exact;
        }
    }
    if cands.len() > 1 {
        if let Some(p) = &province {
            let same: Vec<_> = cands
                .iter()
                .copied()
                .filter(|(_, c, _)| &c.province == p)
                .collect();
            if !same.is_empty() {
                cands = same;
            }
        }
    }
    if cands.len() > 1 {
        let pc = postcode.trim();
        let same: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(_, c, _)| c.postcodes.iter().any(|p| p == pc))
            .collect();
        if !same.is_empty() {
            cands = same;
        }
    }
    if cands.len() > 1 {
        // one municipality reached several ways (a hamlet and a short form of it): one answer
        let mut seen: Vec<&str> = Vec::new();
        cands.retain(|(r, _, _)| {
            let new = !seen.contains(&r.cadastral_code.as_str());
            seen.push(&r.cadastral_code);
            new
        });
    }
    if cands.len() > 1 && probe {
        let with_street: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(r, _, _)| street_probe(&r.cadastral_code))
            .collect();
        if with_street.len() == 1 {
            cands = with_street;
        }
    }
    if cands.len() > 1 {
        // a name that lands on several municipalities is no answer
        return CityResolution::Ambiguous(cands.into_iter().map(|(r, _, _)| r).collect());
    }
    let (r, c, hamlet) = cands[0];
    CityResolution::Found(r, c, how, hamlet)
}

/// The two tiers of `municipality`: today's and former names (and the old key, which also holds
/// names the register lists only in its history); then short forms, hamlets and merged
/// municipalities, with the frazioni and località of the street register.
///
/// A hamlet whose municipality does not have the postcode written, when that postcode is some
/// municipality's today, is left out (`contradicted`): hamlet names repeat everywhere (`Sala`),
/// and the postcode says which place is meant. Short forms and merged municipalities stay: their
/// writers often keep the old postcode (`Ruino` 27040, now Colli Verdi).
fn tiers<'r>(
    register: &'r Register,
    city: &str,
    contradicted: &dyn Fn(&Municipality) -> bool,
) -> (Vec<Cand<'r>>, Vec<Cand<'r>>) {
    use crate::register::municipality::{NameKind, PlaceKind};
    let ms = &register.municipalities;
    let mut first: Vec<Cand<'r>> = Vec::new();
    let mut second: Vec<Cand<'r>> = Vec::new();
    for r in ms.by_name(city) {
        if let Some(c) = &r.current {
            first.push((r, c, None));
        }
    }
    for hit in ms.named(city) {
        let Some(c) = &hit.record.current else {
            continue;
        };
        match hit.kind {
            NameKind::Official | NameKind::Former => {
                if !first.iter().any(|(r, _, _)| std::ptr::eq(*r, hit.record)) {
                    first.push((hit.record, c, None));
                }
            }
            NameKind::Short => second.push((hit.record, c, None)),
            NameKind::Place => {
                let hamlet = hit.place.is_some_and(|p| p.kind == PlaceKind::Hamlet);
                if !(hamlet && contradicted(c)) {
                    second.push((hit.record, c, hit.place.map(|p| p.name.as_str())));
                }
            }
        }
    }
    if first.is_empty() {
        for code in register.streets.hamlet(city) {
            if let Some(r) = ms.by_cadastral(code) {
                if let Some(c) = r.current.as_ref().filter(|c| !contradicted(c)) {
                    if !second.iter().any(|(o, _, _)| std::ptr::eq(*o, r)) {
                        second.push((r, c, None));
                    }
                }
            }
        }
    }
    (first, second)
}

/// How a city found among today's and former names was written: as the register writes it, in
/// another form (accents, spacing, `S.` for `San`, one language of two), or another name.
fn official_match(cands: &[Cand], city: &str) -> CityMatch {
    if cands.is_empty() {
        return CityMatch::Same;
    }
    let written = fold(city);
    if cands
        .iter()
        .any(|(_, c, _)| c.name.to_lowercase() == city.trim().to_lowercase())
    {
        return CityMatch::Same;
    }
    let key = name_key(city);
    let official = |c: &Municipality| {
        fold(&c.name) == written
            || name_key(&c.name) == key
            || (!c.alt_name.is_empty()
                && (name_key(&c.alt_name) == key
                    || name_key(&format!("{} {}", c.name, c.alt_name)) == key))
    };
    if cands.iter().any(|(_, c, _)| official(c)) {
        CityMatch::Form
    } else {
        CityMatch::Changed
    }
}

fn distinct<'r>(
    records: impl Iterator<Item = &'r MunicipalityRecord>,
) -> Vec<&'r MunicipalityRecord> {
    let mut out: Vec<&MunicipalityRecord> = Vec::new();
    for r in records {
        if !out.iter().any(|o| std::ptr::eq(*o, r)) {
            out.push(r);
        }
    }
    out
}

/// The municipality an old municipality's name names, when it names only one and nothing else.
fn merged_alone<'r>(register: &'r Register, city: &str) -> Option<CityResolution<'r>> {
    use crate::register::municipality::{NameKind, PlaceKind};
    let hits = register.municipalities.named(city);
    let merged = hits
        .iter()
        .all(|h| h.kind == NameKind::Place && h.place.is_some_and(|p| p.kind == PlaceKind::Merged));
    match hits.as_slice() {
        [h] if merged => {
            let c = h.record.current.as_ref()?;
            Some(CityResolution::Found(
                h.record,
                c,
                CityMatch::Changed,
                h.place.map(|p| p.name.as_str()),
            ))
        }
        _ => None,
    }
}

/// The one municipality a postcode names (within the province written), whatever the city says.
fn by_postcode_alone<'r>(
    register: &'r Register,
    pc: Option<&str>,
    province: Option<&str>,
) -> Option<CityResolution<'r>> {
    let by_pc = by_postcode(register, pc?, province);
    match by_pc.as_slice() {
        [(r, c)] => Some(CityResolution::Found(r, c, CityMatch::Changed, None)),
        _ => None,
    }
}

fn by_postcode<'r>(
    register: &'r Register,
    postcode: &str,
    province: Option<&str>,
) -> Vec<(&'r MunicipalityRecord, &'r Municipality)> {
    let pc = normalize_postcode(postcode);
    if pc.len() != 5 {
        return Vec::new();
    }
    let mut out: Vec<_> = register
        .municipalities
        .by_postcode(&pc)
        .into_iter()
        .filter_map(|r| r.current.as_ref().map(|c| (r, c)))
        .collect();
    if let Some(p) = province {
        let same: Vec<_> = out
            .iter()
            .copied()
            .filter(|(_, c)| c.province == p)
            .collect();
        if !same.is_empty() {
            out = same;
        }
    }
    out
}

/// Postcodes lose their leading zeros in spreadsheets: `118` → `00118`.
pub fn normalize_postcode(text: &str) -> String {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = digits
        .trim_start_matches("I-")
        .trim_start_matches("IT-")
        .to_string();
    if digits.len() >= 3 && digits.len() < 5 && digits.chars().all(|c| c.is_ascii_digit()) {
        return format!("{digits:0>5}");
    }
    digits
}

/// `Milano (MI)` → (`Milano`, `MI`); `Milano MI` stays a name unless the last word is a known code.
fn split_province(city: &str) -> (String, Option<String>) {
    let t = city.trim();
    if let (Some(open), true) = (t.rfind('('), t.ends_with(')')) {
        let inner = t[open + 1..t.len() - 1].trim();
        if inner.len() == 2 {
            return (t[..open].trim().to_string(), Some(inner.to_uppercase()));
        }
    }
    (t.to_string(), None)
}

/// How a street was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreetMatch {
    Same,
    Form,
    Changed,
}

pub enum StreetResolution {
    Found(u32, StreetMatch),
    Ambiguous(Vec<u32>),
    TypeMissing(Vec<u32>),
    NotFound,
}

/// Which matching step answered, and how far the text was from the name: the debug trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Step {
    /// full, full_as_via, name_with_type_word, loose, any_order, typo, partial, typo_or_partial, none
    pub name: &'static str,
    /// Edits (typos) between the words written and the name found.
    pub edits: u32,
}

impl Step {
    /// 1 for the name as registered, lower the looser the step.
    pub fn score(&self) -> f64 {
        let base: f64 = match self.name {
            "full" => 1.0,
            "full_as_via" | "name_with_type_word" => 0.95,
            "loose" => 0.93,
            "any_order" => 0.9,
            "partial" => 0.85,
            "typo" | "typo_or_partial" => 0.88,
            _ => 0.0,
        };
        (base - 0.06 * f64::from(self.edits)).max(0.0)
    }

    pub fn reason(&self) -> &'static str {
        match self.name {
            "full" => "the name with its type as the register writes it",
            "full_as_via" => {
                "the type written is part of the registered name (Via Salita della Chiesa)"
            }
            "name_with_type_word" => "the name begins with a word the parser did not take as type",
            "loose" => "the name without type and articles",
            "any_order" => "the words of the name in another order",
            "typo" => "a name within a few edits, of the type written",
            "partial" => {
                "every word written is in the name; the words left out are first names or titles"
            }
            "typo_or_partial" => "a typo and a partial name agree on the street",
            "ambiguous" => "several streets fit as well: the answer is an ambiguity, not a guess",
            _ => "no street of the municipality fits",
        }
    }
}

/// Finds the street of `parsed` among a municipality's streets, loosening step by step:
/// full name; name without type and particles; any word order; typos; partial names (first
/// names, titles and initials left out). Each step stops at the first unique answer.
pub fn street(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
) -> StreetResolution {
    street_explained(city, parsed, postcode, precision, is_first_name).0
}

/// `street`, with the step that answered.
pub fn street_explained(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
) -> (StreetResolution, Step) {
    let mut step = Step::default();
    let r = street_steps(city, parsed, postcode, precision, is_first_name, &mut step);
    if matches!(r, StreetResolution::Ambiguous(_)) {
        step.name = "ambiguous";
    }
    if step.name.is_empty() {
        step.name = "none";
    }
    (r, step)
}

fn street_steps(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
    step: &mut Step,
) -> StreetResolution {
    let ty = parsed.street_type.unwrap_or("");
    let name = parsed.name.as_str();
    if fold(name).is_empty() {
        return StreetResolution::NotFound;
    }
    let number = parsed
        .house_number
        .as_ref()
        .map(|h| (h.number, h.suffix.as_str()));
    let pick = |hits: &[u32]| -> Option<Vec<u32>> {
        let mut v: Vec<u32> = hits.to_vec();
        v.sort();
        v.dedup();
        if v.len() > 1 {
            v = disambiguate(city, v, postcode, number);
        }
        (!v.is_empty()).then_some(v)
    };
    // a typo or a partial name fits streets of other names: the postcode and the house number
    // tell apart streets of one name, never choose between names (`Via G. Mazzini 3` is not Via
    // Giovanni Mazzoni for having a number 3 that Via Giuseppe Mazzini lacks)
    let pick_near = |hits: &[u32]| -> Option<Vec<u32>> {
        let mut v: Vec<u32> = hits.to_vec();
        v.sort();
        v.dedup();
        let name = |i: u32| loose_key(&city.street(i).name);
        if v.iter().all(|&i| name(i) == name(v[0])) {
            return pick(&v);
        }
        (!v.is_empty()).then_some(v)
    };
    // streets of other names that hold every word written: the postcode written tells them
    // apart, the house number alone does not (`Via Costa 206` in Bologna: Via Andrea Costa has a
    // 206 and Via Paolo Costa none, yet the writer may mean either); the ones that hold the
    // number are named first
    let pick_names = |hits: &[u32]| -> Option<Vec<u32>> {
        let mut v = disambiguate(city, pick_near(hits)?, postcode, None);
        if let Some((n, suffix)) = number {
            v.sort_by_key(|&i| find_number(city.street(i), n, suffix).is_none());
        }
        (!v.is_empty()).then_some(v)
    };
    let partial_name = || {
        partial(
            city,
            name,
            ty,
            precision,
            &pick_names,
            &pick_near,
            is_first_name,
        )
    };

    // 1. the full name, type included
    let full = full_key(&format!("{ty} {name}"));
    // a street found by name whose house numbers lack the one written, while a longer name with
    // the words written has it (`Via Lodi 196`: Via Lodi has no 196, Via Luigi Lodi has): the
    // evidence disagrees, and the answer is an ambiguity
    let conflict = |i: u32| -> Option<StreetResolution> {
        let (n, suffix) = number?;
        if precision < 3 || !city.record.complete_numbers || city.street(i).numbers.is_empty() {
            return None;
        }
        if find_number(city.street(i), n, suffix).is_some() {
            return None;
        }
        // the type written, unless the street found has another (then any type may be meant)
        let of_type = if city.street(i).street_type == ty {
            ty
        } else {
            ""
        };
        // only names the words written stand for (`Via Lodi` for Via Luigi Lodi; `Via Dante` is
        // not Via Dante Chiasserini)
        let named: Vec<u32> = covering(city, name, precision, is_first_name, false)
            .into_iter()
            .filter(|c| c.typos == 0 && c.tier == 0 && c.dropped == 0)
            .map(|c| c.street)
            .collect();
        let others: Vec<u32> = containing(city, name, of_type)
            .into_iter()
            .filter(|&j| j != i && named.contains(&j))
            .filter(|&j| find_number(city.street(j), n, suffix).is_some())
            .collect();
        (!others.is_empty()).then(|| {
            let mut v = vec![i];
            v.extend(others.into_iter().take(2));
            StreetResolution::Ambiguous(v)
        })
    };
    if let Some(v) = pick(city.by_key(KeyKind::Full, &full)) {
        step.name = "full";
        if v.len() == 1 {
            if let Some(a) = conflict(v[0]) {
                return a;
            }
            let s = city.street(v[0]);
            let same = fold(&format!("{} {}", s.street_type, s.name))
                == fold(&format!("{ty} {name}"))
                && (parsed.street_type_raw.is_empty()
                    || fold(&parsed.street_type_raw) == s.street_type);
            return StreetResolution::Found(
                v[0],
                if same {
                    StreetMatch::Same
                } else {
                    StreetMatch::Form
                },
            );
        }
        return StreetResolution::Ambiguous(v);
    }
    // "Salita della Chiesa" registered as VIA + "SALITA DELLA CHIESA"
    if !ty.is_empty() && ty != "VIA" {
        if let Some(v) = pick(city.by_key(KeyKind::Full, &full_key(&format!("VIA {ty} {name}")))) {
            if v.len() == 1 {
                step.name = "full_as_via";
                return StreetResolution::Found(v[0], StreetMatch::Changed);
            }
        }
    }
    // a name that begins with a type the parser did not take ("Vecchia" of "Via Vecchia X"); a
    // type written before the name's own (`Via Bastioni di Porta Nuova`, `Via Corso Italia`)
    // (only after a plain `Via`: `Vico Via Calia` is Vico di Via Calia, not Via Calia)
    let own_type = street_type::split(name).0;
    if ty.is_empty() || (ty == "VIA" && !own_type.is_empty() && own_type != "VIA") {
        if let Some(v) = pick(city.by_key(KeyKind::Full, &full_key(name))) {
            if v.len() == 1 {
                step.name = "name_with_type_word";
                return StreetResolution::Found(
                    v[0],
                    if ty.is_empty() {
                        StreetMatch::Form
                    } else {
                        StreetMatch::Changed
                    },
                );
            }
        }
    }

    // 2. without type and particles, then 3. in any word order
    for (kind, key) in [
        (KeyKind::Loose, loose_key(name)),
        (KeyKind::Sorted, sorted_key(name)),
    ] {
        if precision < 2 && kind == KeyKind::Sorted {
            break;
        }
        if let Some(r) = by_name(city, city.by_key(kind, &key), ty, &pick) {
            step.name = if kind == KeyKind::Loose {
                "loose"
            } else {
                "any_order"
            };
            if let StreetResolution::Found(i, _) = r {
                if let Some(a) = conflict(i) {
                    return a;
                }
                // found under another type, while streets of the type written hold every word
                // written in a longer name (`Vicolo Gregoraci`: Largo Gregoraci, or Vicolo
                // Secondo Gregoraci?): ambiguous
                if !ty.is_empty() && city.street(i).street_type != ty && precision >= 2 {
                    let others: Vec<u32> = containing(city, name, ty)
                        .into_iter()
                        .filter(|&j| j != i)
                        .collect();
                    if !others.is_empty() {
                        let mut v = vec![i];
                        v.extend(others.into_iter().take(2));
                        return StreetResolution::Ambiguous(v);
                    }
                }
            }
            // streets of the name under other types only, while one street of the type written
            // holds every word as written (`Piazza De Ferrari`: Piazza Raffaele De Ferrari, not
            // Vico Ferrari or Sottopassaggio de Ferrari)
            if !ty.is_empty() && precision >= 2 && !matches!(r, StreetResolution::Found(..)) {
                if let Some((StreetResolution::Found(j, how), 0)) = partial_name() {
                    if city.street(j).street_type == ty {
                        step.name = "partial";
                        return StreetResolution::Found(j, how);
                    }
                }
            }
            // the same name under another type, while a street of the type written has the
            // name in full (`Via Canefri`: Vicolo Canefri, or Via Cesare Canefri?): ambiguous
            if let StreetResolution::Found(i, _) = r {
                if !ty.is_empty() && city.street(i).street_type != ty && precision >= 2 {
                    if let Some((StreetResolution::Found(j, _), _)) = partial_name() {
                        if j != i && city.street(j).street_type == ty {
                            return StreetResolution::Ambiguous(vec![i, j]);
                        }
                    }
                }
            }
            return r;
        }
    }
    if precision < 2 {
        return StreetResolution::NotFound;
    }

    // 4. partial names with every word as written (first names, titles, regnal numbers left
    // out): what was written beats any edit (`Via Corti` is Via Alfonso or Via Costantino Corti,
    // never Via Orti; `Via C. Colombo` is Via Cristoforo Colombo, not Via dei Colombi)
    let part = partial_name();
    if let Some((r, 0)) = part {
        if let StreetResolution::Found(..) = r {
            step.name = "partial";
        }
        return r;
    }
    // 5. typos, and partial names with a typo: when both answer and disagree, the answer is an
    // ambiguity rather than either guess
    let typo = typo_match(city, name, ty, precision, &pick_near);
    let typo_edits = typo.as_ref().map_or(0, |(_, d)| *d);
    let part_edits = part.as_ref().map_or(0, |(_, d)| *d);
    let typo = typo.map(|(r, _)| r);
    let part = part.map(|(r, _)| r);
    match (typo, part) {
        (Some(StreetResolution::Found(a, _)), Some(StreetResolution::Found(b, _))) if a != b => {
            StreetResolution::Ambiguous(vec![a, b])
        }
        // a typo's answer is doubted by its house number; a partial name's is not (`Via Mazzini 3`
        // stays Via Giuseppe Mazzini, whose list lacks the 3)
        (Some(StreetResolution::Found(a, _)), _) if conflict(a).is_some() => {
            conflict(a).unwrap_or(StreetResolution::NotFound)
        }
        (Some(StreetResolution::Found(a, _)), Some(StreetResolution::Found(_, _))) => {
            *step = Step {
                name: "typo_or_partial",
                edits: typo_edits.min(part_edits),
            };
            StreetResolution::Found(a, StreetMatch::Changed)
        }
        (Some(StreetResolution::Found(a, _)), _) => {
            // one word written, one edit from a whole name and as near a word of other names
            // (`Via Mandolfo`: Via Landolfo, or Via Ugo Guido Mondolfo?): the streets that fit as
            // well are told apart by the postcode and house number, else an ambiguity
            let doubt: Vec<u32> = covering(city, name, precision, is_first_name, true)
                .into_iter()
                .filter(|c| c.street != a && c.tier == 0 && c.dropped == 0)
                .filter(|c| c.typos as u32 <= typo_edits)
                .filter(|c| ty.is_empty() || city.street(c.street).street_type == ty)
                .map(|c| c.street)
                .collect();
            if !doubt.is_empty() && loose_tokens(name).len() == 1 {
                let mut v = vec![a];
                v.extend(doubt);
                let v = disambiguate(city, v, postcode, number);
                if v.len() > 1 {
                    return StreetResolution::Ambiguous(v);
                }
                *step = Step {
                    name: "typo_or_partial",
                    edits: typo_edits,
                };
                return StreetResolution::Found(v[0], StreetMatch::Changed);
            }
            *step = Step {
                name: "typo",
                edits: typo_edits,
            };
            StreetResolution::Found(a, StreetMatch::Changed)
        }
        (_, Some(StreetResolution::Found(a, _))) => {
            *step = Step {
                name: "partial",
                edits: part_edits,
            };
            StreetResolution::Found(a, StreetMatch::Changed)
        }
        (Some(other), _) | (None, Some(other)) => other,
        (None, None) => StreetResolution::NotFound,
    }
}

/// Names within a few edits, of the type written (a typo and another type are two errors), with
/// the same numbers (`1 Maggio` is not a typo of `Maggio`).
fn typo_match(
    city: &CityStreets,
    name: &str,
    ty: &str,
    precision: u8,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
) -> Option<(StreetResolution, u32)> {
    let loose = loose_key(name);
    let len = loose.chars().count();
    let d = match len {
        n if n >= 8 => 2,
        n if n >= 5 => 1,
        _ => 0,
    } + u32::from(precision >= 4 && len >= 4)
        + u32::from(precision >= 5 && len >= 8);
    if precision < 3 || d == 0 {
        return None;
    }
    let digits = |k: &str| -> String { k.chars().filter(char::is_ascii_digit).collect() };
    let want = digits(&loose);
    let mut found = city.fuzzy(&loose, d);
    if d >= 2 && found.iter().all(|(_, e)| *e >= 2) {
        // two substitutions are beyond the deletion index: scan the municipality's names
        found = city.fuzzy_scan(&loose, d);
    }
    // two edits in a name under ten letters only where the first letter stands (people rarely
    // mistype it, and `Via Prma` is nearer many short names than the one meant)
    let first = loose.chars().next();
    let near: Vec<(u32, u32)> = found
        .into_iter()
        .filter(|(i, e)| {
            *e < 2 || len >= 10 || {
                let s = city.street(*i);
                std::iter::once(s.name.as_str())
                    .chain(s.alt_names.iter().map(String::as_str))
                    .any(|n| loose_key(n).chars().next() == first)
            }
        })
        .filter(|(i, _)| {
            let s = city.street(*i);
            (ty.is_empty() || s.street_type == ty)
                && std::iter::once(s.name.as_str())
                    .chain(s.alt_names.iter().map(String::as_str))
                    .any(|n| digits(&loose_key(n)) == want)
        })
        .collect();
    let best = near.iter().map(|(_, d)| *d).min()?;
    let hits: Vec<u32> = near
        .iter()
        .filter(|(_, dd)| *dd == best)
        .map(|(i, _)| *i)
        .collect();
    by_name(city, &hits, ty, pick).map(|r| (r, best))
}

/// Candidates found by name only: the type decides, else the only one, else ambiguity.
fn by_name(
    city: &CityStreets,
    hits: &[u32],
    ty: &str,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
) -> Option<StreetResolution> {
    let v = pick(hits)?;
    if !ty.is_empty() {
        let same: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| city.street(i).street_type == ty)
            .collect();
        if same.len() == 1 {
            return Some(StreetResolution::Found(same[0], StreetMatch::Changed));
        }
        if same.len() > 1 {
            return Some(StreetResolution::Ambiguous(same));
        }
    }
    if v.len() == 1 {
        return Some(StreetResolution::Found(v[0], StreetMatch::Changed));
    }
    let types: std::collections::HashSet<&str> = v
        .iter()
        .map(|&i| city.street(i).street_type.as_str())
        .collect();
    if ty.is_empty() && types.len() > 1 {
        return Some(StreetResolution::TypeMissing(v));
    }
    Some(StreetResolution::Ambiguous(v))
}

/// How the words of one street's name hold the words written (`covering`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cover {
    street: u32,
    /// Words written that fit a word of the name only with a typo.
    typos: usize,
    /// First names and titles written that the name, all of whose words were written, lacks
    /// (`Via Giuseppe Mazzini` for Via Mazzini, `Piazza Cardinale Pietro Gasparri` for Piazza
    /// Pietro Gasparri).
    dropped: usize,
    /// What the name has that was not written: 0, nothing but first names, titles and regnal
    /// numbers (`Garibaldi` for Giuseppe Garibaldi, `Vittorio Emanuele` for Vittorio Emanuele II);
    /// 1, one leading word of unknown kind that names no place (`Prisco` for Tarquinio Prisco);
    /// 2, other words that name no place (`Sparano` for Sparano da Bari): taken only when one
    /// street fits so; 3, words that name a place (`Vecchio` in Via Molino Vecchio): never taken,
    /// but a street of tier 2 is not the only one that fits beside it.
    tier: u8,
}

/// The streets whose name holds every word written (an initial stands for a word it begins, a
/// word of five letters or more may carry one typo beside another word written right, or alone
/// with `single_typo`), with how they hold them. Numbers are words (`XXII`, `22` and `Ventidue`
/// are one), so `Via Marzo` never holds `Via XXII Marzo`.
fn covering(
    city: &CityStreets,
    name: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
    single_typo: bool,
) -> Vec<Cover> {
    let tokens = loose_tokens(name);
    // first names and titles written may be missing from the name: the anchor is another word
    let droppable = |t: &str| is_title(t) || is_first_name(t);
    let long = |t: &&String| t.len() >= 3;
    let Some(anchor) = tokens
        .iter()
        .filter(long)
        .filter(|t| !droppable(t))
        .max_by_key(|t| t.len())
        .or_else(|| tokens.iter().filter(long).max_by_key(|t| t.len()))
        // `R. Settimo`: SETTIMO is the number 7
        .or_else(|| tokens.iter().max_by_key(|t| t.len()))
    else {
        return Vec::new();
    };
    // one word with a typo inside a longer name is too little to go on (`Romaa` is not
    // `Lucrezia Romana`): a typo is tolerated only beside another word written right, unless asked
    let single = tokens.len() == 1 && !single_typo;
    let typo = |t: &str| -> usize {
        if precision < 3 || t.len() < 5 || single {
            0
        } else {
            1
        }
    };
    let mut cands: Vec<u32> = Vec::new();
    for near in city.tokens_near(anchor, typo(anchor) as u32) {
        cands.extend_from_slice(city.by_token(near));
    }
    cands.sort_unstable();
    cands.dedup();
    // an initial stands for a word it begins, written or in the register (`Via A. Volta`)
    let exact = |t: &str, w: &str| -> bool {
        w == t || (t.len() == 1 && w.starts_with(t)) || (w.len() == 1 && t.starts_with(w))
    };
    let matches = |t: &str, w: &str| -> bool {
        exact(t, w) || (typo(t) > 0 && edit_distance(w, t, typo(t)).is_some())
    };
    // `Roma` is not `Giovanni Francesco da Roma`: words written that follow a particle of the
    // register's name, with words left out before them, name another thing (a person "from Rome")
    // — unless the particle was written too (`Via de Medici` for Via Antonio de Medici)
    let written = canonical_tokens(name);
    let after_particle = |i: u32| -> bool {
        let full = canonical_tokens(&city.street(i).name);
        let Some(first) = full
            .iter()
            .position(|w| !is_particle(w) && tokens.iter().any(|t| matches(t, w)))
        else {
            return false;
        };
        let particle = first >= 2 && full.get(first - 1).is_some_and(|w| is_particle(w));
        particle
            && !written
                .iter()
                .zip(written.iter().skip(1))
                .any(|(p, w)| Some(p) == full.get(first - 1) && matches(w, &full[first]))
    };
    let long_word = tokens.iter().any(|t| t.len() >= 4);
    let cover = |i: u32| -> Option<Cover> {
        city.name_tokens(i)
            .iter()
            .filter_map(|st| {
                let hit = |w: &String| tokens.iter().any(|t| matches(t, w));
                // an initial stands for a word no other word written is (`C. Colombo` is not
                // Emilio Colombo for the C of Colombo)
                let held = |t: &String| {
                    st.iter().any(|w| {
                        matches(t, w)
                            && (t.len() > 1 || !tokens.iter().any(|u| u.len() > 1 && matches(u, w)))
                    })
                };
                let missing: Vec<&String> = tokens.iter().filter(|t| !held(t)).collect();
                // a first name or title written that the name lacks, only where every word of the
                // name was written (`Via Giuseppe Verdi` is never Via Giovanni Verdi)
                let dropped = missing.len();
                if dropped > 0
                    && (!missing.iter().all(|t| droppable(t))
                        || !st.iter().all(hit)
                        || dropped == tokens.len()
                        || !st.iter().any(|w| w.len() >= 4 && !droppable(w)))
                {
                    return None;
                }
                let typos = tokens
                    .iter()
                    .filter(|t| held(t) && !st.iter().any(|w| exact(t, w)))
                    .count();
                // a number right after a first name or title is a regnal one (`Umberto I`,
                // `Papa Giovanni XXIII`): left out as people leave it out
                let regnal = |j: usize| -> bool {
                    st[j].bytes().all(|b| b.is_ascii_digit())
                        && j >= 1
                        && (is_first_name(&st[j - 1]) || is_title(&st[j - 1]))
                };
                let extra: Vec<usize> = (0..st.len()).filter(|&j| !hit(&st[j])).collect();
                let first_hit = st.iter().position(hit).unwrap_or(0);
                let tier = if extra
                    .iter()
                    .all(|&j| is_title(&st[j]) || is_first_name(&st[j]) || regnal(j))
                {
                    0
                } else if extra == [0]
                    && first_hit == 1
                    && st[0].len() >= 3
                    && !names_a_place(&st[0])
                    && long_word
                {
                    1
                } else if typos == 0 && long_word {
                    if extra.iter().all(|&j| !names_a_place(&st[j])) {
                        2
                    } else {
                        3
                    }
                } else {
                    return None;
                };
                Some((typos, dropped, tier))
            })
            .min()
            .map(|(typos, dropped, tier)| Cover {
                street: i,
                typos,
                dropped,
                tier,
            })
    };
    cands
        .into_iter()
        .filter_map(cover)
        .filter(|c| !after_particle(c.street))
        .collect()
}

/// Partial names: the streets whose name holds every word written (`covering`). The fewest typos
/// win (`Via G. Mazzini` is Via Giuseppe Mazzini, not Via Giovanni Mazzoni), then the fewest words
/// of unknown kind left out, then the type written. Streets that fit as well are told apart by the
/// postcode (and, for streets of one name, the house number: `pick`), else they are an ambiguity
/// with candidates. A street of
/// another type than the one written, reached by a partial name, is two differences: an ambiguity.
/// Answers the street(s) and how many written words needed a typo.
fn partial(
    city: &CityStreets,
    name: &str,
    ty: &str,
    precision: u8,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
    pick_near: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
    is_first_name: &dyn Fn(&str) -> bool,
) -> Option<(StreetResolution, u32)> {
    let mut scored = covering(city, name, precision, is_first_name, false);
    let fewest = scored.iter().map(|c| c.typos).min()?;
    scored.retain(|c| c.typos == fewest);
    let dropped = scored.iter().map(|c| c.dropped).min()?;
    scored.retain(|c| c.dropped == dropped);
    // a first name left out and a word of unknown kind left out rank alike (two streets that fit
    // so are an ambiguity, not a choice); other words left out only where nothing else fits
    let rank = |c: &Cover| u8::from(c.tier >= 2);
    let best = scored.iter().map(rank).min()?;
    scored.retain(|c| rank(c) == best);
    if !ty.is_empty() {
        let same: Vec<Cover> = scored
            .iter()
            .copied()
            .filter(|c| city.street(c.street).street_type == ty)
            .collect();
        if !same.is_empty() {
            scored = same;
        }
    }
    let v: Vec<u32> = scored.iter().map(|c| c.street).collect();
    // streets of other names, found through a typo, are never chosen by their postcode or number
    let v = if fewest == 0 {
        pick(&v)?
    } else {
        pick_near(&v)?
    };
    let edits = fewest as u32;
    // a street that names a place beside the words written is never the answer, only a candidate
    if v.len() == 1 && scored.iter().any(|c| c.street == v[0] && c.tier == 3) {
        return Some((StreetResolution::Ambiguous(v), edits));
    }
    if v.len() == 1 {
        // another type and a partial name: two differences, not a confident match
        if !ty.is_empty() && city.street(v[0]).street_type != ty {
            return Some((StreetResolution::Ambiguous(v), edits));
        }
        return Some((StreetResolution::Found(v[0], StreetMatch::Changed), edits));
    }
    // a handful of streets the words fit is an ambiguity; many is no answer at all
    (v.len() <= MAX_CANDIDATES).then_some((StreetResolution::Ambiguous(v), edits))
}

/// The most streets an ambiguous partial name is answered with (`Via Caracciolo` in Napoli fits
/// five); more is no answer.
const MAX_CANDIDATES: usize = 8;

/// Streets of type `ty` (any type when empty) whose name holds every word written, as written
/// (an initial stands for a word it begins), whatever else the name has.
fn containing(city: &CityStreets, name: &str, ty: &str) -> Vec<u32> {
    let tokens = loose_tokens(name);
    let Some(anchor) = tokens
        .iter()
        .max_by_key(|t| t.len())
        .filter(|t| t.len() >= 3)
    else {
        return Vec::new();
    };
    let fits = |t: &String, w: &String| w == t || (t.len() == 1 && w.starts_with(t.as_str()));
    let mut out: Vec<u32> = city
        .by_token(anchor)
        .iter()
        .copied()
        .filter(|&i| ty.is_empty() || city.street(i).street_type == ty)
        .filter(|&i| {
            city.name_tokens(i)
                .iter()
                .any(|st| tokens.iter().all(|t| st.iter().any(|w| fits(t, w))))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Words that make a street name another place when left out (see `CountryRules::names_a_place`).
fn names_a_place(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit()) || super::rules::italy().names_a_place(w)
}

/// Several streets of the same name: the postcode, then the house number, tell them apart.
fn disambiguate(
    city: &CityStreets,
    v: Vec<u32>,
    postcode: &str,
    number: Option<(u32, &str)>,
) -> Vec<u32> {
    let pc = postcode.trim();
    let mut v = v;
    if !pc.is_empty() {
        let same: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| city.street(i).postcodes.iter().any(|(p, _)| p == pc))
            .collect();
        if !same.is_empty() {
            v = same;
        }
    }
    if v.len() > 1 {
        if let Some((n, suffix)) = number {
            let same: Vec<u32> = v
                .iter()
                .copied()
                .filter(|&i| find_number(city.street(i), n, suffix).is_some())
                .collect();
            if !same.is_empty() {
                v = same;
            }
        }
    }
    if v.len() > 1 {
        // one spelling from the national list and one from a municipal list of the same street:
        // the one that carries house numbers is the street
        let with_numbers: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| !city.street(i).numbers.is_empty())
            .collect();
        if with_numbers.len() == 1 {
            let s = city.street(with_numbers[0]);
            let k = full_key(&format!("{} {}", s.street_type, s.name));
            if v.iter().all(|&i| {
                let o = city.street(i);
                full_key(&format!("{} {}", o.street_type, o.name)) == k
            }) {
                v = with_numbers;
            }
        }
    }
    v
}

pub fn find_number<'s>(
    street: &'s Street,
    number: u32,
    suffix: &str,
) -> Option<&'s HouseNumberEntry> {
    let from = street.numbers.partition_point(|n| n.number < number);
    street.numbers[from..]
        .iter()
        .take_while(|n| n.number == number)
        .find(|n| n.suffix == suffix)
}

/// A point between the nearest numbers on the same side of the street (same parity).
pub fn interpolate(street: &Street, number: u32) -> Option<(f64, f64)> {
    let side = |n: &&HouseNumberEntry| n.number % 2 == number % 2;
    let below = street
        .numbers
        .iter()
        .filter(side)
        .filter(|n| n.number < number)
        .max_by_key(|n| n.number);
    let above = street
        .numbers
        .iter()
        .filter(side)
        .filter(|n| n.number > number)
        .min_by_key(|n| n.number);
    match (below, above) {
        (Some(a), Some(b)) => {
            let t = f64::from(number - a.number) / f64::from(b.number - a.number);
            Some((a.lat + (b.lat - a.lat) * t, a.lon + (b.lon - a.lon) * t))
        }
        (Some(a), None) | (None, Some(a)) => Some((a.lat, a.lon)),
        (None, None) => None,
    }
}

/// Whether the first word of a name is a street type typed wrong (`Vai`, `Piaza`, `Coso`).
pub fn mistyped_type(name: &str) -> Option<(&'static str, String)> {
    let mut words = name.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    if rest.is_empty() {
        return None;
    }
    let f = compact(first);
    let found = street_type::FULL_TYPES.iter().find(|t| {
        !t.contains(' ')
            && ((t.len() >= 5 && f.len() >= 4 && edit_distance(t, &f, 1).is_some())
                || (t.len() == 3 && f.len() == 3 && {
                    let mut a: Vec<char> = t.chars().collect();
                    let mut b: Vec<char> = f.chars().collect();
                    a.sort();
                    b.sort();
                    a == b && **t != f
                }))
    })?;
    Some((found, rest.join(" ")))
}
