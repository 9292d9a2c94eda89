//! Birth dates as people type them, and the century a two-digit year belongs to.

use chrono::{Datelike, NaiveDate};

use crate::normalize::fold;

const MONTH_NAMES: &[(&str, u32)] = &[
    ("GENNAIO", 1),
    ("GEN", 1),
    ("JANUARY", 1),
    ("JAN", 1),
    ("FEBBRAIO", 2),
    ("FEB", 2),
    ("FEBRUARY", 2),
    ("MARZO", 3),
    ("MAR", 3),
    ("MARCH", 3),
    ("APRILE", 4),
    ("APR", 4),
    ("APRIL", 4),
    ("MAGGIO", 5),
    ("MAG", 5),
    ("MAY", 5),
    ("GIUGNO", 6),
    ("GIU", 6),
    ("JUNE", 6),
    ("JUN", 6),
    ("LUGLIO", 7),
    ("LUG", 7),
    ("JULY", 7),
    ("JUL", 7),
    ("AGOSTO", 8),
    ("AGO", 8),
    ("AUGUST", 8),
    ("AUG", 8),
    ("SETTEMBRE", 9),
    ("SET", 9),
    ("SEPTEMBER", 9),
    ("SEP", 9),
    ("OTTOBRE", 10),
    ("OTT", 10),
    ("OCTOBER", 10),
    ("OCT", 10),
    ("NOVEMBRE", 11),
    ("NOV", 11),
    ("DICEMBRE", 12),
    ("DIC", 12),
    ("NOVEMBER", 11),
    ("DECEMBER", 12),
    ("DEC", 12),
    ("SETT", 9),
];

fn month_by_name(word: &str) -> Option<u32> {
    MONTH_NAMES
        .iter()
        .find(|(n, _)| *n == word)
        .map(|&(_, m)| m)
}

/// Two-digit year of a typed date, in this century; [`settle_century`] moves it back when needed.
fn full_year(yy: i32, today: NaiveDate) -> i32 {
    today.year() - today.year() % 100 + yy
}

/// A two-digit year means the latest century that does not put the date after today.
fn settle_century(date: NaiveDate, two_digit_year: bool, today: NaiveDate) -> Option<NaiveDate> {
    if two_digit_year && date > today {
        NaiveDate::from_ymd_opt(date.year() - 100, date.month(), date.day())
    } else {
        Some(date)
    }
}

/// Parses `1980-03-15`, `1980/03/15`, `15/03/1980`, `15.03.1980`, `15-03-80`, `15031980`,
/// `19800315`, `15 marzo 1980`, `March 15, 1980`, and an ISO timestamp's date part.
/// Day first whenever the year is last (the Italian and European order).
pub fn parse_birth_date(text: &str, today: NaiveDate) -> Option<NaiveDate> {
    let t = text.trim();
    // ISO timestamp: keep the date part.
    let t = match t.find('T') {
        Some(i) if i == 10 && t.as_bytes().get(4) == Some(&b'-') => &t[..10],
        _ => t,
    };
    let folded = fold(t);
    let tokens: Vec<&str> = folded.split(' ').filter(|s| !s.is_empty()).collect();
    let num = |s: &str| -> Option<i32> {
        if s.bytes().all(|b| b.is_ascii_digit()) && !s.is_empty() && s.len() <= 4 {
            s.parse().ok()
        } else {
            None
        }
    };
    let (y, m, d) = match tokens.as_slice() {
        [one] if one.len() == 8 && one.bytes().all(|b| b.is_ascii_digit()) => {
            let a: i32 = one[..4].parse().ok()?;
            let (mm, dd): (u32, u32) = (one[4..6].parse().ok()?, one[6..].parse().ok()?);
            if (1800..=2200).contains(&a) && NaiveDate::from_ymd_opt(a, mm, dd).is_some() {
                (a, mm, dd)
            } else {
                (
                    one[4..].parse().ok()?,
                    one[2..4].parse().ok()?,
                    one[..2].parse().ok()?,
                )
            }
        }
        [one] if one.len() == 6 && one.bytes().all(|b| b.is_ascii_digit()) => {
            let yy: i32 = one[4..].parse().ok()?;
            (
                full_year(yy, today),
                one[2..4].parse().ok()?,
                one[..2].parse().ok()?,
            )
        }
        [a, b, c] => {
            let month = |s: &str| num(s).map(|n| n as u32).or_else(|| month_by_name(s));
            if a.len() == 4 {
                (num(a)?, month(b)?, num(c)? as u32)
            } else if month_by_name(a).is_some() {
                // March 15 1980
                (year(c, today)?, month(a)?, num(b)? as u32)
            } else {
                (year(c, today)?, month(b)?, num(a)? as u32)
            }
        }
        _ => return None,
    };
    let two_digit_year = match tokens.as_slice() {
        [one] => one.len() == 6,
        [a, .., c] => a.len() != 4 && c.len() == 2,
        _ => false,
    };
    settle_century(NaiveDate::from_ymd_opt(y, m, d)?, two_digit_year, today)
}

fn year(s: &str, today: NaiveDate) -> Option<i32> {
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match s.len() {
        4 => s.parse().ok(),
        2 => Some(full_year(s.parse().ok()?, today)),
        _ => None,
    }
}

/// Whole years from `birth` to `today`.
pub fn age_on(birth: NaiveDate, today: NaiveDate) -> i32 {
    let mut age = today.year() - birth.year();
    if (today.month(), today.day()) < (birth.month(), birth.day()) {
        age -= 1;
    }
    age
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, dd: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, dd).unwrap()
    }

    #[test]
    fn common_forms_agree() {
        let today = d(2026, 11, 22);
        let want = Some(d(1980, 3, 15));
        for text in [
            "1980-03-15",
            "1980/3/15",
            "15/03/1980",
            "15.03.1980",
            "15-03-80",
            "15/3/80",
            "15031980",
            "19800315",
            "150380",
            "15 marzo 1980",
            "15 Mar 1980",
            "March 15, 1980",
            "1980-03-15T00:00:00Z",
        ] {
            assert_eq!(parse_birth_date(text, today), want, "{text}");
        }
        assert_eq!(parse_birth_date("15-03-26", today), Some(d(2026, 3, 15)));
        assert_eq!(parse_birth_date("15-12-26", today), Some(d(1926, 12, 15)));
        assert_eq!(parse_birth_date("31/02/1980", today), None);
        assert_eq!(parse_birth_date("yesterday", today), None);
        assert_eq!(parse_birth_date("", today), None);
    }

    #[test]
    fn age_counts_birthdays() {
        assert_eq!(age_on(d(1980, 3, 15), d(2026, 3, 14)), 45);
        assert_eq!(age_on(d(1980, 3, 15), d(2026, 3, 15)), 46);
    }
}
