//! Addresses outside Italy as dedupe compares them: the house number found where the country
//! writes it (before the street in FR, GB, AU, US…, after it in DE, ES, NL…, either way accepted:
//! `postal::street::split_number`, the postal form's splitter), the street in a comparison form
//! with its type abbreviated one way. The postcode's one form is `postal::postcode::key`, the
//! registers' too.

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

/// `(street key, house number)` of a line written abroad. The number is at one end of the line
/// (`split_number`: the last word, else the first, when mostly digits), or a number and a letter
/// written apart at its end (`12 a`); a German `Hauptstrasse` and `Haupt Str` meet.
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
    // the number at either end, as the postal form splits it
    let (street, mut number) = crate::postal::street::split_number(&tokens.join(" "));
    let mut tokens: Vec<&str> = street.split(' ').filter(|t| !t.is_empty()).collect();
    if number.is_empty()
        && tokens.len() > 2
        && is_number(tokens[tokens.len() - 2])
        && tokens[tokens.len() - 1].len() == 1
    {
        // `Hauptstrasse 12 a`
        let letter = tokens.pop().unwrap_or_default();
        number = format!("{}{letter}", tokens.pop().unwrap_or_default());
    }
    // `7 / 9 wallaby place`, `12 - 14 …`: the second part too.
    while !number.is_empty() && tokens.len() > 1 && (tokens[0] == "-" || tokens[0] == "/") {
        tokens.remove(0);
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
        // an ordinal is part of the street, not its number
        assert_eq!(
            street_and_number("1st Avenue 5"),
            ("1ST AVE".into(), "5".into())
        );
        assert_eq!(
            street_and_number("7 / 9 wallaby place"),
            ("9 WALLABY PL".into(), "7".into())
        );
        assert_eq!(street_compact("7 bradfield s treet"), "BRADFIELDSTREET");
        assert_eq!(street_compact("narranstreet 7"), "NARRANSTREET");
    }
}
