//! How an answer is written: the register's street in the form people read, the line as written
//! with its number normalised, and the candidates offered when none could be chosen.

use super::*;

/// At most this many streets are listed with `STREET_AMBIGUOUS`.
pub(super) const MAX_CANDIDATES: usize = 5;

pub(super) fn candidate(s: &Street) -> Candidate {
    Candidate {
        street: display_name(&format!("{} {}", s.street_type, s.name)),
        locality: Some(title_case(&s.locality))
            .filter(|l| !l.is_empty())
            .or_else(|| Some(s.district.clone()).filter(|d| !d.is_empty())),
        street_id: (s.id != 0).then(|| s.id.to_string()),
        postcodes: s.postcodes.iter().map(|(p, _)| p.clone()).collect(),
        municipality: None,
        province: None,
    }
}

/// A municipality the written city may name, for `CITY_AMBIGUOUS` and `CITY_NOT_FOUND`.
pub(super) fn city_candidate(m: &Municipality) -> Candidate {
    Candidate {
        street: String::new(),
        locality: None,
        street_id: None,
        postcodes: m.postcodes.clone(),
        municipality: Some(m.name.clone()),
        province: Some(m.province.clone()),
    }
}

/// `Via Roma 12`: the register's type and name in the form people read, then the number.
pub(super) fn street_line(s: &Street, number: &str, parsed: &ParsedAddress) -> String {
    let mut line = display_name(&format!("{} {}", s.street_type, s.name));
    if !number.is_empty() {
        line.push(' ');
        line.push_str(number);
    }
    for extra in &parsed.extra {
        line.push_str(", ");
        line.push_str(extra);
    }
    line
}

/// The register's capitals in Poste Italiane's mixed case: `Via Vittorio Emanuele II`,
/// `Via dell'Indipendenza`, `Piazza di Porta San Donato`, `Via de' Gessi`, `Piazza San Niccolò`.
/// Prepositions are lower case; `di`, `de` keep their capital inside a person's name
/// (`Via Alcide De Gasperi`), `da` names an origin and does not (`Via Leonardo da Vinci`); articles that begin a surname stay capital (`Via Ugo La Malfa`).
/// A street's type and name in the form people read (Italy's rules).
pub fn display_name(upper: &str) -> String {
    rules::italy().display_name(upper)
}

pub(super) fn title_case(upper: &str) -> String {
    rules::italy().title_case(upper)
}

/// The street as written, with the number in its normal form.
pub(super) fn written_line(parsed: &ParsedAddress, number: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !parsed.street_type_raw.is_empty() {
        parts.push(match parsed.street_type {
            // the type's display form: the folded `LOCALITA` is `Località`
            Some(t) => display_name(t),
            None => parsed.street_type_raw.clone(),
        });
    }
    if !parsed.name.is_empty() {
        parts.push(parsed.name.clone());
    }
    if !number.is_empty() {
        parts.push(number.to_string());
    }
    let mut line = parts.join(" ");
    for extra in &parsed.extra {
        line.push_str(", ");
        line.push_str(extra);
    }
    line
}

/// The number was rewritten beyond spacing, case and separators (`12 bis` → `12/BIS` is form).
pub(super) fn number_changed(parsed: &ParsedAddress) -> bool {
    let Some(h) = &parsed.house_number else {
        return false;
    };
    let squash = |s: &str| -> String {
        fold(s)
            .split(' ')
            .filter(|w| !matches!(*w, "N" | "NR" | "NUM" | "CIV" | "NO" | "KM"))
            .collect::<String>()
    };
    squash(&parsed.house_number_raw) != squash(&h.display())
}
