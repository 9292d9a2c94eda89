//! A postcode against its country's pattern (libaddressinput `zip`), written in the canonical
//! form of the country's examples (`zipex`): `sw1a2aa` → `SW1A 2AA`, `1540023` → `154-0023`,
//! `L-1234` → `1234`.

use regex::Regex;

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

    /// The written form has this shape's separators where this shape has them.
    fn fits(&self, written: &str) -> bool {
        let w = Shape::of(written);
        w.separators == self.separators && w.len == self.len
    }

    /// The compact code with the separators at the same places from the start (same length)
    /// or from the end (`M25BQ` → `M2 5BQ` after `EC1Y 8SY`).
    fn apply(&self, compact: &[char], from_end: bool) -> Option<String> {
        if self.separators.is_empty() {
            return None;
        }
        if !from_end && compact.len() != self.len {
            return None;
        }
        let mut out = String::with_capacity(compact.len() + self.separators.len());
        for (i, c) in compact.iter().enumerate() {
            for &(at, sep) in &self.separators {
                let at = if from_end {
                    (compact.len() + at).checked_sub(self.len)?
                } else {
                    at
                };
                if at == i && i > 0 {
                    out.push(sep);
                }
            }
            out.push(*c);
        }
        Some(out)
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
        let up: String = written
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_uppercase();
        if up.is_empty() {
            return Postcode::Empty;
        }
        // a form that fits as written stays (`EC090112`); then a country prefix is stripped
        // (`EC-090105` → `090105`, `L-1234` → `1234`) before the separators are put right
        if self.pattern.is_match(&up) && self.shapes.iter().any(|s| s.fits(&up)) {
            return Postcode::Valid(up);
        }
        let mut bodies = Vec::new();
        for p in &self.prefixes {
            if let Some(rest) = up.strip_prefix(p.as_str()) {
                let rest = rest.trim_start_matches(['-', ' ', '–']);
                if !rest.is_empty() && rest.len() < up.len() {
                    bodies.push(rest.to_string());
                }
            }
        }
        bodies.push(up);
        for body in &bodies {
            if let Some(c) = self.canonical(body) {
                return Postcode::Valid(c);
            }
        }
        Postcode::Invalid
    }

    fn canonical(&self, body: &str) -> Option<String> {
        let compact: Vec<char> = body.chars().filter(|c| c.is_alphanumeric()).collect();
        if compact.is_empty() {
            return None;
        }
        // the examples' form first, then the form as written, then without separators
        for from_end in [false, true] {
            for shape in &self.shapes {
                if let Some(c) = shape.apply(&compact, from_end) {
                    if self.pattern.is_match(&c) {
                        return Some(c);
                    }
                }
            }
        }
        if self.pattern.is_match(body) {
            return Some(body.to_string());
        }
        let compact: String = compact.into_iter().collect();
        self.pattern.is_match(&compact).then_some(compact)
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
}
