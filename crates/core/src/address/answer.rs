//! A contact's result as the service answers it, written here as JSON text in parts, so that a
//! single call sends it without parsing it into objects and writing them out again (issue 14: the
//! parse, the presentation's copies and the stringify cost the event loop more than the rest of the
//! call); a batch or a job reads each text as an object. The texts in the request language (the
//! country's name, the city type's label, the head of the message, the outcome's label and reason)
//! stay in TypeScript (`src/contact/answer.ts`), which puts them into the cuts; what is written here
//! is the part every language shares.
//!
//! One record per result, seven fields, each followed by [`FIELD`]:
//! - `P`, the outcome codes joined by commas, the city type's label key (empty without one), the
//!   text up to the country's name, the text from after it up to the city type's label (or to the
//!   end), the text after the label (or nothing), and the message after its head as JSON string
//!   content (`. `, the attribution lines joined by `; `, `.`; nothing without them). The text is
//!   the result's JSON in the order the service answers, without `attribution` and without the
//!   closing brace;
//! - or, for a foreign address, `F` and its JSON text in parts (`foreign::answer_text`: sixteen
//!   fields), where TypeScript puts in the country's name and envelope lines in the language, the
//!   message and the outcome's label and reason;
//! - or, for a foreign address with a city type (none today), `J` and the whole result as JSON, which
//!   TypeScript presents itself, and five empty fields.

use std::cell::Cell;
use std::io;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::ser::Formatter;

use super::{ContactResult, PARALLEL_FROM};

/// Ends each field of a record: a control byte, which JSON text never holds unescaped.
pub const FIELD: u8 = 0x01;

/// The results of a batch as answer records, in order: written on rayon from `PARALLEL_FROM`
/// results, as they were verified (`verify_batch`).
pub fn write_answers(results: &[ContactResult]) -> crate::Result<Vec<u8>> {
    if results.len() < PARALLEL_FROM {
        let mut out = Vec::with_capacity(results.len() * 1600);
        for r in results {
            write_answer(r, &mut out)?;
        }
        return Ok(out);
    }
    let records = results
        .par_iter()
        .map(|r| {
            let mut record = Vec::with_capacity(1600);
            write_answer(r, &mut record).map(|()| record)
        })
        .collect::<crate::Result<Vec<Vec<u8>>>>()?;
    Ok(records.concat())
}

fn fields(out: &mut Vec<u8>, parts: &[&[u8]]) {
    for part in parts {
        out.extend_from_slice(part);
        out.push(FIELD);
    }
}

fn write_answer(r: &ContactResult, out: &mut Vec<u8>) -> crate::Result<()> {
    // a foreign address: its country's name and envelope lines in the language are written by `present`
    // (in parts, `F`, save with a city type: never set abroad today, its label's cut is the Italian one's)
    if r.foreign_address == Some(true) && r.city_type.is_none() {
        out.push(b'F');
        out.push(FIELD);
        for field in crate::foreign::answer_text::foreign_fields(r)? {
            out.extend_from_slice(&field);
            out.push(FIELD);
        }
        return Ok(());
    }
    if r.foreign_address == Some(true) {
        let json = serde_json::to_vec(r)?;
        fields(out, &[b"J", &json, b"", b"", b"", b"", b""]);
        return Ok(());
    }
    // every Italian result's JSON has them (serde writes these fields always): missing is a bug
    let (text, cut) = js_json_cut(r)?;
    let cut = cut
        .valid(r.city_type.is_some())
        .expect("a contact result's JSON holds normalized.country, city_type and attribution");
    let codes = r.outcome.join(",");
    let key = r.city_type.as_ref().map_or("", |c| c.label);
    // the message after its head: the register's attribution lines, where there are any
    let tail = if r.attribution.is_empty() {
        String::new()
    } else {
        let quoted = js_json(&format!(". {}.", r.attribution.join("; ")))?;
        String::from_utf8(quoted[1..quoted.len() - 1].to_vec()).expect("JSON text is UTF-8")
    };
    let (after_country, after_label) = match cut.label {
        Some((from, to)) => (&text[cut.country.1..from], &text[to..cut.end]),
        None => (&text[cut.country.1..cut.end], &b""[..]),
    };
    fields(
        out,
        &[
            b"P",
            codes.as_bytes(),
            key.as_bytes(),
            &text[..cut.country.0],
            after_country,
            after_label,
            tail.as_bytes(),
        ],
    );
    Ok(())
}

/// Where the language's texts go in a result's JSON: the value of `normalized.country`, the value of
/// `city_type.label`, and the end (the start of `attribution`, the last field of a presentable result).
/// Reported by the serialiser as it writes those fields (`Cutter`), never searched for in the text.
#[derive(Debug, Default, PartialEq)]
struct Cuts {
    country: (usize, usize),
    label: Option<(usize, usize)>,
    end: usize,
}

/// The cuts as the serialiser met them; `valid` checks that every one the answer needs was met.
#[derive(Debug, Default)]
struct Met {
    country: Option<(usize, usize)>,
    label: Option<(usize, usize)>,
    end: Option<usize>,
}

impl Met {
    fn valid(self, city_type: bool) -> Option<Cuts> {
        let country = self.country?;
        let label = if city_type { Some(self.label?) } else { None };
        let end = self.end?;
        (end > label.map_or(country.1, |l| l.1)).then_some(Cuts {
            country,
            label,
            end,
        })
    }
}

/// The places of an Italian result's JSON `Met` reads: `normalized.country`'s and `city_type.label`'s
/// values and the result's `attribution` key.
const ITALIAN_CUTS: [At; 3] = [
    At::Value("normalized", "country"),
    At::Value("city_type", "label"),
    At::Key("", "attribution"),
];

/// A result's JSON as `js_json` writes it, with the cuts its serialiser met.
fn js_json_cut(r: &ContactResult) -> crate::Result<(Vec<u8>, Met)> {
    let (text, [country, label, end]) = cut_json(r, &ITALIAN_CUTS, true)?;
    Ok((
        text,
        Met {
            country,
            label,
            end: end.map(|(at, _)| at),
        },
    ))
}

/// Where a place was written in a JSON text: from, to (equal for a key or an object's end).
pub(crate) type Span = (usize, usize);

/// A place in a result's JSON that the serialiser notes as it writes it, named by its object and
/// key: the object is `""` for the result itself, else the key (in the result) of an object it
/// holds (`normalized`, `city_type`).
#[derive(Clone, Copy)]
pub(crate) enum At {
    /// Where the key begins: its comma (or its quote when it is the object's first).
    Key(&'static str, &'static str),
    /// The key's value, from after its colon to its end.
    Value(&'static str, &'static str),
    /// Before the object's closing brace.
    End(&'static str),
}

impl At {
    fn object(self) -> &'static str {
        match self {
            At::Key(o, _) | At::Value(o, _) | At::End(o) => o,
        }
    }

    fn key(self) -> Option<&'static str> {
        match self {
            At::Key(_, k) | At::Value(_, k) => Some(k),
            At::End(_) => None,
        }
    }
}

/// Whether a name's length is one of a mask's (`Cutter`'s): most keys a result writes have none of
/// the places' lengths, and are passed without comparing them with each place.
fn length_in(mask: u64, name: &str) -> bool {
    mask & 1 << name.len().min(63) != 0
}

/// A value's JSON as JavaScript's `JSON.stringify` writes it (`js_json`'s; with `latin1`, characters
/// beyond Latin-1 escaped as `js_json` escapes them, else as they are), and for each place of `at`
/// where the serialiser wrote it (a key or an object's end as an empty span; None where the value
/// has no such place). The one formatter of the answers cut into parts (the Italian `P` records here,
/// the foreign `F` records of `foreign::answer_text`): the places come from the keys it writes,
/// never from a search of the text, where a string may hold the same characters.
pub(crate) fn cut_json<T: Serialize, const N: usize>(
    value: &T,
    at: &[At; N],
    latin1: bool,
) -> crate::Result<(Vec<u8>, [Option<Span>; N])> {
    let written = Cell::new(0);
    let mut out = Counted {
        out: Vec::with_capacity(2048),
        written: &written,
    };
    let mut found = [None; N];
    let lengths = |of: fn(At) -> Option<&'static str>| {
        at.iter()
            .filter_map(|a| of(*a))
            .fold(0u64, |m, s| m | 1 << s.len().min(63))
    };
    let cutter = Cutter {
        written: &written,
        key_lengths: lengths(At::key),
        object_lengths: lengths(|a| Some(a.object()).filter(|o| !o.is_empty())),
        at,
        found: &mut found,
        objects: Vec::with_capacity(4),
        key: String::new(),
        in_key: false,
        key_start: 0,
        value: None,
        latin1,
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, cutter);
    value.serialize(&mut ser)?;
    drop(ser);
    Ok((out.out, found))
}

/// The output, counting what was written so far (for `Cutter`, which notes where it wrote a part).
struct Counted<'a> {
    out: Vec<u8>,
    written: &'a Cell<usize>,
}

impl io::Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.extend_from_slice(buf);
        self.written.set(self.out.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `JsNumbers` that also notes where it wrote the places of `at`, from the keys it writes.
struct Cutter<'a> {
    written: &'a Cell<usize>,
    at: &'a [At],
    /// The lengths of the places' keys and of their objects' names, one bit each (`length_in`).
    key_lengths: u64,
    object_lengths: u64,
    found: &'a mut [Option<Span>],
    /// The objects open, each by the name `At` gives it; None for one no place is in.
    objects: Vec<Option<&'static str>>,
    /// The key being written, then the last one written.
    key: String,
    in_key: bool,
    /// Where the last key of a named object began (its comma).
    key_start: usize,
    /// The place whose value is being written: its index in `at`, where the value began, and the
    /// depth of its object (a value's own keys end values too).
    value: Option<(usize, usize, usize)>,
    latin1: bool,
}

impl Cutter<'_> {
    /// The name of the object being written, when some place is in one so named.
    fn named(&self) -> Option<&'static str> {
        self.objects.last().copied().flatten()
    }
}

impl Formatter for Cutter<'_> {
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let name = match self.objects.len() {
            0 => Some(""),
            // an object the result holds, under the key just written
            1 if self.named() == Some("") && length_in(self.object_lengths, &self.key) => self
                .at
                .iter()
                .map(|a| a.object())
                .find(|o| !o.is_empty() && *o == self.key),
            _ => None,
        };
        self.objects.push(name);
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if let Some(Some(name)) = self.objects.pop() {
            let at = self.written.get();
            for (i, a) in self.at.iter().enumerate() {
                if matches!(a, At::End(o) if *o == name) {
                    self.found[i] = Some((at, at));
                }
            }
        }
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if self.named().is_some() {
            self.key_start = self.written.get();
        }
        self.in_key = true;
        self.key.clear();
        if first {
            Ok(())
        } else {
            writer.write_all(b",")
        }
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        if !length_in(self.key_lengths, &self.key) {
            return Ok(());
        }
        if let Some(name) = self.named() {
            for (i, a) in self.at.iter().enumerate() {
                if matches!(a, At::Key(o, k) if *o == name && *k == self.key) {
                    self.found[i] = Some((self.key_start, self.key_start));
                }
            }
        }
        Ok(())
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b":")?;
        if !length_in(self.key_lengths, &self.key) {
            return Ok(());
        }
        if let Some(name) = self.named() {
            let place = self
                .at
                .iter()
                .position(|a| matches!(a, At::Value(o, k) if *o == name && *k == self.key));
            if let Some(i) = place {
                self.value = Some((i, self.written.get(), self.objects.len()));
            }
        }
        Ok(())
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        if let Some((i, start, depth)) = self.value {
            if depth == self.objects.len() {
                self.found[i] = Some((start, self.written.get()));
                self.value = None;
            }
        }
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.push_str(fragment);
        }
        if self.latin1 {
            JsNumbers.write_string_fragment(writer, fragment)
        } else {
            writer.write_all(fragment.as_bytes())
        }
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        JsNumbers.write_f64(writer, value)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        JsNumbers.write_f32(writer, value)
    }
}

/// JSON as JavaScript's `JSON.stringify` writes it, numbers too (`1`, not `1.0`), and strings escaped
/// alike (`"`, `\`, control characters as `\b\f\n\r\t` or `\u00xx`), with one difference: a character
/// beyond Latin-1 (U+0100 and up: the `–` of every register's attribution, a `č` of a Slovene street
/// name) is written as its `\uXXXX` escape, so that the text holds only Latin-1 characters. V8 keeps such
/// a string one byte a character; one character beyond Latin-1 makes the whole answer two bytes a
/// character, in every copy on its way to the socket and in its UTF-8 encoding there (issue 14: a single
/// contact call +5–7 % req/s). The escape is JSON: the value read back is the same string.
pub fn js_json<T: Serialize>(value: &T) -> crate::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(2048);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, JsNumbers);
    value.serialize(&mut ser)?;
    Ok(out)
}

struct JsNumbers;

impl Formatter for JsNumbers {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let mut raw_from = 0;
        let mut at = 0;
        // a character from U+0100 on starts with a byte from 0xC4 on (U+0080..U+00FF: 0xC2, 0xC3),
        // and a continuation byte (0x80..0xBF) is never taken for one: most fragments are copied whole
        while let Some(i) = bytes[at..].iter().position(|&b| b >= 0xc4) {
            let start = at + i;
            let ch = fragment[start..]
                .chars()
                .next()
                .expect("a UTF-8 lead byte starts a character");
            writer.write_all(&bytes[raw_from..start])?;
            let mut units = [0u16; 2];
            for unit in ch.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            at = start + ch.len_utf8();
            raw_from = at;
        }
        writer.write_all(&bytes[raw_from..])
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        // from 1e-6 to 1e21 both write the shortest digits in plain decimal (Rust: `1`, not `1.0`)
        if (1e-6..1e21).contains(&value.abs()) {
            return write!(writer, "{value}");
        }
        writer.write_all(js_number(value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        // JavaScript read serde's shortest f32 text as a double: the same decimal, written its way
        let read: f64 = value.to_string().parse().unwrap_or(f64::from(value));
        writer.write_all(js_number(read).as_bytes())
    }
}

/// A finite double as ECMAScript's Number::toString writes it (the shortest digits that read back,
/// as Rust's own formatting finds them; the layout by the exponent, ECMA-262 §6.1.6.1.20).
pub fn js_number(value: f64) -> String {
    if value == 0.0 {
        return "0".to_owned(); // -0 too
    }
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i32;
    let n = exponent + 1;
    let mut out = String::with_capacity(k as usize + 8);
    out.push_str(sign);
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n > 0 { '+' } else { '-' });
        out.push_str(&(n - 1).abs().to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_javascript_writes_them() {
        // expected texts are what node prints for String(x)
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (0.0, "0"),
            (-0.0, "0"),
            (44.5119072, "44.5119072"),
            (-11.25, "-11.25"),
            (0.5, "0.5"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e21, "1e+21"),
            (1.25e22, "1.25e+22"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1.0 / 3.0, "0.3333333333333333"),
            (100.0, "100"),
        ];
        for (value, text) in cases {
            assert_eq!(js_number(*value), *text, "{value}");
        }
    }

    #[test]
    fn the_plain_decimal_range_is_written_as_js_number_writes_it() {
        let values = [
            1.0,
            44.5119072,
            11.2835953,
            0.999,
            1e-6,
            0.0000123,
            123456.75,
            1e20,
            0.1 + 0.2,
        ];
        for value in values {
            let mut written = Vec::new();
            JsNumbers.write_f64(&mut written, value).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                js_number(value),
                "{value}"
            );
            let mut negative = Vec::new();
            JsNumbers.write_f64(&mut negative, -value).unwrap();
            assert_eq!(
                String::from_utf8(negative).unwrap(),
                js_number(-value),
                "-{value}"
            );
        }
    }

    #[test]
    fn cuts_are_where_the_serialiser_wrote_the_fields_never_inside_a_string() {
        // a text that holds the keys inside its strings: only the fields themselves are cut
        let r = ContactResult {
            normalized: crate::address::Normalized {
                address: r#"Via Roma 1,"country":"X","label":"Y"}"#.into(),
                country: "Italia".into(),
                country_code: "IT".into(),
                ..Default::default()
            },
            city_type: Some(crate::address::CityType {
                provincial_capital: Some(true),
                label: "provincial_capital",
            }),
            attribution: vec![r#","attribution":[ in a string"#],
            ..Default::default()
        };
        let (text, met) = js_json_cut(&r).unwrap();
        assert_eq!(text, js_json(&r).unwrap(), "the text is js_json's");
        let cut = met.valid(true).unwrap();
        assert_eq!(&text[cut.country.0..cut.country.1], br#""Italia""#);
        let label = cut.label.unwrap();
        assert_eq!(&text[label.0..label.1], br#""provincial_capital""#);
        assert!(text[cut.end..].starts_with(br#","attribution":["#));
        // the key written inside a string is escaped, and not taken for the field
        let in_string: &[u8] = br#",\"attribution\":["#;
        assert!(text.windows(in_string.len()).any(|w| w == in_string));
        let field: &[u8] = br#","attribution":["#;
        assert_eq!(text.windows(field.len()).filter(|&w| w == field).count(), 1);
        // without a city type no label is cut, and none is asked for
        let plain = ContactResult {
            city_type: None,
            ..r
        };
        let (_, met) = js_json_cut(&plain).unwrap();
        assert!(met.label.is_none());
        assert!(met.valid(false).is_some());
    }

    #[test]
    fn strings_are_escaped_as_javascript_escapes_them_and_beyond_latin1_as_u_escapes() {
        let s = "a\"b\\c\u{1}\u{1f}\n\t\u{7f}/éÿ–č😀";
        let text = String::from_utf8(js_json(&s).unwrap()).unwrap();
        assert_eq!(
            text,
            "\"a\\\"b\\\\c\\u0001\\u001f\\n\\t\u{7f}/éÿ\\u2013\\u010d\\ud83d\\ude00\""
        );
        // the escapes are JSON: read back, the same string
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), s);
    }
}
