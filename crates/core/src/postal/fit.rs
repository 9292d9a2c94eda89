//! Which countries a written postcode may be: each country's postcode lengths, the groups of
//! countries that judge a postcode alike, and the grouped judgement detection asks of every run
//! of words (moved out of `postal/mod.rs` as they were, to keep that file under 800 lines).

use super::*;

/// The lengths a country's postcodes can have: what the pattern matches (fewest and most
/// characters), the longest country prefix a written form may carry (`CH-`) and the most
/// separators the examples put in. Detection and the line reader ask every country whether a
/// run of words is its postcode; these bounds answer "no" for most of them without the pattern.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PostcodeLengths {
    pub(crate) min: usize,
    pub(crate) max: Option<usize>,
    pub(crate) prefix: usize,
    pub(crate) separators: usize,
}

impl PostcodeLengths {
    pub(crate) fn of(rule: &PostcodeRule, zipex: &[String]) -> Option<PostcodeLengths> {
        // read as ASCII (`\d` one byte): only ASCII forms are bounded (`postcode_may_fit`), and
        // on ASCII text the pattern matches what its ASCII reading does
        let hir = regex_syntax::ParserBuilder::new()
            .unicode(false)
            .build()
            .parse(rule.pattern.as_str())
            .ok()?;
        let props = hir.properties();
        let alnum = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).count();
        Some(PostcodeLengths {
            min: props.minimum_len()?,
            max: props.maximum_len(),
            prefix: rule.prefixes.iter().map(|p| alnum(p)).max().unwrap_or(0),
            separators: zipex
                .iter()
                .map(|e| e.chars().count() - alnum(e))
                .max()
                .unwrap_or(0),
        })
    }
}

/// Countries whose postcodes have the same pattern and example shapes.
pub(crate) struct PostcodeGroup {
    pub(crate) codes: Vec<String>,
    /// The lengths the pattern takes, without a country prefix.
    pub(crate) lengths: Option<PostcodeLengths>,
    /// The characters beyond ASCII the pattern can match (`\d` takes every script's digits);
    /// None when the pattern could not be read.
    pub(crate) beyond_ascii: Option<Vec<(char, char)>>,
    /// The ASCII characters the pattern can match anywhere, one bit each (`ascii_alphabet`);
    /// None when the pattern could not be read.
    pub(crate) ascii: Option<u128>,
    /// The pattern with its separators left out (`alnum_projection`); None when it could not
    /// be read.
    pub(crate) projection: Option<Regex>,
}

impl PostcodeGroup {
    /// The group of `codes` (countries with one pattern and the same example shapes).
    pub(crate) fn of(
        mut codes: Vec<String>,
        countries: &rustc_hash::FxHashMap<String, CountryFormat>,
    ) -> PostcodeGroup {
        codes.sort();
        let first = &countries[&codes[0]];
        let lengths = first
            .postcode_lengths
            .map(|b| PostcodeLengths { prefix: 0, ..b });
        let pattern = first.postcode.as_ref().map(|r| r.pattern.as_str());
        PostcodeGroup {
            codes,
            lengths,
            beyond_ascii: pattern.and_then(beyond_ascii),
            ascii: pattern.and_then(ascii_alphabet),
            projection: pattern.and_then(alnum_projection),
        }
    }
}

/// The ASCII characters a pattern can match anywhere, one bit each: every form a postcode
/// judgement tries keeps all the letters and digits of what was written (only separators move,
/// and without a country prefix nothing is stripped), so a written letter the pattern has nowhere
/// (`Berlin` against `\d{5}`) rules the pattern out before any form is built.
pub(crate) fn ascii_alphabet(pattern: &str) -> Option<u128> {
    use regex_syntax::hir::{Class, Hir, HirKind};
    fn range(out: &mut u128, a: u32, b: u32) {
        for c in a..=b.min(127) {
            *out |= 1u128 << c;
        }
    }
    fn walk(h: &Hir, out: &mut u128) {
        match h.kind() {
            HirKind::Literal(l) => {
                for &b in l.0.iter().filter(|b| b.is_ascii()) {
                    *out |= 1u128 << b;
                }
            }
            HirKind::Class(Class::Unicode(c)) => {
                for r in c.ranges() {
                    range(out, r.start() as u32, r.end() as u32);
                }
            }
            HirKind::Class(Class::Bytes(c)) => {
                for r in c.ranges() {
                    range(out, r.start() as u32, r.end() as u32);
                }
            }
            HirKind::Repetition(r) => walk(&r.sub, out),
            HirKind::Capture(c) => walk(&c.sub, out),
            HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().for_each(|s| walk(s, out)),
            HirKind::Empty | HirKind::Look(_) => {}
        }
    }
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut out = 0;
    walk(&hir, &mut out);
    Some(out)
}

/// The pattern as it reads a postcode's letters and digits alone: every character that is not a
/// letter or digit dropped from its literals, every class that may match one made optional,
/// assertions other than the text's start and end taken as true. Whatever the pattern matches,
/// its letters and digits match this one; and every form a judgement tries without a country
/// prefix (as written, the examples' separators put in, the compact code) has the same letters
/// and digits as the written form. So a written form whose letters and digits this rejects is
/// no postcode of the pattern, found with one match where the judgement tries up to four
/// (`PostcodeRule::canonical`: the shapes from the start and from the end, as written, compact).
pub(crate) fn alnum_projection(pattern: &str) -> Option<Regex> {
    use regex_syntax::hir::{Capture, Class, Hir, HirKind, Look, Repetition};
    // a repeated part in a group of its own: the HIR's printer writes `(?:\d{2})?` as
    // `\d{2}?` (a lazy `{2}`, two digits always) and `(?:ab)+` as `ab+`
    fn repeated(min: u32, max: Option<u32>, greedy: bool, sub: Hir) -> Hir {
        let sub = Box::new(Hir::capture(Capture {
            index: 1,
            name: None,
            sub: Box::new(sub),
        }));
        Hir::repetition(Repetition {
            min,
            max,
            greedy,
            sub,
        })
    }
    // every character of the ranges is a letter or digit (a range too long to check is not)
    fn alnum_only(ranges: impl Iterator<Item = (u32, u32)>) -> bool {
        let mut checked = 0u32;
        for (a, b) in ranges {
            checked += b - a + 1;
            if checked > 1 << 16 {
                return false;
            }
            if !(a..=b).all(|c| char::from_u32(c).is_some_and(char::is_alphanumeric)) {
                return false;
            }
        }
        true
    }
    fn walk(h: &Hir) -> Hir {
        match h.kind() {
            HirKind::Empty => Hir::empty(),
            HirKind::Literal(l) => {
                let kept: String = String::from_utf8_lossy(&l.0)
                    .chars()
                    .filter(|c| c.is_alphanumeric())
                    .collect();
                Hir::literal(kept.into_bytes())
            }
            HirKind::Class(c) => {
                let alnum = match c {
                    Class::Unicode(u) => alnum_only(
                        u.ranges()
                            .iter()
                            .map(|r| (r.start() as u32, r.end() as u32)),
                    ),
                    Class::Bytes(b) => {
                        b.ranges().iter().all(|r| r.end() < 0x80)
                            && alnum_only(
                                b.ranges()
                                    .iter()
                                    .map(|r| (r.start() as u32, r.end() as u32)),
                            )
                    }
                };
                let class = Hir::class(c.clone());
                if alnum {
                    class
                } else {
                    repeated(0, Some(1), true, class)
                }
            }
            HirKind::Look(l) => match l {
                Look::Start | Look::End => Hir::look(*l),
                _ => Hir::empty(),
            },
            HirKind::Repetition(r) => repeated(r.min, r.max, r.greedy, walk(&r.sub)),
            HirKind::Capture(c) => walk(&c.sub),
            HirKind::Concat(v) => Hir::concat(v.iter().map(walk).collect()),
            HirKind::Alternation(v) => Hir::alternation(v.iter().map(walk).collect()),
        }
    }
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    Regex::new(&walk(&hir).to_string()).ok()
}

/// The ASCII letters and digits of a written form, one bit each (against `ascii_alphabet`).
pub(crate) fn ascii_alnum(written: &str) -> u128 {
    written
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .fold(0, |set, b| set | 1u128 << b)
}

/// The ranges of characters beyond ASCII that a pattern can match anywhere.
pub(crate) fn beyond_ascii(pattern: &str) -> Option<Vec<(char, char)>> {
    use regex_syntax::hir::{Class, Hir, HirKind};
    fn walk(h: &Hir, out: &mut Vec<(char, char)>) {
        match h.kind() {
            HirKind::Literal(l) => {
                for c in String::from_utf8_lossy(&l.0)
                    .chars()
                    .filter(|c| !c.is_ascii())
                {
                    out.push((c, c));
                }
            }
            HirKind::Class(Class::Unicode(c)) => out.extend(
                c.ranges()
                    .iter()
                    .filter(|r| !r.end().is_ascii())
                    .map(|r| (r.start().max('\u{80}'), r.end())),
            ),
            // a class of bytes beyond ASCII: any character
            HirKind::Class(Class::Bytes(c)) => {
                if c.ranges().iter().any(|r| r.end() > 0x7f) {
                    out.push(('\u{80}', char::MAX));
                }
            }
            HirKind::Repetition(r) => walk(&r.sub, out),
            HirKind::Capture(c) => walk(&c.sub, out),
            HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().for_each(|s| walk(s, out)),
            HirKind::Empty | HirKind::Look(_) => {}
        }
    }
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut out = Vec::new();
    walk(&hir, &mut out);
    Some(out)
}

/// A written postcode's characters counted for `postcode_may_fit`: letters and digits, the
/// others, and whether it is ASCII.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WrittenCounts {
    pub(crate) alnum: usize,
    pub(crate) others: usize,
    pub(crate) ascii: bool,
}

impl WrittenCounts {
    pub(crate) fn of(written: &str) -> WrittenCounts {
        let alnum = written.chars().filter(|c| c.is_alphanumeric()).count();
        WrittenCounts {
            alnum,
            others: written.chars().count() - alnum,
            ascii: written.is_ascii(),
        }
    }

    /// `postcode_may_fit` against a pattern's lengths (None: no bound known).
    pub(crate) fn fit(self, lengths: Option<PostcodeLengths>) -> bool {
        let Some(b) = lengths else {
            return true;
        };
        if !self.ascii {
            return true;
        }
        self.alnum + self.others.max(b.separators) >= b.min
            && b.max
                .is_none_or(|max| self.alnum.saturating_sub(b.prefix) <= max)
    }
}

/// A written postcode judged by the countries that may take it, each only when asked (`fits`):
/// detection asks first the few countries a place beside the postcode names, and every
/// country only when the postcode has letters (`postcode_and_place`'s "one country writes it
/// so"). Countries one of whose prefixes (`D-`, `L`, `CH `) begins the written form are judged
/// each on its own; for the others nothing is stripped, so a group (same pattern, same example
/// shapes) judges them alike, once, and not at all when the written form is longer or shorter
/// than the pattern takes, or has a letter or digit the pattern has nowhere.
pub(crate) struct PostcodeJudgement<'f> {
    formats: &'f Formats,
    written: String,
    /// The form `PostcodeRule::judge` strips prefixes from.
    up: String,
    counts: WrittenCounts,
    /// The countries one of whose prefixes begins the written form, and their groups.
    prefixed: Vec<&'f str>,
    prefixed_groups: Vec<usize>,
    /// The written form's ASCII letters and digits, one bit each (`ascii_alnum`), its letters
    /// and digits beyond ASCII, and all its letters and digits in order: made once for every
    /// group asked.
    letters: u128,
    beyond: Vec<char>,
    compact: String,
    /// Per group: whether the pattern may take the form at all (the filters), once asked.
    may_fit: Vec<Option<bool>>,
    /// Per group: the judgement of its countries without a prefix, once made.
    alike: Vec<Option<bool>>,
    /// The judgements of the prefixed countries, once made.
    own: Vec<(&'f str, bool)>,
}

impl<'f> PostcodeJudgement<'f> {
    pub(crate) fn new(formats: &'f Formats, written: &str) -> PostcodeJudgement<'f> {
        let up = postcode::spaced_upper(written);
        // each beginning of the written form looked up in the sorted prefixes
        let mut prefixed: Vec<&str> = Vec::new();
        for (end, _) in up.char_indices().skip(1).chain([(up.len(), ' ')]) {
            if end > formats.postcode_prefix_len {
                break;
            }
            let head = &up[..end];
            let from = formats
                .postcode_prefixes
                .partition_point(|(p, _)| p.as_str() < head);
            prefixed.extend(
                formats.postcode_prefixes[from..]
                    .iter()
                    .take_while(|(p, _)| p == head)
                    .map(|(_, code)| code.as_str()),
            );
        }
        let groups = formats.postcode_groups.len();
        let prefixed_groups = prefixed
            .iter()
            .filter_map(|c| formats.postcode_group_of.get(*c).copied())
            .collect();
        PostcodeJudgement {
            formats,
            written: written.to_string(),
            counts: WrittenCounts::of(written),
            letters: ascii_alnum(&up),
            beyond: up
                .chars()
                .filter(|c| !c.is_ascii() && c.is_alphanumeric())
                .collect(),
            compact: up.chars().filter(|c| c.is_alphanumeric()).collect(),
            up,
            prefixed,
            prefixed_groups,
            may_fit: vec![None; groups],
            alike: vec![None; groups],
            own: Vec::new(),
        }
    }

    /// The postcode as written.
    pub(crate) fn written(&self) -> &str {
        &self.written
    }

    /// Whether any country may take the written form, by the filters that need no pattern
    /// (lengths, letters): False means no country's postcode is the written form.
    pub(crate) fn may_take_any(&self) -> bool {
        if !self.prefixed.is_empty() {
            return true;
        }
        let ascii = self.beyond.is_empty();
        self.formats.postcode_groups.iter().any(|g| {
            self.counts.fit(g.lengths)
                && g.ascii.is_none_or(|a| self.letters & !a == 0)
                && (ascii || g.beyond_ascii.as_ref().is_none_or(|r| !r.is_empty()))
        })
    }

    /// Whether group `g`'s pattern may take the written form without a prefix: its length, its
    /// ASCII letters and digits, its letters and digits beyond ASCII (`\d` takes every
    /// script's digits: `8001 Zürich` is no postcode of `\d{4}`), then the pattern with its
    /// separators left out (`alnum_projection`) on the letters and digits every form of the
    /// judgement keeps.
    pub(crate) fn may_fit(&mut self, g: usize) -> bool {
        if let Some(m) = self.may_fit[g] {
            return m;
        }
        let group = &self.formats.postcode_groups[g];
        let m = self.counts.fit(group.lengths)
            && group.ascii.is_none_or(|a| self.letters & !a == 0)
            && self.beyond.iter().all(|c| {
                group
                    .beyond_ascii
                    .as_ref()
                    .is_none_or(|ranges| ranges.iter().any(|&(a, b)| (a..=b).contains(c)))
            })
            && group
                .projection
                .as_ref()
                .is_none_or(|p| p.is_match(&self.compact));
        self.may_fit[g] = Some(m);
        m
    }

    /// Whether one of the prefixes of a country of group `g` begins the written form (that
    /// country is judged on its own).
    pub(crate) fn group_prefixed(&self, g: usize) -> bool {
        self.prefixed_groups.contains(&g)
    }

    /// `CountryFormat::postcode_in` of one country, with the counts and the upper-case form
    /// made once.
    fn judge(&self, format: &CountryFormat) -> bool {
        self.counts.fit(format.postcode_lengths)
            && format.postcode_in_spaced(&self.written, &self.up).is_some()
    }

    /// Whether `code`'s postcode is the written form (`CountryFormat::postcode_in`).
    pub(crate) fn fits(&mut self, code: &str) -> bool {
        let Some(format) = self.formats.countries.get(code) else {
            return false;
        };
        let Some(&g) = self.formats.postcode_group_of.get(code) else {
            return false;
        };
        if self.prefixed.contains(&code) {
            if let Some(&(_, is)) = self.own.iter().find(|(c, _)| *c == code) {
                return is;
            }
            let is = self.judge(format);
            self.own.push((format.code.as_str(), is));
            return is;
        }
        if !self.may_fit(g) {
            return false;
        }
        if let Some(is) = self.alike[g] {
            return is;
        }
        // the group judged by its first country without a prefix here, as asking every country
        // in order would
        let formats = self.formats;
        let first = formats.postcode_groups[g]
            .codes
            .iter()
            .find(|c| !self.prefixed.contains(&c.as_str()))
            .and_then(|c| formats.countries.get(c))
            .unwrap_or(format);
        let is = self.judge(first);
        self.alike[g] = Some(is);
        is
    }

    /// Every group, with its countries (`postcode_countries` reads them in this order).
    pub(crate) fn groups(&self) -> impl Iterator<Item = (usize, &'f [String])> + 'f {
        self.formats
            .postcode_groups
            .iter()
            .enumerate()
            .map(|(i, g)| (i, g.codes.as_slice()))
    }
}

#[cfg(test)]
impl Formats {
    /// Every country whose postcode `written` is (`CountryFormat::postcode_in`):
    /// `PostcodeJudgement` asked of every country, group by group; and whether its cheap gate
    /// (`may_take_any`) let the written form through.
    pub(crate) fn postcode_countries(&self, written: &str) -> (Vec<&CountryFormat>, bool) {
        let mut judgement = PostcodeJudgement::new(self, written);
        let gate = judgement.may_take_any();
        let mut out = Vec::new();
        for (_, codes) in judgement.groups() {
            for code in codes {
                if judgement.fits(code) {
                    out.extend(self.countries.get(code));
                }
            }
        }
        (out, gate)
    }
}
