//! OpenCage's address templates: a Mustache subset (`{{{road}}}`, `{{#first}} a || b {{/first}}`)
//! with the country's replacement rules before and after, and the same clean-up of empty parts,
//! doubled commas and repeated lines as OpenCage's own formatters.

use regex::Regex;

/// A `replace` / `postformat_replace` rule, compiled: `component=pattern` applies to one component.
pub struct Rule {
    component: Option<String>,
    pattern: Regex,
    to: String,
}

impl Rule {
    pub fn compile(from: &str, to: &str) -> Option<Rule> {
        let (component, pattern) = match from.split_once('=') {
            Some((c, p))
                if !c.is_empty() && c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_') =>
            {
                (Some(c.to_string()), p)
            }
            _ => (None, from),
        };
        Some(Rule {
            component,
            pattern: Regex::new(pattern).ok()?,
            // Perl's `$1` is Rust's `${1}`: a following letter would be read as part of the name
            to: Regex::new(r"\$(\d)")
                .ok()?
                .replace_all(to, "$${$1}")
                .into_owned(),
        })
    }
}

/// A record's address components by name. Fx hashing: the keys are the formats' component names
/// (the contact flow fills them; only the OpenCage evaluation passes its own), looked up dozens of
/// times a render (every alias of every component), and nothing depends on the map's order.
pub type Components = rustc_hash::FxHashMap<String, String>;

/// Rules on the components, before rendering (OpenCage `replace`).
pub fn replace_components(components: &mut Components, rules: &[Rule]) {
    for (key, value) in components.iter_mut() {
        for r in rules {
            match &r.component {
                Some(c) if c != key => {}
                _ => {
                    // `is_match` first: most rules match nothing, and it is cheaper than the
                    // search for captures `replace` makes
                    if r.pattern.is_match(value) {
                        *value = r.pattern.replace(value, r.to.as_str()).into_owned();
                    }
                }
            }
        }
    }
}

/// Rules on the rendered text (OpenCage `postformat_replace`).
pub fn replace_text(text: &str, rules: &[Rule]) -> String {
    let mut out = text.to_string();
    for r in rules.iter().filter(|r| r.component.is_none()) {
        // a new string only where a rule matches (`is_match` costs less than the search for
        // captures `replace_all` makes)
        if r.pattern.is_match(&out) {
            out = r.pattern.replace_all(&out, r.to.as_str()).into_owned();
        }
    }
    out
}

/// A template parsed once: text, components, and `{{#first}}` groups of alternatives.
#[derive(Debug, Clone, Default)]
pub struct Parsed(Vec<Piece>);

#[derive(Debug, Clone)]
enum Piece {
    Text(String),
    Component(String),
    First(Vec<Vec<Piece>>),
}

fn parse_plain(text: &str, out: &mut Vec<Piece>) {
    let mut rest = text;
    while let Some(start) = rest.find("{{{") {
        if start > 0 {
            out.push(Piece::Text(rest[..start].to_string()));
        }
        let after = &rest[start + 3..];
        let Some(end) = after.find("}}}") else {
            out.push(Piece::Text(rest[start..].to_string()));
            return;
        };
        out.push(Piece::Component(after[..end].trim().to_string()));
        rest = &after[end + 3..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest.to_string()));
    }
}

impl Parsed {
    pub fn new(template: &str) -> Parsed {
        let mut pieces = Vec::new();
        let mut rest = template;
        while let Some(start) = rest.find("{{#first}}") {
            parse_plain(&rest[..start], &mut pieces);
            let after = &rest[start + "{{#first}}".len()..];
            let end = after.find("{{/first}}").unwrap_or(after.len());
            let alternatives = after[..end]
                .split("||")
                .map(|alt| {
                    let mut p = Vec::new();
                    parse_plain(alt, &mut p);
                    p
                })
                .collect();
            pieces.push(Piece::First(alternatives));
            rest = after.get(end + "{{/first}}".len()..).unwrap_or("");
        }
        parse_plain(rest, &mut pieces);
        Parsed(pieces)
    }

    /// The template with the components in it, then cleaned line by line.
    pub fn render(&self, components: &Components) -> String {
        let mut out = String::with_capacity(256);
        write(&self.0, components, &mut out);
        clean(&out)
    }
}

fn write(pieces: &[Piece], components: &Components, out: &mut String) {
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Component(name) => {
                if let Some(v) = components.get(name) {
                    out.push_str(v);
                }
            }
            Piece::First(alternatives) => {
                // each alternative written in place, trimmed there, taken back when empty: no
                // string of its own per alternative (two renders per foreign record)
                let start = out.len();
                for alt in alternatives {
                    write(alt, components, out);
                    let written = &out[start..];
                    let trimmed = written.trim().len();
                    if trimmed == 0 {
                        out.truncate(start);
                        continue;
                    }
                    let lead = written.len() - written.trim_start().len();
                    out.truncate(start + lead + trimmed);
                    out.drain(start..start + lead);
                    break;
                }
            }
        }
    }
}

/// The template with the components in it, then cleaned line by line.
pub fn render(template: &str, components: &Components) -> String {
    Parsed::new(template).render(components)
}

/// OpenCage's clean-up: stray commas and spaces, empty lines, repeated lines and parts.
/// Runs twice per render, and the postal form renders twice per record: each line is put right
/// in one pass into one buffer (`clean_line`), where replacing until nothing changed built a
/// string per replacement (a twelfth of a foreign record's instructions).
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    let mut kept: Vec<(usize, usize)> = Vec::new();
    let mut buf = String::with_capacity(64);
    for line in text.lines() {
        clean_line(line, &mut buf);
        let l = buf
            .trim_matches(|c: char| c == ',' || c.is_whitespace())
            .trim_end_matches('}')
            .trim_start_matches("- ")
            .trim();
        if l.is_empty() {
            continue;
        }
        // repeated parts within a line (a line of one part, already trimmed, stays), then
        // repeated lines
        let start = if kept.is_empty() { 0 } else { out.len() + 1 };
        let mut line_out = String::with_capacity(l.len());
        if l.as_bytes().windows(2).any(|w| w == b", ") {
            let mut seen: Vec<&str> = Vec::new();
            for part in l.split(", ") {
                let part = part.trim();
                if !seen.contains(&part) || part.eq_ignore_ascii_case("new york") {
                    if !seen.is_empty() {
                        line_out.push_str(", ");
                    }
                    line_out.push_str(part);
                    seen.push(part);
                }
            }
        } else {
            line_out.push_str(l);
        }
        let repeated = kept.iter().any(|&(a, b)| out[a..b] == *line_out);
        if !repeated || line_out.eq_ignore_ascii_case("new york") {
            if !kept.is_empty() {
                out.push('\n');
            }
            out.push_str(&line_out);
            kept.push((start, out.len()));
        }
    }
    out.push('\n');
    out
}

/// One line with tabs as spaces, each run of spaces as one space, and each run of spaces and
/// commas holding a comma as one comma, followed by a space when the run ended in one: what
/// replacing `  ` by ` `, then `, ,` and `,,` by `,` and ` ,` by `,` until nothing changes gives
/// (those replacements only drop spaces before a comma and commas beside a comma, never the
/// space after a run's last comma). Written into `out`, cleared first.
fn clean_line(line: &str, out: &mut String) {
    out.clear();
    let mut run = false;
    let mut comma = false;
    let mut last_space = false;
    for c in line.chars() {
        let c = if c == '\t' { ' ' } else { c };
        if c == ' ' || c == ',' {
            run = true;
            comma |= c == ',';
            last_space = c == ' ';
            continue;
        }
        if run {
            end_run(out, comma, last_space);
            run = false;
            comma = false;
        }
        out.push(c);
    }
    if run {
        end_run(out, comma, last_space);
    }
}

fn end_run(out: &mut String, comma: bool, last_space: bool) {
    if comma {
        out.push(',');
        if last_space {
            out.push(' ');
        }
    } else {
        out.push(' ');
    }
}

impl super::CountryFormat {
    /// Renders components with this country's template and rules (OpenCage's formatter).
    pub fn render(&self, components: &Components) -> String {
        let mut c = components.clone();
        // aliases fill their component; what no template knows is the `attention` line
        // (each component not given takes the first of its aliases given, in components.yaml's
        // order of components)
        let mut fill: Vec<(usize, usize, &String)> = Vec::new();
        for (key, value) in components {
            for &(at, rank) in self.aliases.fills.get(key).map_or(&[][..], Vec::as_slice) {
                match fill.iter_mut().find(|f| f.0 == at) {
                    Some(f) if rank < f.1 => *f = (at, rank, value),
                    Some(_) => {}
                    None => fill.push((at, rank, value)),
                }
            }
        }
        fill.sort_unstable_by_key(|f| f.0);
        for (at, _, value) in fill {
            let canonical = &self.aliases.ordered[at].0;
            if !c.contains_key(canonical) {
                c.insert(canonical.clone(), value.clone());
            }
        }
        if !self.aliases.known.is_empty() && !c.contains_key("attention") {
            let mut unknown: Vec<(&String, &String)> = components
                .iter()
                .filter(|(k, _)| !self.aliases.known.contains(*k))
                .collect();
            unknown.sort();
            if !unknown.is_empty() {
                let text = unknown
                    .iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                c.insert("attention".into(), text);
            }
        }
        // OpenCage drops lists of postcodes and keeps the first of two
        if let Some(pc) = c.get("postcode").cloned() {
            if pc.len() > 20 || pc.contains(';') {
                c.remove("postcode");
            } else if let Some((first, _)) = pc.split_once(',') {
                c.insert("postcode".into(), first.to_string());
            }
        }
        if let Some((k, v)) = self.data.template.add_component.split_once('=') {
            c.entry(k.to_string()).or_insert_with(|| v.to_string());
        }
        if !self.data.template.change_country.is_empty() && c.contains_key("country") {
            let mut name = self.data.template.change_country.clone();
            if let Some(state) = c.get("state") {
                name = name.replace("$state", state);
            }
            c.insert("country".into(), name);
        }
        replace_components(&mut c, &self.replace);
        if !c.contains_key("state_code") {
            if let Some(state) = c.get("state") {
                let code = self
                    .subdivision(state)
                    .map(|s| s.key.clone())
                    .filter(|k| k.len() <= 4 && k.chars().all(|ch| ch.is_ascii_uppercase()))
                    .or_else(|| self.state_code(state).map(str::to_string));
                if let Some(code) = code {
                    c.insert("state_code".into(), code);
                }
            }
        }
        if !c.contains_key("county_code") {
            if let Some(code) = c
                .get("county")
                .and_then(|n| self.county_codes.get(&crate::normalize::fold(n)))
            {
                c.insert("county_code".into(), code.clone());
            }
        }
        let minimal = c.contains_key("road") || c.contains_key("postcode");
        let t = if minimal {
            &self.template
        } else {
            &self.fallback
        };
        let text = t.render(&c);
        let text = replace_text(&text, &self.postformat);
        clean(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clean` as it was written first (replacing until nothing changes): the one-pass form
    /// must give the same text.
    fn clean_by_replacing(text: &str) -> String {
        let mut lines: Vec<String> = Vec::new();
        for line in text.lines() {
            let mut l = line.replace('\t', " ");
            while l.contains("  ") {
                l = l.replace("  ", " ");
            }
            loop {
                let before = l.clone();
                l = l.replace(", ,", ",").replace(",,", ",").replace(" ,", ",");
                if l == before {
                    break;
                }
            }
            let l = l
                .trim_matches(|c: char| c == ',' || c.is_whitespace())
                .trim_end_matches('}')
                .trim_start_matches("- ")
                .trim()
                .to_string();
            if l.is_empty() {
                continue;
            }
            let mut seen: Vec<&str> = Vec::new();
            for part in l.split(", ") {
                let part = part.trim();
                if !seen.contains(&part) || part.eq_ignore_ascii_case("new york") {
                    seen.push(part);
                }
            }
            let l = seen.join(", ");
            if !lines.contains(&l) || l.eq_ignore_ascii_case("new york") {
                lines.push(l);
            }
        }
        let mut s = lines.join("\n");
        s.push('\n');
        s
    }

    #[test]
    fn clean_in_one_pass_is_clean_by_replacing() {
        let written = [
            "",
            "\n",
            "a , , b",
            "a ,, b\n , \nNew York\nNew York, new york",
            "a, ,b",
            "a  ,\t, b,,",
            "- 12 Main Street}}\n- 12 Main Street",
            "x,\u{a0}, y , z,  z",
            "\u{a0}a , b \u{2009}, c\r\n\r\nc",
            ", , ,",
            "Rue de Rivoli 99\n75001  Paris\n\nFRANCE",
        ];
        for w in written {
            assert_eq!(clean(w), clean_by_replacing(w), "{w:?}");
        }
        // every string of up to six of these characters, and longer ones drawn from them
        let alphabet = ['a', 'b', ' ', ',', '\t', '\n', '-', '}', '\u{a0}'];
        let mut texts: Vec<String> = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.chars().count() == texts.last().map_or(0, |l| l.chars().count()))
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        let mut seed: u64 = 7;
        for _ in 0..20_000 {
            let mut t = String::new();
            for _ in 0..24 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                t.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            texts.push(t);
        }
        for t in &texts {
            assert_eq!(clean(t), clean_by_replacing(t), "{t:?}");
        }
    }

    #[test]
    fn first_alternative_and_cleanup() {
        let t = "{{{house_number}}} {{{road}}}\n{{#first}} {{{city}}} || {{{town}}} {{/first}}, {{{state_code}}} {{{postcode}}}\n{{{country}}}\n";
        let mut c = Components::default();
        c.insert("road".into(), "Main Street".into());
        c.insert("house_number".into(), "12".into());
        c.insert("town".into(), "Springfield".into());
        c.insert("postcode".into(), "62701".into());
        assert_eq!(render(t, &c), "12 Main Street\nSpringfield, 62701\n");
    }

    #[test]
    fn rules_with_components_and_backreferences() {
        let r = Rule::compile("state=^(\\w+) County$", "$1").unwrap();
        let mut c = Components::default();
        c.insert("state".into(), "Kent County".into());
        c.insert("city".into(), "Kent County".into());
        replace_components(&mut c, &[r]);
        assert_eq!(c["state"], "Kent");
        assert_eq!(c["city"], "Kent County");
    }
}
