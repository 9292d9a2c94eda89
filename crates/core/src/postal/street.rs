//! Street abbreviations expanded in the country's languages (OpenCage `abbreviations/<lang>.yaml`,
//! road section), and the house number told apart from the street so that the template can put
//! it where the country writes it.

use std::collections::HashMap;

use crate::normalize::fold;

/// Languages whose street type comes first (`Av. de la Paix`, `C/ Mayor`); elsewhere it comes
/// last (`Main St`) or is glued to the name (`Hauptstr.`).
const TYPE_FIRST: &[&str] = &[
    "fr", "es", "pt", "it", "ca", "gl", "ro", "pl", "vi", "eu", "sk", "cs", "sl", "tr", "ru", "uk",
];
/// Languages that write the street type as the end of one word.
const TYPE_GLUED: &[&str] = &["de", "nl", "da", "no", "sv", "fi", "et", "hu"];

/// Abbreviation → full form for one country's languages.
#[derive(Default)]
pub struct Expansions {
    /// Folded abbreviation (no dot) → full form, for a whole word.
    words: rustc_hash::FxHashMap<String, String>,
    /// Lower-case abbreviation → full lower-case ending (`str` → `straße`), for glued types.
    endings: Vec<(String, String)>,
    type_first: bool,
}

impl Expansions {
    pub fn new(
        languages: &[String],
        abbreviations: &HashMap<String, Vec<(String, String)>>,
    ) -> Expansions {
        let mut e = Expansions {
            type_first: languages
                .first()
                .is_some_and(|l| TYPE_FIRST.contains(&l.as_str())),
            ..Default::default()
        };
        for lang in languages {
            let Some(list) = abbreviations.get(lang) else {
                continue;
            };
            for (full, abbr) in list {
                // the first full form of an abbreviation wins (`Straße` before `Strasse`); the
                // name's own particle stays the writer's (`C/ Mayor` is `Calle Mayor`, not
                // OpenCage's `Calle de Mayor`)
                let full = without_particle(full);
                e.words.entry(fold(abbr)).or_insert_with(|| full.clone());
                if TYPE_GLUED.contains(&lang.as_str()) && abbr.chars().count() >= 2 {
                    let ending = (abbr.to_lowercase(), full.to_lowercase());
                    if !e.endings.contains(&ending) {
                        e.endings.push(ending);
                    }
                }
            }
        }
        e
    }

    /// `Main St` → `Main Street`, `Av. Foch` → `Avenue Foch`, `Hauptstr.` → `Hauptstraße`:
    /// only the word where the country writes the street type, never a `St` that starts a name.
    pub fn expand(&self, street: &str) -> String {
        let words: Vec<&str> = street.split_whitespace().collect();
        if words.is_empty() {
            return String::new();
        }
        // `Pennsylvania Ave NW`: a compass point after the type is not the type
        let mut at = if self.type_first { 0 } else { words.len() - 1 };
        if !self.type_first && at > 0 && is_directional(words[at]) {
            at -= 1;
        }
        let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let word = words[at];
        let bare = word.trim_end_matches('.');
        let punct = &word[bare.len()..];
        // a single word is a name, not a type (`Broadway`), unless it is glued
        if words.len() > 1 || !self.endings.is_empty() {
            if let Some(full) = self
                .words
                .get(&fold(bare))
                .filter(|_| words.len() > 1 && !is_directional(bare))
            {
                if fold(full) != fold(bare) {
                    let full = if is_upper(bare) {
                        full.to_uppercase()
                    } else {
                        full.clone()
                    };
                    out[at] = full + punct.trim_start_matches('.');
                    return out.join(" ");
                }
            }
            let lower = bare.to_lowercase();
            for (abbr, full) in &self.endings {
                if lower.len() > abbr.len()
                    && lower.ends_with(abbr.as_str())
                    && (word.ends_with('.') || at == words.len() - 1)
                {
                    let stem = &bare[..bare.len() - abbr.len()];
                    if stem.chars().last().is_some_and(|c| c.is_alphabetic()) {
                        let ending = if is_upper(bare) {
                            full.to_uppercase()
                        } else {
                            full.clone()
                        };
                        out[at] = format!("{stem}{ending}");
                        return out.join(" ");
                    }
                }
            }
        }
        out.join(" ")
    }
}

/// A full form without the particle OpenCage writes after it (`Calle de` → `Calle`).
fn without_particle(full: &str) -> String {
    match full.rsplit_once(' ') {
        Some((head, last))
            if matches!(
                last.to_lowercase().as_str(),
                "de" | "del" | "da" | "do" | "di" | "du" | "des" | "van" | "von" | "d'"
            ) =>
        {
            head.to_string()
        }
        _ => full.to_string(),
    }
}

fn is_directional(w: &str) -> bool {
    matches!(
        fold(w.trim_end_matches('.')).as_str(),
        "N" | "S" | "E" | "W" | "NE" | "NW" | "SE" | "SW" | "NORTH" | "SOUTH" | "EAST" | "WEST"
    )
}

/// Written in capitals: two letters at least (`C/` and `R.` are abbreviations, not capitals).
fn is_upper(s: &str) -> bool {
    s.chars().filter(|c| c.is_alphabetic()).count() >= 2 && !s.chars().any(|c| c.is_lowercase())
}

/// The street and the house number of a line written either way round (`82 Clerkenwell Road`,
/// `Clerkenwell Road 82`, `Hauptstr. 5a`); the whole line is the street when no number is at
/// either end.
pub fn split_number(line: &str) -> (String, String) {
    let line = line.trim().trim_end_matches(',').trim();
    let is_number = |w: &str| {
        let w = w.trim_end_matches(',');
        w.chars().next().is_some_and(|c| c.is_ascii_digit())
            && w.chars().filter(|c| c.is_ascii_digit()).count() * 2 >= w.chars().count()
            && w.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '/'))
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2 {
        return (line.to_string(), String::new());
    }
    let last = words[words.len() - 1];
    if is_number(last) {
        let street = words[..words.len() - 1].join(" ");
        return (street.trim_end_matches(',').to_string(), last.to_string());
    }
    let first = words[0];
    if is_number(first) {
        return (
            words[1..].join(" "),
            first.trim_end_matches(',').to_string(),
        );
    }
    (line.to_string(), String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_at_either_end() {
        assert_eq!(
            split_number("82 Clerkenwell Road"),
            ("Clerkenwell Road".into(), "82".into())
        );
        assert_eq!(
            split_number("Hauptstr. 5a"),
            ("Hauptstr.".into(), "5a".into())
        );
        assert_eq!(
            split_number("12, rue de la Paix"),
            ("rue de la Paix".into(), "12".into())
        );
        assert_eq!(
            split_number("Flat 3, Main Street"),
            ("Flat 3, Main Street".into(), String::new())
        );
    }
}
