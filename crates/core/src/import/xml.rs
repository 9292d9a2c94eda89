//! A streaming walk over an XML file (quick-xml): the importers of XML registers (INSPIRE
//! Addresses GML, BAG 2.0) see each element opened with its attributes, each text and each close,
//! with the path of local names (namespace prefixes dropped) that leads to it. Nothing is held
//! but the path, so a national extract of any size streams through.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::world::latin1;
use crate::{Error, Result};

pub enum Node<'a> {
    /// an element opened (or empty, then closed at once): its local-name attributes
    Open(&'a [(String, String)]),
    Text(&'a str),
    Close,
}

/// The file's text: ISO-8859-1 when its declaration says so (Catastro), else UTF-8.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).to_ascii_lowercase();
    if head.contains("iso-8859-1") || head.contains("latin1") {
        return Cow::Owned(latin1(bytes));
    }
    String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

fn local(name: &[u8]) -> String {
    let n = name.rsplit(|&b| b == b':').next().unwrap_or(name);
    String::from_utf8_lossy(n).into_owned()
}

fn attributes(e: &BytesStart) -> Vec<(String, String)> {
    e.attributes()
        .flatten()
        .map(|a| {
            let value = a
                .unescape_value()
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
            (local(a.key.as_ref()), value)
        })
        .collect()
}

/// Walks `text`, calling `visit(path, node)`; `path` ends with the element the node belongs to.
pub fn walk(text: &str, mut visit: impl FnMut(&[String], Node)) -> Result<()> {
    let mut reader = Reader::from_str(text);
    reader.config_mut().trim_text(true);
    let mut path: Vec<String> = Vec::new();
    loop {
        let event = reader
            .read_event()
            .map_err(|e| Error::BadInput(format!("XML at {}: {e}", reader.buffer_position())))?;
        match event {
            Event::Start(e) => {
                path.push(local(e.name().as_ref()));
                visit(&path, Node::Open(&attributes(&e)));
            }
            Event::Empty(e) => {
                path.push(local(e.name().as_ref()));
                visit(&path, Node::Open(&attributes(&e)));
                visit(&path, Node::Close);
                path.pop();
            }
            Event::Text(t) => {
                let s = t
                    .unescape()
                    .map_err(|e| Error::BadInput(format!("XML text: {e}")))?;
                if !s.trim().is_empty() {
                    visit(&path, Node::Text(s.trim()));
                }
            }
            Event::CData(t) => {
                let s = String::from_utf8_lossy(&t);
                if !s.trim().is_empty() {
                    visit(&path, Node::Text(s.trim()));
                }
            }
            Event::End(_) => {
                visit(&path, Node::Close);
                path.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(())
}

/// The value of a local-name attribute.
pub fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// `urn:ogc:def:crs:EPSG::32628`, `http://www.opengis.net/def/crs/EPSG/0/25830`, `EPSG:28992`
/// → the EPSG code.
pub fn epsg(srs_name: &str) -> Option<u32> {
    let digits: String = srs_name
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// A `gml:pos` in its EPSG system → (lat, lon): UTM on ETRS89/WGS84, RD New, or degrees
/// (GML 3.2 writes EPSG:4326/4258 latitude first).
pub fn position(epsg_code: Option<u32>, pos: &str) -> Option<(f64, f64)> {
    // Catastro writes some positions with a comma between the two values
    let mut it = pos
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|v| !v.is_empty())
        .map(str::parse::<f64>);
    let (Some(Ok(a)), Some(Ok(b))) = (it.next(), it.next()) else {
        return None;
    };
    use crate::foreign::geo::{rd_to_wgs84, utm_to_wgs84};
    match epsg_code? {
        c @ (25801..=25860 | 32601..=32660) => Some(utm_to_wgs84((c % 100) as u8, a, b)),
        28992 => Some(rd_to_wgs84(a, b)),
        4326 | 4258 | 4937 => Some((a, b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_texts_and_systems() {
        let mut seen = Vec::new();
        walk(
            r#"<a:x xmlns:a="u"><a:y g:id="7">t &amp; u</a:y><z/></a:x>"#,
            |path, node| match node {
                Node::Open(at) => seen.push(format!("{}{:?}", path.join("/"), attr(at, "id"))),
                Node::Text(t) => seen.push(format!("{}={t}", path.join("/"))),
                Node::Close => {}
            },
        )
        .unwrap();
        assert_eq!(seen, ["xNone", "x/ySome(\"7\")", "x/y=t & u", "x/zNone"]);
        assert_eq!(epsg("urn:ogc:def:crs:EPSG::32628"), Some(32628));
        assert_eq!(
            epsg("http://www.opengis.net/def/crs/EPSG/0/25830"),
            Some(25830)
        );
        let (lat, lon) = position(Some(32628), "360300.81 3119554.33").unwrap();
        // Fasnia, Tenerife
        assert!(
            (lat - 28.2).abs() < 0.1 && (lon + 16.43).abs() < 0.1,
            "{lat} {lon}"
        );
    }
}
