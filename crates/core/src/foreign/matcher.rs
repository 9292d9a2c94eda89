//! A foreign record verified in its country's register: the locality from city and postcode,
//! the street by its comparison forms (exact, abbreviation, word order, then typo distance), the
//! house number, the postcode, the point. A street is answered only when one name stands clear of
//! every other: a typo or a partial name that fits two names is never settled by the number.
//! Streets of one name are told apart by the engine's `narrow` (as in Italy); the answer for the
//! street chosen is written by `answer`.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use super::answer::{answer_base, answer_street, Found};
use super::line::{self, Line, Reading};
use super::model::{CountryRegister, Street};
use super::text::NameKey;
use crate::address::outcome::Outcome;
use crate::address::resolve::{narrow, Evidence};
use crate::address::{ContactInput, ContactResult};
use crate::normalize::fold;
use crate::register::street::StreetFacts;

/// Lowest score of an answered street.
const ACCEPT: f64 = 0.83;
/// How far the next other name must stay below the best.
const MARGIN: f64 = 0.05;
/// Scores from here up are the name's own forms (exact, abbreviation, word order); below, the
/// street was reached through a typo.
const OWN_FORM: f64 = 0.94;

pub(super) fn text(s: &Option<String>) -> &str {
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

/// The place written: the localities of the city and of the postcode, and the streets of both.
struct Place<'a> {
    reg: &'a CountryRegister,
    localities: Vec<u32>,
    /// the postcode written, in the country's canonical form
    postcode: String,
    /// the streets that carry the postcode
    pc_streets: &'a [u32],
    /// the localities of the city written: the city outweighs a postcode of another place
    city: HashSet<u32>,
    /// neither the localities nor the postcode hold a street
    empty: bool,
    /// the register holds every street of the place: a name it lacks is no street of it
    complete_streets: bool,
    /// the streets of the place, listed only when a typo needs them scanned
    listed: OnceCell<Vec<u32>>,
}

impl<'a> Place<'a> {
    fn new(reg: &'a CountryRegister, city: &str, postcode: String) -> Place<'a> {
        let by_city = localities_by_city(reg, city);
        let of_postcode = |index: &'a HashMap<String, Vec<u32>>| -> &'a [u32] {
            match postcode.is_empty() {
                true => &[],
                false => index.get(&postcode).map(Vec::as_slice).unwrap_or(&[]),
            }
        };
        let mut localities: Vec<u32> = by_city.clone();
        localities.extend(of_postcode(&reg.localities_by_postcode).iter().copied());
        localities.sort_unstable();
        localities.dedup();
        let pc_streets = of_postcode(&reg.streets_by_postcode);
        let empty = pc_streets.is_empty()
            && localities
                .iter()
                .all(|&l| reg.streets_by_locality[l as usize].is_empty());
        let complete_streets = reg.national
            || (!localities.is_empty()
                && localities
                    .iter()
                    .all(|&l| reg.localities[l as usize].complete_streets));
        Place {
            reg,
            localities,
            postcode,
            pc_streets,
            city: by_city.into_iter().collect(),
            empty,
            complete_streets,
            listed: OnceCell::new(),
        }
    }

    fn contains(&self, street: u32) -> bool {
        let s = &self.reg.streets[street as usize];
        self.localities.contains(&s.locality)
            || (!self.postcode.is_empty() && s.postcodes.contains(&self.postcode))
    }

    /// Every street of the place.
    fn streets(&self) -> &[u32] {
        self.listed.get_or_init(|| {
            let reg = self.reg;
            let mut v: Vec<u32> = self
                .localities
                .iter()
                .flat_map(|&l| reg.streets_by_locality[l as usize].iter().copied())
                .chain(self.pc_streets.iter().copied())
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
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

/// The streets worth scoring for a name typed in part or with a typo (the suggestions' second
/// try), best first: the typo candidates `keep` lets through, ranked as the matcher ranks them.
pub fn ranked_near(reg: &CountryRegister, q: &NameKey, keep: &dyn Fn(u32) -> bool) -> Vec<u32> {
    let ids: Vec<u32> = reg
        .grams
        .candidates(q)
        .unwrap_or_default()
        .into_iter()
        .filter(|&id| keep(id))
        .collect();
    rank(reg, q, &ids).into_iter().map(|c| c.street).collect()
}

/// The streets ranked for one reading of the name: its exact forms in the place first; the place's
/// typo candidates when no form settles it; where the register is national and the place gave
/// nothing clear, the country's streets sharing a word of the name.
fn rank_reading(reg: &CountryRegister, q: &NameKey, place: &Place) -> Vec<Candidate> {
    // exact forms first: only a typo needs the place scanned
    let exact: Vec<u32> = reg
        .streets_by_form(q)
        .into_iter()
        .filter(|&id| place.empty || place.contains(id))
        .collect();
    let mut ranked = rank(reg, q, &exact);
    let settled = ranked.first().is_some_and(|c| c.score >= 0.94)
        && (place.empty || ranked.iter().any(|c| place.contains(c.street)));
    if !settled {
        let ids: Vec<u32> = match candidates(reg, q) {
            _ if place.empty => Vec::new(),
            Some(c) => c.into_iter().filter(|&id| place.contains(id)).collect(),
            None => scan(reg, q, place.streets()),
        };
        ranked = rank(reg, q, &ids);
    }
    let clear = ranked.first().is_some_and(|c| c.score >= ACCEPT);
    // the whole country: only streets sharing a word of the name (a typo across the country
    // would answer strangers)
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
        ranked = rank(reg, q, &ids);
    }
    ranked
}

enum Decision {
    Found(u32, f64),
    /// one name in several places that neither the postcode nor the number tells apart
    Ambiguous,
    /// two different names fit alike
    Unclear,
    NotFound,
}

impl Decision {
    /// How much a decision is worth against another reading's: a street in the place written
    /// (city, postcode) outranks one found elsewhere in the country (`3, Rue Napoléon 1er` in Olm
    /// is not `1, Rue Napoléon` of Koetschette).
    fn rank(&self, place: &Place) -> u8 {
        match self {
            Decision::Found(id, _) if place.empty || place.contains(*id) => 4,
            Decision::Found(..) => 3,
            Decision::Ambiguous => 2,
            Decision::Unclear => 1,
            Decision::NotFound => 0,
        }
    }
}

fn decide(
    reg: &CountryRegister,
    ranked: &[Candidate],
    number: Option<&(u32, String)>,
    place: &Place,
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
    let same: Vec<u32> = ranked
        .iter()
        .filter(|c| {
            reg.streets[c.street as usize].keys[0].key == *top_name && c.score >= top.score - 1e-9
        })
        .map(|c| c.street)
        .collect();
    // the place written; the city written outweighs a postcode of another place; the number
    // written before the postcode: of one name split by postcode (Bern's `Bottigenstrasse` in 3019
    // and 3020), a wrong postcode must not pick the part where the number is not
    let in_place = |id: u32| place.contains(id);
    let in_city = |id: u32| place.city.contains(&reg.streets[id as usize].locality);
    let same = narrow(
        reg,
        same,
        &[
            Evidence::Within(&in_place),
            Evidence::Within(&in_city),
            Evidence::Number(number.map(|(n, suffix)| (*n, suffix.as_str()))),
            Evidence::Postcode(&place.postcode),
        ],
    );
    // the same street split by locality inside one municipality is one answer
    let municipalities: HashSet<&str> = same
        .iter()
        .map(|&id| {
            reg.localities[reg.streets[id as usize].locality as usize]
                .municipality_code
                .as_str()
        })
        .collect();
    if same.len() > 1 && municipalities.len() > 1 {
        return Decision::Ambiguous;
    }
    if top.score < OWN_FORM && !corroborated(reg, same[0], number, &place.postcode) {
        return Decision::Unclear;
    }
    Decision::Found(same[0], top.score)
}

/// Whether the number written, absent from the street found, is a number of another street of
/// the place one typo away from the name written: the name may be a typo of that one (`29M, An
/// Urbech` in Buschdorf, whose `An Uerbech` has 29M), and two names are never settled by the number.
fn namesake_holds_number(
    reg: &CountryRegister,
    reading: &Reading,
    street: u32,
    place: &Place,
) -> bool {
    let Some((n, suffix)) = &reading.number else {
        return false;
    };
    let found = &reg.streets[street as usize];
    if reg.has_number(street, *n, suffix) || place.empty {
        return false;
    }
    let q = reg.expander.name_key(&reading.street);
    let Some(ids) = candidates(reg, &q) else {
        return false;
    };
    ids.into_iter().any(|id| {
        id != street
            && place.contains(id)
            && reg.streets[id as usize].keys[0].key != found.keys[0].key
            && reg.has_number(id, *n, suffix)
            && street_score(&q, &reg.streets[id as usize]) >= ACCEPT
    })
}

/// Whether the record backs a street reached through a typo: a name one letter away from a
/// register's may be another real street (`Streckweg` is not `Steckweg`), so the typo is
/// corrected only when the number written is one of the street's and the postcode written one
/// of its postcodes — at least one of them given, neither contradicting.
fn corroborated(
    reg: &CountryRegister,
    street: u32,
    number: Option<&(u32, String)>,
    postcode: &str,
) -> bool {
    let by_number = match number {
        Some(_) if !reg.lists_numbers(street) => None,
        Some((n, suffix)) => Some(reg.has_number(street, *n, suffix)),
        None => None,
    };
    let by_postcode = match postcode {
        "" => None,
        _ if reg.streets[street as usize].postcodes.is_empty() => None,
        p => Some(reg.has_postcode(street, p)),
    };
    by_number != Some(false)
        && by_postcode != Some(false)
        && (by_number == Some(true) || by_postcode == Some(true))
}

/// The postcode of the record in the country's form: the one written in its field, else the one
/// written in the line.
fn written_postcode(cc: &str, field: &str, line: &Line) -> String {
    if field.is_empty() {
        line.postcode
            .as_deref()
            .map(|p| crate::postal::postcode::key(cc, p))
            .unwrap_or_default()
    } else {
        crate::postal::postcode::key(cc, field)
    }
}

/// The reading of the line whose street the place (then the country) answers best, with its
/// decision and its best score.
fn best_reading<'l>(
    reg: &CountryRegister,
    line: &'l Line,
    place: &Place,
) -> Option<(Decision, &'l Reading, f64)> {
    let mut best: Option<(Decision, &Reading, f64)> = None;
    for reading in &line.readings {
        let q = reg.expander.name_key(&reading.street);
        if q.compact.is_empty() {
            continue;
        }
        let ranked = rank_reading(reg, &q, place);
        let top = ranked.first().map(|c| c.score).unwrap_or(0.0);
        let d = decide(reg, &ranked, reading.number.as_ref(), place);
        let better = match &best {
            None => true,
            Some((bd, br, bs)) => {
                let (a, b) = (d.rank(place), bd.rank(place));
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
    best
}

/// Verifies the record in the register; None when the record lies outside what the register
/// covers at street level (the postal form answers it then). The line is read (`line::read`), the
/// place found (`Place`), each reading's street ranked and decided (`best_reading`), and the
/// street found answered with its number, postcode and point (`answer_street`).
pub fn verify(
    reg: &CountryRegister,
    input: &ContactInput,
    base: &ContactResult,
) -> Option<ContactResult> {
    if reg.streets.is_empty() {
        return None;
    }
    let address = text(&input.address);
    let city_in = text(&input.city);
    let line = line::read(address, city_in, &reg.expander);
    let written_pc = text(&input.postcode);
    let place = Place::new(
        reg,
        city_in,
        written_postcode(reg.info.country, written_pc, &line),
    );
    if place.empty && !reg.national {
        return None;
    }
    let best = best_reading(reg, &line, &place);
    let mut r = answer_base(reg, input, base, written_pc, &place.postcode);
    let mut out = Outcome::default();
    out.condition("FOREIGN");
    let not_found = |mut r: ContactResult, mut out: Outcome| {
        out.condition("STREET_NOT_FOUND");
        r.outcome = out.codes();
        place.complete_streets.then_some(r)
    };
    let Some((decision, reading, _)) = best else {
        if address.is_empty() {
            return None;
        }
        return not_found(r, out);
    };
    match decision {
        Decision::Found(id, _) if namesake_holds_number(reg, reading, id, &place) => {}
        Decision::Found(id, score) => {
            let found = Found {
                reading,
                street: id,
                score,
            };
            return Some(answer_street(reg, r, out, &found, city_in, &place.postcode));
        }
        Decision::Ambiguous => {}
        Decision::Unclear | Decision::NotFound => return not_found(r, out),
    }
    out.condition("STREET_AMBIGUOUS");
    r.outcome = out.codes();
    Some(r)
}
