//! LMDB layout of the register. One environment under `<data-dir>/register`, written by the
//! importer in one pass and opened read-only (memory-mapped) by the service and its workers.

use std::path::{Path, PathBuf};

use heed::types::{Bytes, SerdeJson, Str};
use heed::{Database, Env, EnvFlags, EnvOpenOptions, RoTxn};

use super::country::Country;
use super::municipality::MunicipalityRecord;
use super::street::CityStreetsRecord;
use super::ImportSummary;
use crate::{Error, Result};

/// Address space, not memory: the national register (25 million house numbers) is ~1.1 GiB.
pub const MAP_SIZE: usize = 32 << 30;
const MAX_DBS: u32 = 32;

pub fn register_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("register")
}

pub fn exists(data_dir: &Path) -> bool {
    register_dir(data_dir).join("data.mdb").exists()
}

pub fn open_read_only(dir: &Path) -> Result<Env> {
    if !dir.join("data.mdb").exists() {
        return Err(Error::RegisterMissing(dir.display().to_string()));
    }
    // SAFETY: the register is written only by the importer, which builds it in a fresh
    // directory and renames it into place; readers never see a half-written environment.
    let env = unsafe {
        EnvOpenOptions::new()
            .map_size(MAP_SIZE)
            .max_dbs(MAX_DBS)
            .flags(EnvFlags::READ_ONLY | EnvFlags::NO_LOCK)
            .open(dir)?
    };
    Ok(env)
}

pub fn create(dir: &Path) -> Result<Env> {
    std::fs::create_dir_all(dir)?;
    // SAFETY: the importer owns this fresh directory; nobody else opens it until it is renamed.
    let env = unsafe {
        EnvOpenOptions::new()
            .map_size(MAP_SIZE)
            .max_dbs(MAX_DBS)
            .open(dir)?
    };
    Ok(env)
}

/// The named databases of the register.
pub struct Databases {
    pub meta: Database<Str, SerdeJson<serde_json::Value>>,
    pub municipalities: Database<Str, SerdeJson<MunicipalityRecord>>,
    pub countries: Database<Str, SerdeJson<Country>>,
    /// Streets with their house numbers, per municipality (cadastral code).
    pub streets: Database<Str, SerdeJson<CityStreetsRecord>>,
    /// The fst of each municipality's street names (see `street.rs`).
    pub street_fsts: Database<Str, Bytes>,
}

impl Databases {
    pub fn open(env: &Env, rtxn: &RoTxn) -> Result<Databases> {
        let missing = || Error::RegisterMissing(env.path().display().to_string());
        Ok(Databases {
            meta: env.open_database(rtxn, Some("meta"))?.ok_or_else(missing)?,
            municipalities: env
                .open_database(rtxn, Some("municipalities"))?
                .ok_or_else(missing)?,
            countries: env
                .open_database(rtxn, Some("countries"))?
                .ok_or_else(missing)?,
            streets: env
                .open_database(rtxn, Some("streets"))?
                .ok_or_else(missing)?,
            street_fsts: env
                .open_database(rtxn, Some("street_fsts"))?
                .ok_or_else(missing)?,
        })
    }

    pub fn create(env: &Env, wtxn: &mut heed::RwTxn) -> Result<Databases> {
        Ok(Databases {
            meta: env.create_database(wtxn, Some("meta"))?,
            municipalities: env.create_database(wtxn, Some("municipalities"))?,
            countries: env.create_database(wtxn, Some("countries"))?,
            streets: env.create_database(wtxn, Some("streets"))?,
            street_fsts: env.create_database(wtxn, Some("street_fsts"))?,
        })
    }

    pub fn summary(&self, rtxn: &RoTxn) -> Result<ImportSummary> {
        match self.meta.get(rtxn, "summary")? {
            Some(v) => Ok(serde_json::from_value(v)?),
            None => Ok(ImportSummary::default()),
        }
    }
}
