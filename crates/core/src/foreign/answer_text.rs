//! A foreign address's answer record (`address::answer`'s `F`): the result's JSON as JavaScript's
//! `JSON.stringify` writes it (numbers as JavaScript writes them, strings escaped alike, characters
//! beyond Latin-1 as they are: what the service sent when it parsed the core's JSON and wrote it out
//! again), cut where `src/contact/answer.ts` puts in what depends on the request (the outcome without
//! `FOREIGN`, the country's name and envelope line in a language, the envelope lines, the message,
//! the outcome's label and reason). So a batch's foreign answers are not parsed into objects,
//! copied to be presented and written out again (issue 30: that was most of the service's own
//! cost of a foreign batch, against the Italian answers' parts).
//!
//! The record: `F`, the outcome codes joined by commas, `normalized.country_code`, the register the
//! record was verified in (or nothing), the attribution lines joined by `; `, then the JSON text in
//! twelve consecutive slices (joined, the whole result's JSON): up to the outcome's value, the
//! outcome's value, up to `normalized.country`'s value, that value, up to
//! `normalized_postal.country`'s value, that value, up to the end of `normalized_postal` (before its
//! `}`), up to `postal_lines`, the key `,"postal_lines":`, its value, up to `attribution`, and from
//! `attribution` to the end. A part the result does not have is an empty slice.

use crate::address::answer::{cut_json, At};
use crate::address::ContactResult;

/// Fields of an `F` record after its kind (`FOREIGN_FIELDS` in `src/contact/answer.ts`).
pub const SLICES: usize = 12;

/// The places the service fills in, in `Cuts`' order: the outcome's value, `normalized.country`'s
/// and `normalized_postal.country`'s values, the end of `normalized_postal`, the key
/// `postal_lines` and its value, the key `attribution`.
const FOREIGN_CUTS: [At; 7] = [
    At::Value("", "outcome"),
    At::Value("normalized", "country"),
    At::Value("normalized_postal", "country"),
    At::End("normalized_postal"),
    At::Key("", "postal_lines"),
    At::Value("", "postal_lines"),
    At::Key("", "attribution"),
];

/// The record's fields after its kind, each ready to be followed by the field end.
pub fn foreign_fields(r: &ContactResult) -> crate::Result<Vec<Vec<u8>>> {
    // characters beyond Latin-1 as they are: as `JSON.stringify` writes them
    let (text, [outcome, country, postal_country, postal_end, lines_key, lines_value, attribution]) =
        cut_json(r, &FOREIGN_CUTS, false)?;
    let cuts = Cuts {
        outcome,
        country,
        postal_country,
        postal_end: postal_end.map(|(at, _)| at),
        lines_key: lines_key.map(|(at, _)| at),
        lines_value,
        attribution: attribution.map(|(at, _)| at),
    };
    let positions = cuts.positions(text.len());
    let mut fields = Vec::with_capacity(4 + SLICES);
    fields.push(r.outcome.join(",").into_bytes());
    fields.push(r.normalized.country_code.as_bytes().to_vec());
    fields.push(r.verified_in.unwrap_or("").as_bytes().to_vec());
    fields.push(r.attribution.join("; ").into_bytes());
    let mut from = 0;
    for to in positions {
        fields.push(text[from..to].to_vec());
        from = to;
    }
    Ok(fields)
}

/// Where the serialiser wrote the parts the service fills in.
#[derive(Debug, Default)]
struct Cuts {
    outcome: Option<(usize, usize)>,
    country: Option<(usize, usize)>,
    postal_country: Option<(usize, usize)>,
    postal_end: Option<usize>,
    lines_key: Option<usize>,
    lines_value: Option<(usize, usize)>,
    attribution: Option<usize>,
}

impl Cuts {
    /// The ends of the twelve slices, in order; a part missing is an empty slice where the next
    /// part begins (every result has its outcome, `normalized` and `attribution`).
    fn positions(&self, len: usize) -> [usize; SLICES] {
        let attribution = self.attribution.unwrap_or(len);
        let (lines_key, lines_value) = match (self.lines_key, self.lines_value) {
            (Some(k), Some(v)) => (k, v),
            _ => (attribution, (attribution, attribution)),
        };
        let (postal_country, postal_end) = match (self.postal_country, self.postal_end) {
            (Some(c), Some(e)) => (c, e),
            _ => ((lines_key, lines_key), lines_key),
        };
        let outcome = self.outcome.unwrap_or((0, 0));
        let country = self.country.unwrap_or((outcome.1, outcome.1));
        [
            outcome.0,
            outcome.1,
            country.0,
            country.1,
            postal_country.0,
            postal_country.1,
            postal_end,
            lines_key,
            lines_value.0,
            lines_value.1,
            attribution,
            len,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::{CityType, Geo, Normalized};

    fn result(postal: bool, lines: &[&str]) -> ContactResult {
        let normalized = Normalized {
            address: r#"Rue "country":"X" 1"#.into(),
            postcode: "75001".into(),
            city: "Paris".into(),
            country: "Francia".into(),
            country_code: "FR".into(),
            ..Default::default()
        };
        ContactResult {
            ok: true,
            outcome: vec!["FOREIGN".into(), "POSTCODE_ADDED".into()],
            normalized_postal: postal.then(|| Normalized {
                country: "FRANCE".into(),
                ..normalized.clone()
            }),
            normalized,
            postal_lines: lines.iter().map(|l| l.to_string()).collect(),
            geo: Some(Geo {
                lat: 48.0,
                lon: 2.35,
                precision: "house_number",
                source: "x",
                dataset: "y",
            }),
            foreign_address: Some(true),
            attribution: vec!["Fonte: A – b", "Fonte: C"],
            verified_in: Some("BAN"),
            ..Default::default()
        }
    }

    /// Every number as a float, as JavaScript reads them.
    fn floats(v: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::Number(n) => serde_json::json!(n.as_f64()),
            Value::Array(a) => Value::Array(a.into_iter().map(floats).collect()),
            Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, floats(v))).collect()),
            other => other,
        }
    }

    /// The slices joined are the result's JSON as JavaScript writes it, read back the same value.
    fn slices(r: &ContactResult) -> Vec<String> {
        let fields = foreign_fields(r).unwrap();
        assert_eq!(fields.len(), 4 + SLICES);
        let s: Vec<String> = fields[4..]
            .iter()
            .map(|f| String::from_utf8(f.clone()).unwrap())
            .collect();
        let whole = s.concat();
        let read: serde_json::Value = serde_json::from_str(&whole).unwrap();
        // `48` reads back as an integer, serde's own `48.0` as a float: the same number
        assert_eq!(floats(read), floats(serde_json::to_value(r).unwrap()));
        assert!(whole.contains(r#""lat":48,"lon":2.35"#), "{whole}");
        assert!(whole.contains("A – b"), "beyond Latin-1 as it is: {whole}");
        s
    }

    #[test]
    fn the_slices_are_where_the_serialiser_wrote_the_parts() {
        let r = result(true, &["RUE X 1", "75001 PARIS"]);
        let s = slices(&r);
        let fields = foreign_fields(&r).unwrap();
        assert_eq!(fields[0], b"FOREIGN,POSTCODE_ADDED");
        assert_eq!(fields[1], b"FR");
        assert_eq!(fields[2], b"BAN");
        assert_eq!(fields[3], "Fonte: A – b; Fonte: C".as_bytes());
        assert_eq!(s[0], r#"{"ok":true,"outcome":"#);
        assert_eq!(s[1], r#"["FOREIGN","POSTCODE_ADDED"]"#);
        assert_eq!(s[3], r#""Francia""#);
        assert_eq!(s[5], r#""FRANCE""#);
        assert_eq!(s[6], r#","country_code":"FR""#);
        assert_eq!(s[7], "}");
        assert_eq!(s[8], r#","postal_lines":"#);
        assert_eq!(s[9], r#"["RUE X 1","75001 PARIS"]"#);
        assert!(s[11].starts_with(r#","attribution":["#), "{}", s[11]);
        // the key written inside a string is not taken for the field
        assert!(s[2].contains(r#"Rue \"country\":\"X\" 1"#), "{}", s[2]);
    }

    #[test]
    fn a_part_the_result_lacks_is_an_empty_slice() {
        let r = result(false, &[]);
        let s = slices(&r);
        assert_eq!(s[3], r#""Francia""#);
        // the rest of the result up to its attribution is in the slice after the country
        for (i, slice) in s.iter().enumerate().take(11).skip(5) {
            assert_eq!(slice, "", "slice {i}");
        }
        assert!(s[4].ends_with(r#""district":null,"address_key":"","geo":{"lat":48,"lon":2.35,"precision":"house_number","source":"x","dataset":"y"},"territory":null,"city_type":null,"postcode_check":null,"sub_address":[],"sub_address_confirmed":null,"foreign_address":true"#), "{}", s[4]);
        assert!(s[11].starts_with(r#","attribution":["#));
        // lines without the postal form (never answered so, but cut alike)
        let r = result(false, &["RUE X 1"]);
        let s = slices(&r);
        assert_eq!(s[5], "");
        assert_eq!(s[8], r#","postal_lines":"#);
        assert_eq!(s[9], r#"["RUE X 1"]"#);
        let typed = ContactResult {
            city_type: Some(CityType {
                provincial_capital: None,
                label: "municipality",
            }),
            ..result(true, &[])
        };
        let s = slices(&typed);
        assert_eq!(s[8], "");
        assert_eq!(s[9], "");
    }
}
