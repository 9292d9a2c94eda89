//! The address line as Italians write it: `Via Roma 12`, `V.le S. Martino, 12/A scala B int. 3`,
//! `C.da Agli snc`, `S.S. 106 km 3,5`, `c/o Rossi, Piazza Duomo 1`, `Casella Postale 45`.

use serde::Serialize;

use crate::normalize::fold;
use crate::rules::it::street_type;
use crate::rules::italy;

mod glued;
mod segments;
use glued::*;
use segments::*;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct HouseNumber {
    pub number: u32,
    /// Letter or word after the number, upper case: `A`, `BIS`, or the second number of `12/1`.
    pub suffix: String,
    /// `12-14`: the last number of the range.
    pub range_to: Option<u32>,
    /// `km 3,5` written as `3.5`.
    pub km: Option<String>,
    /// `SNC`: senza numero civico.
    pub without_number: bool,
}

impl HouseNumber {
    /// The form the register and the normalised address use: `12`, `12/A`, `12-14`, `km 3.5`, `SNC`.
    pub fn display(&self) -> String {
        if self.without_number {
            return "SNC".into();
        }
        if let Some(km) = &self.km {
            return format!("km {km}");
        }
        let mut s = self.number.to_string();
        if let Some(to) = self.range_to {
            s.push('-');
            s.push_str(&to.to_string());
        }
        if !self.suffix.is_empty() {
            s.push('/');
            s.push_str(&self.suffix);
        }
        s
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SubAddress {
    /// unit, staircase, floor, block, building, building_number, block_number
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub enum NumberStatus {
    #[default]
    Missing,
    Found,
    InvalidFormat,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedAddress {
    /// Full type, folded (`VIA`, `PIAZZA`, `STRADA PROVINCIALE`); None when not recognisable.
    pub street_type: Option<&'static str>,
    /// The type as written, when one was found.
    pub street_type_raw: String,
    /// The street name as written, without type and number.
    pub name: String,
    pub house_number: Option<HouseNumber>,
    pub number_status: NumberStatus,
    /// The house number as written (for the outcome: what changed).
    pub house_number_raw: String,
    pub sub_address: Vec<SubAddress>,
    pub po_box: Option<String>,
    pub care_of: Option<String>,
    /// A postcode and city written in the address line itself.
    pub postcode: Option<String>,
    pub city: Option<String>,
    /// Parts not understood, kept as written.
    pub extra: Vec<String>,
}

#[derive(Debug, Clone)]
struct Token {
    raw: String,
    /// Folded, spaces removed: `P.ZZA` → `PZZA`, `12/a` → `12A`.
    compact: String,
}

impl Token {
    fn new(raw: &str) -> Token {
        Token {
            raw: raw.to_string(),
            compact: fold(raw).replace(' ', ""),
        }
    }
    fn starts_with_digit(&self) -> bool {
        self.raw.chars().next().is_some_and(|c| c.is_ascii_digit())
    }
}

pub fn parse(line: &str) -> ParsedAddress {
    let mut out = ParsedAddress::default();
    let line = km_decimal_comma(line.trim());
    let line = take_care_of(&line, &mut out);
    let segments: Vec<Vec<Token>> = line
        .split([',', ';'])
        .map(|seg| {
            seg.split_whitespace()
                .flat_map(split_glued)
                .map(|w| Token::new(&w))
                .filter(|t| {
                    !t.compact.is_empty() || matches!(t.raw.as_str(), "/" | "-" | "–" | "&")
                })
                .collect::<Vec<Token>>()
        })
        .flat_map(street_after_dash_note)
        .flat_map(cut_intersection)
        .flat_map(cut_after_number_dash)
        .filter(|s: &Vec<Token>| !s.is_empty())
        .collect();

    let mut street: Vec<Token> = Vec::new();
    let mut street_seen = false;
    // `VIA, 25 APRILE, 2`: a type alone in its segment begins the next one
    let mut lone_type: Vec<Token> = Vec::new();
    let count = segments.len();
    for (index, mut seg) in segments.into_iter().enumerate() {
        let more_after = index + 1 < count;
        if take_po_box(&mut seg, &mut out) && seg.is_empty() {
            continue;
        }
        // a segment that holds a postcode after the street is "20121 Milano"
        if street_seen {
            if let Some(pos) = seg.iter().position(is_postcode) {
                if out.postcode.is_none() {
                    out.postcode = Some(seg[pos].compact.clone());
                    let city: Vec<&str> = seg[pos + 1..].iter().map(|t| t.raw.as_str()).collect();
                    if !city.is_empty() {
                        out.city = Some(strip_province_suffix(&city.join(" ")));
                    }
                    continue;
                }
            }
        }
        if !street_seen {
            take_leading_sub_address(&mut seg, &mut out, more_after);
        }
        take_sub_address(&mut seg, &mut out, street_seen);
        if seg.is_empty() {
            continue;
        }
        if !street_seen {
            // "12, Via Roma": a lone number segment before the street
            if seg
                .iter()
                .all(|t| t.starts_with_digit() || is_suffix_word(t))
                && out.house_number.is_none()
                && !seg.is_empty()
            {
                parse_number_tokens(&seg, &mut out);
                continue;
            }
            if more_after && seg.len() == 1 && is_type_word(&seg[0]) && lone_type.is_empty() {
                lone_type = seg;
                continue;
            }
            lone_type.extend(seg);
            street = std::mem::take(&mut lone_type);
            street_seen = true;
            continue;
        }
        if out.house_number.is_none() && out.number_status == NumberStatus::Missing {
            let number_like = strip_number_marker(&seg);
            if !number_like.is_empty()
                && (number_like[0].starts_with_digit() || is_snc(&number_like))
                && number_like.len() <= 3
            {
                parse_number_tokens(&number_like, &mut out);
                continue;
            }
        }
        out.extra.push(
            seg.iter()
                .map(|t| t.raw.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }

    if !street_seen {
        street = lone_type;
    }
    if out.house_number.is_none() && out.number_status == NumberStatus::Missing {
        take_trailing_number(&mut street, &mut out);
    }
    take_type(&mut street, &mut out);
    out.name = street
        .iter()
        .map(|t| t.raw.trim_matches([',', ';']))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    out
}

/// `KM 3,5` keeps its decimal comma from being read as a separator.
fn km_decimal_comma(line: &str) -> String {
    // ASCII upper case keeps byte offsets valid in `line`
    let upper = line.to_ascii_uppercase();
    let Some(k) = upper.find("KM") else {
        return line.to_string();
    };
    let bytes: Vec<char> = line.chars().collect();
    let start = line[..k].chars().count();
    let mut out: String = String::with_capacity(line.len());
    for (i, &c) in bytes.iter().enumerate() {
        let between_digits = i > start
            && c == ','
            && bytes.get(i - 1).is_some_and(|p| p.is_ascii_digit())
            && bytes.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        out.push(if between_digits { '.' } else { c });
    }
    out
}

/// `c/o Rossi` and `presso Rossi` up to the next comma.
fn take_care_of(line: &str, out: &mut ParsedAddress) -> String {
    // ASCII upper case keeps byte offsets valid in `line`
    let upper = line.to_ascii_uppercase();
    let mut found: Option<(usize, usize)> = None;
    for marker in ["C/O ", "C/O.", "C.O. ", "PRESSO "] {
        let mut from = 0;
        while let Some(p) = upper[from..].find(marker) {
            let at = from + p;
            let boundary = at == 0
                || !upper[..at]
                    .chars()
                    .last()
                    .is_some_and(char::is_alphanumeric);
            if boundary {
                found = Some((at, marker.len()));
                break;
            }
            from = at + marker.len();
        }
        if found.is_some() {
            break;
        }
    }
    let Some((at, len)) = found else {
        return line.to_string();
    };
    let rest = &line[at + len..];
    let end = care_of_end(rest);
    let name = rest[..end].trim().trim_start_matches('.').trim();
    if !name.is_empty() {
        out.care_of = Some(name.to_string());
    }
    let mut remaining = String::with_capacity(line.len());
    remaining.push_str(&line[..at]);
    remaining.push(',');
    remaining.push_str(&rest[end..]);
    remaining
}

/// Where the care-of name ends: a comma, a dash between words, or the street type that begins the
/// address (`c/o Rossi Via Roma 12`).
fn care_of_end(rest: &str) -> usize {
    let mut end = rest.find([',', ';']).unwrap_or(rest.len());
    if let Some(d) = rest.find(" - ").or_else(|| rest.find(" – ")) {
        end = end.min(d);
    }
    let mut offset = 0;
    let mut words = 0;
    for word in rest.split(' ') {
        if offset >= end {
            break;
        }
        if words > 0 && word.len() > 1 && street_type::expand(word).is_some() {
            let full = street_type::expand(word).unwrap_or("");
            // a type written in full, or an abbreviation with its dot (`V.le`), not the word `Via` of a name
            if fold(word).replace(' ', "") == full || word.contains('.') {
                end = end.min(offset);
                break;
            }
        }
        if !word.is_empty() {
            words += 1;
        }
        offset += word.len() + 1;
    }
    end
}

fn is_postcode(t: &Token) -> bool {
    t.compact.len() == 5 && t.compact.chars().all(|c| c.is_ascii_digit())
}

/// "Milano (MI)" → "Milano (MI)" stays for the resolver; only a trailing bare "MI" is kept too.
fn strip_province_suffix(city: &str) -> String {
    city.trim().to_string()
}

fn take_po_box(seg: &mut Vec<Token>, out: &mut ParsedAddress) -> bool {
    let n = seg.len();
    for i in 0..n {
        let c = seg[i].compact.as_str();
        let (marker_len, value_at) = match c {
            "CASELLA" if seg.get(i + 1).is_some_and(|t| t.compact == "POSTALE") => (2, i + 2),
            "CP" | "CPOST" | "CASPOST" | "POBOX" => (1, i + 1),
            "PO" if seg.get(i + 1).is_some_and(|t| t.compact == "BOX") => (2, i + 2),
            "C" if seg.get(i + 1).is_some_and(|t| t.compact == "P") => (2, i + 2),
            _ => continue,
        };
        let mut value_end = value_at;
        if seg
            .get(value_at)
            .is_some_and(|t| matches!(t.compact.as_str(), "N" | "NR" | "NUM"))
        {
            value_end += 1;
        }
        if let Some(v) = seg.get(value_end).filter(|t| t.starts_with_digit()) {
            out.po_box = Some(v.compact.clone());
            seg.drain(i..=value_end);
            let _ = marker_len;
            return true;
        }
    }
    false
}

/// Sub-address keywords and their spec type. Recognised after the house number (or in a later
/// segment), so `Via della Scala` and `Piazza Lotto` stay street names.
fn sub_address_kind(compact: &str) -> Option<&'static str> {
    italy().sub_address_kind(compact)
}

/// A numbered building is `building_number` (`edificio 3`, `palazzina 2`, `lotto 4`); a lettered or
/// named one is `building` (`palazzina C`), a lettered lot a `block`.
fn sub_address_kind_of(kind: &'static str, value: &str) -> &'static str {
    let numbered = value.chars().next().is_some_and(|c| c.is_ascii_digit());
    match kind {
        "building" | "block" if numbered => "building_number",
        other => other,
    }
}

/// Parts written before the street: `Pal. C Via Roma 12`, `Scala A, Via Roma 12`. Taken only when a
/// street type follows, or the part is a segment of its own before the street (`Via della Scala`
/// and a street named `Scala 5` keep their words).
fn take_leading_sub_address(seg: &mut Vec<Token>, out: &mut ParsedAddress, more_after: bool) {
    while seg.len() >= 2 {
        let Some(kind) = sub_address_kind(&seg[0].compact) else {
            return;
        };
        let value = seg[1].compact.clone();
        if value.is_empty() || value.len() > 4 || kind == "floor" && seg[0].compact == "P" {
            return;
        }
        let alone = seg.len() == 2 && more_after;
        let before_street = seg.get(2).is_some_and(|t| {
            street_type::expand(&t.raw).is_some() || sub_address_kind(&t.compact).is_some()
        });
        if !(alone || before_street) {
            return;
        }
        out.sub_address.push(SubAddress {
            kind: sub_address_kind_of(kind, &value),
            value,
        });
        seg.drain(..2);
    }
}

fn take_sub_address(seg: &mut Vec<Token>, out: &mut ParsedAddress, after_street: bool) {
    // in the street segment, only after a number-like token
    let start = if after_street {
        0
    } else {
        match seg.iter().position(|t| t.starts_with_digit()) {
            Some(p) => p + 1,
            None => return,
        }
    };
    let mut i = start;
    while i < seg.len() {
        let Some(kind) = sub_address_kind(&seg[i].compact) else {
            i += 1;
            continue;
        };
        // "PT" alone is "piano terra"
        if seg[i].compact == "PT" {
            out.sub_address.push(SubAddress {
                kind,
                value: "T".into(),
            });
            seg.remove(i);
            continue;
        }
        let Some(value) = seg.get(i + 1) else {
            break;
        };
        let v = value.compact.clone();
        let plausible = !v.is_empty()
            && (v.len() <= 4 || matches!(v.as_str(), "TERRA" | "RIALZATO" | "TERRENO"));
        if !plausible {
            i += 1;
            continue;
        }
        let value = match v.as_str() {
            "TERRA" | "TERRENO" => "T".to_string(),
            "RIALZATO" => "R".to_string(),
            _ => v,
        };
        out.sub_address.push(SubAddress {
            kind: sub_address_kind_of(kind, &value),
            value,
        });
        seg.drain(i..=i + 1);
    }
}

fn is_suffix_word(t: &Token) -> bool {
    let c = t.compact.as_str();
    (c.len() == 1 && c.chars().all(|c| c.is_ascii_alphabetic()))
        || italy().is_number_suffix_word(c)
        || (t.raw.starts_with('/') && c.len() <= 3 && !c.is_empty())
        || t.raw == "/"
}

fn is_snc(tokens: &[Token]) -> bool {
    let joined: String = tokens.iter().map(|t| t.compact.as_str()).collect();
    italy().means_no_number(&joined)
}

fn is_number_marker(t: &Token) -> bool {
    italy().is_number_marker(&t.compact)
}

fn strip_number_marker(seg: &[Token]) -> Vec<Token> {
    let skip = usize::from(seg.first().is_some_and(is_number_marker) && seg.len() > 1);
    seg[skip..].to_vec()
}

/// Finds the house number at the end of the street segment: `Roma 12`, `Roma 12 A`, `Roma n. 12/a`,
/// `Roma 12-14`, `Roma SNC`, `SS 106 km 3,5`. A number followed by other words is part of the
/// name (`Via 4 Novembre`).
fn take_trailing_number(street: &mut Vec<Token>, out: &mut ParsedAddress) {
    // km
    if let Some(k) = street.iter().position(|t| t.compact == "KM") {
        if let Some(v) = street.get(k + 1).filter(|t| t.starts_with_digit()) {
            let km = v.raw.replace([',', '+'], ".");
            out.house_number_raw = format!("{} {}", street[k].raw, v.raw);
            out.house_number = Some(HouseNumber {
                km: Some(km),
                ..Default::default()
            });
            out.number_status = NumberStatus::Found;
            street.drain(k..=k + 1);
            return;
        }
    }
    // SNC at the end
    for take in [3usize, 2, 1] {
        if street.len() > take && is_snc(&street[street.len() - take..]) {
            let from = street.len() - take;
            out.house_number_raw = street[from..]
                .iter()
                .map(|t| t.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            out.house_number = Some(HouseNumber {
                without_number: true,
                ..Default::default()
            });
            out.number_status = NumberStatus::Found;
            street.truncate(from);
            return;
        }
    }
    // the last number-like token followed only by suffix words
    let Some(last_num) = street.iter().rposition(Token::starts_with_digit) else {
        // a number first: "12 Via Roma"
        return;
    };
    // `7 / 2`, `7/ 2`: the number before the slash
    let mut last_num = last_num;
    while last_num >= 2
        && (street[last_num - 1].raw == "/" && street[last_num - 2].starts_with_digit())
    {
        last_num -= 2;
    }
    if last_num >= 1
        && street[last_num - 1].raw.ends_with('/')
        && street[last_num - 1].starts_with_digit()
    {
        last_num -= 1;
    }
    let tail_ok = street[last_num + 1..]
        .iter()
        .all(|t| is_suffix_word(t) || t.starts_with_digit() && t.compact.len() <= 3)
        && street.len() - last_num <= 3;
    if !tail_ok || last_num == 0 {
        if last_num == 0 && street.len() > 1 && street_type::expand(&street[1].raw).is_some() {
            // "12 Via Roma"
            let tokens = vec![street[0].clone()];
            street.remove(0);
            parse_number_tokens(&tokens, out);
        }
        return;
    }
    if take_number_pair(street, last_num, out) {
        return;
    }
    let mut from = last_num;
    if from >= 1 && is_number_marker(&street[from - 1]) && from >= 2 {
        from -= 1;
    }
    let tokens = strip_number_marker(&street[from..]);
    street.truncate(from);
    parse_number_tokens(&tokens, out);
}

/// `VIA BRUNACCI 2  4`, `VIALE ROMAGNA 16  18`: two numbers at the end, the second a few doors
/// further on the same side, are a range of doors (as `2-4`). Only after a name word, so that
/// `SP 12 14` stays road 12, number 14; a year (`IV Novembre 1918 90`) is never the first; nor a
/// road's number inside a name (`Via Deviazione Strada Statale 10 20`: road 10, number 20).
fn take_number_pair(street: &mut Vec<Token>, last: usize, out: &mut ParsedAddress) -> bool {
    let plain = |t: &Token| -> Option<u32> {
        t.raw
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| t.raw.parse().ok())
            .flatten()
    };
    if last < 2 || last + 1 != street.len() {
        return false;
    }
    let (Some(a), Some(b)) = (plain(&street[last - 1]), plain(&street[last])) else {
        return false;
    };
    if before_a_road_number(&street[last - 2]) {
        return false;
    }
    let named = street[..last - 1].iter().any(|t| {
        t.compact.chars().all(char::is_alphabetic) && street_type::expand(&t.raw).is_none()
    });
    if !named || a >= 1000 || b <= a || (b - a) % 2 != 0 || b - a > 10 {
        return false;
    }
    out.house_number_raw = format!("{} {}", street[last - 1].raw, street[last].raw);
    out.house_number = Some(HouseNumber {
        number: a,
        range_to: Some(b),
        ..Default::default()
    });
    out.number_status = NumberStatus::Found;
    street.truncate(last - 1);
    true
}

/// The class word a road's number follows (`STATALE` of `Strada Statale 10`, `SS 10`, `SP 12`):
/// the number after it names the road, it is not a door.
fn before_a_road_number(t: &Token) -> bool {
    const CLASSES: [&str; 6] = [
        "STATALE",
        "PROVINCIALE",
        "REGIONALE",
        "COMUNALE",
        "NAZIONALE",
        "VICINALE",
    ];
    let class = |word: &str| CLASSES.contains(&word);
    class(&t.compact)
        || street_type::expand(&t.raw)
            .is_some_and(|full| full.rsplit(' ').next().is_some_and(class))
}

/// Reads `12`, `12/A`, `12A`, `12 A`, `12 bis`, `12/1`, `12-14`, `SNC` into a house number.
fn parse_number_tokens(tokens: &[Token], out: &mut ParsedAddress) {
    out.house_number_raw = tokens
        .iter()
        .map(|t| t.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if is_snc(tokens) {
        out.house_number = Some(HouseNumber {
            without_number: true,
            ..Default::default()
        });
        out.number_status = NumberStatus::Found;
        return;
    }
    let text: String = tokens
        .iter()
        .map(|t| t.raw.to_uppercase())
        .collect::<Vec<_>>()
        .join(" ");
    match parse_number_text(&text) {
        Some(n) => {
            out.house_number = Some(n);
            out.number_status = NumberStatus::Found;
        }
        None => out.number_status = NumberStatus::InvalidFormat,
    }
}

/// The grammar of one house number: digits, then an optional range, then an optional suffix
/// (letters, or `/` and a short code).
pub fn parse_number_text(text: &str) -> Option<HouseNumber> {
    let s: String = text
        .trim()
        .trim_end_matches(['.', ','])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_uppercase();
    let s = s.replace('°', "");
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() || digits.len() > 5 {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    let mut rest = &s[digits.len()..];
    let mut range_to = None;
    if let Some(r) = rest.strip_prefix('-') {
        let d: String = r.chars().take_while(char::is_ascii_digit).collect();
        if !d.is_empty() {
            range_to = d.parse().ok();
            rest = &r[d.len()..];
        }
    }
    let rest = rest.trim_start_matches(['/', '-', '.']);
    let suffix = if rest.is_empty() {
        String::new()
    } else if rest.chars().all(|c| c.is_ascii_alphabetic()) && rest.len() <= 2
        || italy().is_number_suffix_word(rest)
        || (rest.chars().all(|c| c.is_ascii_alphanumeric()) && rest.len() <= 3)
    {
        rest.to_string()
    } else {
        return None;
    };
    Some(HouseNumber {
        number,
        suffix,
        range_to,
        km: None,
        without_number: false,
    })
}

/// `V.GIOIA`, `V.G.CARCANO`, `PZ.SANTUARIO`, `Str.BERTOLLA`: a type abbreviated with its dot and
/// glued to the name at the start of the street. The longest abbreviation before a letter is the
/// type (`P.ZZA.DUOMO`); a one-word type only (`S.S.ANNUNZIATA` is no Strada Statale).
fn split_glued_type(street: &mut Vec<Token>) {
    let Some(first) = street.first() else {
        return;
    };
    let raw = first.raw.clone();
    if street_type::expand(&raw).is_some() {
        return;
    }
    let split = raw.match_indices('.').rev().find_map(|(dot, _)| {
        let (head, rest) = raw.split_at(dot + 1);
        let single = street_type::expand(head).is_some_and(|full| !full.contains(' '));
        (single && rest.chars().next().is_some_and(char::is_alphabetic)).then_some(dot + 1)
    });
    if let Some(at) = split {
        street[0] = Token::new(&raw[..at]);
        street.insert(1, Token::new(&raw[at..]));
    }
}

/// The type at the start of the street part: one word (`V.le`), or a multi-word one
/// (`Strada Provinciale`).
fn take_type(street: &mut Vec<Token>, out: &mut ParsedAddress) {
    if street.is_empty() {
        return;
    }
    split_glued_type(street);
    let folded: Vec<String> = street.iter().map(|t| t.compact.clone()).collect();
    if let Some((full, n)) = street_type::multi_word_prefix(&folded) {
        out.street_type = Some(full);
        out.street_type_raw = street[..n]
            .iter()
            .map(|t| t.raw.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        street.drain(..n);
        return;
    }
    // "P." alone is a piazza only when a name follows; "S." is a saint, never a type.
    if street.len() >= 2 {
        if let Some(full) = street_type::expand(&street[0].raw) {
            // "V. Emanuele" could be Vittorio, but at the start of a line it is Via.
            out.street_type = Some(full);
            out.street_type_raw = street[0].raw.clone();
            street.remove(0);
        }
    }
}

#[cfg(test)]
mod tests;
