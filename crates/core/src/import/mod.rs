//! `recapito import`: reads open data in the formats its publishers use and writes the register.
//! Each source format is a module of its own, grouped by country (`it/`, `ch/`, `de/`…; `world`
//! runs the foreign ones); `street_builder` is the country-neutral street model they fill, and this
//! module orchestrates them and reports progress.

pub mod be;
pub mod ch;
pub mod checkpoint;
pub mod cz;
pub mod de;
pub mod dk;
pub mod es;
pub mod fi;
pub mod formats;
pub mod inspire;
pub mod it;
pub mod lu;
pub mod names;
pub mod nl;
pub mod no;
pub mod osm;
pub mod pt;
pub mod reproject;
pub mod shapefile;
pub mod si;
pub mod source;
pub mod spill;
pub mod street_builder;
pub mod world;
pub mod xml;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::register::store::{self, Databases};
use crate::register::{DatasetSummary, ImportSummary};
use crate::{Error, Result};

/// Shared progress of the import running in this process, read by the CLI's progress bar:
/// the stage, how far it is (`done` of `total`, in the stage's unit: rows, municipalities, or the
/// bytes of a big file, whose size is known before its rows are), and the rows it has read.
pub struct Progress {
    stage: Mutex<String>,
    done: AtomicU64,
    total: AtomicU64,
    rows: AtomicU64,
}

pub static PROGRESS: Progress = Progress {
    stage: Mutex::new(String::new()),
    done: AtomicU64::new(0),
    total: AtomicU64::new(0),
    rows: AtomicU64::new(0),
};

/// What the CLI shows: stage, done, total, rows.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressSnapshot {
    pub stage: String,
    pub done: u64,
    pub total: u64,
    pub rows: u64,
}

impl Progress {
    pub fn start(&self, stage: &str, total: u64) {
        *self.stage.lock().unwrap_or_else(|e| e.into_inner()) = stage.to_string();
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.rows.store(0, Ordering::Relaxed);
    }

    /// `n` more rows done, in a stage whose unit is rows.
    pub fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
        self.rows.fetch_add(n, Ordering::Relaxed);
    }

    /// `n` more bytes read, in a stage whose unit is the bytes of its file.
    pub fn advance_bytes(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// `n` more rows read, in a stage whose unit is bytes.
    pub fn advance_rows(&self, n: u64) {
        self.rows.fetch_add(n, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> ProgressSnapshot {
        ProgressSnapshot {
            stage: self.stage.lock().unwrap_or_else(|e| e.into_inner()).clone(),
            done: self.done.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
            rows: self.rows.load(Ordering::Relaxed),
        }
    }
}

/// A reader that counts its bytes into `PROGRESS.done` (a big file's progress is its bytes).
pub struct CountingReader<R>(pub R);

impl<R: std::io::Read> std::io::Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        PROGRESS.advance_bytes(n as u64);
        Ok(n)
    }
}

/// Everything an importer module needs: the source folder, the write transaction, the summary,
/// and the work area of a big import (its checkpoint and sorted runs).
pub struct ImportContext<'a> {
    pub source: &'a Path,
    pub env: &'a heed::Env,
    pub dbs: &'a Databases,
    pub datasets: Vec<DatasetSummary>,
    pub work: checkpoint::Work,
}

impl ImportContext<'_> {
    pub fn record(&mut self, name: &str, file: &Path, rows: u64, attribution: &str) {
        self.datasets.push(DatasetSummary {
            name: name.to_string(),
            file: file
                .strip_prefix(self.source)
                .unwrap_or(file)
                .display()
                .to_string(),
            rows,
            attribution: attribution.to_string(),
        });
    }
}

/// Builds the register from `source` into `<data_dir>/register`, replacing any previous one
/// only once the new one is complete; continues an interrupted import of the same source
/// (`checkpoint.rs`).
pub fn run(source: &Path, data_dir: &Path) -> Result<ImportSummary> {
    run_with(source, data_dir, checkpoint::Options::default())
}

pub fn run_with(
    source: &Path,
    data_dir: &Path,
    options: checkpoint::Options,
) -> Result<ImportSummary> {
    let started = Instant::now();
    source::check(source)?;
    std::fs::create_dir_all(data_dir)?;
    // one import at a time per data dir: a second waits (they share the work area below)
    let lock = std::fs::File::create(data_dir.join("register.import.lock"))?;
    lock.lock()?;
    let building: PathBuf = data_dir.join("register.building");
    let work = checkpoint::Work::open(source, data_dir, &building, options)?;
    if work.resumed {
        eprintln!(
            "import: continuing the interrupted import in {} ({} runs of house numbers committed)",
            building.display(),
            work.checkpoint.runs.len()
        );
    }
    let env = store::create(&building)?;
    let mut wtxn = env.write_txn()?;
    let dbs = Databases::create(&env, &mut wtxn)?;
    wtxn.commit()?;

    let mut ctx = ImportContext {
        source,
        env: &env,
        dbs: &dbs,
        datasets: Vec::new(),
        work,
    };
    it::comuni::import(&mut ctx)?;
    it::esteri::import(&mut ctx)?;
    it::streets::import(&mut ctx)?;
    names::import(&mut ctx)?;
    formats::import(&mut ctx)?;

    let work = ctx.work;
    let mut summary = ImportSummary {
        imported_at: chrono::Utc::now().to_rfc3339(),
        source: source.display().to_string(),
        datasets: ctx.datasets,
        duration_ms: 0,
        size_bytes: 0,
    };
    summary.duration_ms = started.elapsed().as_millis() as u64;
    let mut wtxn = env.write_txn()?;
    dbs.meta
        .put(&mut wtxn, "summary", &serde_json::to_value(&summary)?)?;
    wtxn.commit()?;
    env.force_sync()?;
    drop(env);
    summary.size_bytes = std::fs::metadata(building.join("data.mdb"))?.len();

    let target = store::register_dir(data_dir);
    if target.exists() {
        std::fs::remove_dir_all(&target)?;
    }
    std::fs::rename(&building, &target)?;
    work.finish()?;
    drop(lock);
    Ok(summary)
}

/// The newest of the dated files in `dir` whose name begins with `prefix` and ends with one of
/// `endings` (`gi_cap_2026-01-31.csv`): their dates sort as their names do.
pub fn newest_dated(dir: &Path, prefix: &str, endings: &[&str]) -> Option<std::path::PathBuf> {
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && endings.iter().any(|e| n.ends_with(e)))
        })
        .collect();
    found.sort();
    found.pop()
}

/// Opens the text every importer reads: gunzipped when the name says so, BOM skipped.
pub fn open_text(path: &Path) -> Result<Box<dyn std::io::BufRead>> {
    use std::io::BufRead;
    let file =
        std::fs::File::open(path).map_err(|_| Error::SourceMissing(path.display().to_string()))?;
    let mut reader: Box<dyn std::io::BufRead> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(std::io::BufReader::new(file)),
        ))
    } else {
        Box::new(std::io::BufReader::with_capacity(1 << 16, file))
    };
    if reader.fill_buf()?.starts_with(&[0xEF, 0xBB, 0xBF]) {
        reader.consume(3);
    }
    Ok(reader)
}

pub fn csv_reader(path: &Path, delimiter: u8) -> Result<csv::Reader<Box<dyn std::io::BufRead>>> {
    Ok(csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(open_text(path)?))
}
