//! Validation: cleaning, completion of a missing check character, homocode decoding, and the
//! checks in a fixed order (empty, length, format, month, date, place, check character).

use chrono::NaiveDate;
use serde::Serialize;

use super::code::{
    check_char, decode_homocode, homocode_digit, is_numeric_position, month_of_letter,
};
use crate::register::Register;

/// What a code says about its holder, homocode letters already turned back into digits.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Decoded {
    pub last_name: String,
    pub first_name: String,
    /// Two-digit year.
    pub year: u32,
    pub month: u32,
    pub day: u32,
    /// 'M' or 'F'.
    pub gender: char,
    pub place_code: String,
}

/// One failed check: the outcome code and its short form for `error`.
pub type Check = (&'static str, &'static str);

pub const EMPTY: Check = ("TAX_CODE_EMPTY", "empty");
pub const LENGTH: Check = ("TAX_CODE_LENGTH_WRONG", "length");
pub const FORMAT: Check = ("TAX_CODE_FORMAT_WRONG", "format");
pub const HOMOCODE: Check = ("TAX_CODE_FORMAT_WRONG", "homocode");
pub const MONTH: Check = ("TAX_CODE_MONTH_WRONG", "month");
pub const DATE: Check = ("TAX_CODE_DATE_INVALID", "date");
pub const PLACE: Check = ("TAX_CODE_PLACE_UNKNOWN", "place");
pub const CHECK_DIGIT: Check = ("TAX_CODE_CHECK_DIGIT_WRONG", "check_digit");
pub const CHECK_DIGIT_MISSING: Check = ("TAX_CODE_CHECK_DIGIT_MISSING", "check_digit");

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Validation {
    /// The code cleaned of spaces, separators and lower case, completed when 15 characters.
    pub tax_code: String,
    pub valid: bool,
    /// Outcome codes: empty for a valid code as written; `MODIFIED TAX_CODE[_FORM]`; or
    /// `TAX_CODE_INVALID` followed by the failed checks.
    pub outcome: Vec<&'static str>,
    /// Short form of the first failed check.
    pub error: Option<&'static str>,
    /// The correct code, when it can be rebuilt with certainty.
    pub suggestion: Option<String>,
    /// Letters stand in numeric positions (omocodia).
    pub homocode: bool,
    /// The same code with homocode letters turned back into digits (what the person's data give).
    pub decoded: Option<String>,
    pub person: Option<Decoded>,
}

impl Validation {
    pub fn failed_checks(&self) -> impl Iterator<Item = &&'static str> {
        self.outcome
            .iter()
            .filter(|c| c.starts_with("TAX_CODE_") && **c != "TAX_CODE_INVALID")
    }
}

/// Spaces, separators and case: what a person may add around a code without changing it.
fn clean(raw: &str) -> String {
    raw.chars()
        .filter(|c| {
            !c.is_whitespace() && !matches!(c, '-' | '.' | '_' | '/' | ',' | ';' | ':' | '\'' | '"')
        })
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Structure of the first 15 characters (format, month, date, place); an empty list when sound.
fn check_body(register: &Register, b: &[u8]) -> Vec<Check> {
    for (i, &c) in b.iter().take(15).enumerate() {
        if !c.is_ascii_alphanumeric() {
            return vec![FORMAT];
        }
        if is_numeric_position(i) {
            if c.is_ascii_alphabetic() && homocode_digit(c).is_none() {
                return vec![HOMOCODE];
            }
        } else if !c.is_ascii_alphabetic() {
            return vec![FORMAT];
        }
    }
    let d = decode_homocode(&b[..15]);
    let mut failed = Vec::new();
    let month = month_of_letter(d[8]);
    if month.is_none() {
        failed.push(MONTH);
    }
    let year = two_digits(&d[6..8]);
    let raw_day = two_digits(&d[9..11]);
    let day = if raw_day > 40 { raw_day - 40 } else { raw_day };
    let date_ok = match month {
        Some(m) => (1..=31).contains(&day) && !birth_years(year, m, day).is_empty(),
        None => (1..=31).contains(&day),
    };
    if !date_ok {
        failed.push(DATE);
    }
    let place = std::str::from_utf8(&d[11..15]).unwrap_or("");
    if !super::place::code_exists(register, place) {
        failed.push(PLACE);
    }
    failed
}

fn two_digits(b: &[u8]) -> u32 {
    ((b[0] - b'0') as u32) * 10 + (b[1] - b'0') as u32
}

/// The years (19yy, 20yy) in which day/month exist: 29 February only in leap years.
pub fn birth_years(yy: u32, month: u32, day: u32) -> Vec<NaiveDate> {
    [1900, 2000]
        .iter()
        .filter_map(|c| NaiveDate::from_ymd_opt(c + yy as i32, month, day))
        .collect()
}

fn decode(b: &[u8]) -> Decoded {
    let d = decode_homocode(&b[..15]);
    let raw_day = two_digits(&d[9..11]);
    Decoded {
        last_name: String::from_utf8_lossy(&d[0..3]).into_owned(),
        first_name: String::from_utf8_lossy(&d[3..6]).into_owned(),
        year: two_digits(&d[6..8]),
        month: month_of_letter(d[8]).unwrap_or(0),
        day: if raw_day > 40 { raw_day - 40 } else { raw_day },
        gender: if raw_day > 40 { 'F' } else { 'M' },
        place_code: String::from_utf8_lossy(&d[11..15]).into_owned(),
    }
}

/// Validates a tax code as typed.
pub fn validate(register: &Register, raw: &str) -> Validation {
    let cleaned = clean(raw);
    let form_changed = cleaned != raw;
    let mut v = Validation {
        tax_code: cleaned.clone(),
        valid: false,
        outcome: Vec::new(),
        error: None,
        suggestion: None,
        homocode: false,
        decoded: None,
        person: None,
    };
    let b = cleaned.as_bytes();
    let mut failed: Vec<Check> = Vec::new();
    let mut completed = false;
    if cleaned.is_empty() {
        failed.push(EMPTY);
    } else if !(15..=16).contains(&cleaned.chars().count()) {
        failed.push(LENGTH);
    } else if !cleaned.is_ascii() {
        failed.push(FORMAT);
    } else {
        failed = check_body(register, b);
        if b.len() == 15 {
            if failed.is_empty() {
                let c = check_char(b).unwrap_or(b'?');
                v.tax_code.push(c as char);
                completed = true;
            } else {
                failed.insert(0, CHECK_DIGIT_MISSING);
            }
        } else if failed.is_empty() && check_char(&b[..15]) != Some(b[15]) {
            failed.push(CHECK_DIGIT);
        }
    }
    if failed.is_empty() {
        let code = v.tax_code.as_bytes();
        v.valid = true;
        v.homocode = (0..15).any(|i| is_numeric_position(i) && code[i].is_ascii_alphabetic());
        if v.homocode {
            v.decoded = Some(String::from_utf8_lossy(&decode_homocode(code)).into_owned());
        }
        v.person = Some(decode(code));
        if completed || form_changed {
            v.outcome.push("MODIFIED");
            if completed {
                v.outcome.push("TAX_CODE");
            }
            if form_changed {
                v.outcome.push("TAX_CODE_FORM");
            }
        }
        return v;
    }
    v.error = Some(failed[0].1);
    v.suggestion = rebuild(register, &cleaned, &failed);
    if failed != [EMPTY] {
        v.outcome.push("TAX_CODE_INVALID");
    }
    for (code, _) in &failed {
        if !v.outcome.contains(code) {
            v.outcome.push(code);
        }
    }
    if form_changed && failed != [EMPTY] {
        v.outcome.extend(["MODIFIED", "TAX_CODE_FORM"]);
    }
    v
}

/// Letters and digits people confuse: a letter in a numeric position that no homocode uses, or
/// a digit where a letter belongs.
fn look_alike(c: u8, numeric: bool) -> Option<u8> {
    if numeric {
        match c {
            b'O' | b'D' => Some(b'0'),
            b'I' => Some(b'1'),
            b'Z' => Some(b'2'),
            b'G' => Some(b'6'),
            b'B' => Some(b'8'),
            _ => None,
        }
    } else {
        match c {
            b'0' => Some(b'O'),
            b'1' => Some(b'I'),
            b'2' => Some(b'Z'),
            b'5' => Some(b'S'),
            b'6' => Some(b'G'),
            b'8' => Some(b'B'),
            _ => None,
        }
    }
}

/// The correct code when it can be rebuilt: only the check character is wrong, or look-alike
/// characters in the wrong kind of position fix the code and the written check character then
/// confirms the repair.
fn rebuild(register: &Register, cleaned: &str, failed: &[Check]) -> Option<String> {
    let b = cleaned.as_bytes();
    if b.len() != 16 {
        return None;
    }
    if failed == [CHECK_DIGIT] {
        let mut fixed = b[..15].to_vec();
        fixed.push(check_char(&b[..15])?);
        return String::from_utf8(fixed).ok();
    }
    let mut fixed = b.to_vec();
    let mut changed = false;
    for (i, c) in fixed.iter_mut().enumerate().take(15) {
        let numeric = is_numeric_position(i);
        let wrong_kind = if numeric {
            c.is_ascii_alphabetic() && homocode_digit(*c).is_none()
        } else {
            c.is_ascii_digit()
        };
        if wrong_kind {
            *c = look_alike(*c, numeric)?;
            changed = true;
        }
    }
    if !changed
        || !check_body(register, &fixed).is_empty()
        || check_char(&fixed[..15]) != Some(fixed[15])
    {
        return None;
    }
    String::from_utf8(fixed).ok()
}
