//! From a record as sent to the comparable form: folded names with their canonical first
//! names, addresses through the contact engine's normalisation, phones and e-mails in one
//! form each, the tax code checked against the name, the country.

use serde::Serialize;
use serde_json::Value;

use super::names::FirstNameKey;
use super::record::{vcard_type, AddressIn, DedupeRecord, DetailIn};
use crate::normalize::fold;
use crate::register::Register;

impl Addr {
    /// The street as normalised, then as written when that differs.
    pub fn streets(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.street.as_str()).chain(self.street_as_written.as_deref())
    }
}

pub use crate::address::Foreign;

/// An address as compared, and as shown in the consolidated record.
#[derive(Debug, Clone, Default)]
pub struct Addr {
    /// `IT`, an ISO code, or a folded name for a country the register does not know.
    pub country: String,
    /// Cadastral code of the municipality when known, else the folded city.
    pub city: String,
    pub postcode: String,
    /// Comparison form of the street as the contact engine normalised it, empty when none.
    pub street: String,
    /// The same for the line as written, when the engine changed the street: a correction
    /// that depends on the postcode must not keep two copies of one address apart.
    pub street_as_written: Option<String>,
    pub number: String,
    /// Abroad: the street as written without number and spaces (`foreign::street_compact`),
    /// empty in Italy, where the register's form of the street is compared.
    pub street_compact: String,
    pub shown: AddressOut,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AddressOut {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub label: Option<String>,
    pub type_normalized: &'static str,
    pub address: String,
    pub postcode: String,
    pub city: String,
    pub province: String,
    pub country_code: String,
    pub address_key: String,
}

/// A phone or an e-mail in comparable form.
#[derive(Debug, Clone)]
pub struct Detail {
    pub value: String,
    /// Landline, fax, role mailbox: belongs to a place, not to a person.
    pub shared: bool,
    pub label: Option<String>,
    pub type_normalized: &'static str,
    /// As received.
    pub original: String,
}

#[derive(Debug, Clone)]
pub struct TaxCode {
    pub code: String,
    /// Letters of last and first name agree with the code: only then does it weigh.
    pub consistent: bool,
    /// Birth date and gender written in the code (two-digit year).
    pub birth: Birth,
    pub gender: char,
}

/// A birth date as compared. A tax code gives the year without its century.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Birth {
    pub year: u16,
    pub month: u8,
    pub day: u8,
    pub century_known: bool,
}

impl Birth {
    /// Year, month and day agreeing (the year modulo 100 when a side has no century).
    pub fn agreeing(&self, o: &Birth) -> (bool, bool, bool) {
        let year = if self.century_known && o.century_known {
            self.year == o.year
        } else {
            self.year % 100 == o.year % 100
        };
        (year, self.month == o.month, self.day == o.day)
    }
}

#[derive(Debug, Clone)]
pub struct Prepared {
    pub id: Value,
    pub last: String,
    pub first: String,
    pub last_compact: String,
    pub first_key: FirstNameKey,
    /// Every word of both names, sorted: one field holding the whole name ("Rossi Mario")
    /// against two fields compares equal.
    pub name_words: String,
    /// Declared, or read from a valid tax code.
    pub gender: Option<char>,
    /// Gender of a common first name (Mario M, Maria F): weaker than a declared one.
    pub name_gender: Option<char>,
    pub tax: Option<TaxCode>,
    /// Declared, or read from a valid tax code.
    pub birth: Option<Birth>,
    pub country: String,
    pub addresses: Vec<Addr>,
    pub phones: Vec<Detail>,
    pub emails: Vec<Detail>,
    /// Same address, phone or e-mail written twice inside this one record.
    pub internal_duplicate: bool,
    /// Names as received, for the consolidated record.
    pub last_shown: String,
    pub first_shown: String,
}

impl Prepared {
    pub fn has_name(&self) -> bool {
        !self.last_compact.is_empty()
    }
}

/// One record, its addresses already through the contact engine (see `verify_addresses`).
pub fn prepare(
    register: &Register,
    rec: &DedupeRecord,
    index: usize,
    addresses: Vec<Addr>,
) -> Prepared {
    let id = rec
        .id
        .clone()
        .filter(|v| !v.is_null())
        .unwrap_or_else(|| Value::from(index as u64 + 1));
    let first = fold(rec.first_name());
    // A company (no first name): its legal form is not part of its name, nor a qualifier in
    // brackets after it (`le chardonnay (los angeles)`, a guide's note of where it is).
    let last = if first.is_empty() {
        let last = fold(without_qualifier(rec.last_name()));
        register.names.strip_legal_form(&last).to_string()
    } else {
        fold(rec.last_name())
    };
    let first_key = FirstNameKey::new(&register.names, &first);
    let declared_gender = match rec.gender().to_uppercase().as_str() {
        "M" | "MALE" | "MASCHIO" | "MASCHILE" | "UOMO" => Some('M'),
        "F" | "FEMALE" | "FEMMINA" | "FEMMINILE" | "DONNA" => Some('F'),
        _ => None,
    };
    let name_gender = register
        .names
        .known_gender(&first_key.compact)
        .filter(|g| matches!(g, 'M' | 'F'));
    let (code, name, ee) = rec.declared_country();
    let declared = country_key(register, code, name, ee);

    let mut addresses = addresses;
    let country = addresses
        .first()
        .map(|a| a.country.clone())
        .unwrap_or_else(|| declared.clone().unwrap_or_else(|| "IT".into()));
    let phones: Vec<Detail> = rec
        .all_phones()
        .iter()
        .map(|d| phone(d, &country))
        .collect();
    let emails: Vec<Detail> = rec
        .all_emails()
        .iter()
        .map(|d| email(register, d))
        .collect();

    let before = addresses.len() + phones.len() + emails.len();
    let (p, e) = (dedup_details(phones), dedup_details(emails));
    addresses = dedup_addresses(addresses);
    let internal_duplicate = addresses.len() + p.len() + e.len() < before;

    let tax = tax_code(register, rec.tax_code(), &last, &first);
    let birth = birth_date(rec.birth_date()).or_else(|| tax.as_ref().map(|t| t.birth));
    let gender = declared_gender.or_else(|| tax.as_ref().map(|t| t.gender));
    let mut words: Vec<&str> = last
        .split(' ')
        .chain(first.split(' '))
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    let name_words = words.join(" ");
    Prepared {
        id,
        name_words,
        last_compact: last.replace(' ', ""),
        last,
        first,
        first_key,
        gender,
        name_gender,
        tax,
        birth,
        country,
        addresses,
        phones: p,
        emails: e,
        internal_duplicate,
        last_shown: rec.last_name().to_string(),
        first_shown: rec.first_name().to_string(),
    }
}

/// A name without a closing qualifier in brackets; the name itself when that is all there is.
fn without_qualifier(name: &str) -> &str {
    let trimmed = name.trim_end();
    match (trimmed.ends_with(')'), trimmed.rfind('(')) {
        (true, Some(open)) if !trimmed[..open].trim().is_empty() => &trimmed[..open],
        _ => name,
    }
}

fn dedup_details(list: Vec<Detail>) -> Vec<Detail> {
    let mut out: Vec<Detail> = Vec::with_capacity(list.len());
    for d in list {
        if d.value.is_empty() {
            continue;
        }
        match out.iter_mut().find(|o| o.value == d.value) {
            // Keep the more telling label of the two.
            Some(o) if o.label.is_none() => {
                o.label = d.label;
                o.type_normalized = d.type_normalized;
            }
            Some(_) => {}
            None => out.push(d),
        }
    }
    out
}

fn dedup_addresses(list: Vec<Addr>) -> Vec<Addr> {
    let mut out: Vec<Addr> = Vec::with_capacity(list.len());
    for a in list {
        if out.iter().any(|o| same_place(o, &a)) {
            continue;
        }
        out.push(a);
    }
    out
}

/// One place written twice: same country, city, street and number.
pub fn same_place(a: &Addr, b: &Addr) -> bool {
    a.country == b.country
        && a.city == b.city
        && a.streets().any(|x| b.streets().any(|y| x == y))
        && a.number == b.number
        && (!a.street.is_empty() || a.postcode == b.postcode)
}

/// Countries compare by ISO code when one is known; `EE` without a name is "abroad, unknown".
pub fn country_key(register: &Register, code: &str, name: &str, ee: bool) -> Option<String> {
    let code = code.trim().to_uppercase();
    if code.len() == 2 && code.chars().all(|c| c.is_ascii_alphabetic()) {
        return Some(code);
    }
    let folded = if name.trim().is_empty() {
        fold(&code)
    } else {
        fold(name)
    };
    if folded.is_empty() {
        return ee.then(|| "EE".to_string());
    }
    if matches!(
        folded.as_str(),
        "IT" | "ITA"
            | "ITALIA"
            | "ITALY"
            | "ITALIE"
            | "ITALIEN"
            | "ITALIEN "
            | "REPUBBLICA ITALIANA"
    ) {
        return Some("IT".into());
    }
    if let Some(c) = register.countries.by_name(&folded).first() {
        return Some(c.iso3.clone().unwrap_or_else(|| c.cadastral_code.clone()));
    }
    if let Some(c) = register.countries.by_iso3(&folded) {
        return Some(c.iso3.clone().unwrap_or_default());
    }
    Some(folded)
}

/// Two country keys that surely name different countries. `DE` and `DEU` are not compared
/// (the register has no ISO alpha-2), so only keys of one kind can disagree.
pub fn countries_differ(a: &str, b: &str) -> bool {
    if a == b || a == "EE" || b == "EE" {
        return false;
    }
    let kind = |s: &str| match s.len() {
        2 => 2,
        3 => 3,
        _ => 0,
    };
    if a == "IT" || b == "IT" {
        // Italy against anything else is a difference: ITA never reaches here (mapped to IT).
        return true;
    }
    kind(a) == kind(b) && kind(a) != 0 || (kind(a) == 0 && kind(b) == 0)
}

/// What the contact engine is asked about one address: the record's country applies when the
/// address states none.
pub fn engine_input(a: &AddressIn, record: &DedupeRecord) -> crate::address::ContactInput {
    let own = !a.country().is_empty() || !a.country_code().is_empty();
    let (code, name, _) = record.declared_country();
    crate::address::ContactInput {
        address: Some(a.address()),
        postcode: Some(a.postcode().to_string()),
        city: Some(a.city().to_string()),
        province: Some(a.province().to_string()),
        country_code: Some(if own { a.country_code() } else { code }.to_string()),
        country: Some(if own { a.country() } else { name }.to_string()),
        country_named: a.country_named.as_ref().map(|t| t.as_str().to_string()),
        ..Default::default()
    }
}

pub fn engine_options(foreign: Foreign) -> crate::address::VerifyOptions {
    crate::address::VerifyOptions {
        foreign,
        ..Default::default()
    }
}

/// What the dedupe keeps of the contact engine's answer for one address: the whole answer is
/// large, and a list of a million records has about as many distinct addresses.
#[derive(Debug, Clone, Default)]
pub struct Verified {
    pub country_code: String,
    /// Cadastral code of the municipality found, empty when none.
    pub cadastral_code: String,
    pub city: String,
    pub address: String,
    pub postcode: String,
    pub province: String,
    pub address_key: String,
}

impl From<crate::address::ContactResult> for Verified {
    fn from(r: crate::address::ContactResult) -> Verified {
        let n = r.normalized;
        Verified {
            country_code: n.country_code,
            cadastral_code: r.territory.map(|t| t.cadastral_code).unwrap_or_default(),
            city: n.city,
            address: n.address,
            postcode: n.postcode,
            province: n.province,
            address_key: r.address_key,
        }
    }
}

/// One address as the contact engine answered (`address::verify`): municipality and street
/// resolved against the register, postcode corrected, country recognised. The comparison form of
/// the street is the engine's key of the normalised line, so a street found in the register meets
/// its other spellings there.
pub fn address(
    register: &Register,
    a: &AddressIn,
    input: &crate::address::ContactInput,
    verified: &Verified,
) -> Addr {
    use crate::address::parse;
    use crate::rules::key;
    let n = verified;
    let country = if n.country_code.is_empty() {
        let ee = a.province().eq_ignore_ascii_case("EE");
        let (c, nm) = (
            input.country_code.as_deref().unwrap_or(""),
            input.country.as_deref().unwrap_or(""),
        );
        country_key(register, c, nm, ee).unwrap_or_else(|| "IT".into())
    } else {
        n.country_code.to_uppercase()
    };
    let city = if verified.cadastral_code.is_empty() {
        fold(if n.city.is_empty() { a.city() } else { &n.city })
    } else {
        verified.cadastral_code.clone()
    };
    let street_key = |line: &str| {
        let parsed = parse::parse(line);
        let number = parsed
            .house_number
            .as_ref()
            .filter(|h| !h.without_number)
            .map(|h| h.display().replace('/', ""))
            .unwrap_or_default();
        let street = if parsed.name.trim().is_empty() {
            String::new()
        } else {
            key::address_key(parsed.street_type.unwrap_or(""), &parsed.name, "")
        };
        (street, number)
    };
    // Abroad the number may come first (`7 wallaby place`): the Italian parser would miss it.
    let abroad = country != "IT";
    let street_key = |line: &str| {
        if abroad {
            super::foreign::street_and_number(line)
        } else {
            street_key(line)
        }
    };
    let written = street_key(&a.address());
    let (street, number) = if n.address.trim().is_empty() {
        written.clone()
    } else {
        street_key(&n.address)
    };
    let number = if number.is_empty() {
        written.1.clone()
    } else {
        number
    };
    let street_as_written = (written.0 != street && !written.0.is_empty()).then_some(written.0);
    let or = |x: &str, y: String| if x.is_empty() { y } else { x.to_string() };
    let postcode = or(&n.postcode, a.postcode().replace(' ', ""));
    let postcode = if abroad {
        crate::postal::postcode::key(&country, &postcode)
    } else {
        postcode
    };
    Addr {
        country: country.clone(),
        city,
        postcode: postcode.clone(),
        street,
        street_as_written,
        number,
        street_compact: if abroad {
            super::foreign::street_compact(&a.address())
        } else {
            String::new()
        },
        shown: AddressOut {
            label: a
                .label
                .as_ref()
                .map(|l| l.as_str().to_string())
                .filter(|l| !l.is_empty()),
            type_normalized: vcard_type(a.label.as_ref().map(|l| l.as_str())),
            address: or(&n.address, a.address().trim().to_string()),
            postcode,
            city: or(&n.city, a.city().to_string()),
            province: or(&n.province, a.province().trim().to_uppercase()),
            country_code: country,
            address_key: verified.address_key.clone(),
        },
    }
}

fn phone(d: &DetailIn, country: &str) -> Detail {
    let raw = d.value();
    let mut digits: String = raw.chars().filter(|c| c.is_ascii_digit()).collect();
    let international = raw.trim_start().starts_with('+') || digits.starts_with("00");
    if raw.trim_start().starts_with('+') {
        digits.insert_str(0, "00");
    }
    let italian = if let Some(rest) = digits.strip_prefix("0039") {
        digits = rest.to_string();
        true
    } else {
        !international && country == "IT"
    };
    let type_normalized = vcard_type(d.label());
    // A national number of a foreign record is kept apart from the same digits in Italy.
    let value = if italian || international {
        digits.clone()
    } else {
        format!("{country}:{digits}")
    };
    // Italian landlines start with 0, mobiles with 3: a landline rings in a place.
    let shared =
        matches!(type_normalized, "fax" | "pager" | "main") || (italian && digits.starts_with('0'));
    Detail {
        value: if digits.len() < 6 {
            String::new()
        } else {
            value
        },
        shared,
        label: d.label().map(str::to_string),
        type_normalized,
        original: raw.to_string(),
    }
}

fn email(register: &Register, d: &DetailIn) -> Detail {
    let value = d
        .value()
        .trim()
        .trim_start_matches("mailto:")
        .to_lowercase();
    let valid = value.split('@').count() == 2 && !value.starts_with('@') && !value.ends_with('@');
    let localpart = value.split('@').next().unwrap_or("");
    let shared = register.names.is_role_localpart(localpart);
    Detail {
        value: if valid { value.clone() } else { String::new() },
        shared,
        label: d.label().map(str::to_string),
        type_normalized: vcard_type(d.label()),
        original: d.value().to_string(),
    }
}

/// A valid tax code (every check of `crate::tax_code::validate`: check character, month, date,
/// place, homocodes), with homocode letters decoded so variants of one person compare equal, and
/// whether it agrees with the record's name (`crate::tax_code::consistent_with`).
fn tax_code(register: &Register, text: &str, last: &str, first: &str) -> Option<TaxCode> {
    if text.trim().is_empty() {
        return None;
    }
    let validation = crate::tax_code::validate(register, text);
    if !validation.valid {
        return None;
    }
    let consistent = !last.is_empty()
        && !first.is_empty()
        && crate::tax_code::consistent_with(register, text, Some(last), Some(first), None, None);
    let person = validation.person.as_ref()?;
    Some(TaxCode {
        code: validation.decoded.unwrap_or(validation.tax_code),
        consistent,
        birth: Birth {
            year: person.year as u16,
            month: person.month as u8,
            day: person.day as u8,
            century_known: false,
        },
        gender: person.gender,
    })
}

/// A declared birth date in any of the forms `tax_code::parse_birth_date` reads (ISO, Italian
/// day first, `19800315`); an ISO date that is on no calendar (`1855-86-20`) as typed, so that
/// it meets its own person's date one keystroke away and nothing else; None when unreadable.
fn birth_date(text: &str) -> Option<Birth> {
    use chrono::Datelike;
    if text.trim().is_empty() {
        return None;
    }
    let today = chrono::Utc::now().date_naive();
    let Some(d) = crate::tax_code::parse_birth_date(text, today) else {
        return typed_date(text.trim());
    };
    Some(Birth {
        year: d.year() as u16,
        month: d.month() as u8,
        day: d.day() as u8,
        century_known: true,
    })
}

/// `YYYY-MM-DD` in digits whose month or day is no calendar's: a slip of the keyboard.
fn typed_date(text: &str) -> Option<Birth> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b[r.clone()]
            .iter()
            .all(u8::is_ascii_digit)
            .then(|| text[r].parse::<u16>().ok())
            .flatten()
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    (year >= 1000 && month > 0 && day > 0).then_some(Birth {
        year,
        month: month as u8,
        day: day as u8,
        century_known: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_on_no_calendar_is_kept_as_typed() {
        let typed = birth_date("1855-86-20").unwrap();
        assert_eq!((typed.year, typed.month, typed.day), (1855, 86, 20));
        let real = birth_date("1855-06-20").unwrap();
        assert_eq!(super::super::score::birth_dates(&typed, &real), 1);
        assert!(birth_date("not a date").is_none());
    }

    #[test]
    fn a_qualifier_in_brackets_is_not_the_name() {
        assert_eq!(
            without_qualifier("le chardonnay (los angeles)").trim(),
            "le chardonnay"
        );
        assert_eq!(without_qualifier("palm the (new york city) "), "palm the ");
        assert_eq!(without_qualifier("(nome)"), "(nome)");
        assert_eq!(
            without_qualifier("caffè (da Mario) Rossi"),
            "caffè (da Mario) Rossi"
        );
    }

    #[test]
    fn countries() {
        assert!(countries_differ("IT", "DE"));
        assert!(countries_differ("IT", "DEU"));
        assert!(!countries_differ("DE", "DEU"));
        assert!(countries_differ("FRA", "DEU"));
        assert!(!countries_differ("EE", "DEU"));
    }
}
