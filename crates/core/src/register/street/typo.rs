//! Typo-tolerant lookup of short keys: the deletion index and the bounded edit distance that
//! measures its candidates.

use std::collections::HashMap;

/// Typo-tolerant lookup of many short keys without scanning them, nor building an automaton per
/// query: every key is filed under itself and its forms with one letter deleted; a query looks up
/// its own forms with one (and, for distance 2, two) letters deleted, and the candidates are
/// measured with `edit_distance`. Catches every key one edit or one swap away, and most two away.
#[derive(Default)]
pub struct DeletionIndex {
    keys: Vec<String>,
    forms: HashMap<String, Vec<u32>>,
    /// Per key: its length in characters and the set of its letters (`letter_set`), so that a
    /// scan measures only the keys that could be near.
    shapes: Vec<(u32, u64)>,
}

/// The letters and digits a word has, one bit each (other characters share bits by their code):
/// an edit adds or removes at most two members, so keys `d` edits apart differ in at most `2d`.
fn letter_set(word: &str) -> u64 {
    word.chars().fold(0u64, |set, c| {
        let bit = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            '0'..='9' => 26 + c as u32 - '0' as u32,
            _ => 36 + c as u32 % 28,
        };
        set | 1 << bit
    })
}

impl DeletionIndex {
    pub fn build<I: IntoIterator<Item = String>>(keys: I, min_len: usize) -> DeletionIndex {
        let keys: Vec<String> = keys.into_iter().collect();
        let mut forms: HashMap<String, Vec<u32>> = HashMap::new();
        for (id, k) in keys.iter().enumerate() {
            if k.chars().count() < min_len {
                continue;
            }
            for v in one_deletions(k) {
                let ids = forms.entry(v).or_default();
                if ids.last() != Some(&(id as u32)) {
                    ids.push(id as u32);
                }
            }
        }
        let shapes = keys
            .iter()
            .map(|k| (k.chars().count() as u32, letter_set(k)))
            .collect();
        DeletionIndex {
            keys,
            forms,
            shapes,
        }
    }

    /// Every key, in the order given to `build`.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    pub fn key(&self, id: u32) -> &str {
        self.keys.get(id as usize).map(String::as_str).unwrap_or("")
    }

    /// Keys within `distance` edits of `query` (swaps count one), with their distance.
    pub fn near(&self, query: &str, distance: u32) -> Vec<(u32, u32)> {
        self.near_probes(&Probes::new(query, distance))
    }

    /// `near` with the query's forms computed beforehand (one query, many indexes).
    pub fn near_probes(&self, probes: &Probes) -> Vec<(u32, u32)> {
        let mut ids: Vec<u32> = probes
            .forms()
            .filter_map(|p| self.forms.get(p))
            .flatten()
            .copied()
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
            .filter_map(|id| {
                edit_distance(self.key(id), &probes.query, probes.distance as usize)
                    .map(|d| (id, d as u32))
            })
            .collect()
    }
}

/// What a `DeletionIndex` is looked up with for one query: the query and its forms with one (and,
/// for distance 2, two) letters deleted, all in one buffer. Built once when many indexes are asked
/// the same thing.
pub struct Probes {
    query: String,
    distance: u32,
    text: String,
    /// End of each form in `text`.
    ends: Vec<usize>,
}

impl Probes {
    pub fn new(query: &str, distance: u32) -> Probes {
        // byte offset of every character, and the end
        let at: Vec<usize> = query
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(query.len()))
            .collect();
        let n = at.len() - 1;
        let mut text = String::with_capacity(query.len() * (1 + n + n * n / 2));
        let mut ends = Vec::with_capacity(1 + n + n * n / 2);
        text.push_str(query);
        ends.push(text.len());
        for i in 0..n {
            text.push_str(&query[..at[i]]);
            text.push_str(&query[at[i + 1]..]);
            ends.push(text.len());
        }
        // two deletions are two positions of the query (i before j): each pair once
        if distance >= 2 {
            for i in 0..n {
                for j in i + 1..n {
                    text.push_str(&query[..at[i]]);
                    text.push_str(&query[at[i + 1]..at[j]]);
                    text.push_str(&query[at[j + 1]..]);
                    ends.push(text.len());
                }
            }
        }
        Probes {
            query: query.to_string(),
            distance,
            text,
            ends,
        }
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    fn forms(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(s, &e)| &self.text[s..e])
    }
}

impl DeletionIndex {
    /// Keys within `distance` edits of `query` by a scan of every key of a similar length: for
    /// the rarer two-edit lookups the one-deletion forms cannot reach (two substitutions).
    pub fn scan(&self, query: &str, distance: u32) -> Vec<(u32, u32)> {
        let len = query.chars().count() as u32;
        let set = letter_set(query);
        let d = distance as usize;
        self.shapes
            .iter()
            .enumerate()
            .filter(|(_, (l, s))| {
                l.abs_diff(len) <= distance && (s ^ set).count_ones() <= 2 * distance
            })
            .filter_map(|(id, _)| {
                edit_distance(&self.keys[id], query, d).map(|e| (id as u32, e as u32))
            })
            .collect()
    }
}

/// The word and every form of it with one letter deleted.
fn one_deletions(word: &str) -> Vec<String> {
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::with_capacity(chars.len() + 1);
    out.push(word.to_string());
    for i in 0..chars.len() {
        let mut v: String = chars[..i].iter().collect();
        v.extend(&chars[i + 1..]);
        out.push(v);
    }
    out
}

/// Bounded edit distance counting a swap of two neighbouring letters as one edit (optimal string
/// alignment), None when above `max`. Called for every candidate of a typo lookup: ASCII names
/// (nearly all) are compared as bytes, without allocating.
pub fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    if a.is_ascii() && b.is_ascii() {
        return osa(a.as_bytes(), b.as_bytes(), max);
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    osa(&a, &b, max)
}

/// Rows of the distance table kept on the stack up to this width (street names are shorter).
const STACK_ROW: usize = 64;

fn osa<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let w = b.len() + 1;
    if w <= STACK_ROW {
        osa_rows(a, b, max, &mut [0u32; 3 * STACK_ROW])
    } else {
        osa_rows(a, b, max, &mut vec![0u32; 3 * w])
    }
}

/// The last three rows of the table in `rows` (three of `b.len() + 1` cells, in rotation).
fn osa_rows<T: PartialEq>(a: &[T], b: &[T], max: usize, rows: &mut [u32]) -> Option<usize> {
    let w = b.len() + 1;
    for (j, cell) in rows[..w].iter_mut().enumerate() {
        *cell = j as u32;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = ((i % 3) * w, ((i + 2) % 3) * w, ((i + 1) % 3) * w);
        rows[cur] = i as u32;
        let mut row_min = i as u32;
        for j in 1..=b.len() {
            let cost = u32::from(a[i - 1] != b[j - 1]);
            let mut v = (rows[prev + j] + 1)
                .min(rows[cur + j - 1] + 1)
                .min(rows[prev + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows[prev2 + j - 2] + 1);
            }
            rows[cur + j] = v;
            row_min = row_min.min(v);
        }
        if row_min as usize > max {
            return None;
        }
    }
    let d = rows[(a.len() % 3) * w + b.len()] as usize;
    (d <= max).then_some(d)
}
