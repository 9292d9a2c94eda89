//! The dedupe record as callers send it: flat fields plus address-book lists, in every shape
//! the contract allows (`phone: "..."`, `phone: ["...", "..."]`, `phones: [{type, value}, "..."]`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// A string field that callers also send as a number (postcode 20121, phone 3351234567).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = "string | number | boolean | null")
)]
pub struct Text(pub String);

/// Read straight from the JSON text, without an intermediate `Value` per field (a million
/// records hold tens of millions of fields).
impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> serde::de::Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Text, E> {
        Ok(Text(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Text, E> {
        // As `serde_json::Number` writes it (the form callers saw before).
        Ok(Text(
            serde_json::Number::from_f64(v)
                .map(|n| n.to_string())
                .unwrap_or_default(),
        ))
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Text, E> {
        Ok(Text(String::new()))
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<Text, E> {
        Ok(Text(String::new()))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Text, A::Error> {
        Err(serde::de::Error::custom("expected a string, got a list"))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<Text, A::Error> {
        Err(serde::de::Error::custom("expected a string, got an object"))
    }
}

impl Text {
    pub fn as_str(&self) -> &str {
        self.0.trim()
    }
    pub fn is_empty(&self) -> bool {
        self.as_str().is_empty()
    }
}

fn opt(t: &Option<Text>) -> &str {
    t.as_ref().map(Text::as_str).unwrap_or("")
}

/// One address of an address-book contact.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct AddressIn {
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub label: Option<Text>,
    #[serde(default)]
    pub address: Option<Text>,
    /// Some address books keep the number apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub house_number: Option<Text>,
    #[serde(default)]
    pub postcode: Option<Text>,
    #[serde(default)]
    pub city: Option<Text>,
    #[serde(default)]
    pub province: Option<Text>,
    #[serde(default)]
    pub country: Option<Text>,
    #[serde(default)]
    pub country_code: Option<Text>,
    /// ISO alpha-2 of a country the service found named in the city or at the end of the line
    /// (`src/dedupe/prepare.ts`, `foreign: detect`): see `address::ContactInput::country_named`.
    #[serde(default, skip_serializing)]
    pub country_named: Option<Text>,
}

impl AddressIn {
    pub fn address(&self) -> String {
        let a = opt(&self.address);
        match self.house_number.as_ref().map(Text::as_str) {
            Some(n) if !n.is_empty() => format!("{a} {n}"),
            _ => a.to_string(),
        }
    }
    pub fn postcode(&self) -> &str {
        opt(&self.postcode)
    }
    pub fn city(&self) -> &str {
        opt(&self.city)
    }
    pub fn province(&self) -> &str {
        opt(&self.province)
    }
    pub fn country(&self) -> &str {
        opt(&self.country)
    }
    pub fn country_code(&self) -> &str {
        opt(&self.country_code)
    }
    pub fn is_empty(&self) -> bool {
        self.address().trim().is_empty() && self.postcode().is_empty() && self.city().is_empty()
    }
}

/// A phone or e-mail: a bare value or `{type, value}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DetailIn {
    Typed {
        #[serde(default, rename = "type")]
        #[cfg_attr(feature = "ts", ts(optional))]
        label: Option<Text>,
        value: Text,
    },
    Bare(Text),
}

impl DetailIn {
    pub fn label(&self) -> Option<&str> {
        match self {
            DetailIn::Typed { label, .. } => {
                label.as_ref().map(Text::as_str).filter(|s| !s.is_empty())
            }
            DetailIn::Bare(_) => None,
        }
    }
    pub fn value(&self) -> &str {
        match self {
            DetailIn::Typed { value, .. } | DetailIn::Bare(value) => value.as_str(),
        }
    }
}

/// `phone` / `email`: one value, a list of values, or a list of `{type, value}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DetailsIn {
    Many(Vec<DetailIn>),
    One(DetailIn),
}

impl DetailsIn {
    fn into_vec(self) -> Vec<DetailIn> {
        match self {
            DetailsIn::Many(v) => v,
            DetailsIn::One(d) => vec![d],
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct DedupeRecord {
    #[serde(default)]
    pub id: Option<Value>,
    #[serde(default)]
    pub last_name: Option<Text>,
    #[serde(default)]
    pub first_name: Option<Text>,
    #[serde(default)]
    pub address: Option<Text>,
    #[serde(default)]
    pub postcode: Option<Text>,
    #[serde(default)]
    pub city: Option<Text>,
    #[serde(default)]
    pub province: Option<Text>,
    #[serde(default)]
    pub gender: Option<Text>,
    #[serde(default)]
    pub email: Option<DetailsIn>,
    #[serde(default)]
    pub phone: Option<DetailsIn>,
    #[serde(default)]
    pub country: Option<Text>,
    #[serde(default)]
    pub country_code: Option<Text>,
    /// The flat address's `country_named` (see `AddressIn::country_named`).
    #[serde(default, skip_serializing)]
    pub country_named: Option<Text>,
    #[serde(default)]
    pub tax_code: Option<Text>,
    #[serde(default)]
    pub birth_date: Option<Text>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub addresses: Vec<AddressIn>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub phones: Vec<DetailIn>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub emails: Vec<DetailIn>,
}

impl DedupeRecord {
    pub fn last_name(&self) -> &str {
        opt(&self.last_name)
    }
    pub fn first_name(&self) -> &str {
        opt(&self.first_name)
    }
    pub fn gender(&self) -> &str {
        opt(&self.gender)
    }
    pub fn tax_code(&self) -> &str {
        opt(&self.tax_code)
    }
    pub fn birth_date(&self) -> &str {
        opt(&self.birth_date)
    }

    /// Flat fields first (they count as the first address), then the list. The record's
    /// country applies to list addresses that state none.
    pub fn all_addresses(&self) -> Vec<AddressIn> {
        let flat = AddressIn {
            label: None,
            address: self.address.clone(),
            house_number: None,
            postcode: self.postcode.clone(),
            city: self.city.clone(),
            province: self.province.clone(),
            country: self.country.clone(),
            country_code: self.country_code.clone(),
            country_named: self.country_named.clone(),
        };
        let mut out = Vec::with_capacity(1 + self.addresses.len());
        if !flat.is_empty() {
            out.push(flat);
        }
        for a in &self.addresses {
            if a.is_empty() {
                continue;
            }
            let mut a = a.clone();
            if a.country().is_empty() && a.country_code().is_empty() {
                a.country = self.country.clone();
                a.country_code = self.country_code.clone();
            }
            out.push(a);
        }
        out
    }

    pub fn all_phones(&self) -> Vec<DetailIn> {
        flat_then_list(&self.phone, &self.phones)
    }

    pub fn all_emails(&self) -> Vec<DetailIn> {
        flat_then_list(&self.email, &self.emails)
    }

    /// Declared country of the record: `country_code`, else `country`, else province EE.
    pub fn declared_country(&self) -> (&str, &str, bool) {
        (
            opt(&self.country_code),
            opt(&self.country),
            opt(&self.province).eq_ignore_ascii_case("EE"),
        )
    }
}

/// The vCard TYPE vocabulary (RFC 6350 plus the common `cell`/`fax`/`pager`), from labels in
/// English, Italian and the usual address-book spellings.
pub fn vcard_type(label: Option<&str>) -> &'static str {
    let Some(label) = label else { return "other" };
    let l = crate::normalize::fold(label).to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| l.split(' ').any(|t| t == *w));
    if has(&["fax", "telefax"]) {
        "fax"
    } else if has(&["pager", "cercapersone"]) {
        "pager"
    } else if has(&[
        "cell",
        "cellulare",
        "mobile",
        "mobil",
        "cel",
        "gsm",
        "smartphone",
        "iphone",
        "handy",
        "movil",
        "portable",
    ]) {
        "cell"
    } else if has(&[
        "home",
        "casa",
        "abitazione",
        "privato",
        "private",
        "personal",
        "personale",
        "residenza",
        "domicilio",
    ]) {
        "home"
    } else if has(&[
        "work",
        "ufficio",
        "lavoro",
        "business",
        "azienda",
        "sede",
        "office",
        "aziendale",
        "work1",
        "work2",
    ]) {
        "work"
    } else if has(&["main", "principale"]) {
        "main"
    } else if has(&["pec"]) {
        "pec"
    } else if has(&["voice", "tel", "telefono", "fisso", "landline"]) {
        "voice"
    } else {
        "other"
    }
}

/// The flat field counts as the first contact detail, then the address-book list; empty values dropped.
fn flat_then_list(flat: &Option<DetailsIn>, list: &[DetailIn]) -> Vec<DetailIn> {
    let mut out = flat.clone().map(DetailsIn::into_vec).unwrap_or_default();
    out.extend(list.iter().cloned());
    out.retain(|d| !d.value().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_of_phone_and_email() {
        let r: DedupeRecord = serde_json::from_str(
            r#"{"id": 7, "phone": ["02 1234567", {"type": "Cellulare", "value": 3351234567}],
                "phones": ["+39 335 1234567"], "email": "a@b.it",
                "emails": [{"type": "work", "value": "info@b.it"}],
                "address": "Via Roma 1", "city": "Milano",
                "addresses": [{"type": "Casa", "address": "Corso Italia", "house_number": "5", "city": "Milano"}]}"#,
        )
        .unwrap();
        let phones = r.all_phones();
        assert_eq!(phones.len(), 3);
        assert_eq!(phones[1].value(), "3351234567");
        assert_eq!(vcard_type(phones[1].label()), "cell");
        assert_eq!(r.all_emails().len(), 2);
        let addrs = r.all_addresses();
        assert_eq!(addrs.len(), 2);
        assert_eq!(addrs[1].address(), "Corso Italia 5");
        assert_eq!(
            vcard_type(addrs[1].label.as_ref().map(Text::as_str)),
            "home"
        );
    }

    #[test]
    fn numbers_and_nulls_are_text() {
        let r: DedupeRecord = serde_json::from_str(
            r#"{"postcode": 20121, "phone": -5, "city": null, "gender": true, "tax_code": 1.5}"#,
        )
        .unwrap();
        assert_eq!(r.postcode.as_ref().map(Text::as_str), Some("20121"));
        assert_eq!(r.all_phones()[0].value(), "-5");
        assert_eq!(r.city.as_ref().map(Text::as_str).unwrap_or(""), "");
        assert_eq!(r.gender(), "true");
        assert_eq!(r.tax_code(), "1.5");
    }

    #[test]
    fn wrong_shapes_are_errors_not_panics() {
        assert!(serde_json::from_str::<DedupeRecord>(r#"{"phone": {"x": 1}}"#).is_err());
        assert!(serde_json::from_str::<DedupeRecord>(r#"{"last_name": ["a"]}"#).is_err());
        assert!(serde_json::from_str::<DedupeRecord>(r#"{"addresses": "Via Roma"}"#).is_err());
    }
}
