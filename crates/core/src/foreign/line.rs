//! The address line of a foreign record read as the ways it can be split: street, house number
//! (before or after the street, as the country writes it), and what follows (floor, door, flat),
//! with a postcode found in the line. Several readings are kept when the line has several numbers
//! (`Rue du 10 Septembre 5`); the register decides which one names a street.

use super::model::split_number;
use super::text::Expander;
use crate::normalize::fold;

#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub street: String,
    pub number: Option<(u32, String)>,
    pub number_written: String,
    pub sub_address: String,
}

#[derive(Debug, Default)]
pub struct Line {
    pub readings: Vec<Reading>,
    /// a postcode written in the line (`5000 Odense C`, `L-1260 Luxembourg`)
    pub postcode: Option<String>,
}

fn is_number_token(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_digit())
        && split_number(t).is_some()
        && t.chars().filter(|c| c.is_ascii_digit()).count() <= 4
}

/// `5000`, `L-1260`, `CH-3011`, `D-45127`, `1234AB`: a postcode-looking token.
fn is_postcode_token(t: &str) -> bool {
    let digits = t.chars().filter(|c| c.is_ascii_digit()).count();
    let letters_before = t.chars().take_while(|c| c.is_ascii_alphabetic()).count();
    ((4..=5).contains(&digits) && (t.contains('-') || letters_before == 0)) && !t.ends_with('.')
}

/// A segment that is only a house number (`14`, `14 A`), not a floor (`2.`) or a door.
fn lone_number(s: &[String]) -> bool {
    match s {
        [n] => is_number_token(n) && !n.ends_with('.'),
        [n, l] => {
            is_number_token(n)
                && !n.ends_with('.')
                && l.chars().count() == 1
                && l.chars().all(char::is_alphabetic)
        }
        _ => false,
    }
}

fn letters(s: &str) -> usize {
    s.chars().filter(|c| c.is_alphabetic()).count()
}

/// Splits the line. `city` lets a trailing city be told from a sub-address.
pub fn read(line: &str, city: &str, _expander: &Expander) -> Line {
    let mut out = Line::default();
    let city_f = fold(city);
    let mut segments: Vec<Vec<String>> = Vec::new();
    for seg in line.split([',', ';', '\n']) {
        let toks: Vec<String> = seg.split_whitespace().map(str::to_string).collect();
        if toks.is_empty() {
            continue;
        }
        let f = fold(seg);
        if !city_f.is_empty() && f == city_f {
            continue;
        }
        // `5000 Odense C`: postcode and city
        if toks.len() >= 2
            && is_postcode_token(&toks[0])
            && toks.len() <= 5
            && letters(&toks[1]) > 0
        {
            let rest = fold(&toks[1..].join(" "));
            if city_f.is_empty() || rest == city_f || !segments.is_empty() {
                out.postcode.get_or_insert(toks[0].clone());
                continue;
            }
        }
        segments.push(toks);
    }
    // a number alone in a segment (`14, Rue de Bonnevoie`)
    let lone: Option<String> = segments.iter().find(|s| lone_number(s)).map(|s| s.concat());
    let mut readings: Vec<Reading> = Vec::new();
    let n_segments = segments.len();
    for (si, toks) in segments.iter().enumerate() {
        if letters(&toks.concat()) < 2 {
            continue;
        }
        // the segments after the street's are sub-address, unless they hold the street
        let later: Vec<String> = segments
            .iter()
            .enumerate()
            .filter(|(k, s)| *k != si && !lone_number(s))
            .map(|(_, s)| s.join(" "))
            .collect();
        let mut add = |street: &[String], number: Option<String>, sub: &[String]| {
            let mut sub_parts: Vec<String> = Vec::new();
            let mut sub_tokens: Vec<&String> = Vec::new();
            for t in sub {
                if is_postcode_token(t) {
                    out.postcode.get_or_insert(t.clone());
                    break;
                }
                sub_tokens.push(t);
            }
            if !sub_tokens.is_empty() {
                sub_parts.push(
                    sub_tokens
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
            if n_segments > 1 {
                sub_parts.extend(later.iter().cloned());
            }
            let street = street.join(" ");
            if letters(&street) < 2 {
                return;
            }
            let parsed = number.as_deref().and_then(split_number);
            readings.push(Reading {
                street,
                number: parsed,
                number_written: number.unwrap_or_default(),
                sub_address: sub_parts.join(", "),
            });
        };
        let numbers: Vec<usize> = (0..toks.len())
            .filter(|&j| is_number_token(&toks[j]))
            .collect();
        for &j in numbers.iter().take(3) {
            // a one-letter suffix written apart: `12 a`
            let glued = toks
                .get(j + 1)
                .filter(|t| t.chars().count() == 1 && t.chars().all(char::is_alphabetic))
                .filter(|_| j + 2 >= toks.len() || j > 0);
            let (number, after) = match glued {
                Some(s) => (format!("{}{}", toks[j], s), j + 2),
                None => (toks[j].clone(), j + 1),
            };
            let number = number.trim_end_matches([',', '.']).to_string();
            if j == 0 {
                // number first: the street runs to the next number or the end
                let end = numbers
                    .iter()
                    .copied()
                    .find(|&k| k >= after)
                    .unwrap_or(toks.len());
                add(
                    &toks[after.min(toks.len())..end.max(after.min(toks.len()))],
                    Some(number),
                    &toks[end.max(after.min(toks.len()))..],
                );
            } else {
                add(&toks[..j], Some(number), &toks[after.min(toks.len())..]);
            }
        }
        // `26B, Rue Albert 1er`: the whole segment is the street when a number stands alone
        if numbers.is_empty() || lone.is_some() {
            add(toks, lone.clone(), &[]);
        }
    }
    readings.dedup();
    out.readings = readings;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(line: &str, city: &str) -> Reading {
        read(line, city, &Expander::default()).readings.remove(0)
    }

    #[test]
    fn number_after_or_before_the_street() {
        let r = first("Hauptstraße 12a", "");
        assert_eq!(
            (r.street.as_str(), r.number),
            ("Hauptstraße", Some((12, "a".into())))
        );
        let r = first("14, Rue de Bonnevoie", "");
        assert_eq!(
            (r.street.as_str(), r.number),
            ("Rue de Bonnevoie", Some((14, String::new())))
        );
        let r = first("14 rue de Bonnevoie", "");
        assert_eq!(r.street, "rue de Bonnevoie");
    }

    #[test]
    fn floor_door_and_postcode_are_set_apart() {
        let l = read(
            "Ridehusgade 49, 2. th, 5000 Odense C",
            "",
            &Expander::default(),
        );
        assert_eq!(l.postcode.as_deref(), Some("5000"));
        let r = &l.readings[0];
        assert_eq!(
            (r.street.as_str(), r.number.clone()),
            ("Ridehusgade", Some((49, String::new())))
        );
        assert_eq!(r.sub_address, "2. th");
        let r = first("Kramgasse 49 3. OG", "Bern");
        assert_eq!(
            (r.street.as_str(), r.sub_address.as_str()),
            ("Kramgasse", "3. OG")
        );
    }
}
