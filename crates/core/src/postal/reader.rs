//! A foreign address as people write it, read into its parts by the country's postal format:
//! street, house number (`street::split_number`, either side), unit, postcode (the country's
//! pattern), city (on the side of the postcode the format puts it: `%Z %C` in `1010 Wien`,
//! `%C %Z` in `London SW1A 2AA`, the line before in `Mountain View, CA 94043`), region (a
//! subdivision libaddressinput lists) — from one line, or from fields in any mix. A field the
//! caller filled is kept; only what is missing is read off the other fields.

use serde::{Deserialize, Serialize};

use super::{CountryFormat, Formats, Postcode};
use crate::normalize::fold;

/// The parts of one address.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AddressParts"))]
pub struct Parts {
    /// The street with its number, as the country writes it (number moved by the template later).
    pub street: String,
    pub number: String,
    /// Street and number as written (the segment they were read from).
    pub street_written: String,
    /// What is left of the line once the place was read off it, as written (`Ridehusgade 49, 2. th`).
    pub line: String,
    /// Flat, floor, building: what is neither street nor place.
    pub unit: String,
    /// As written (the postal form canonicalises it).
    pub postcode: String,
    pub city: String,
    pub region: String,
    /// The postcode was read off the line or the city field.
    pub postcode_read: bool,
    /// The city was read off the line.
    pub city_read: bool,
    /// The region was read off the line or the city field.
    pub region_read: bool,
}

/// An address to read (`readAddress`): the country, and the fields as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(rename = "AddressToRead", optional_fields)
)]
pub struct ReadRequest {
    pub country: String,
    #[serde(default)]
    pub address: Option<String>,
    #[serde(default)]
    pub postcode: Option<String>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub province: Option<String>,
}

/// The parts of an address in its country's format; None when the country has none.
pub fn read_address(register: &crate::register::Register, r: &ReadRequest) -> Option<Parts> {
    let s = |v: &Option<String>| v.as_deref().unwrap_or("").trim().to_string();
    let (address, postcode, city, province) =
        (s(&r.address), s(&r.postcode), s(&r.city), s(&r.province));
    Some(Formats::of(register).country(&r.country)?.read(Fields {
        address: &address,
        postcode: &postcode,
        city: &city,
        province: &province,
    }))
}

/// The fields as written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fields<'a> {
    pub address: &'a str,
    pub postcode: &'a str,
    pub city: &'a str,
    pub province: &'a str,
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_uppercase)
        .collect()
}

/// Where the format writes the city: after the postcode (`%Z %C`), before it on the same line
/// (`%C %Z`, `%C, %S %Z`), or on the line before (`%C%n%Z`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum CitySide {
    After,
    Before,
}

fn city_side(format: &CountryFormat) -> CitySide {
    let fmt = &format.data.fmt;
    match (fmt.find("%Z"), fmt.find("%C")) {
        (Some(z), Some(c)) if c < z => CitySide::Before,
        (Some(_), Some(_)) => CitySide::After,
        // no format: the European order
        _ => CitySide::After,
    }
}

impl CountryFormat {
    /// The postcode a run of words is, when it fits the country's pattern as written (separators
    /// put right, a country prefix dropped: `D-10117`, `sw1a 2aa`): never a reshaped number.
    pub fn postcode_in(&self, written: &str) -> Option<String> {
        if !self.postcode_may_fit(written) {
            return None;
        }
        self.postcode_in_spaced(written, &super::postcode::spaced_upper(written))
    }

    /// `postcode_in` once `postcode_may_fit` said yes, with `written` already in
    /// `spaced_upper`'s form (`up`): detection forms it once for every country it asks.
    pub(crate) fn postcode_in_spaced(&self, written: &str, up: &str) -> Option<String> {
        let rule = self.postcode.as_ref()?;
        match rule.judge_spaced(up) {
            Postcode::Valid(c) => {
                let (w, c2) = (compact(written), compact(&c));
                // two words only where the canonical form has the space (`SW1A 2AA`, `1012 LG`)
                let spaced_ok = !written.trim().contains(' ') || c.contains(' ');
                (w.ends_with(&c2) && spaced_ok).then_some(c)
            }
            _ => None,
        }
    }

    fn is_country_name(&self, text: &str) -> bool {
        let f = fold(text);
        !f.is_empty() && (self.folded_names.contains(&f) || f == self.code)
    }

    /// The parts of an address written as one line or as fields in any mix.
    pub fn read(&self, f: Fields) -> Parts {
        let mut parts = Parts {
            postcode: tidy(f.postcode),
            region: tidy(f.province),
            ..Parts::default()
        };
        let mut segs: Vec<Vec<String>> = f
            .address
            .split([',', ';', '\n'])
            .map(words)
            .filter(|w| !w.is_empty())
            .collect();
        self.strip_country(&mut segs);
        // a city field that is the country's name (`Luxembourg`, `Monaco`) is the city only when
        // the line names no other place
        let country_as_city = self.is_country_name(f.city).then(|| tidy(f.city));
        let mut city_words = vec![words(f.city)];
        self.strip_country(&mut city_words);
        let mut city_words = city_words.pop().unwrap_or_default();
        if country_as_city.is_some() {
            city_words.clear();
        }
        let mut city = String::new();
        if parts.postcode.is_empty() {
            // `75001 Paris` in the city field, then the last postcode of the line
            if let Some((i, n)) = self.find_postcode(&city_words, false) {
                parts.postcode = city_words[i..i + n].join(" ");
                parts.postcode_read = true;
                let (before, after) = (city_words[..i].to_vec(), city_words[i + n..].to_vec());
                let (before, rb) = self.split_region(before, self.region_before_postcode());
                let (after, ra) = self.split_region(after, self.region_after_postcode());
                self.take_region(&mut parts, rb.or(ra));
                city_words = if after.is_empty() { before } else { after };
            } else if let Some((si, i, n)) = (0..segs.len()).rev().find_map(|si| {
                self.find_postcode(&segs[si], si == 0)
                    .map(|(i, n)| (si, i, n))
            }) {
                let seg = std::mem::take(&mut segs[si]);
                parts.postcode = seg[i..i + n].join(" ");
                parts.postcode_read = true;
                let (before, rb) =
                    self.split_region(seg[..i].to_vec(), self.region_before_postcode());
                let (after, ra) =
                    self.split_region(seg[i + n..].to_vec(), self.region_after_postcode());
                self.take_region(&mut parts, rb.or(ra));
                // the words on the format's side of the postcode are the city; words before it in
                // the first segment are the street (`Unter den Linden 77 10117 Berlin`)
                let mut found = Vec::new();
                if !after.is_empty()
                    && (city_side(self) == CitySide::After || si == 0 || before.is_empty())
                {
                    found = after;
                    segs[si] = before;
                } else if !before.is_empty() && si > 0 {
                    found = before;
                    segs[si] = after;
                } else {
                    segs[si] = before;
                    // the postcode alone (`Mountain View, CA 94043`): the segment before it
                    if si >= 2 && !has_number(&segs[si - 1]) {
                        found = std::mem::take(&mut segs[si - 1]);
                    }
                }
                if city_words.is_empty() && !found.is_empty() {
                    city_words = found;
                    parts.city_read = true;
                }
            }
        }
        if !city_words.is_empty() && parts.region.is_empty() && city_words.len() > 1 {
            let (rest, r) = self.split_region(city_words.clone(), false);
            if r.is_some() {
                self.take_region(&mut parts, r);
                city_words = rest;
            }
        }
        city.push_str(&city_words.join(" "));
        let mut line: Vec<Vec<String>> = segs.into_iter().filter(|s| !s.is_empty()).collect();
        // the city or region repeated at the end of the line, the fields holding them already
        while line.len() >= 2
            && line.last().is_some_and(|l| {
                let f = fold(&l.join(" "));
                f == fold(&city) || (!parts.region.is_empty() && f == fold(&parts.region))
            })
        {
            line.pop();
        }
        // no city yet: a last segment of words is the city (`Graben 1, Wien`), a subdivision
        // after it the region (`…, Springfield, Illinois`)
        // (`Dublin 2`: a place with its district number; never a flat or the street itself)
        let place_like = |seg: &[String], rest: &[Vec<String>]| {
            !is_unit(&seg.join(" "))
                && (!has_number(seg)
                    || (!has_number(&seg[..1]) && rest.iter().any(|s| has_number(s))))
        };
        // (and a place leaves a street before it: `14, Rue de Bonnevoie` is a number and its street)
        let leaves_street = |rest: &[Vec<String>]| rest.iter().any(|s| !is_lone_number(s));
        if city.is_empty()
            && line.len() >= 2
            && place_like(&line[line.len() - 1], &line[..line.len() - 1])
            && leaves_street(&line[..line.len() - 1])
        {
            let last = line.pop().unwrap_or_default();
            let (rest, r) = self.split_region(last.clone(), true);
            if r.is_some() && rest.is_empty() {
                // a lone subdivision is the city unless a place stands before it
                if line.len() >= 2 && !has_number(&line[line.len() - 1]) {
                    self.take_region(&mut parts, Some(last.join(" ")));
                    city = line.pop().unwrap_or_default().join(" ");
                } else {
                    city = last.join(" ");
                }
            } else {
                self.take_region(&mut parts, r);
                city = rest.join(" ");
            }
            parts.city_read = true;
        }
        parts.line = line
            .iter()
            .map(|s| s.join(" "))
            .collect::<Vec<_>>()
            .join(", ");
        // a number alone before the street (`12, rue de la Paix`)
        let mut merged: Vec<String> = Vec::new();
        let mut k = 0;
        while k < line.len() {
            let seg = line[k].join(" ");
            if k + 1 < line.len() && is_lone_number(&line[k]) {
                merged.push(format!("{seg} {}", line[k + 1].join(" ")));
                k += 2;
            } else {
                merged.push(seg);
                k += 1;
            }
        }
        // the street: the first segment with a number at one end, else the first; the rest units
        let street_at = merged
            .iter()
            .position(|s| !is_unit(s) && !super::street::split_number(s).1.is_empty())
            .or_else(|| merged.iter().position(|s| !is_unit(s)))
            .unwrap_or(0);
        if let Some(s) = merged.get(street_at) {
            parts.street_written = s.clone();
            let (street, number) = super::street::split_number(s);
            parts.street = street;
            parts.number = number;
        }
        parts.unit = merged
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != street_at)
            .map(|(_, s)| s.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        if city.is_empty() {
            city = country_as_city.unwrap_or_default();
        }
        parts.city = city;
        parts
    }

    fn take_region(&self, parts: &mut Parts, region: Option<String>) {
        if let Some(r) = region {
            if parts.region.is_empty() {
                parts.region = r;
                parts.region_read = true;
            }
        }
    }

    /// The last run of one or two words of `seg` that is a postcode; never the number that opens
    /// a street (`1600 Amphitheatre Parkway`) in the line's first segment.
    fn find_postcode(&self, seg: &[String], first: bool) -> Option<(usize, usize)> {
        // where the postcode comes before the city (`%Z %C`), digits that end the street's segment
        // right after its name are its house number (`Rue de Bonnevoie 9999`), after a number the
        // postcode (`Unter den Linden 77 10117`)
        let number_after_name = |i: usize, n: usize| {
            first
                && city_side(self) == CitySide::After
                && i > 0
                && i + n == seg.len()
                && seg[i..]
                    .iter()
                    .all(|w| w.chars().all(|c| c.is_ascii_digit()))
                && !seg[i - 1].starts_with(|c: char| c.is_ascii_digit())
        };
        for i in (0..seg.len()).rev() {
            for n in [2, 1] {
                if i + n > seg.len()
                    || (first && i == 0 && seg.len() > n)
                    || number_after_name(i, n)
                {
                    continue;
                }
                if self.postcode_in(&seg[i..i + n].join(" ")).is_some() {
                    return Some((i, n));
                }
            }
        }
        None
    }

    /// A country named at the end of the line or of a field (`…, France`, `Wien Österreich`).
    fn strip_country(&self, segs: &mut Vec<Vec<String>>) {
        while segs.len() > 1
            && segs
                .last()
                .is_some_and(|l| self.is_country_name(&l.join(" ")))
        {
            segs.pop();
        }
        if let Some(last) = segs.last_mut() {
            let n = last.len();
            if let Some(cut) =
                (1..n.min(4)).find(|&k| self.is_country_name(&last[n - k..].join(" ")))
            {
                // the city after its postcode bears the country's name (`L-1260 Luxembourg`)
                let city_after_postcode = city_side(self) == CitySide::After
                    && self.postcode_in(&last[..n - cut].join(" ")).is_some();
                if !city_after_postcode {
                    last.truncate(n - cut);
                }
            }
        }
    }

    /// The format writes the region right before the postcode (`%S %Z`: `CA 94043`).
    fn region_before_postcode(&self) -> bool {
        self.data.fmt.contains("%S %Z")
    }

    fn region_after_postcode(&self) -> bool {
        self.data.fmt.contains("%Z %S")
    }

    /// A subdivision at the end of a run of words (`CA`, `Île-de-France`, `NSW`): the words left
    /// and the region as written. A lone word is the place (`Wien`, `Madrid`) unless `lone`.
    fn split_region(&self, mut w: Vec<String>, lone: bool) -> (Vec<String>, Option<String>) {
        if self.data.subdivisions.is_empty() && self.state_codes.is_empty() {
            return (w, None);
        }
        let n = w.len();
        for k in (1..=n.min(3)).rev() {
            let tail = w[n - k..].join(" ");
            if self.subdivision(&tail).is_some() || self.state_code(&tail).is_some() {
                if k == n && !lone {
                    return (w, None);
                }
                w.truncate(n - k);
                return (w, Some(tail));
            }
        }
        (w, None)
    }
}

/// Words that open a flat, floor or building rather than a street (`Flat 3`, `Apt 4B`, `Bus 2`).
const UNIT_WORDS: &[&str] = &[
    "FLAT",
    "APT",
    "APARTMENT",
    "UNIT",
    "SUITE",
    "STE",
    "FLOOR",
    "FL",
    "ROOM",
    "RM",
    "BLDG",
    "BUILDING",
    "APP",
    "APPARTEMENT",
    "ETAGE",
    "STOCK",
    "OG",
    "TOP",
    "WHG",
    "WOHNUNG",
    "PISO",
    "PUERTA",
    "ESC",
    "BUS",
    "BOITE",
    "BTE",
    "BAT",
    "BATIMENT",
    "ESCALIER",
    "LGH",
    "PO BOX",
];

fn is_unit(seg: &str) -> bool {
    let f = fold(seg);
    let first = f.split(' ').next().unwrap_or("");
    UNIT_WORDS.contains(&first)
}

fn has_number(seg: &[String]) -> bool {
    seg.iter()
        .any(|w| w.starts_with(|c: char| c.is_ascii_digit()))
}

fn is_lone_number(seg: &[String]) -> bool {
    seg.len() == 1 && {
        let (s, n) = super::street::split_number(&format!("x {}", seg[0]));
        s == "x" && !n.is_empty()
    }
}

fn tidy(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
