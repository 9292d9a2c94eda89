//! Pairwise comparison of two prepared records: a level, a score and the reasons that decided.

use serde::{Deserialize, Serialize};

use super::names::{compare_first, is_typo, FirstName};
use super::prepare::{countries_differ, Addr, Detail, Prepared};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Ambiguous = 1,
    Probable = 2,
    Certain = 3,
}

impl Level {
    /// English or Italian; None for anything else.
    pub fn parse(s: Option<&str>) -> Option<Level> {
        match s.map(|s| s.trim().to_lowercase()).as_deref() {
            None | Some("") | Some("probable") | Some("probabile") => Some(Level::Probable),
            Some("certain") | Some("certo") => Some(Level::Certain),
            Some("ambiguous") | Some("ambiguo") => Some(Level::Ambiguous),
            _ => None,
        }
    }
}

/// Two records judged alike, by index into the list that was compared.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub level: Level,
    pub score: u8,
    pub reasons: Vec<String>,
}

/// How the names relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum NameMatch {
    None,
    /// Neither record has a name: addresses alone speak.
    Unknown,
    /// Same last name, first name only an initial, a weak nickname, a typo, or missing.
    Weak,
    /// Same person's name: equal, nickname, spelling variant, swapped, one typo.
    Strong,
}

fn compare_names(a: &Prepared, b: &Prepared, reasons: &mut Vec<&'static str>) -> NameMatch {
    if !a.has_name() && !b.has_name() {
        return NameMatch::Unknown;
    }
    if !a.has_name() || !b.has_name() {
        return NameMatch::None;
    }
    let direct = last_names(&a.last_compact, &b.last_compact);
    let swapped = last_names(&a.last_compact, &b.first_key.compact)
        .min(last_names(&b.last_compact, &a.first_key.compact));
    let first = compare_first(&a.first_key, &b.first_key);
    let mut best = (NameMatch::None, Vec::new());
    if let Some(last_typo) = direct {
        let m = judge(first, last_typo, a, b);
        best = m;
    }
    if swapped.is_some()
        && best.0 < NameMatch::Strong
        && !a.first_key.is_empty()
        && !b.first_key.is_empty()
    {
        // Mario Rossi written as last name Mario, first name Rossi.
        let other_first = last_names(&a.first_key.compact, &b.last_compact);
        if let (Some(t1), Some(t2)) = (swapped, other_first) {
            let mut r = vec!["swapped_names"];
            if t1 || t2 {
                r.push("name_typo");
            }
            best = (NameMatch::Strong, r);
        }
    }
    if best.0 == NameMatch::None {
        // One field holding the whole name ("Rossi Mario") against two fields.
        fn words(p: &Prepared) -> Vec<&str> {
            let mut w: Vec<&str> = p
                .last
                .split(' ')
                .chain(p.first.split(' '))
                .filter(|w| !w.is_empty())
                .collect();
            w.sort_unstable();
            w
        }
        if words(a) == words(b) {
            best = (NameMatch::Strong, vec!["same_name"]);
        }
    }
    reasons.extend(best.1);
    best.0
}

/// Some(false) equal, Some(true) one typo apart, None different.
fn last_names(a: &str, b: &str) -> Option<bool> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    if a == b {
        Some(false)
    } else if is_typo(a, b) {
        Some(true)
    } else {
        None
    }
}

fn judge(
    first: FirstName,
    last_typo: bool,
    a: &Prepared,
    b: &Prepared,
) -> (NameMatch, Vec<&'static str>) {
    let mut r = Vec::new();
    let strong = match first {
        FirstName::Equal => {
            r.push("same_name");
            true
        }
        FirstName::Nickname => {
            r.push("nickname");
            true
        }
        FirstName::Typo => {
            r.push("name_typo");
            !last_typo
        }
        FirstName::WeakNickname => {
            r.push("nickname");
            false
        }
        FirstName::Initial if a.first_key.is_empty() && b.first_key.is_empty() => {
            // Companies and surname-only records: the whole name is the last name.
            r.push("same_name");
            true
        }
        FirstName::Initial => {
            r.push(if a.first_key.is_empty() || b.first_key.is_empty() {
                "first_name_missing"
            } else {
                "first_name_initial"
            });
            false
        }
        FirstName::Different => return (NameMatch::None, Vec::new()),
    };
    if last_typo && !r.contains(&"name_typo") {
        r.push("name_typo");
    }
    (
        if strong {
            NameMatch::Strong
        } else {
            NameMatch::Weak
        },
        r,
    )
}

/// How two addresses relate, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    None,
    /// Same city; at least one has no street.
    City,
    /// Same street; number missing on one side or different.
    Street,
    /// Same street and house number.
    Full,
}

fn compare_addresses(a: &Addr, b: &Addr, reasons: &mut Vec<&'static str>) -> Place {
    if countries_differ(&a.country, &b.country) {
        return Place::None;
    }
    // Cities the register did not resolve stay as folded names: one typo apart is one city
    // (a cadastral code never is: it has digits).
    let named = |c: &str| !c.is_empty() && !c.chars().any(|x| x.is_ascii_digit());
    let same_city = (!a.city.is_empty() && a.city == b.city)
        || (named(&a.city)
            && named(&b.city)
            && is_typo(&a.city.replace(' ', ""), &b.city.replace(' ', "")))
        || ((a.city.is_empty() || b.city.is_empty())
            && !a.postcode.is_empty()
            && a.postcode == b.postcode);
    if !same_city {
        return Place::None;
    }
    if a.street.is_empty() || b.street.is_empty() {
        reasons.push("same_city");
        return Place::City;
    }
    let equal = a.streets().any(|x| b.streets().any(|y| x == y));
    let street_typo = if equal {
        false
    } else if a
        .streets()
        .any(|x| b.streets().any(|y| similar_streets(x, y)))
    {
        true
    } else {
        return Place::None;
    };
    if street_typo {
        reasons.push("street_typo");
    }
    if !a.number.is_empty() && a.number == b.number {
        reasons.push("same_address");
        return Place::Full;
    }
    reasons.push("same_street");
    reasons.push(if a.number.is_empty() || b.number.is_empty() {
        "house_number_missing"
    } else {
        "house_number_different"
    });
    Place::Street
}

/// Street names one or two typos apart, or one written with an initial (Via G. Verdi).
fn similar_streets(a: &str, b: &str) -> bool {
    let (ca, cb): (String, String) = (a.replace(' ', ""), b.replace(' ', ""));
    if ca == cb || is_typo(&ca, &cb) {
        return true;
    }
    let (ta, tb): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
    // Same last word (the proper name) and the other words equal or initials of each other.
    if ta.last() != tb.last() {
        return false;
    }
    let (short, long) = if ta.len() <= tb.len() {
        (&ta, &tb)
    } else {
        (&tb, &ta)
    };
    if long.len() - short.len() > 1 || long.first() != short.first() {
        return false;
    }
    let mut j = 0;
    for w in long.iter() {
        let initial = |x: &str, y: &str| x.len() == 1 && y.starts_with(x);
        if j < short.len() && (short[j] == *w || initial(short[j], w) || initial(w, short[j])) {
            j += 1;
        }
    }
    j == short.len()
}

/// A contact detail both records carry: personal brings them to probable, shared to ambiguous.
fn shared_detail(a: &[Detail], b: &[Detail]) -> Option<bool> {
    let mut found: Option<bool> = None;
    for x in a {
        for y in b.iter().filter(|y| y.value == x.value) {
            let personal = !x.shared && !y.shared;
            found = Some(found.unwrap_or(false) || personal);
        }
    }
    found
}

/// Compares two records; None when they do not match at any level.
pub fn score(a: &Prepared, b: &Prepared) -> Option<(Level, u8, Vec<&'static str>)> {
    let mut reasons: Vec<&'static str> = Vec::new();
    if countries_differ(&a.country, &b.country)
        && a.addresses.iter().all(|x| {
            b.addresses
                .iter()
                .all(|y| countries_differ(&x.country, &y.country))
        })
    {
        return None;
    }
    // Tax codes decide first: equal and consistent with the names is certain.
    let mut cap = Level::Certain;
    if let (Some(ta), Some(tb)) = (&a.tax, &b.tax) {
        if ta.consistent && tb.consistent {
            if ta.code == tb.code {
                return Some((Level::Certain, 100, vec!["same_tax_code"]));
            }
            reasons.push("different_tax_codes");
            cap = Level::Ambiguous;
        }
    }
    if let (Some(ga), Some(gb)) = (a.gender, b.gender) {
        if ga != gb {
            reasons.push("different_gender");
            cap = Level::Ambiguous;
        }
    }
    let name = compare_names(a, b, &mut reasons);
    if name == NameMatch::None {
        return None;
    }

    let mut place = Place::None;
    let mut place_reasons: Vec<&'static str> = Vec::new();
    for x in &a.addresses {
        for y in &b.addresses {
            let mut r = Vec::new();
            let p = compare_addresses(x, y, &mut r);
            if p > place || (p == place && r.len() < place_reasons.len()) {
                place = p;
                place_reasons = r;
            }
        }
    }
    reasons.extend(place_reasons);
    let mut level: Option<Level> = match (name, place) {
        (_, Place::None) => None,
        (NameMatch::Strong, Place::Full) => Some(Level::Certain),
        (NameMatch::Weak, Place::Full) => Some(Level::Probable),
        (NameMatch::Unknown, Place::Full) => Some(Level::Ambiguous),
        (NameMatch::Strong | NameMatch::Weak, Place::Street) => Some(Level::Ambiguous),
        (NameMatch::Strong, Place::City) => Some(Level::Ambiguous),
        _ => None,
    };
    let mut points: u32 = match place {
        Place::Full => 50,
        Place::Street => 30,
        Place::City => 15,
        Place::None => 0,
    };
    points += match name {
        NameMatch::Strong => 40,
        NameMatch::Weak => 25,
        _ => 0,
    };

    // Phones and e-mails count only between people with the same name.
    if name == NameMatch::Strong {
        for (kind, found) in [
            ("phone", shared_detail(&a.phones, &b.phones)),
            ("email", shared_detail(&a.emails, &b.emails)),
        ] {
            let Some(personal) = found else { continue };
            let (l, code, p) = match (personal, kind) {
                (true, "phone") => (Level::Probable, "same_phone", 35),
                (true, _) => (Level::Probable, "same_email", 35),
                (false, "phone") => (Level::Ambiguous, "shared_phone", 15),
                (false, _) => (Level::Ambiguous, "shared_email", 15),
            };
            reasons.push(code);
            points += p;
            level = level.max(Some(l));
        }
    }
    let mut level = level?;
    let nowhere = |p: &Prepared| {
        p.addresses
            .iter()
            .all(|x| x.street.is_empty() && x.city.is_empty())
    };
    if level == Level::Certain && (nowhere(a) || nowhere(b)) {
        level = Level::Probable;
    }
    level = level.min(cap);
    let points = match level {
        Level::Certain => points.clamp(90, 99),
        Level::Probable => points.clamp(60, 89),
        Level::Ambiguous => points.clamp(30, 59),
    };
    Some((level, points as u8, reasons))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streets_with_initials_and_typos() {
        assert!(similar_streets("VIA GIUSEPPE VERDI", "VIA G VERDI"));
        assert!(similar_streets("VIA VERDI", "VIA GIUSEPPE VERDI"));
        assert!(similar_streets("CORSO BUENOS AIRES", "CORSO BUENOS AIRSE"));
        assert!(!similar_streets("VIA ROMA", "VIALE ROMA"));
        assert!(!similar_streets("VIA VERDI", "PIAZZA VERDI"));
    }
}
