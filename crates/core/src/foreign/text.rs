//! Comparison forms of foreign street names, built from libpostal's dictionaries for the
//! country's languages: abbreviations written out (`Str.` → `STRASSE`, `Av.` → `AVENUE`),
//! concatenated suffixes expanded (`Hauptstr.` → `HAUPTSTRASSE`), street types and stop words
//! set apart so that a name written without its type still meets the register's.
//! The register and what people type go through the same functions.

use std::collections::{HashMap, HashSet};
use std::path::Path;

pub use crate::address::street_choice::NameKey;
use crate::normalize::fold;

/// Word lists of libpostal whose entries are spellings of one canonical word.
const EXPANDED: &[&str] = &[
    "street_types",
    "concatenated_suffixes_separable",
    "directionals",
    "personal_titles",
    "qualifiers",
    "toponyms",
    "place_names",
];

/// Word lists that open a sub-address (floor, flat, staircase, entrance).
const SUB_ADDRESS: &[&str] = &[
    "level_types_numbered",
    "level_types_standalone",
    "level_types_basement",
    "level_types_mezzanine",
    "unit_types_numbered",
    "staircases",
    "entrances",
];

#[derive(Debug, Default, Clone)]
pub struct Expander {
    /// folded spelling → canonical folded word(s)
    words: HashMap<String, String>,
    /// folded abbreviated suffix → canonical suffix, longest first (`STR` → `STRASSE`)
    suffixes: Vec<(String, String)>,
    /// one-letter abbreviations, used only when written with their dot (`R.` → `RUE`,
    /// `Bakkev.` → `BAKKEVEJ`)
    dotted_words: HashMap<String, String>,
    dotted_suffixes: Vec<(String, String)>,
    /// canonical suffixes of concatenated names (`STRASSE`, `GASSE`, `VEJ`), longest first
    type_suffixes: Vec<String>,
    /// canonical street-type words (kept in the key, left out of the core)
    types: HashSet<String>,
    stop: HashSet<String>,
    /// first words of a sub-address (`ETAGE`, `APP`, `WHG`, `TH`…)
    pub sub_address: HashSet<String>,
    /// canonical types one abbreviation stands for alike (`vn.` is `veien` and `vegen`), each
    /// mapped to the first: `Tyrihansvn.` cannot tell which, so neither side keeps the difference
    same_type: Vec<(String, String)>,
}

fn read_list(dir: &Path, lang: &str, name: &str) -> Vec<Vec<String>> {
    let path = dir.join(lang).join(format!("{name}.txt"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('|').map(fold).filter(|w| !w.is_empty()).collect())
        .collect()
}

impl Expander {
    /// Reads `<dir>/<lang>/*.txt` for each language, the first language winning a conflict.
    pub fn load(dir: &Path, languages: &[&str]) -> Expander {
        let mut e = Expander::default();
        for lang in languages {
            let first_suffix = e.suffixes.len();
            for list in EXPANDED {
                for entry in read_list(dir, lang, list) {
                    let Some(canonical) = entry.first().cloned() else {
                        continue;
                    };
                    // languages that write the type into the name (`Tyrihansveien`, `Bakkevej`)
                    if *list == "street_types"
                        && matches!(*lang, "de" | "da" | "nb" | "sv" | "nl" | "gsw")
                        && !canonical.contains(' ')
                    {
                        for spelling in entry.iter().filter(|w| w.len() >= 2 && **w != canonical) {
                            e.suffixes.push((spelling.clone(), canonical.clone()));
                        }
                    }
                    if *list == "street_types" || *list == "concatenated_suffixes_separable" {
                        for w in canonical.split(' ') {
                            e.types.insert(w.to_string());
                        }
                    }
                    for spelling in &entry {
                        // one-letter abbreviations (`a` for allee) would rewrite real names:
                        // only with their dot
                        if spelling.len() < 2 && *list == "street_types" {
                            e.dotted_words
                                .entry(spelling.clone())
                                .or_insert_with(|| canonical.clone());
                        }
                        if spelling.len() < 2 || spelling == &canonical {
                            continue;
                        }
                        e.words
                            .entry(spelling.clone())
                            .or_insert_with(|| canonical.clone());
                    }
                }
            }
            for list in [
                "concatenated_suffixes_separable",
                "concatenated_suffixes_inseparable",
            ] {
                for entry in read_list(dir, lang, list) {
                    let Some(canonical) = entry.first().cloned() else {
                        continue;
                    };
                    if canonical.contains(' ') {
                        continue;
                    }
                    if list == "concatenated_suffixes_separable" && canonical.len() >= 3 {
                        e.type_suffixes.push(canonical.clone());
                    }
                    for spelling in &entry {
                        if spelling.len() >= 2 && spelling != &canonical && !spelling.contains(' ')
                        {
                            e.suffixes.push((spelling.clone(), canonical.clone()));
                        } else if spelling.len() == 1 {
                            e.dotted_suffixes
                                .push((spelling.clone(), canonical.clone()));
                        }
                    }
                }
            }
            // an abbreviation of this language read as two canonical types: one class
            let mut by_spelling: HashMap<&str, &str> = HashMap::new();
            for (abbr, canonical) in &e.suffixes[first_suffix..] {
                match by_spelling.get(abbr.as_str()) {
                    Some(&first) if first != canonical => {
                        if !e.same_type.iter().any(|(a, _)| a == canonical) && first.len() >= 3 {
                            e.same_type.push((canonical.clone(), first.to_string()));
                        }
                    }
                    Some(_) => {}
                    None => {
                        by_spelling.insert(abbr, canonical);
                    }
                }
            }
            for entry in read_list(dir, lang, "stopwords") {
                e.stop.extend(entry);
            }
            for list in SUB_ADDRESS {
                for entry in read_list(dir, lang, list) {
                    for w in entry {
                        if !w.contains(' ') {
                            e.sub_address.insert(w);
                        }
                    }
                }
            }
        }
        // a canonical word is never rewritten into another one
        let canon: HashSet<String> = e.words.values().cloned().collect();
        e.words.retain(|k, _| !canon.contains(k));
        e.suffixes.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
        e.suffixes.dedup_by(|a, b| a.0 == b.0);
        e.type_suffixes.sort_by_key(|s| std::cmp::Reverse(s.len()));
        e.type_suffixes.dedup();
        e.same_type.retain(|(a, b)| a != b);
        e.same_type.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
        e
    }

    /// A type (or a name ending in one) written as the first of its class.
    fn one_of_class(&self, t: String) -> String {
        for (alias, first) in &self.same_type {
            if t == *alias {
                return first.clone();
            }
            if t.len() >= alias.len() + 3 && t.ends_with(alias.as_str()) {
                return format!("{}{first}", &t[..t.len() - alias.len()]);
            }
        }
        t
    }

    fn expand_token(&self, t: &str, dotted: bool, out: &mut Vec<String>) {
        let at = out.len();
        self.expand_word(t, dotted, out);
        if !self.same_type.is_empty() {
            for w in &mut out[at..] {
                *w = self.one_of_class(std::mem::take(w));
            }
        }
    }

    fn expand_word(&self, t: &str, dotted: bool, out: &mut Vec<String>) {
        if dotted {
            if let Some(c) = self.dotted_words.get(t) {
                out.extend(c.split(' ').map(str::to_string));
                return;
            }
            for (abbr, canonical) in &self.dotted_suffixes {
                if t.len() >= abbr.len() + 3 && t.ends_with(abbr.as_str()) {
                    out.push(format!("{}{}", &t[..t.len() - abbr.len()], canonical));
                    return;
                }
            }
        }
        if let Some(c) = self.words.get(t) {
            out.extend(c.split(' ').map(str::to_string));
            return;
        }
        for (abbr, canonical) in &self.suffixes {
            if t.len() >= abbr.len() + 3 && t.ends_with(abbr.as_str()) {
                out.push(format!("{}{}", &t[..t.len() - abbr.len()], canonical));
                return;
            }
        }
        out.push(t.to_string());
    }

    /// Folded tokens with abbreviations written out.
    pub fn tokens(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for raw in text.split_whitespace() {
            let folded = fold(raw);
            let words: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
            for (i, t) in words.iter().enumerate() {
                // `R.`, `Bakkev.`: the dot says it is an abbreviation
                let dotted = i + 1 == words.len() && raw.ends_with('.');
                self.expand_token(t, dotted, &mut out);
            }
        }
        out
    }

    pub fn is_type(&self, token: &str) -> bool {
        self.types.contains(token)
    }

    pub fn name_key(&self, text: &str) -> NameKey {
        let tokens = self.tokens(text);
        let mut core: Vec<&str> = Vec::new();
        let mut types: Vec<&str> = Vec::new();
        for t in &tokens {
            if self.types.contains(t.as_str()) {
                types.push(t);
            } else if !self.stop.contains(t.as_str()) {
                core.push(t);
            }
        }
        // a name that is only a type or only particles keeps them as its core
        if core.is_empty() {
            core = tokens.iter().map(String::as_str).collect();
        }
        let mut sorted = core.clone();
        sorted.sort_unstable();
        // `Cité Au Bois` written `Cité Bois Au` keeps its types: compared as a set
        types.sort_unstable();
        let compact = core.concat();
        let stem = self
            .type_suffixes
            .iter()
            .find(|s| compact.len() >= s.len() + 3 && compact.ends_with(s.as_str()))
            .map(|s| compact[..compact.len() - s.len()].to_string())
            .unwrap_or_else(|| compact.clone());
        NameKey {
            key: tokens.join(" "),
            core: core.join(" "),
            sorted: sorted.join(" "),
            sorted_compact: sorted.concat(),
            tokens: core.iter().map(|t| t.to_string()).collect(),
            stem,
            compact,
            types: types.join(" "),
            written: String::new(),
        }
    }
}
