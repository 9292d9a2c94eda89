//! National registers: municipalities, foreign countries (and, later, streets and house numbers),
//! imported from open data into LMDB and opened read-only by every worker.

pub mod attribution;
pub mod city_names;
pub mod country;
pub mod municipality;
pub mod names;
pub mod search;
pub mod store;
pub mod street;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use country::{Countries, Country};
pub use municipality::{Municipalities, Municipality, MunicipalityPeriod};

use crate::Result;

/// What an import wrote, kept in the store so a running service can tell what it serves.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ImportSummary {
    pub imported_at: String,
    pub source: String,
    pub datasets: Vec<DatasetSummary>,
    pub duration_ms: u64,
    pub size_bytes: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DatasetSummary {
    pub name: String,
    pub file: String,
    pub rows: u64,
    pub attribution: String,
}

/// The register as the matching code sees it: read-only, loaded once per process.
pub struct Register {
    pub dir: PathBuf,
    pub summary: ImportSummary,
    pub municipalities: Municipalities,
    pub countries: Countries,
    /// First-name equivalences and role mailboxes for deduplication (empty when not imported).
    pub names: names::Names,
    /// Streets and house numbers, loaded per municipality on first use.
    pub streets: street::StreetIndex,
    /// Fuzzy index of municipality names for address matching, built on first use.
    city_names: std::sync::OnceLock<city_names::CityNames>,
    /// Postal formats of every country as imported (`world/formats`), until `postal` reads them.
    postal_data: std::sync::Mutex<Option<serde_json::Value>>,
    /// What `postal` builds from them on first use (its compiled formats). The register holds the
    /// slot, not the type: it imports no engine.
    postal_formats: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

impl Register {
    pub fn open(data_dir: &Path) -> Result<Register> {
        let dir = store::register_dir(data_dir);
        let env = store::open_read_only(&dir)?;
        let rtxn = env.read_txn()?;
        let dbs = store::Databases::open(&env, &rtxn)?;
        let summary = dbs.summary(&rtxn)?;
        let municipalities = Municipalities::load(&dbs, &rtxn)?;
        let countries = Countries::load(&dbs, &rtxn)?;
        let names = names::Names::load(&dbs, &rtxn)?;
        let postal_data = dbs.meta.get(&rtxn, "postal_formats")?;
        // committing a read transaction keeps the database handles it opened valid for later ones
        rtxn.commit()?;
        let streets = street::StreetIndex::open(
            env,
            Some(dbs.streets),
            Some(dbs.street_fsts),
            Some(dbs.meta),
        );
        Ok(Register {
            dir,
            summary,
            municipalities,
            countries,
            names,
            streets,
            city_names: std::sync::OnceLock::new(),
            postal_data: std::sync::Mutex::new(postal_data),
            postal_formats: std::sync::OnceLock::new(),
        })
    }

    /// Fuzzy index of municipality and province names, built on first use.
    pub fn city_names(&self) -> &city_names::CityNames {
        self.city_names
            .get_or_init(|| city_names::CityNames::build(self))
    }

    /// The postal formats as `postal` builds them from the imported data (`None` when
    /// `world/formats` was not imported), built once, on first use. One type per register: the
    /// postal engine's `Formats`.
    pub fn postal_formats<T: std::any::Any + Send + Sync>(
        &self,
        build: impl FnOnce(Option<serde_json::Value>) -> T,
    ) -> &T {
        self.postal_formats
            .get_or_init(|| {
                let data = self
                    .postal_data
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .take();
                Box::new(build(data))
            })
            .downcast_ref::<T>()
            .expect("one type of postal formats per register")
    }

    /// Attribution lines of every dataset in service, one per source, deduplicated.
    pub fn attributions(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        for d in &self.summary.datasets {
            if !d.attribution.is_empty() && !lines.contains(&d.attribution) {
                lines.push(d.attribution.clone());
            }
        }
        lines
    }
}
