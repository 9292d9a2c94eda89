//! Pairwise comparison of two prepared records: one level per field (the comparison vector of
//! the Fellegi–Sunter model in `model.rs`), plus the notes the reasons need.

use serde::{Deserialize, Serialize};

use super::intern::{AddrIds, Facts, Strings, Table};
use super::names::{compare_first_with, is_typo, FirstName, FirstView};
use super::prepare::{countries_differ, Birth};
use super::strings::{jaro_winkler, osa_distance, Compact};

/// English values only: the Italian `certo` / `probabile` / `ambiguo` are mapped in `src/http/keys.ts`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Level {
    Ambiguous = 1,
    #[default]
    Probable = 2,
    Certain = 3,
}

/// Two records judged alike, by index into the list that was compared. 16 bytes: a million
/// records give millions of pairs, and a list of reasons per pair was the peak of the
/// million-record run; the reasons are those of the pair's comparison pattern, by number in
/// `Judged::reasons` (a few thousand patterns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    pub a: u32,
    pub b: u32,
    pub level: Level,
    pub score: u8,
    pub reasons: u32,
}

/// The pairs that reach a level, and the reasons of each judged pattern.
#[derive(Debug, Default)]
pub struct Judged {
    pub pairs: Vec<Pair>,
    pub reasons: Vec<Vec<&'static str>>,
    /// The job's trained model (for the eval harness and diagnostics).
    pub model: Option<super::model::Model>,
}

impl Judged {
    pub fn reasons(&self, p: &Pair) -> &[&'static str] {
        &self.reasons[p.reasons as usize]
    }
}

/// Fields of the comparison vector, in order.
pub const LAST: usize = 0;
pub const FIRST: usize = 1;
pub const PLACE: usize = 2;
pub const PHONE: usize = 3;
pub const EMAIL: usize = 4;
pub const BIRTH: usize = 5;
pub const TAX: usize = 6;
pub const GENDER: usize = 7;
/// How common the shared last name is in the job (`intern::name_frequency`), only where the
/// last names are equal: a namesake is likelier under a common name than under a rare one, as
/// Splink's term-frequency adjustment says; the job's model learns how much.
pub const FREQ: usize = 8;
pub const FIELDS: usize = 9;
/// Levels per field (see `compare`); the last level of each is "different".
pub const LEVELS: [usize; FIELDS] = [5, 6, 7, 3, 3, 5, 2, 2, 4];
/// The field is missing on one side (or both): it weighs nothing.
pub const NULL: u8 = u8::MAX;

/// Notes on a comparison that its levels do not say (for reasons and hard rules).
pub mod note {
    pub const SWAPPED: u16 = 1;
    pub const STREET_TYPO: u16 = 2;
    pub const CITY_TYPO: u16 = 4;
    pub const FIRST_MISSING: u16 = 8;
    /// Neither record has a name: the addresses alone speak.
    pub const NO_NAMES: u16 = 16;
    /// One record has neither street nor city anywhere.
    pub const NOWHERE: u16 = 32;
    /// Equal valid tax codes, both consistent with their names.
    pub const SAME_TAX: u16 = 64;
    /// Different valid tax codes, both consistent with their names: two people.
    pub const DIFFERENT_TAX: u16 = 128;
    pub const NICKNAME_WEAK: u16 = 256;
}

/// Levels of one pair, field by field (`NULL` where a side is missing) and notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Comparison {
    pub gamma: [u8; FIELDS],
    pub notes: u16,
}

impl Comparison {
    /// Nine levels of three bits (NULL as 7) and the notes above them, in one number.
    pub fn pack(&self) -> u64 {
        let mut k = u64::from(self.notes) << (3 * FIELDS);
        for (f, &g) in self.gamma.iter().enumerate() {
            k |= u64::from(if g == NULL { 7 } else { g }) << (3 * f);
        }
        k
    }

    pub fn unpack(k: u64) -> Comparison {
        let mut gamma = [NULL; FIELDS];
        for (f, g) in gamma.iter_mut().enumerate() {
            let v = ((k >> (3 * f)) & 7) as u8;
            *g = if v == 7 { NULL } else { v };
        }
        Comparison {
            gamma,
            notes: (k >> (3 * FIELDS)) as u16,
        }
    }
}

/// Last names: 0 equal, 1 one typo (or Jaro-Winkler ≥ 0.93), 2 the same words or one name's
/// words all within the other's (companies only, see `names`), 3 similar (≥ 0.85), 4 different.
/// By number (`intern.rs`): the strings are read only when the two differ (a read is a cache
/// miss more in the pair loop).
fn last_level(s: &Strings, x: u32, y: u32) -> u8 {
    if x == 0 || y == 0 {
        return NULL;
    }
    if x == y {
        return 0;
    }
    let (a, b) = (s.get(x), s.get(y));
    if is_typo(a, b) {
        return 1;
    }
    let jw = jaro_winkler(a, b);
    if jw >= 0.93 {
        1
    } else if jw >= 0.85 {
        3
    } else {
        LAST_DIFFERENT
    }
}

/// The last-name level of two different names.
pub const LAST_DIFFERENT: u8 = 4;

/// A word of `a` (three letters or more) that `b` lacks, and that is no typo, abbreviation or
/// close spelling of a word of `b`.
fn another_word(a: &str, b: &str) -> bool {
    let theirs: Vec<&str> = b.split(' ').collect();
    a.split(' ').filter(|w| w.len() >= 3).any(|w| {
        !theirs.iter().any(|x| {
            *x == w
                || is_typo(w, x)
                || (x.len() >= 3 && (w.starts_with(x) || x.starts_with(w)))
                || jaro_winkler(w, x) >= 0.9
        })
    })
}

/// Two company names whose words are the same, or all of one within the other: `hotel bel-air`
/// and `bel-air hotel`, `katsu` and `restaurant katsu`, `four seasons` and `four seasons grill
/// room`. Words as sorted in `Prepared::name_words`.
fn words_within(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    !short.is_empty() && short.split(' ').all(|w| long.split(' ').any(|x| x == w))
}

/// First names: 0 equal, 1 nickname or spelling variant, 2 typo (one edit, `Luc` for `Luca`),
/// 3 similar (Jaro-Winkler ≥ 0.88, `Ysain` for `Yasmin`), 4 initial, first element of a compound,
/// weak nickname or missing on one side, 5 different. Two common names of their own (Marco,
/// Mirco) are always different, however close.
fn first_level(t: &Table, x: &Facts, y: &Facts, notes: &mut u16) -> u8 {
    let s = &t.strings;
    if x.first == 0 && y.first == 0 {
        return NULL;
    }
    if x.first == 0 || y.first == 0 {
        *notes |= note::FIRST_MISSING;
        return 4;
    }
    if x.first == y.first {
        return 0;
    }
    let view = |f: &Facts| FirstView {
        compact: s.get(f.first),
        head: s.get(f.head),
        weak: f.weak,
        known: f.known,
    };
    let (a, b) = (view(x), view(y));
    let shared = || {
        let theirs = t.canonical(y);
        t.canonical(x).iter().any(|c| theirs.contains(c))
    };
    match compare_first_with(a, b, x.first == y.first, shared) {
        FirstName::Equal => 0,
        FirstName::Nickname => 1,
        FirstName::Typo => 2,
        FirstName::WeakNickname => {
            *notes |= note::NICKNAME_WEAK;
            4
        }
        FirstName::Initial => 4,
        FirstName::Different if a.known && b.known => 5,
        FirstName::Different => {
            let (x, y) = (a.compact, b.compact);
            let jw = jaro_winkler(x, y);
            let one_edit = osa_distance(x, y) <= 1 && x.len().min(y.len()) >= 3;
            if one_edit && jw >= 0.9 {
                2
            } else if jw >= 0.88 {
                3
            } else {
                5
            }
        }
    }
}

/// First names written in the last-name field and the other way round: string levels only,
/// by number as `last_level`.
fn swapped_first_level(s: &Strings, x: u32, y: u32) -> u8 {
    if x == 0 || y == 0 {
        return NULL;
    }
    if x == y {
        0
    } else if is_typo(s.get(x), s.get(y)) {
        2
    } else {
        5
    }
}

/// (last, first) levels, trying the names as written and swapped.
fn names(t: &Table, ia: &Facts, ib: &Facts, notes: &mut u16) -> (u8, u8) {
    let s = &t.strings;
    if ia.last == 0 && ib.last == 0 && ia.first == 0 && ib.first == 0 {
        *notes |= note::NO_NAMES;
        return (NULL, NULL);
    }
    let mut direct_notes = 0;
    let direct = (
        last_level(s, ia.last, ib.last),
        first_level(t, ia, ib, &mut direct_notes),
    );
    let sum = |(l, f): (u8, u8)| l as u16 + f as u16;
    let mut best = direct;
    let mut best_notes = direct_notes;
    if direct.0 != 0 || direct.1 > 1 {
        if ia.first != 0 && ib.first != 0 {
            // The first-name levels first: they are cheap (equal or one typo), and only when
            // both are at most a typo can the swap win (each then also bounds a last level to
            // at most 1), so the two Jaro-Winkler measures of the last levels are spared.
            let swapped_first = swapped_first_level(s, ia.first, ib.last)
                .max(swapped_first_level(s, ib.first, ia.last));
            let swapped = if swapped_first <= 2 {
                (
                    last_level(s, ia.last, ib.first).max(last_level(s, ia.first, ib.last)),
                    swapped_first,
                )
            } else {
                (NULL, NULL)
            };
            if swapped.0 <= 1 && swapped.1 <= 2 && sum(swapped) < sum(best) {
                best = swapped;
                best_notes = note::SWAPPED;
            }
        }
        // One field holding the whole name ("Rossi Mario") against two fields.
        if best != (0, 0) && ia.words == ib.words {
            best = (0, 0);
            best_notes = 0;
        }
        // One name alone, in the first-name field, against a full name: it may be the other's
        // last name (`Holmes` for `Ed Holmes`), then the first name is missing.
        let single = |f: &Facts| f.last == 0 && f.first != 0;
        if single(ia) != single(ib) && best.1 > 2 {
            let (one, full) = if single(ia) { (ia, ib) } else { (ib, ia) };
            let as_last = last_level(s, one.first, full.last);
            if as_last <= 1 {
                best = (as_last, 4);
                best_notes = note::FIRST_MISSING;
            }
        }
    }
    // Companies: the same words in another order, or a name within the longer one; names alike
    // as strings but with a word of each that is no typo of the other's are two names (`ritz-
    // carlton restaurant` and `ritz-carlton cafe`: two businesses in one hotel).
    if ia.first == 0 && ib.first == 0 && best.0 != NULL {
        let (wa, wb) = (s.get(ia.words), s.get(ib.words));
        if best.0 >= 3 && words_within(wa, wb) {
            best.0 = 2;
        } else if matches!(best.0, 1 | 3) && another_word(wa, wb) && another_word(wb, wa) {
            best.0 = LAST_DIFFERENT;
        }
    }
    *notes |= best_notes;
    best
}

/// Place: 0 same street and number, 1 same street and a number missing, 2 same street and
/// different numbers, 3 same postcode and a street missing, 4 same city and a street missing,
/// 5 same city and different streets, 6 elsewhere. The best pair of addresses counts. Where
/// lists carry no street (a register of people by postcode), the postcode is what is left of
/// the place: a British postcode is a few dozen doors, an Italian one a town; the job's model
/// learns which.
pub const ELSEWHERE: u8 = 6;
fn place_level(t: &Table, a: &Facts, b: &Facts, notes: &mut u16) -> u8 {
    let (xs, ys) = (t.addresses(a), t.addresses(b));
    if xs.is_empty() || ys.is_empty() {
        return NULL;
    }
    let mut best = (ELSEWHERE, 0u16);
    for xi in xs {
        for yi in ys {
            let mut n = 0;
            let l = address_level(&t.strings, xi, yi, &mut n);
            if l < best.0 || (l == best.0 && n.count_ones() < best.1.count_ones()) {
                best = (l, n);
            }
        }
    }
    *notes |= best.1;
    best.0
}

fn address_level(s: &Strings, ai: &AddrIds, bi: &AddrIds, notes: &mut u16) -> u8 {
    if ai.country != bi.country && countries_differ(s.get(ai.country), s.get(bi.country)) {
        return ELSEWHERE;
    }
    // Cities the register did not resolve (abroad, or misspelt) stay as folded names: a typo or
    // a close spelling is one city (a cadastral code never is: it has digits). Read only when
    // the numbers differ.
    let named = |c: &str| !c.is_empty() && !c.chars().any(|x| x.is_ascii_digit());
    let same_named_city = ai.city != 0 && ai.city == bi.city;
    let city_typo = !same_named_city && {
        let (city_a, city_b) = (s.get(ai.city), s.get(bi.city));
        named(city_a)
            && named(city_b)
            && (is_typo(Compact::new(city_a).as_str(), Compact::new(city_b).as_str())
                || jaro_winkler(city_a, city_b) >= 0.92)
    };
    let same_postcode = ai.postcode != 0 && ai.postcode == bi.postcode;
    // Abroad a postcode one slip away (`6430`, `6403`) with the same street and number written
    // the same way is one place too (the city may be misspelt or missing on one side).
    // Without a street on one side, a postcode one slip away is the place's too.
    let no_street = ai.streets[0] == 0 || bi.streets[0] == 0;
    let postcode_slip = || {
        let (pa, pb) = (s.get(ai.postcode), s.get(bi.postcode));
        ((ai.compact != 0 && ai.compact == bi.compact && ai.number != 0 && ai.number == bi.number)
            || no_street)
            && pa.len() == pb.len()
            && pa.len() >= 4
            && osa_distance(pa, pb) == 1
    };
    let postcode_slip = !same_named_city && !city_typo && !same_postcode && postcode_slip();
    let same_city = same_named_city || city_typo || same_postcode || postcode_slip;
    if !same_city {
        return ELSEWHERE;
    }
    if (city_typo && !same_postcode) || postcode_slip {
        *notes |= note::CITY_TYPO;
    }
    if no_street {
        return if same_postcode { 3 } else { 4 };
    }
    if !ai.same_street(bi) {
        // Abroad also the street as written without spaces: `bradfield s treet`, `narranstreet`.
        let compact_alike = ai.compact != 0
            && bi.compact != 0
            && (ai.compact == bi.compact || is_typo(s.get(ai.compact), s.get(bi.compact)));
        // The street as normalised, then as written when that differs (`Addr::streets`).
        let streets = |x: &AddrIds| {
            let [normalised, written] = x.streets;
            std::iter::once(normalised).chain((written != 0).then_some(written))
        };
        if compact_alike
            || streets(ai).any(|x| streets(bi).any(|y| similar_streets(s.get(x), s.get(y))))
        {
            *notes |= note::STREET_TYPO;
        } else {
            return 5;
        }
    }
    if ai.number != 0 && ai.number == bi.number {
        0
    } else if ai.number == 0 || bi.number == 0 {
        1
    } else {
        2
    }
}

/// 0 a personal detail shared, 1 only a place's (landline, info@), 2 none shared. Details as
/// (number, shared), `Table::phones`.
fn detail_level<I: Iterator<Item = (u32, bool)> + Clone>(a: I, b: I) -> u8 {
    if a.clone().next().is_none() || b.clone().next().is_none() {
        return NULL;
    }
    match shared_detail(a, b) {
        Some(true) => 0,
        Some(false) => 1,
        None => 2,
    }
}

/// Birth dates: 0 the same date; 1 one keystroke away (one digit of the eight typed wrong, two
/// adjacent digits swapped, day and month swapped, the year off by one on the same day); 2 the
/// same year otherwise; 3 another date within ten years; 4 further apart (`FAR`): two people, as
/// father and son (same name and address, decades apart) are.
fn birth_level(a: &Facts, b: &Facts) -> u8 {
    let (Some(x), Some(y)) = (&a.birth, &b.birth) else {
        return NULL;
    };
    birth_dates(x, y)
}

/// The birth level of two dates decades apart: never one person.
pub const BIRTH_FAR: u8 = 4;

/// Two birth dates that are surely two people's.
pub fn births_differ(x: &Birth, y: &Birth) -> bool {
    birth_dates(x, y) == BIRTH_FAR
}

pub fn birth_dates(x: &Birth, y: &Birth) -> u8 {
    let (year, month, day) = x.agreeing(y);
    if year && month && day {
        return 0;
    }
    // Years apart (modulo a century when a side was written with two digits).
    let apart = if x.century_known && y.century_known {
        x.year.abs_diff(y.year)
    } else {
        let d = (x.year % 100).abs_diff(y.year % 100);
        d.min(100 - d)
    };
    // The date as eight typed digits (six without the century), one keystroke away.
    let typed = |b: &Birth| {
        let y = if x.century_known && y.century_known {
            b.year
        } else {
            b.year % 100
        };
        [
            (y / 1000 % 10) as u8,
            (y / 100 % 10) as u8,
            (y / 10 % 10) as u8,
            (y % 10) as u8,
            b.month / 10,
            b.month % 10,
            b.day / 10,
            b.day % 10,
        ]
    };
    let (p, q) = (typed(x), typed(y));
    let wrong: Vec<usize> = (0..8).filter(|&i| p[i] != q[i]).collect();
    let keystroke = match wrong.as_slice() {
        [_] => true,
        [i, j] => *j == i + 1 && p[*i] == q[*j] && p[*j] == q[*i],
        _ => false,
    };
    let swapped = year && x.day == y.month && x.month == y.day;
    let year_off = month && day && apart == 1;
    if keystroke || swapped || year_off {
        1
    } else if year {
        2
    } else if apart <= 10 {
        3
    } else {
        BIRTH_FAR
    }
}

/// The comparison vector of two records; None when they can never be one (different
/// countries everywhere, a name on one side only).
/// Both records as the job's table has them (`intern::intern`, which says why), by index.
pub fn compare(t: &Table, a: usize, b: usize) -> Option<Comparison> {
    let s = &t.strings;
    let (ia, ib) = (&t.facts[a], &t.facts[b]);
    if ia.country != ib.country
        && countries_differ(s.get(ia.country), s.get(ib.country))
        && t.addresses(ia).iter().all(|x| {
            t.addresses(ib)
                .iter()
                .all(|y| countries_differ(s.get(x.country), s.get(y.country)))
        })
    {
        return None;
    }
    // A name on one side only: a person against an anonymous line (a shop, a switchboard).
    let named = |f: &Facts| f.last != 0 || f.first != 0;
    if named(ia) != named(ib) {
        return None;
    }
    let mut notes = 0u16;
    let mut gamma = [NULL; FIELDS];
    (gamma[LAST], gamma[FIRST]) = names(t, ia, ib, &mut notes);
    gamma[PLACE] = place_level(t, ia, ib, &mut notes);
    gamma[PHONE] = detail_level(t.phones(ia), t.phones(ib));
    gamma[EMAIL] = detail_level(t.emails(ia), t.emails(ib));
    gamma[BIRTH] = birth_level(ia, ib);
    if gamma[LAST] == 0 && ia.last == ib.last {
        gamma[FREQ] = ia.last_frequency;
    }
    if ia.taxed && ib.taxed {
        let consistent = ia.tax_consistent && ib.tax_consistent;
        if ia.tax == ib.tax {
            gamma[TAX] = 0;
            if consistent {
                notes |= note::SAME_TAX;
            }
        } else if consistent {
            gamma[TAX] = 1;
            notes |= note::DIFFERENT_TAX;
        }
    }
    // Declared (or tax-code) gender first; the gender of two common first names otherwise.
    let genders = |x: u8, y: u8| (x != 0 && y != 0).then(|| u8::from(x != y));
    gamma[GENDER] = genders(ia.gender, ib.gender)
        .or_else(|| genders(ia.name_gender, ib.name_gender))
        .unwrap_or(NULL);
    let nowhere = |f: &Facts| {
        t.addresses(f)
            .iter()
            .all(|x| x.streets[0] == 0 && x.city == 0)
    };
    if nowhere(ia) || nowhere(ib) {
        notes |= note::NOWHERE;
    }
    Some(Comparison { gamma, notes })
}

/// Street names one or two typos apart, or one written with an initial (Via G. Verdi).
fn similar_streets(a: &str, b: &str) -> bool {
    let (ca, cb) = (Compact::new(a), Compact::new(b));
    let (ca, cb) = (ca.as_str(), cb.as_str());
    if ca == cb || is_typo(ca, cb) {
        return true;
    }
    // Same last word (the proper name) and the other words equal or initials of each other.
    // Checked on the words in place: most streets compared here differ in their last word, and
    // the pair loop calls this millions of times.
    if a.rsplit(' ').next() != b.rsplit(' ').next() {
        return false;
    }
    let (na, nb) = (a.split(' ').count(), b.split(' ').count());
    let (short, long, ns, nl) = if na <= nb {
        (a, b, na, nb)
    } else {
        (b, a, nb, na)
    };
    if nl - ns > 1 || long.split(' ').next() != short.split(' ').next() {
        return false;
    }
    let initial = |x: &str, y: &str| x.len() == 1 && y.starts_with(x);
    let mut words = short.split(' ').peekable();
    let mut j = 0;
    for w in long.split(' ') {
        if let Some(&s) = words.peek() {
            if s == w || initial(s, w) || initial(w, s) {
                words.next();
                j += 1;
            }
        }
    }
    j == ns
}

/// A contact detail both records carry: personal brings them to probable, shared to ambiguous.
fn shared_detail<I: Iterator<Item = (u32, bool)> + Clone>(a: I, b: I) -> Option<bool> {
    let mut found: Option<bool> = None;
    for (i, x_shared) in a {
        for (_, y_shared) in b.clone().filter(|&(j, _)| j == i) {
            let personal = !x_shared && !y_shared;
            found = Some(found.unwrap_or(false) || personal);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_pack_into_one_number() {
        let c = Comparison {
            gamma: [0, 5, NULL, 2, NULL, 1, 0, NULL, 3],
            notes: note::SWAPPED | note::NICKNAME_WEAK | note::DIFFERENT_TAX,
        };
        assert_eq!(Comparison::unpack(c.pack()), c);
        let d = Comparison {
            gamma: [NULL; FIELDS],
            notes: 0,
        };
        assert_eq!(Comparison::unpack(d.pack()), d);
        assert_ne!(c.pack(), d.pack());
    }

    fn date(text: &str) -> Birth {
        let v: Vec<u16> = text.split('-').map(|x| x.parse().unwrap()).collect();
        Birth {
            year: v[0],
            month: v[1] as u8,
            day: v[2] as u8,
            century_known: true,
        }
    }

    #[test]
    fn birth_dates_one_keystroke_apart_are_a_typo_decades_apart_two_people() {
        let level = |a: &str, b: &str| birth_dates(&date(a), &date(b));
        assert_eq!(level("1971-04-09", "1971-04-09"), 0);
        // a typed digit in the day, the month, the year; two digits swapped; day and month
        // swapped; the year off by one on the same day
        assert_eq!(level("1630-08-01", "1630-08-11"), 1);
        assert_eq!(level("1630-08-01", "1630-05-01"), 1);
        assert_eq!(level("1630-08-01", "1638-08-01"), 1);
        assert_eq!(level("1956-03-02", "1965-03-02"), 1);
        assert_eq!(level("1971-04-09", "1971-09-04"), 1);
        assert_eq!(level("1959-12-31", "1960-12-31"), 1);
        // the same year otherwise, another date within ten years, and decades apart
        assert_eq!(level("1971-04-09", "1971-11-23"), 2);
        assert_eq!(level("1971-04-09", "1975-11-23"), 3);
        assert_eq!(level("1950-06-02", "1978-06-02"), BIRTH_FAR);
        assert!(births_differ(&date("1950-06-02"), &date("1978-06-02")));
        assert!(!births_differ(&date("1971-04-09"), &date("1975-11-23")));
        // a two-digit year on one side: compared modulo the century
        let short = Birth {
            century_known: false,
            ..date("0071-04-09")
        };
        assert_eq!(birth_dates(&short, &date("1971-04-09")), 0);
        assert_eq!(birth_dates(&short, &date("1999-04-09")), BIRTH_FAR);
    }

    #[test]
    fn company_names_alike_as_strings_but_with_another_word() {
        assert!(another_word("CAFE RITZ-CARLTON", "RESTAURANT RITZ-CARLTON"));
        assert!(another_word("RESTAURANT RITZ-CARLTON", "CAFE RITZ-CARLTON"));
        // a typo, an abbreviation, a word split off: no other word
        assert!(!another_word("CHICAGO MORTONS OF", "CHICAGO MORTON OF S"));
        assert!(!another_word(
            "ASSOC DAY NURSERY",
            "ASSOCIATION DAY NURSERY"
        ));
        assert!(!another_word("CENTER YMCA", "CENTRE YMCA"));
    }

    #[test]
    fn streets_with_initials_and_typos() {
        assert!(similar_streets("VIA GIUSEPPE VERDI", "VIA G VERDI"));
        assert!(similar_streets("VIA VERDI", "VIA GIUSEPPE VERDI"));
        assert!(similar_streets("CORSO BUENOS AIRES", "CORSO BUENOS AIRSE"));
        assert!(!similar_streets("VIA ROMA", "VIALE ROMA"));
        assert!(!similar_streets("VIA VERDI", "PIAZZA VERDI"));
    }
}
