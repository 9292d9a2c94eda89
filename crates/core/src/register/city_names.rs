//! Fuzzy index of municipality and province names, built from the register's municipalities the
//! first time an address asks for one (`Register::city_names`).

use super::municipality::{name_key, short_keys};
use super::street::DeletionIndex;
use super::Register;
use crate::normalize::{compact, fold};

/// Fuzzy lookup of municipality names, built once per process from the register.
pub struct CityNames {
    index: DeletionIndex,
    slots: Vec<Vec<usize>>,
    provinces: std::collections::HashMap<String, String>,
    /// Province names as people write them (`name_key` form) → code.
    province_keys: std::collections::HashMap<String, String>,
}

impl CityNames {
    pub fn build(register: &Register) -> CityNames {
        let mut by_key: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
        let mut provinces = std::collections::HashMap::new();
        for (i, r) in register.municipalities.records.iter().enumerate() {
            let Some(c) = &r.current else { continue };
            let mut names = vec![c.name.as_str(), c.alt_name.as_str()];
            names.extend(c.former_names.iter().map(String::as_str));
            for n in names.into_iter().filter(|n| !n.is_empty()) {
                let v = by_key.entry(compact(n)).or_default();
                if !v.contains(&i) {
                    v.push(i);
                }
            }
            provinces.insert(fold(&c.province_name), c.province.clone());
            provinces.insert(c.province.clone(), c.province.clone());
        }
        // a former province's code (`PS` until 1998, `OT`, `CI`, `VS`, `OG` until 2016, still
        // written): the province most of its municipalities are in today
        let mut former: std::collections::HashMap<&str, std::collections::HashMap<&str, usize>> =
            Default::default();
        for r in &register.municipalities.records {
            let Some(c) = &r.current else { continue };
            for p in &r.periods {
                if p.province.len() == 2 && !provinces.contains_key(&p.province) {
                    *former
                        .entry(p.province.as_str())
                        .or_default()
                        .entry(c.province.as_str())
                        .or_default() += 1;
                }
            }
        }
        let former: Vec<(String, String)> = former
            .into_iter()
            .filter_map(|(code, today)| {
                let most = today.into_iter().max_by_key(|(p, n)| (*n, *p))?.0;
                Some((code.to_string(), most.to_string()))
            })
            .collect();
        provinces.extend(former);
        // the names people write for a province: each language of `Bolzano/Bozen`, the name
        // without its joining words (`Reggio Emilia`), and its leading words where only one
        // province starts so (`Monza`, `Pesaro`) — never a code, never a key two provinces share
        let mut written: std::collections::HashMap<String, Vec<String>> = Default::default();
        for c in register
            .municipalities
            .records
            .iter()
            .filter_map(|r| r.current.as_ref())
        {
            let mut forms: Vec<String> = vec![c.province_name.clone()];
            forms.extend(c.province_name.split('/').map(str::to_string));
            let mut keys: Vec<String> = forms.iter().map(|f| name_key(f)).collect();
            for f in &forms {
                keys.extend(short_keys(f));
            }
            for k in keys.into_iter().filter(|k| k.len() > 2) {
                let v = written.entry(k).or_default();
                if !v.contains(&c.province) {
                    v.push(c.province.clone());
                }
            }
        }
        let province_keys: std::collections::HashMap<String, String> = written
            .into_iter()
            .filter(|(_, v)| v.len() == 1)
            .map(|(k, mut v)| (k, v.remove(0)))
            .collect();
        let mut keys = Vec::with_capacity(by_key.len());
        let mut slots = Vec::with_capacity(by_key.len());
        for (k, v) in by_key {
            keys.push(k);
            slots.push(v);
        }
        CityNames {
            index: DeletionIndex::build(keys, 3),
            slots,
            provinces,
            province_keys,
        }
    }

    /// Municipalities (indexes into `municipalities.records`) whose name is within `distance` edits.
    pub fn near(&self, name: &str, distance: u32) -> Vec<(usize, u32)> {
        let key = compact(name);
        let mut out = Vec::new();
        for (id, d) in self.index.near(&key, distance) {
            for &i in self.slots.get(id as usize).into_iter().flatten() {
                out.push((i, d));
            }
        }
        out
    }

    /// `MI`, `mi`, `Milano`, `(MI)` → `MI`.
    pub fn province_code(&self, text: &str) -> Option<String> {
        let f = fold(text);
        if f.is_empty() {
            return None;
        }
        self.provinces
            .get(&f)
            .or_else(|| self.province_keys.get(&name_key(text)))
            .cloned()
    }
}
