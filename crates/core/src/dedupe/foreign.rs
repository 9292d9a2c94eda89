//! Addresses outside Italy as dedupe compares them: the house number found where the country
//! writes it (before the street in FR, GB, AU, US…, after it in DE, ES, NL…, either way accepted),
//! the street in a comparison form with its type abbreviated one way, the postcode in one form.

use crate::normalize::fold;

/// Street types written in full or abbreviated, to one form (`7 Wallaby Place` = `7 wallaby pl`).
const STREET_TYPES: &[(&str, &str)] = &[
    ("STREET", "ST"),
    ("ROAD", "RD"),
    ("AVENUE", "AVE"),
    ("AV", "AVE"),
    ("PLACE", "PL"),
    ("CRESCENT", "CRES"),
    ("DRIVE", "DR"),
    ("COURT", "CT"),
    ("CIRCUIT", "CCT"),
    ("PARADE", "PDE"),
    ("CLOSE", "CL"),
    ("TERRACE", "TCE"),
    ("LANE", "LN"),
    ("BOULEVARD", "BLVD"),
    ("BD", "BLVD"),
    ("HIGHWAY", "HWY"),
    ("SQUARE", "SQ"),
    ("GARDENS", "GDNS"),
    ("GROVE", "GR"),
    ("MOUNT", "MT"),
    ("SAINT", "ST"),
    ("RUE", "R"),
    ("CHEMIN", "CH"),
    ("ALLEE", "ALL"),
    ("IMPASSE", "IMP"),
    ("CALLE", "C"),
    ("CARRER", "C"),
    ("STRASSE", "STR"),
    ("GASSE", "G"),
    ("WEG", "W"),
];

/// A token that is a house number: starts with a digit (`7`, `7a`, `12-14`, `3/7`).
fn is_number(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// `(street key, house number)` of a line written abroad. The number is the first token when it
/// starts with a digit, else the last one; a German `Hauptstrasse` and `Haupt Str` meet.
pub fn street_and_number(line: &str) -> (String, String) {
    let (tokens, number) = words_and_number(line);
    let street: Vec<String> = tokens.iter().map(|t| street_word(t)).collect();
    (street.join(" "), number)
}

/// The street as written without its number and without spaces (`bradfield s treet`,
/// `narranstreet` = `BRADFIELDSTREET`, `NARRANSTREET`): lists abroad split and join the words
/// of a street by mistake, which the word-by-word key above keeps apart.
pub fn street_compact(line: &str) -> String {
    words_and_number(line).0.concat()
}

fn words_and_number(line: &str) -> (Vec<String>, String) {
    let folded = fold(&line.replace([',', '.', '#'], " "));
    let mut tokens: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
    // Unit prefixes (`unit 5 7 wallaby place`, `apt 3`) say nothing about the street.
    if tokens.len() > 2 && matches!(tokens[0], "UNIT" | "APT" | "FLAT" | "SUITE") {
        tokens.drain(..2);
    }
    let mut number = String::new();
    if tokens.len() > 1 && is_number(tokens[0]) {
        number = tokens.remove(0).to_string();
        // `7 / 9 wallaby place`, `12 - 14 …`: the second part too.
        while tokens.len() > 1 && (tokens[0] == "-" || tokens[0] == "/") {
            tokens.remove(0);
        }
    } else if tokens.len() > 1 && tokens.last().is_some_and(|t| is_number(t)) {
        number = tokens.pop().unwrap_or_default().to_string();
    } else if tokens.len() > 2
        && is_number(tokens[tokens.len() - 2])
        && tokens[tokens.len() - 1].len() == 1
    {
        // `Hauptstrasse 12 a`
        let letter = tokens.pop().unwrap_or_default();
        number = format!("{}{letter}", tokens.pop().unwrap_or_default());
    }
    let number: String = number
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    (tokens.into_iter().map(str::to_string).collect(), number)
}

fn street_word(t: &str) -> String {
    if let Some((_, short)) = STREET_TYPES
        .iter()
        .find(|(full, short)| t == *full || t == *short)
    {
        return short.to_string();
    }
    // German compounds: `HAUPTSTRASSE` = `HAUPT STR`.
    if let Some(head) = t.strip_suffix("STRASSE").filter(|h| h.len() > 2) {
        return format!("{head} STR");
    }
    t.to_string()
}

/// One form for a postcode abroad: upper case, no spaces or dashes, no country prefix
/// (`F-75001`, `D 10115`, `sw1a 1aa` = `SW1A1AA`).
pub fn postcode(country: &str, raw: &str) -> String {
    let mut p: String = raw
        .to_uppercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    for prefix in ["CH", "D", "F", "A", "B", "L", "NL", "E", "P", "I"] {
        if let Some(rest) = p.strip_prefix(prefix) {
            if rest.len() >= 4 && rest.chars().all(|c| c.is_ascii_digit()) && country != "GB" {
                p = rest.to_string();
                break;
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_where_the_country_writes_it() {
        assert_eq!(
            street_and_number("7 wallaby place"),
            ("WALLABY PL".into(), "7".into())
        );
        assert_eq!(
            street_and_number("7 Wallaby Pl."),
            ("WALLABY PL".into(), "7".into())
        );
        assert_eq!(
            street_and_number("12 rue de la Paix"),
            ("R DE LA PAIX".into(), "12".into())
        );
        assert_eq!(
            street_and_number("Hauptstraße 12a"),
            ("HAUPT STR".into(), "12A".into())
        );
        assert_eq!(
            street_and_number("Haupt Str. 12 a"),
            ("HAUPT STR".into(), "12A".into())
        );
        assert_eq!(
            street_and_number("wallaby place"),
            ("WALLABY PL".into(), "".into())
        );
        assert_eq!(street_compact("7 bradfield s treet"), "BRADFIELDSTREET");
        assert_eq!(street_compact("narranstreet 7"), "NARRANSTREET");
        assert_eq!(postcode("FR", "F-75001"), "75001");
        assert_eq!(postcode("GB", "sw1a 1aa"), "SW1A1AA");
    }
}
