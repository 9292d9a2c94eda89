//! `foreign: detect`: the spec's explicit signals that a record without a country is abroad —
//! a non-Italian postcode form (`L-1234`, `D-45127`, `CH-3011`, `F-75001`) and a foreign
//! locality the imported registers know. (A country name is looked up by the contact flow in
//! the registry of foreign states.) Contact and dedupe share it through the contact engine.

use super::{Formats, Postcode, VEHICLE_PREFIXES};
use crate::normalize::fold;
use crate::register::Register;

/// A country prefix and a postcode that fits that country's pattern: `D-45127` → DE.
/// Only with a separator (`D-45127`, `CH 3011`), so that an Italian `20121` is never read as one.
pub fn postcode_country(formats: &Formats, text: &str) -> Option<String> {
    let t = text.trim().to_uppercase();
    let (prefix, body) = t.split_once(['-', ' ', '–'])?;
    let prefix = prefix.trim();
    if prefix.is_empty() || prefix.len() > 3 || !prefix.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    let body = body.trim();
    if !body.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let country = VEHICLE_PREFIXES
        .iter()
        .find(|(v, _)| *v == prefix)
        .map(|(_, iso)| iso.to_string())
        .or_else(|| {
            formats
                .codes()
                .find(|c| {
                    *c == prefix
                        || formats.country(c).is_some_and(|f| {
                            f.data.postprefix.trim_end_matches(['-', ' ']) == prefix
                        })
                })
                .cloned()
        })?;
    if matches!(country.as_str(), "IT" | "VA") {
        return None;
    }
    let format = formats.country(&country)?;
    matches!(format.judge_postcode(body), Postcode::Valid(_)).then_some(country)
}

/// An Italian province written in the province field or in brackets in the line or the city field
/// (`Aquila (AQ)`): the record stays Italian whatever foreign place shares its name.
pub fn italian_province(formats: &Formats, province: &str, city: &str, address: &str) -> bool {
    let Some(it) = formats.country("IT") else {
        return false;
    };
    let bracketed = |s: &str| {
        s.split('(')
            .skip(1)
            .filter_map(|rest| {
                rest.split_once(')')
                    .map(|(code, _)| code.trim().to_string())
            })
            .collect::<Vec<_>>()
    };
    let is_code = |c: &str| c.len() == 2 && it.subdivision(c).is_some();
    (!province.trim().is_empty() && it.subdivision(province).is_some())
        || bracketed(city)
            .iter()
            .chain(bracketed(address).iter())
            .any(|c| is_code(c))
}

/// The words of a record that may hold a postcode and its place: the postcode field with the
/// city field, the city field alone (`75001 Paris`), each segment of the line
/// (`1250-096 Lisboa`, `Mountain View, CA 94043`); of the line and the city, only runs with a
/// digit.
fn places(postcode: &str, city: &str, address: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !postcode.trim().is_empty() {
        out.push((postcode.trim().to_string(), city.trim().to_string()));
    }
    let segs: Vec<&str> = address.split([',', ';']).map(str::trim).collect();
    for (k, text) in std::iter::once(city)
        .chain(segs.iter().copied())
        .enumerate()
    {
        let w: Vec<&str> = text.split_whitespace().collect();
        for i in 0..w.len() {
            for n in [2, 1] {
                if i + n > w.len() || (k == 1 && i == 0 && w.len() > n) {
                    continue;
                }
                // a run without a digit is no postcode `postcode_and_place` reads: its place is
                // not put together
                if !w[i..i + n]
                    .iter()
                    .any(|x| x.bytes().any(|b| b.is_ascii_digit()))
                {
                    continue;
                }
                let mut place: Vec<&str> =
                    w[..i].iter().chain(w[i + n..].iter()).copied().collect();
                // the segment before (`Mountain View, CA 94043`) or the city field
                if place.len() <= 1 {
                    if !city.trim().is_empty() && k > 0 {
                        place.push(city.trim());
                    } else if k > 1 {
                        place.splice(0..0, segs[k - 2].split_whitespace());
                    }
                }
                out.push((w[i..i + n].join(" "), place.join(" ")));
            }
        }
    }
    out
}

/// A run of words of a place beside a postcode, read once for every country that may take it:
/// folded, whether it ends the place, and the countries whose registers know a locality so named.
struct Run<'a> {
    folded: String,
    last: bool,
    localities_in: &'a [&'static str],
    /// The countries with a subdivision or state so named (`Formats::place_names`).
    place_of: &'a [String],
}

impl Run<'_> {
    /// Some country has a subdivision or state so named.
    fn place_name(&self) -> bool {
        !self.place_of.is_empty()
    }
}

/// Every country's folded subdivision names and codes and state names and codes, each with the
/// countries that have it: a run of words names a subdivision or state of these countries only,
/// asked once for the run instead of once per country its postcode may be (`place_agrees`).
pub(super) fn place_names(
    countries: &rustc_hash::FxHashMap<String, super::CountryFormat>,
) -> rustc_hash::FxHashMap<String, Vec<String>> {
    let mut out: rustc_hash::FxHashMap<String, Vec<String>> = rustc_hash::FxHashMap::default();
    for c in countries.values() {
        for name in c.subdivisions.keys().chain(c.state_codes.keys()) {
            let v = out.entry(name.clone()).or_default();
            if !v.contains(&c.code) {
                v.push(c.code.clone());
            }
        }
    }
    out
}

/// Every run of words of the place, longest first (up to four words).
fn runs<'a>(
    formats: &'a Formats,
    world: Option<&'a crate::foreign::World>,
    place: &str,
) -> Vec<Run<'a>> {
    // each word folded once: a run's folded form is its words' folded forms joined (`fold`
    // turns a space into one space between two folded parts and drops what folds to nothing)
    let words: Vec<String> = place.split_whitespace().map(fold).collect();
    let mut out = Vec::new();
    for n in (1..=words.len().min(4)).rev() {
        for i in 0..=words.len() - n {
            let mut folded = String::new();
            for w in words[i..i + n].iter().filter(|w| !w.is_empty()) {
                if !folded.is_empty() {
                    folded.push(' ');
                }
                folded.push_str(w);
            }
            if folded.len() < 2 {
                continue;
            }
            out.push(Run {
                localities_in: if folded.len() >= 3 {
                    super::registers::countries_of_locality(world, &folded)
                } else {
                    &[]
                },
                last: i + n == words.len(),
                place_of: formats
                    .place_names
                    .get(&folded)
                    .map(Vec::as_slice)
                    .unwrap_or(&[]),
                folded,
            });
        }
    }
    out
}

/// The countries a run of the place names (a locality of its register, a subdivision or state):
/// the only ones `place_agrees` can find anything for.
fn named_by<'a>(runs: &[Run<'a>]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for run in runs {
        for c in run
            .localities_in
            .iter()
            .copied()
            .chain(run.place_of.iter().map(String::as_str))
        {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// What speaks for a country of a postcode and the words around it: 2 when the postcode agrees
/// too (a locality of its register with that postcode, a subdivision whose postcodes it starts
/// with), 1 for the name alone (a locality of its register, a subdivision or state name, a
/// subdivision code beside the postcode: `CA 94043`), 0 for nothing, or for a postcode a
/// register listing every postcode of its country lacks.
fn place_agrees(
    world: Option<&crate::foreign::World>,
    format: &super::CountryFormat,
    pc: &str,
    pc_compact: &str,
    runs: &[Run],
) -> u8 {
    // a register that lists every postcode of its country and not this one: not the country's
    // (`Graben 1, 1010 Wien`: Slovenia has a settlement Graben, and no postcode 1010); one whose
    // localities carry all their postcodes: a locality without this one is another place
    // (Switzerland's Graben is 3376, its 1010 Lausanne)
    let listed = super::registers::postcode_listed(world, &format.code, pc);
    if listed.is_some_and(|(listed, _)| !listed) {
        return 0;
    }
    let paired = listed.is_some_and(|(_, paired)| paired);
    let mut best = 0;
    let mut localities: Option<Option<Vec<String>>> = None;
    for run in runs {
        let f = run.folded.as_str();
        if run.localities_in.contains(&format.code.as_str()) {
            let with_pc = localities
                .get_or_insert_with(|| crate::foreign::postcode_localities(&format.code, pc))
                .as_ref()
                .is_some_and(|names| names.iter().any(|l| fold(l) == f));
            if with_pc {
                best = 2;
            } else if !paired {
                best = best.max(1);
            }
        }
        // no country's subdivision or state: none of this one's either
        if !run.place_name() {
            continue;
        }
        if let Some((s, agrees)) = format.subdivision_folded(f, pc_compact) {
            if !s.zip.is_empty() {
                if agrees == Some(true) {
                    best = 2;
                }
            } else if f.len() > 3 || run.last {
                // a name that is a subdivision (`Berlin`); a code only beside the postcode
                best = best.max(1);
            }
        } else if f.len() > 3 && format.state_code_folded(f).is_some() {
            best = best.max(1);
        }
    }
    best
}

/// A postcode as written and the place beside it: the one country whose form it has and whose
/// place agrees, or the one country that writes a postcode that way (`SW1A 2AA`, `1250-096`,
/// `1012 LG`) when a place is written with it. Several countries alike: none (the record stays
/// Italian, and the Italian answer says what it could not find).
///
/// The cheap, decisive signals first: the place's words are read once (each run looked up in
/// one map of every register's localities and one of every country's subdivisions and states),
/// and only the countries they name are asked whether the postcode is theirs; every country is
/// asked only for a postcode with letters written beside a place, where one country's form
/// alone decides.
fn postcode_and_place(
    register: &Register,
    postcode: &str,
    city: &str,
    address: &str,
) -> Option<String> {
    let formats = Formats::of(register);
    // the foreign registers, taken once for the record and only when a place is read
    let world = std::cell::OnceCell::new();
    let mut agreeing: Vec<String> = Vec::new();
    let mut unique: Vec<String> = Vec::new();
    // each postcode judged once for the record: the same run of words comes back beside
    // another place (the postcode field and the city field, the city field and the line)
    let mut judged: Vec<super::fit::PostcodeJudgement> = Vec::new();
    for (pc, place) in places(postcode, city, address) {
        if !pc.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        let at = match judged.iter().position(|j| j.written() == pc) {
            Some(at) => at,
            None => {
                judged.push(super::fit::PostcodeJudgement::new(formats, &pc));
                judged.len() - 1
            }
        };
        let judgement = &mut judged[at];
        let up = pc.to_uppercase();
        let abroad = |code: &str| !matches!(code, "IT" | "VA");
        // no country may take the written form: neither a place nor the form alone finds one
        // (`may_fit` of every group and every prefix would say no)
        if !judgement.may_take_any() {
            continue;
        }
        if place.split_whitespace().next().is_some() {
            let world = world.get_or_init(crate::foreign::current).as_deref();
            let runs = runs(formats, world, &place);
            let mut italian: Option<bool> = None;
            // the postcode's letters and digits
            let pc_compact: String = pc.chars().filter(|c| c.is_alphanumeric()).collect();
            for code in named_by(&runs) {
                if !abroad(code) || !judgement.fits(code) {
                    continue;
                }
                let Some(f) = formats.countries.get(code) else {
                    continue;
                };
                // a postcode Italy has: only a place whose postcodes agree takes it abroad
                let italian = *italian.get_or_insert_with(|| {
                    judgement.fits("IT") && register.municipalities.lists_postcode(&up)
                });
                let strength = place_agrees(world, f, &pc, &pc_compact, &runs);
                if strength >= if italian { 2 } else { 1 } && !agreeing.iter().any(|a| a == code) {
                    agreeing.push(code.to_string());
                }
            }
        }
        // written exactly in one country's form (separator included), beside a place: a
        // group's countries share the pattern, matched once, and only where some country of
        // the group takes the postcode
        let digits_only = up.chars().all(|c| c.is_ascii_digit());
        if digits_only || place.trim().is_empty() {
            continue;
        }
        let mut exact: Option<&str> = None;
        let mut several = false;
        'groups: for (g, codes) in judgement.groups() {
            // a group none of whose countries may take the postcode, or whose pattern does
            // not match it as written, has no country of this form
            if !judgement.group_prefixed(g) && !judgement.may_fit(g) {
                continue;
            }
            let matches = codes
                .first()
                .and_then(|c| formats.countries.get(c))
                .and_then(|f| f.postcode.as_ref())
                .is_some_and(|r| r.pattern.is_match(&up));
            if !matches {
                continue;
            }
            for code in codes {
                if !judgement.fits(code) {
                    continue;
                }
                if exact.is_some() {
                    several = true;
                    break 'groups;
                }
                exact = Some(code);
            }
        }
        if let (Some(one), false) = (exact, several) {
            if !unique.iter().any(|u| u == one) {
                unique.push(one.to_string());
            }
        }
    }
    match (agreeing.as_slice(), unique.as_slice()) {
        ([one], _) => Some(one.clone()),
        ([], [one]) => Some(one.clone()),
        _ => None,
    }
}

/// The signals in a record's postcode, city and address line: the country they point to. An
/// Italian province written keeps the record Italian.
pub fn country(
    register: &Register,
    postcode: &str,
    city: &str,
    address: &str,
    province: &str,
) -> Option<String> {
    let formats = Formats::of(register);
    if italian_province(formats, province, city, address) {
        return None;
    }
    if let Some(c) = postcode_country(formats, postcode) {
        return Some(c);
    }
    // `D-45127 Essen` in the city field, or at the end of the address line after a comma
    let tail = address.rsplit(',').next().unwrap_or("");
    for text in [city, tail] {
        let words: Vec<&str> = text.split_whitespace().collect();
        for n in [1, 2] {
            if words.len() >= n {
                if let Some(c) = postcode_country(formats, &words[..n].join(" ")) {
                    return Some(c);
                }
            }
        }
    }
    if let Some(c) = postcode_and_place(register, postcode, city, address) {
        return Some(c);
    }
    let city = fold(city);
    if city.len() >= 3 {
        if let Some(c) = super::registers::country_of_locality(register, &city) {
            return Some(c);
        }
    }
    None
}
