//! The decision on the ranked streets of one reading: a street answered only when its name stands
//! clear of every other name by `MARGIN`, streets of that one name told apart by the place, the
//! city, the number and the postcode (`narrow`, as in Italy), and a typo corrected only when the
//! record backs it.

use std::collections::HashSet;

use super::gather::{candidates, Candidate, ACCEPT};
use super::name::{street_score, NameKey};
use super::partial::{self, Partial};
use super::{ChoiceFacts, StreetPlace};
use crate::address::resolve::{narrow, Evidence};

/// How far the next other name must stay below the best.
const MARGIN: f64 = 0.05;
/// Scores from here up are the name's own forms (exact, abbreviation, word order); below, the
/// street was reached through a typo.
const OWN_FORM: f64 = 0.94;

#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Found(u32, f64),
    /// one name in several places that neither the postcode nor the number tells apart, or a
    /// street found whose number a namesake one typo away holds: those streets
    Ambiguous(Vec<u32>),
    /// two different names fit alike: the best street of each, best first
    Unclear(Vec<u32>),
    /// one name under several street types and no type written (`Roma`: Via Roma, Piazza Roma):
    /// the best street of each type, best first
    TypeMissing(Vec<u32>),
    NotFound,
}

impl Decision {
    /// How much a decision is worth against another reading's: a street in the place written
    /// (city, postcode) outranks one found elsewhere in the country (`3, Rue Napoléon 1er` in Olm
    /// is not `1, Rue Napoléon` of Koetschette).
    pub(super) fn rank<P: StreetPlace>(&self, place: &P) -> u8 {
        match self {
            Decision::Found(id, _) if place.empty() || place.contains(*id) => 4,
            Decision::Found(..) => 3,
            Decision::Ambiguous(_) => 2,
            Decision::Unclear(_) | Decision::TypeMissing(_) => 1,
            Decision::NotFound => 0,
        }
    }
}

/// The name's comparison key, which tells two names apart.
fn name_of<R: ChoiceFacts>(reg: &R, street: u32) -> &str {
    &reg.keys(street)[0].key
}

/// How a decision was reached: by the names' own forms or typos (`Names`), by a partial name
/// (`Partial`: every word written is in the street's name), or by both agreeing on the street (a
/// typo and a partial name with a typo, or a typo one word away from a whole name and a word of
/// longer names that the postcode and number settled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    Names,
    Partial,
    NamesAndPartial,
}

/// The decision on one reading, and how it was reached (`By`). Where the
/// country reads partial names (`ChoiceRules::partial_names`) and no street has the name in one of
/// its own forms, a name that holds every word written beats any typo (`Via Corti` is Via Alfonso
/// or Via Costantino Corti, never Via Orti; `Via C. Colombo` is Via Cristoforo Colombo, not Via dei
/// Colombi); a partial name with a typo stands beside the typo's street: two streets are an
/// ambiguity, one either finds is the street.
pub(super) fn decide<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    ranked: &[Candidate],
    number: Option<&(u32, String)>,
    place: &P,
) -> (Decision, By) {
    let rules = reg.rules();
    if rules.type_changes_alone {
        if let Some(d) = by_words(reg, q, ranked, number, place) {
            return d;
        }
    }
    let own_form = ranked.first().is_some_and(|c| c.score >= 1.0);
    let partial = match &rules.partial_names {
        Some(words) if !own_form && rules.any_order() => {
            let number = number.map(|(n, suffix)| (*n, suffix.as_str()));
            partial::partial(reg, words, q, place.postcode(), number)
        }
        _ => None,
    };
    let d = by_scores(reg, q, ranked, number, place);
    match partial {
        Some(p) if p.typos == 0 => (p.decision, By::Partial),
        Some(Partial {
            decision: Decision::Found(b, s),
            ..
        }) => match d {
            Decision::Found(a, _) if a != b => (Decision::Ambiguous(vec![a, b]), By::Names),
            Decision::Found(..) => (d, By::NamesAndPartial),
            _ => (Decision::Found(b, s), By::Partial),
        },
        Some(p) if d == Decision::NotFound => (p.decision, By::Partial),
        _ => typo_beside_partial_names(reg, q, d, number, place),
    }
}

/// One word written, a typo of one street's whole name and as near a word of longer names (`Via
/// Mandolfo`: Via Landolfo, or Via Ugo Guido Mondolfo?): where the country reads partial names,
/// the streets of the type written whose name holds the word with at most a typo, nothing but
/// first names and titles left out, stand beside the typo's street; the postcode and the house
/// number tell them apart, else the answer is a doubt with them.
fn typo_beside_partial_names<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    d: Decision,
    number: Option<&(u32, String)>,
    place: &P,
) -> (Decision, By) {
    let (Decision::Found(found, score), Some(words)) = (&d, &reg.rules().partial_names) else {
        return (d, By::Names);
    };
    if *score >= OWN_FORM || q.tokens.len() != 1 || !reg.rules().typos() {
        return (d, By::Names);
    }
    let of_type = |id: u32| q.types.is_empty() || reg.keys(id)[0].types == q.types;
    let mut v = vec![*found];
    v.extend(
        partial::covering(reg, words, q, true, true)
            .into_iter()
            .filter(|c| c.street != *found && c.tier == 0 && c.dropped == 0)
            .map(|c| c.street)
            .filter(|&id| of_type(id)),
    );
    if v.len() == 1 {
        return (d, By::Names);
    }
    let number = number.map(|(n, suffix)| (*n, suffix.as_str()));
    let v = narrow(
        reg,
        v,
        &[
            Evidence::Postcode(place.postcode()),
            Evidence::Number(number),
        ],
    );
    match v[..] {
        [one] => (
            Decision::Found(one, street_score(q, reg.keys(one), reg.rules())),
            By::NamesAndPartial,
        ),
        _ => (Decision::Unclear(v), By::Names),
    }
}

/// The decision by the names' scores: the best name clear of every other, its streets told
/// apart by the place, the number and the postcode; a typo only where the record backs it.
fn by_scores<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    ranked: &[Candidate],
    number: Option<&(u32, String)>,
    place: &P,
) -> Decision {
    let Some(top) = ranked.first() else {
        return Decision::NotFound;
    };
    if top.score < ACCEPT {
        return Decision::NotFound;
    }
    // another name close to the best: a typo or partial name fits both, or the name was written
    // without the type that tells its streets apart
    let close = other_names_close(
        reg,
        ranked,
        top,
        fewest_edits(reg, top) || own_name(reg, top),
    );
    let told = exact_names_told_apart(reg, ranked, top, &close, number, place);
    if told.is_none() && close.len() > 1 {
        let one_name = close.iter().all(|&c| same_words(reg, c, top.street));
        return if q.types.is_empty() && one_name && !typed_alike(reg, &close) {
            Decision::TypeMissing(close)
        } else {
            Decision::Unclear(close)
        };
    }
    let top = told.unwrap_or(top);
    let top_name = name_of(reg, top.street);
    let same: Vec<u32> = ranked
        .iter()
        .filter(|c| name_of(reg, c.street) == top_name && c.score >= top.score - 1e-9)
        .map(|c| c.street)
        .collect();
    // the place written; the city written outweighs a postcode of another place; then the number
    // and the postcode, in the order the country's register makes them reliable
    // (`ChoiceRules::postcode_before_number`)
    let in_place = |id: u32| place.contains(id);
    let in_city = |id: u32| place.in_city(id);
    let house = number.map(|(n, suffix)| (*n, suffix.as_str()));
    let (first, then) = if reg.rules().postcode_before_number {
        (
            Evidence::Postcode(place.postcode()),
            Evidence::Number(house),
        )
    } else {
        (
            Evidence::Number(house),
            Evidence::Postcode(place.postcode()),
        )
    };
    let same = narrow(
        reg,
        same,
        &[
            Evidence::Within(&in_place),
            Evidence::Within(&in_city),
            first,
            then,
        ],
    );
    // the same street split by locality inside one municipality is one answer
    let municipalities: HashSet<&str> = same.iter().map(|&id| reg.municipality_code(id)).collect();
    if same.len() > 1 && municipalities.len() > 1 {
        return Decision::Ambiguous(same);
    }
    // one street listed twice: the spelling that carries house numbers, where the country's
    // register lists streets so (`ChoiceRules::spelling_with_numbers`)
    let mut one = same[0];
    if same.len() > 1 && reg.rules().spelling_with_numbers {
        let mut with_numbers = same.iter().copied().filter(|&id| reg.lists_numbers(id));
        if let (Some(id), None) = (with_numbers.next(), with_numbers.next()) {
            one = id;
        }
    }
    if top.score < OWN_FORM
        && reg.rules().typo.needs_backing
        && !corroborated(reg, one, number, place.postcode())
    {
        return Decision::Unclear(vec![one]);
    }
    Decision::Found(one, top.score)
}

/// Where a country's type changes alone (`ChoiceRules::type_changes_alone`) and no street has the
/// name with the type written: the streets whose name is the words written, without particles,
/// then in any order, whatever their type. The postcode and the house number tell them apart; the
/// type written chooses among the rest; one left is the street (its type changed when another,
/// unless streets of the type written hold every word: `holding_words_of_type`);
/// several types and none written is `TypeMissing`; else an ambiguity, unless a partial name
/// settles it (`partial_of_type_written`; then `By::Partial`, as `decide` answers). None when no
/// street has the words written.
fn by_words<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    ranked: &[Candidate],
    number: Option<&(u32, String)>,
    place: &P,
) -> Option<(Decision, By)> {
    if ranked.first().is_some_and(|c| c.score >= 1.0) {
        return None;
    }
    let in_place: Vec<u32> = reg
        .by_form(q)
        .into_iter()
        .filter(|&id| place.empty() || place.contains(id))
        .collect();
    let loose = |k: &NameKey| k.compact == q.compact;
    let any_order = |k: &NameKey| k.sorted == q.sorted;
    let forms = [&loose as &dyn Fn(&NameKey) -> bool, &any_order];
    let reach = if reg.rules().any_order() { 2 } else { 1 };
    for form in &forms[..reach] {
        let hits: Vec<u32> = in_place
            .iter()
            .copied()
            .filter(|&id| reg.keys(id).iter().any(form))
            .collect();
        if hits.is_empty() {
            continue;
        }
        let number = number.map(|(n, suffix)| (*n, suffix.as_str()));
        let v = narrow(
            reg,
            hits,
            &[
                Evidence::Postcode(place.postcode()),
                Evidence::Number(number),
            ],
        );
        let v = one_spelling(reg, v);
        let of_type = |id: &u32| reg.keys(*id)[0].types == q.types;
        let same: Vec<u32> = v.iter().copied().filter(of_type).collect();
        let found = |id: u32| {
            let d = Decision::Found(id, street_score(q, reg.keys(id), reg.rules()));
            (d, By::Names)
        };
        // several streets of the name, and none or several of the type written: a partial name
        // of the type written may still settle it (`Piazza De Ferrari`)
        let doubt = |v: Vec<u32>| match partial_of_type_written(reg, q, number, place) {
            Some(p) => (p, By::Partial),
            None => (Decision::Ambiguous(v), By::Names),
        };
        return Some(match same.len() {
            _ if q.types.is_empty() => match v.len() {
                1 => found(v[0]),
                _ if !typed_alike(reg, &v) => (Decision::TypeMissing(v), By::Names),
                _ => (Decision::Ambiguous(v), By::Names),
            },
            1 => found(same[0]),
            0 if v.len() == 1 && !reg.rules().any_order() => found(v[0]),
            0 if v.len() == 1 => match holding_words_of_type(reg, q, v[0]) {
                others if others.is_empty() => found(v[0]),
                others => (
                    Decision::Ambiguous(std::iter::once(v[0]).chain(others).collect()),
                    By::Names,
                ),
            },
            0 => doubt(v),
            _ => doubt(same),
        });
    }
    None
}

/// One street listed twice, under two spellings of its type and name (`Piazzale Atleti Azzurri
/// d'Italia` and `P.le Atleti Azzurri d'Italia`, the national list's and a municipal list's): the
/// spelling that carries house numbers, where the country's register lists streets so
/// (`ChoiceRules::spelling_with_numbers`); the streets as they were otherwise.
fn one_spelling<R: ChoiceFacts>(reg: &R, v: Vec<u32>) -> Vec<u32> {
    if v.len() < 2 || !reg.rules().spelling_with_numbers {
        return v;
    }
    let full = |id: u32| reg.keys(id)[0].key.replace(' ', "");
    let mut with_numbers = v.iter().copied().filter(|&id| reg.lists_numbers(id));
    match (with_numbers.next(), with_numbers.next()) {
        (Some(id), None) if v.iter().all(|&j| full(j) == full(id)) => vec![id],
        _ => v,
    }
}

/// The name written is the whole name of streets of other types only, none of which it settles
/// on, while a partial name settles on one street of the type written with every word as written
/// (`Piazza De Ferrari` in Genova: Piazza Raffaele De Ferrari, not Vico Ferrari or Sottopassaggio
/// de Ferrari): that street. None where the country reads no partial names or no word order
/// (precision below 2), or no type was written.
fn partial_of_type_written<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    number: Option<(u32, &str)>,
    place: &P,
) -> Option<Decision> {
    if q.types.is_empty() || !reg.rules().any_order() {
        return None;
    }
    let words = reg.rules().partial_names.as_ref()?;
    let p = partial::partial(reg, words, q, place.postcode(), number)?;
    match p.decision {
        Decision::Found(j, _) if p.typos == 0 && reg.street_type(j) == q.types => Some(p.decision),
        _ => None,
    }
}

/// A street found under another type than the one written is no confident match while streets
/// of the type written hold every word written in a longer name (`Vicolo Gregoraci`: Largo
/// Gregoraci, or Vicolo Secondo Gregoraci?): up to two of them, besides `found`.
fn holding_words_of_type<R: ChoiceFacts>(reg: &R, q: &NameKey, found: u32) -> Vec<u32> {
    let Some(rarest) = q
        .tokens
        .iter()
        .filter_map(|t| reg.by_word(t))
        .min_by_key(|v| v.len())
    else {
        return Vec::new();
    };
    rarest
        .iter()
        .copied()
        .filter(|&id| id != found && reg.keys(id)[0].types == q.types)
        .filter(|&id| {
            reg.keys(id)
                .iter()
                .any(|k| q.tokens.iter().all(|t| k.tokens.contains(t)))
        })
        .take(2)
        .collect()
}

/// Whether the best was reached through a typo where the country takes the fewest edits
/// (`TypoRule::fewest_edits_win`): then only names as near are close to it.
fn fewest_edits<R: ChoiceFacts>(reg: &R, top: &Candidate) -> bool {
    top.score < OWN_FORM && reg.rules().typo.fewest_edits_win
}

/// Streets of several names that each have the name written as one of their names, with its
/// type as written, where the country's type changes alone (`own_name`: `Vittorio Emanuele II` in
/// Milano, the other name of Corso and of Galleria Vittorio Emanuele II): the postcode and the
/// house number tell them apart as they tell apart streets of one name, and the best of the one
/// name they leave is the best. None where they leave several names (a doubt) or there are none.
fn exact_names_told_apart<'c, R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    ranked: &'c [Candidate],
    top: &'c Candidate,
    close: &[u32],
    number: Option<&(u32, String)>,
    place: &P,
) -> Option<&'c Candidate> {
    if close.len() < 2 || !own_name(reg, top) {
        return None;
    }
    let exact: Vec<u32> = ranked
        .iter()
        .filter(|c| c.score >= top.score - 1e-9)
        .map(|c| c.street)
        .collect();
    let house = number.map(|(n, suffix)| (*n, suffix.as_str()));
    let kept = narrow(
        reg,
        exact,
        &[
            Evidence::Postcode(place.postcode()),
            Evidence::Number(house),
        ],
    );
    let first = name_of(reg, kept[0]);
    if kept.iter().any(|&id| name_of(reg, id) != first) {
        return None;
    }
    ranked.iter().find(|c| c.street == kept[0])
}

/// Whether the best is the name with its type as registered where the country's type changes
/// alone (`ChoiceRules::type_changes_alone`, Italy): then only names as near are close to it (`La
/// Castiglia` in Bologna is the street registered with no type, not also Via La Castiglia).
fn own_name<R: ChoiceFacts>(reg: &R, top: &Candidate) -> bool {
    top.score >= 1.0 && reg.rules().type_changes_alone
}

/// The best street of each name scoring within `MARGIN` of the best (scoring as well, with
/// `fewest_edits`), best first (the best's own street first).
fn other_names_close<R: ChoiceFacts>(
    reg: &R,
    ranked: &[Candidate],
    top: &Candidate,
    fewest_edits: bool,
) -> Vec<u32> {
    let margin = if fewest_edits { 1e-9 } else { MARGIN };
    let mut names: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for c in ranked.iter().filter(|c| c.score > top.score - margin) {
        let name = name_of(reg, c.street);
        if !names.contains(&name) {
            names.push(name);
            out.push(c.street);
        }
    }
    out
}

/// Whether two streets' names are the same words (in any order) under their types.
fn same_words<R: ChoiceFacts>(reg: &R, a: u32, b: u32) -> bool {
    reg.keys(a)[0].sorted == reg.keys(b)[0].sorted
}

/// Whether every street of `ids` carries the same street type (then the type is not what tells
/// them apart).
fn typed_alike<R: ChoiceFacts>(reg: &R, ids: &[u32]) -> bool {
    let types = |id: u32| reg.keys(id)[0].types.as_str();
    ids.iter().all(|&id| types(id) == types(ids[0]))
}

/// The streets of the place one typo away from the name written, of another name, that hold the
/// number written while the street found lacks it: the name may be a typo of one of them (`29M,
/// An Urbech` in Buschdorf, whose `An Uerbech` has 29M), and two names are never settled by the
/// number. Empty when the street found holds the number, lists none, or none was written.
pub(super) fn namesakes_holding_number<R: ChoiceFacts, P: StreetPlace>(
    reg: &R,
    q: &NameKey,
    number: Option<&(u32, String)>,
    street: u32,
    place: &P,
) -> Vec<u32> {
    let Some((n, suffix)) = number else {
        return Vec::new();
    };
    // a namesake a typo away is no rival where typos are not read (precision below 3); nor where
    // the register lists no number of the street found (the number is unknown there, not missing)
    if !reg.lists_numbers(street)
        || reg.has_number(street, *n, suffix)
        || place.empty()
        || !reg.rules().typos()
    {
        return Vec::new();
    }
    let Some(ids) = candidates(reg, q) else {
        return Vec::new();
    };
    let found = name_of(reg, street);
    // where the fewest edits win (`TypoRule::fewest_edits_win`), a name farther than the one found
    // is no rival (`Via Antonio Rosini 1` is Via Antonio Rosmini, one letter away, whatever the
    // numbers of Via Antonio Jorini, two away)
    let least = if reg.rules().typo.fewest_edits_win {
        street_score(q, reg.keys(street), reg.rules()) - 1e-9
    } else {
        ACCEPT
    };
    ids.into_iter()
        .filter(|&id| {
            id != street
                && place.contains(id)
                && name_of(reg, id) != found
                && reg.has_number(id, *n, suffix)
                && street_score(q, reg.keys(id), reg.rules()) >= least.max(ACCEPT)
        })
        .collect()
}

/// Streets of the type written (any type, when the street found has another) whose longer name
/// holds every word written, leaving out nothing but first names and titles, that hold the house
/// number written while the street found lacks it, where the register's numbers are complete
/// (`ChoiceFacts::numbers_complete`): the words may stand for that name (`Via Lodi 196`: Via Lodi
/// has no 196, Via Luigi Lodi has; `Via Torre 5`: Via della Torre, or Via Carlo Torre?). Up to
/// two, to stand beside the street found; empty where the country reads no partial names or no
/// typos (precision below 3).
pub(super) fn longer_names_holding_number<R: ChoiceFacts>(
    reg: &R,
    q: &NameKey,
    number: Option<&(u32, String)>,
    street: u32,
) -> Vec<u32> {
    let (Some((n, suffix)), Some(words)) = (number, &reg.rules().partial_names) else {
        return Vec::new();
    };
    if !reg.rules().typos()
        || !reg.numbers_complete()
        || !reg.lists_numbers(street)
        || reg.has_number(street, *n, suffix)
    {
        return Vec::new();
    }
    let of_type = |id: u32| reg.street_type(street) != q.types || reg.street_type(id) == q.types;
    let named: Vec<u32> = partial::covering(reg, words, q, reg.rules().typos(), false)
        .into_iter()
        .filter(|c| c.typos == 0 && c.tier == 0 && c.dropped == 0)
        .map(|c| c.street)
        .collect();
    partial::holding_every_word(reg, q)
        .into_iter()
        .filter(|&id| id != street && of_type(id) && named.contains(&id))
        .filter(|&id| reg.has_number(id, *n, suffix))
        .take(2)
        .collect()
}

/// Whether the record backs a street reached through a typo: a name one letter away from a
/// register's may be another real street (`Streckweg` is not `Steckweg`), so the typo is
/// corrected only when the number written is one of the street's and the postcode written one
/// of its postcodes — at least one of them given, neither contradicting.
fn corroborated<R: ChoiceFacts>(
    reg: &R,
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
        _ if !reg.lists_postcodes(street) => None,
        p => Some(reg.has_postcode(street, p)),
    };
    by_number != Some(false)
        && by_postcode != Some(false)
        && (by_number == Some(true) || by_postcode == Some(true))
}
