//! A postcode against its country's pattern (libaddressinput `zip`), written in the canonical
//! form of the country's examples (`zipex`): `sw1a2aa` → `SW1A 2AA`, `1540023` → `154-0023`,
//! `L-1234` → `1234`.

use regex::Regex;

use super::VEHICLE_PREFIXES;

/// The judgement on a written postcode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Postcode {
    /// Nothing written.
    Empty,
    /// Fits the pattern; the canonical form.
    Valid(String),
    /// Cannot be put into the country's pattern.
    Invalid,
    /// The country has no pattern to check against (no postcodes, or none published).
    Unchecked(String),
}

/// Where the examples put their separators: `EC1Y 8SY` is 7 characters with a space before the
/// 5th (counted from the start) or before the last 3 (from the end).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shape {
    len: usize,
    separators: Vec<(usize, char)>,
}

impl Shape {
    pub fn of(example: &str) -> Shape {
        let mut separators = Vec::new();
        let mut len = 0;
        for c in example.chars() {
            if c.is_alphanumeric() {
                len += 1;
            } else {
                separators.push((len, c));
            }
        }
        Shape { len, separators }
    }

    /// The written form has this shape's separators where this shape has them (`Shape::of`
    /// compared, read in one pass without building the written form's shape: detection asks it
    /// of every run of words against every group of countries).
    fn fits(&self, written: &str) -> bool {
        let mut separators = self.separators.iter();
        let mut len = 0;
        for c in written.chars() {
            if c.is_alphanumeric() {
                len += 1;
            } else if separators.next() != Some(&(len, c)) {
                return false;
            }
        }
        separators.next().is_none() && len == self.len
    }

    /// The compact code with the separators at the same places from the start (same length)
    /// or from the end (`M25BQ` → `M2 5BQ` after `EC1Y 8SY`), written into `out` (cleared
    /// first): false when this shape cannot be put on the code. `compact` is not empty.
    /// One buffer for every shape tried (`PostcodeRule::canonical`): detection tries them on
    /// every run of words.
    fn apply(&self, compact: &str, count: usize, from_end: bool, out: &mut String) -> bool {
        if self.separators.is_empty() {
            return false;
        }
        if !from_end && count != self.len {
            return false;
        }
        // from the end, a separator before the code's first character cannot be placed
        if from_end && self.separators.iter().any(|&(at, _)| count + at < self.len) {
            return false;
        }
        out.clear();
        for (i, c) in compact.chars().enumerate() {
            if i > 0 {
                for &(at, sep) in &self.separators {
                    let at = if from_end { count + at - self.len } else { at };
                    if at == i {
                        out.push(sep);
                    }
                }
            }
            out.push(c);
        }
        true
    }
}

pub struct PostcodeRule {
    pub pattern: Regex,
    pub shapes: Vec<Shape>,
    /// Prefixes a written postcode may carry and that are not part of it (`FL-`, `L-`, `CH-`, `D-`).
    pub prefixes: Vec<String>,
}

impl PostcodeRule {
    pub fn new(zip: &str, examples: &[String], prefixes: Vec<String>) -> Option<PostcodeRule> {
        if zip.is_empty() {
            return None;
        }
        let pattern = Regex::new(&format!("^(?:{zip})$")).ok()?;
        let mut shapes: Vec<Shape> = examples.iter().map(|e| Shape::of(e)).collect();
        shapes.dedup_by(|a, b| a.len == b.len && a.separators == b.separators);
        Some(PostcodeRule {
            pattern,
            shapes,
            prefixes,
        })
    }

    pub fn judge(&self, written: &str) -> Postcode {
        self.judge_spaced(&spaced_upper(written))
    }

    /// `judge` of a written form already in `spaced_upper`'s form (detection forms it once for
    /// every country it asks).
    pub(crate) fn judge_spaced(&self, up: &str) -> Postcode {
        if up.is_empty() {
            return Postcode::Empty;
        }
        // a form that fits as written stays (`EC090112`); then a country prefix is stripped
        // (`EC-090105` → `090105`, `L-1234` → `1234`) before the separators are put right. The
        // shapes (a pass over the characters) before the pattern (a regex search).
        if self.shapes.iter().any(|s| s.fits(up)) && self.pattern.is_match(up) {
            return Postcode::Valid(up.to_string());
        }
        let mut buf = String::with_capacity(up.len() + 4);
        for p in &self.prefixes {
            if let Some(rest) = up.strip_prefix(p.as_str()) {
                let rest = rest.trim_start_matches(['-', ' ', '–']);
                if !rest.is_empty() && rest.len() < up.len() && self.canonical(rest, &mut buf) {
                    return Postcode::Valid(buf);
                }
            }
        }
        if self.canonical(up, &mut buf) {
            return Postcode::Valid(buf);
        }
        Postcode::Invalid
    }

    /// The canonical form of `body` into `buf` (true when there is one). One buffer for every
    /// form tried: the compact code first, then each shape's form written over it.
    fn canonical(&self, body: &str, buf: &mut String) -> bool {
        let mut compact = String::with_capacity(body.len());
        compact.extend(body.chars().filter(|c| c.is_alphanumeric()));
        if compact.is_empty() {
            return false;
        }
        let count = compact.chars().count();
        // the examples' form first, then the form as written, then without separators
        for from_end in [false, true] {
            for shape in &self.shapes {
                if shape.apply(&compact, count, from_end, buf) && self.pattern.is_match(buf) {
                    return true;
                }
            }
        }
        if self.pattern.is_match(body) {
            buf.clear();
            buf.push_str(body);
            return true;
        }
        if self.pattern.is_match(&compact) {
            *buf = compact;
            return true;
        }
        false
    }
}

/// The written words joined by one space, in upper case: `split_whitespace().join(" ")
/// .to_uppercase()` in one string (`str::to_uppercase` maps each character on its own).
pub(crate) fn spaced_upper(written: &str) -> String {
    let mut up = String::with_capacity(written.len());
    for word in written.split_whitespace() {
        if !up.is_empty() {
            up.push(' ');
        }
        up.extend(word.chars().flat_map(char::to_uppercase));
    }
    up
}

/// The country prefixes a written postcode may carry (`CH-3011`, `D-45127`, `FL-9490`): the
/// post's own (`postprefix`), the ISO code and the old vehicle codes, each with a dash, a space or
/// nothing after it, longest first (so that `CH-` goes before `C`).
pub fn country_prefixes(country: &str, postprefix: &str) -> Vec<String> {
    let mut prefixes: Vec<String> = Vec::new();
    let mut add = |p: &str| {
        for sep in ["-", " ", ""] {
            let p = format!("{}{sep}", p.trim_end_matches(['-', ' ']));
            if !prefixes.contains(&p) {
                prefixes.push(p);
            }
        }
    };
    if !postprefix.is_empty() {
        add(postprefix);
    }
    add(country);
    for (v, iso) in VEHICLE_PREFIXES {
        if *iso == country {
            add(v);
        }
    }
    prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
    prefixes
}

/// The one form a postcode is kept and compared in (registers' keys, dedupe's comparison): upper
/// case, letters and digits only, without the country prefix (`L-1260` → `1260`, `6981 ch` →
/// `6981CH`, `D 10115` → `10115`); Andorra's three digits with their `AD`.
pub fn key(country: &str, written: &str) -> String {
    let mut s: String = written
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_uppercase();
    // the country's prefixes (`country_prefixes` without separators): the longest one a digit
    // follows goes
    let prefix = std::iter::once(country)
        .chain(
            VEHICLE_PREFIXES
                .iter()
                .filter(|(_, iso)| *iso == country)
                .map(|(v, _)| *v),
        )
        .filter(|p| {
            s.len() > p.len()
                && s.starts_with(p)
                && s[p.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .max_by_key(|p| p.len());
    if let Some(p) = prefix {
        s = s[p.len()..].to_string();
    }
    if country == "AD" && s.chars().all(|c| c.is_ascii_digit()) && s.len() == 3 {
        s = format!("AD{s}");
    }
    s
}

/// A postcode key (`key`) written the way the country's post writes it (`6981CH` → `6981 CH`).
pub fn display(country: &str, key: &str) -> String {
    match country {
        "NL" if key.len() == 6 => format!("{} {}", &key[..4], &key[4..]),
        "CZ" | "SK" if key.len() == 5 => format!("{} {}", &key[..3], &key[3..]),
        "PT" if key.len() == 7 => format!("{}-{}", &key[..4], &key[4..]),
        _ => key.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(zip: &str, ex: &[&str], prefixes: &[&str]) -> PostcodeRule {
        PostcodeRule::new(
            zip,
            &ex.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            prefixes.iter().map(|s| s.to_string()).collect(),
        )
        .unwrap()
    }

    #[test]
    fn shapes_from_the_examples() {
        let gb = rule(
            r"GIR[ ]?0AA|[A-Z]{1,2}\d[\dA-Z]?[ ]?\d[A-Z]{2}",
            &["EC1Y 8SY", "M2 5BQ"],
            &[],
        );
        assert_eq!(gb.judge("sw1a2aa"), Postcode::Valid("SW1A 2AA".into()));
        assert_eq!(gb.judge("m25bq"), Postcode::Valid("M2 5BQ".into()));
        assert_eq!(gb.judge("ZZZ"), Postcode::Invalid);
        let lu = rule(r"\d{4}", &["4750"], &["L-", "LU-"]);
        assert_eq!(lu.judge("L-1234"), Postcode::Valid("1234".into()));
        assert_eq!(lu.judge("12345"), Postcode::Invalid);
        let jp = rule(r"\d{3}-?\d{4}", &["154-0023"], &[]);
        assert_eq!(jp.judge("1540023"), Postcode::Valid("154-0023".into()));
        assert_eq!(jp.judge(" "), Postcode::Empty);
    }

    #[test]
    fn one_pass_forms_are_those_built_in_steps() {
        // `spaced_upper` and `Shape::fits` stand for the forms `judge` built in steps
        let written = [
            " sw1a   2aa ",
            "L-1234",
            "straße 1",
            "ﬁ 12",
            "Σίσυφος 104 31",
            "8001 Zürich",
            "EC1Y 8SY",
            "154-0023",
            "1012  LG",
            "",
            "  ",
            "AD500",
            "ǆ-9",
        ];
        let shapes = ["EC1Y 8SY", "154-0023", "1012 LG", "4750", "AD500", "12 345"];
        for w in written {
            let steps = w
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_uppercase();
            assert_eq!(spaced_upper(w), steps, "{w:?}");
            for e in shapes {
                let shape = Shape::of(e);
                let of = Shape::of(&steps);
                let by_parts = of.separators == shape.separators && of.len == shape.len;
                assert_eq!(shape.fits(&steps), by_parts, "{w:?} against {e:?}");
            }
        }
    }

    #[test]
    fn keys_without_prefix_or_separators() {
        assert_eq!(key("LU", "L-1260"), "1260");
        assert_eq!(key("CH", "CH-3011"), "3011");
        assert_eq!(key("DE", "D-45127"), "45127");
        assert_eq!(key("FR", "F 75001"), "75001");
        assert_eq!(key("NL", "6981 ch"), "6981CH");
        assert_eq!(key("NL", "NL-1012 LG"), "1012LG");
        assert_eq!(key("FI", "FIN-00100"), "00100");
        assert_eq!(key("GB", "sw1a 2aa"), "SW1A2AA");
        assert_eq!(key("AD", "500"), "AD500");
        assert_eq!(key("AD", "AD500"), "AD500");
        assert_eq!(display("NL", "6981CH"), "6981 CH");
        assert_eq!(display("PT", "1250096"), "1250-096");
    }
}
