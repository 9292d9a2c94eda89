//! The LMDB databases of streets, and the per-process cache of municipalities loaded from them.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use heed::types::{Bytes, SerdeJson, Str as HeedStr};
use heed::{Database, Env};

use super::{CityStreets, CityStreetsRecord};
use crate::Result;

/// The LMDB databases of streets, and the per-process cache of loaded municipalities.
pub struct StreetIndex {
    env: Option<Env>,
    streets: Option<Database<HeedStr, SerdeJson<CityStreetsRecord>>>,
    fsts: Option<Database<HeedStr, Bytes>>,
    meta: Option<Database<HeedStr, SerdeJson<serde_json::Value>>>,
    cache: RwLock<HashMap<String, Arc<CityStreets>>>,
    /// Frazioni and località by compact name → cadastral codes, loaded on first use.
    hamlets: std::sync::OnceLock<HashMap<String, Vec<String>>>,
}

impl StreetIndex {
    pub fn empty() -> StreetIndex {
        StreetIndex {
            env: None,
            streets: None,
            fsts: None,
            meta: None,
            cache: RwLock::new(HashMap::new()),
            hamlets: std::sync::OnceLock::new(),
        }
    }

    pub fn open(
        env: Env,
        streets: Option<Database<HeedStr, SerdeJson<CityStreetsRecord>>>,
        fsts: Option<Database<HeedStr, Bytes>>,
        meta: Option<Database<HeedStr, SerdeJson<serde_json::Value>>>,
    ) -> StreetIndex {
        StreetIndex {
            env: Some(env),
            streets,
            fsts,
            meta,
            cache: RwLock::new(HashMap::new()),
            hamlets: std::sync::OnceLock::new(),
        }
    }

    /// Municipalities (cadastral codes) having a frazione or località of this name.
    pub fn hamlet(&self, name: &str) -> &[String] {
        let map = self.hamlets.get_or_init(|| {
            let (Some(env), Some(meta)) = (&self.env, &self.meta) else {
                return HashMap::new();
            };
            env.read_txn()
                .ok()
                .and_then(|rtxn| meta.get(&rtxn, "hamlets").ok().flatten())
                .and_then(|v| serde_json::from_value(v).ok())
                .unwrap_or_default()
        });
        map.get(&crate::normalize::compact(name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The streets of a municipality by cadastral code; None when the register has none.
    pub fn city(&self, cadastral: &str) -> Option<Arc<CityStreets>> {
        if let Some(c) = self
            .cache
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(cadastral)
        {
            return Some(c.clone());
        }
        let loaded = match self.load(cadastral) {
            Ok(l) => l?,
            Err(e) => {
                eprintln!("streets of {cadastral}: {e}");
                return None;
            }
        };
        let arc = Arc::new(loaded);
        self.cache
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(cadastral.to_string(), arc.clone());
        Some(arc)
    }

    fn load(&self, cadastral: &str) -> Result<Option<CityStreets>> {
        let (Some(env), Some(db)) = (&self.env, &self.streets) else {
            return Ok(None);
        };
        let rtxn = env.read_txn()?;
        let Some(record) = db.get(&rtxn, cadastral)? else {
            return Ok(None);
        };
        let fst_bytes = match &self.fsts {
            Some(f) => f.get(&rtxn, cadastral)?.map(<[u8]>::to_vec),
            None => None,
        };
        Ok(Some(CityStreets::build(record, fst_bytes)?))
    }

    /// Whether the register has streets at all (an import without ANNCSU has none).
    pub fn available(&self) -> bool {
        self.streets.is_some()
    }
}
