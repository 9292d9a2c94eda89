//! Foreign addresses verified in national registers. Every register is imported from its
//! published files (see `import::<cc>`) into one country-neutral model held in
//! memory for the whole process; `verify` is the seam the contact flow calls for a record of a
//! register country, and `registers` tells the catalogue what is in service.

mod answer;
pub mod answer_text;
mod choice;
pub mod geo;
pub mod grams;
pub mod line;
pub mod model;
mod place;
pub mod record;
pub mod suggest;
pub mod text;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use serde::Serialize;

use crate::address::{ContactInput, ContactResult};
use model::{CountryRegister, RegisterInfo};

/// Every imported register, by ISO alpha-2 country.
pub struct World {
    pub registers: HashMap<&'static str, CountryRegister>,
    /// Every folded locality name of every register, with the countries whose registers know
    /// it in alphabetical order: `foreign: detect` asks this of every run of words beside a
    /// postcode, one lookup where asking each register was one per register.
    locality_countries: rustc_hash::FxHashMap<String, Vec<&'static str>>,
}

static WORLD: RwLock<Option<Arc<World>>> = RwLock::new(None);
/// The world folder registers are imported from, set by the service at start.
static WORLD_DIR: RwLock<Option<PathBuf>> = RwLock::new(None);
/// One import at a time: the callers that arrive meanwhile wait for it.
static LOADING: Mutex<()> = Mutex::new(());

/// Sets the world folder; the registers are imported on first use (or by `load`).
pub fn use_dir(world_dir: &Path) {
    let mut dir = WORLD_DIR.write().unwrap_or_else(|e| e.into_inner());
    if dir.as_deref() != Some(world_dir) {
        *dir = Some(world_dir.to_path_buf());
        *WORLD.write().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// The registers in service, imported from the world folder the first time.
pub fn current() -> Option<Arc<World>> {
    if let Some(w) = WORLD.read().unwrap_or_else(|e| e.into_inner()).clone() {
        return Some(w);
    }
    let dir = WORLD_DIR
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()?;
    let _one = LOADING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(w) = WORLD.read().unwrap_or_else(|e| e.into_inner()).clone() {
        return Some(w);
    }
    // The import runs on a thread of its own and this caller simply blocks: a rayon worker that
    // waited inside the import's pool would steal other work meanwhile, and work that calls
    // `current` again on this thread would block on `LOADING` it already holds (a hang).
    std::thread::scope(|s| {
        if let Err(panic) = s.spawn(|| load(&dir)).join() {
            std::panic::resume_unwind(panic);
        }
    });
    WORLD.read().unwrap_or_else(|e| e.into_inner()).clone()
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LoadSummary {
    pub registers: Vec<RegisterInfo>,
    pub missing: Vec<String>,
    pub elapsed_ms: u64,
}

impl World {
    /// Imports every register whose files are under `world_dir` (`registers/<cc>/…`, `osm/…`,
    /// `libpostal/dictionaries`). A country whose files are absent is listed in `missing`.
    pub fn import(world_dir: &Path) -> (World, Vec<String>) {
        let results = crate::import::world::import_all(world_dir);
        let mut registers: HashMap<&'static str, CountryRegister> = HashMap::new();
        let mut missing = Vec::new();
        for (cc, r) in results {
            match r {
                Ok(mut reg) => {
                    reg.finish();
                    registers.insert(cc, reg);
                }
                Err(e) => missing.push(format!("{cc}: {e}")),
            }
        }
        (World::of(registers), missing)
    }

    /// The registers with the index of their locality names built.
    pub fn of(registers: HashMap<&'static str, CountryRegister>) -> World {
        let mut locality_countries: rustc_hash::FxHashMap<String, Vec<&'static str>> =
            rustc_hash::FxHashMap::default();
        for (cc, r) in &registers {
            for name in r.locality_by_name.keys() {
                locality_countries.entry(name.clone()).or_default().push(cc);
            }
        }
        for v in locality_countries.values_mut() {
            v.sort_unstable();
        }
        World {
            registers,
            locality_countries,
        }
    }

    /// The countries whose registers know a locality of that folded name, in alphabetical order.
    pub fn countries_of_locality(&self, folded: &str) -> &[&'static str] {
        self.locality_countries
            .get(folded)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn infos(&self) -> Vec<RegisterInfo> {
        let mut v: Vec<RegisterInfo> = self.registers.values().map(|r| r.info.clone()).collect();
        v.sort_by(|a, b| a.country.cmp(b.country));
        v
    }
}

/// Imports the registers under `world_dir` and puts them in service for the process.
pub fn load(world_dir: &Path) -> LoadSummary {
    let t = Instant::now();
    let (world, missing) = World::import(world_dir);
    let registers = world.infos();
    *WORLD_DIR.write().unwrap_or_else(|e| e.into_inner()) = Some(world_dir.to_path_buf());
    *WORLD.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(world));
    LoadSummary {
        registers,
        missing,
        elapsed_ms: t.elapsed().as_millis() as u64,
    }
}

/// What is in service, per country: the catalogue's source.
pub fn registers() -> Vec<RegisterInfo> {
    current().map(|w| w.infos()).unwrap_or_default()
}

/// The seam of the contact flow: a record of a register country verified in its register.
/// None when no register of the country is in service, or the record lies outside what it
/// covers at street level (the postal form answers it then).
pub fn verify(country: &str, input: &ContactInput, base: &ContactResult) -> Option<ContactResult> {
    let world = current()?;
    let reg = world.registers.get(country)?;
    record::verify(reg, input, base)
}

/// Whether a register of the country is in service.
pub fn has_register(country: &str) -> bool {
    current().is_some_and(|w| w.registers.contains_key(country))
}

/// The localities of a postcode in a country's register (for the postal form: a postcode that
/// exists, and the names of its places). None when the country has no register in service.
pub fn postcode_localities(country: &str, postcode: &str) -> Option<Vec<String>> {
    let world = current()?;
    let reg = world.registers.get(country)?;
    let code = crate::postal::postcode::key(country, postcode);
    Some(
        reg.localities_by_postcode
            .get(&code)
            .map(|ids| {
                ids.iter()
                    .map(|&i| reg.localities[i as usize].name.clone())
                    .collect()
            })
            .unwrap_or_default(),
    )
}

/// The countries whose registers know a locality of that name (`foreign: detect`'s "known
/// foreign city"), in alphabetical order.
pub fn countries_of_city(name: &str) -> Vec<&'static str> {
    let Some(world) = current() else {
        return Vec::new();
    };
    world
        .countries_of_locality(&crate::normalize::fold(name))
        .to_vec()
}

/// A batch of records, each in the register of its `country_code`, on rayon; null where no
/// register answers (for benches and tools: the contact flow goes through `verify`).
pub fn verify_batch(inputs: &[ContactInput]) -> Vec<Option<ContactResult>> {
    use rayon::prelude::*;
    let Some(world) = current() else {
        return vec![None; inputs.len()];
    };
    inputs
        .par_iter()
        .map(|i| {
            let cc = i
                .country_code
                .as_deref()
                .unwrap_or("")
                .trim()
                .to_uppercase();
            let reg = world.registers.get(cc.as_str())?;
            let mut base = ContactResult::default();
            base.outcome.clear();
            record::verify(reg, i, &base)
        })
        .collect()
}

#[cfg(test)]
mod tests;
