//! INSPIRE Addresses (AD 3.0/4.0) GML, the schema several EU registers publish in (Spain's
//! Catastro, and the national address services of other member states): `AD:Address` features
//! with a position, a locator designator (the house number) and `component` links to the
//! `ThoroughfareName` (street), `PostalDescriptor` (postcode), `AddressAreaName` (locality) and
//! `AdminUnitName` (municipality) features of the same file. This module reads any such file;
//! each country's importer says how its names and codes are written.

use std::collections::HashMap;

use super::xml::{self, attr, Node};
use crate::Result;

#[derive(Debug, Default, Clone)]
pub struct Address {
    pub id: String,
    /// locator designators in order (`10`, `10A`, `S-N`)
    pub designators: Vec<String>,
    pub point: Option<(f64, f64)>,
    /// gml:ids of the components (without `#`)
    pub components: Vec<String>,
}

#[derive(Debug, Default, Clone)]
pub struct AdminUnit {
    pub name: String,
    /// the unit's code as published (`alternativeIdentifier`, else its local id)
    pub code: String,
    /// administrative level (`4` municipality in Catastro files)
    pub level: u8,
}

#[derive(Debug, Default)]
pub struct File {
    pub addresses: Vec<Address>,
    /// gml:id → street name
    pub thoroughfares: HashMap<String, String>,
    /// gml:id → (postcode, post name)
    pub postcodes: HashMap<String, (String, String)>,
    /// gml:id → locality name
    pub areas: HashMap<String, String>,
    pub admin_units: HashMap<String, AdminUnit>,
}

enum Feature {
    None,
    Address(Address),
    Thoroughfare(String, String),
    Postal(String, String, String),
    Area(String, String),
    Admin(String, AdminUnit),
}

/// Reads one INSPIRE AD file (ISO-8859-1 or UTF-8 as its declaration says).
pub fn read(bytes: &[u8]) -> Result<File> {
    let text = xml::decode(bytes);
    let mut out = File::default();
    let mut feature = Feature::None;
    let mut depth = 0usize;
    let mut srs: Option<u32> = None;
    xml::walk(&text, |path, node| {
        let here = path.last().map(String::as_str).unwrap_or("");
        match node {
            Node::Open(attrs) => {
                if matches!(feature, Feature::None) {
                    let id = attr(attrs, "id").unwrap_or("").to_string();
                    feature = match here {
                        "Address" => Feature::Address(Address {
                            id,
                            ..Default::default()
                        }),
                        "ThoroughfareName" => Feature::Thoroughfare(id, String::new()),
                        "PostalDescriptor" => Feature::Postal(id, String::new(), String::new()),
                        "AddressAreaName" => Feature::Area(id, String::new()),
                        "AdminUnitName" => Feature::Admin(id, AdminUnit::default()),
                        _ => return,
                    };
                    depth = path.len();
                    return;
                }
                if let Some(s) = attr(attrs, "srsName") {
                    srs = xml::epsg(s);
                }
                if let (Feature::Address(a), "component") = (&mut feature, here) {
                    if let Some(h) = attr(attrs, "href") {
                        a.components.push(h.trim_start_matches('#').to_string());
                    }
                }
            }
            Node::Text(t) => {
                let parent = path
                    .len()
                    .checked_sub(2)
                    .map(|i| path[i].as_str())
                    .unwrap_or("");
                match &mut feature {
                    Feature::Address(a) => match here {
                        "pos" if a.point.is_none() => a.point = xml::position(srs, t),
                        "designator" if parent == "LocatorDesignator" => {
                            a.designators.push(t.to_string())
                        }
                        _ => {}
                    },
                    // the first spelling is the name (a feature may carry others)
                    Feature::Thoroughfare(_, name) | Feature::Area(_, name)
                        if here == "text" && name.is_empty() =>
                    {
                        *name = t.to_string();
                    }
                    Feature::Postal(_, code, name) => match here {
                        "postCode" => *code = t.to_string(),
                        "text" if name.is_empty() => *name = t.to_string(),
                        _ => {}
                    },
                    Feature::Admin(_, unit) => match here {
                        "text" if unit.name.is_empty() => unit.name = t.to_string(),
                        "alternativeIdentifier" => unit.code = t.to_string(),
                        "localId" if unit.code.is_empty() => unit.code = t.to_string(),
                        "level" => unit.level = t.parse().unwrap_or(0),
                        _ => {}
                    },
                    _ => {}
                }
            }
            Node::Close => {
                if path.len() != depth || matches!(feature, Feature::None) {
                    return;
                }
                match std::mem::replace(&mut feature, Feature::None) {
                    Feature::Address(a) => out.addresses.push(a),
                    Feature::Thoroughfare(id, name) => {
                        out.thoroughfares.insert(id, name.trim().to_string());
                    }
                    Feature::Postal(id, code, name) => {
                        out.postcodes.insert(id, (code, name));
                    }
                    Feature::Area(id, name) => {
                        out.areas.insert(id, name.trim().to_string());
                    }
                    Feature::Admin(id, unit) => {
                        out.admin_units.insert(id, unit);
                    }
                    Feature::None => {}
                }
            }
        }
    })?;
    Ok(out)
}

impl File {
    /// The street, postcode, locality and municipality an address links to.
    pub fn parts<'a>(&'a self, a: &'a Address) -> Parts<'a> {
        let mut p = Parts::default();
        for c in &a.components {
            if let Some(n) = self.thoroughfares.get(c) {
                p.street.get_or_insert(n);
            } else if let Some((code, name)) = self.postcodes.get(c) {
                p.postcode.get_or_insert(code);
                if !name.is_empty() {
                    p.post_name.get_or_insert(name);
                }
            } else if let Some(n) = self.areas.get(c) {
                p.area.get_or_insert(n);
            } else if let Some(u) = self.admin_units.get(c) {
                // the lowest unit (highest level) is the municipality
                if p.admin.is_none_or(|have| u.level > have.level) {
                    p.admin = Some(u);
                }
            }
        }
        p
    }
}

#[derive(Debug, Default)]
pub struct Parts<'a> {
    pub street: Option<&'a String>,
    pub postcode: Option<&'a String>,
    pub post_name: Option<&'a String>,
    pub area: Option<&'a String>,
    pub admin: Option<&'a AdminUnit>,
}
