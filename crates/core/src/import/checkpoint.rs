//! Resuming an import after a kill. A national import takes tens of minutes; an operator who
//! loses the process (OOM killer, reboot, Ctrl-C) re-runs `recapito import` and it continues.
//!
//! The import works in `<data dir>/register.building` (the LMDB environment) and
//! `<data dir>/register.import` (this checkpoint and the sorted runs of `spill.rs`). Two kinds of
//! chunk are committed:
//! - while a house-number file streams in, each full buffer becomes a run file, then the
//!   checkpoint records how many records of that file are in the runs (written to a temporary
//!   file, synced, renamed: a kill leaves the previous checkpoint or the new one);
//! - while the municipalities are written, each LMDB transaction of municipalities also stores the
//!   last municipality it holds (`import_written_through`), in the same transaction.
//!
//! A re-run with the same source (same files, sizes and modification times) re-reads the street
//! files (streets are cheap and rebuilt in the same order, so street indexes agree), re-reads the
//! committed records of each house-number file for their streets only, appends only the numbers
//! after them, and skips the municipalities already written. A different source starts afresh.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::spill::{Merge, Spill};
use crate::Result;

/// Records per run by default: ~1 million house numbers is ~100 MB of buffer.
pub const CHUNK_ROWS: usize = 1_000_000;

/// How an import cuts its work.
#[derive(Debug, Clone)]
pub struct Options {
    /// House numbers buffered before a run is written (`RECAPITO_IMPORT_CHUNK_ROWS`).
    pub chunk_rows: usize,
    /// Bytes of municipality records per LMDB transaction.
    pub commit_bytes: usize,
    /// For tests: stop (as a kill would, leaving everything in place) after this many chunks.
    pub stop_after_chunks: Option<usize>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            chunk_rows: std::env::var("RECAPITO_IMPORT_CHUNK_ROWS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(CHUNK_ROWS),
            commit_bytes: 128 << 20,
            stop_after_chunks: None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Checkpoint {
    /// What the source looked like when the import began.
    pub fingerprint: String,
    /// For each house-number file (path under the source), the records whose numbers are in runs.
    pub files: BTreeMap<String, u64>,
    /// Run files committed, in order.
    pub runs: Vec<String>,
}

const CHECKPOINT: &str = "checkpoint.json";

impl Checkpoint {
    pub fn load(work: &Path) -> Option<Checkpoint> {
        let text = std::fs::read(work.join(CHECKPOINT)).ok()?;
        serde_json::from_slice(&text).ok()
    }

    pub fn save(&self, work: &Path) -> Result<()> {
        let tmp = work.join(format!("{CHECKPOINT}.tmp"));
        let file = std::fs::File::create(&tmp)?;
        serde_json::to_writer(&file, self)?;
        file.sync_all()?;
        std::fs::rename(&tmp, work.join(CHECKPOINT))?;
        Ok(())
    }
}

/// Every file under `source/it` with its size and modification time: a re-run resumes only on
/// the same data (street indexes in the runs depend on it).
pub fn fingerprint(source: &Path) -> Result<String> {
    let mut entries: Vec<String> = Vec::new();
    let mut stack = vec![source.join("it")];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in read.flatten() {
            let path = e.path();
            let meta = std::fs::metadata(&path)?;
            if meta.is_dir() {
                stack.push(path);
                continue;
            }
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs())
                .unwrap_or(0);
            let rel = path.strip_prefix(source).unwrap_or(&path);
            entries.push(format!("{}:{}:{}", rel.display(), meta.len(), mtime));
        }
    }
    entries.sort();
    Ok(format!("{}|{}", source.display(), entries.join("|")))
}

/// The import's work area: checkpoint, runs, and the chunk counter the tests stop on.
pub struct Work {
    pub dir: PathBuf,
    pub checkpoint: Checkpoint,
    pub spill: Spill,
    pub options: Options,
    /// Whether this run continues an interrupted one.
    pub resumed: bool,
    chunks: usize,
}

impl Work {
    /// The work area of `data_dir` for `source`: the interrupted import's when it was on the same
    /// source and its environment is still there, else a fresh one (and `building` emptied).
    pub fn open(source: &Path, data_dir: &Path, building: &Path, options: Options) -> Result<Work> {
        let dir = data_dir.join("register.import");
        let fingerprint = fingerprint(source)?;
        let previous = Checkpoint::load(&dir)
            .filter(|c| c.fingerprint == fingerprint && building.join("data.mdb").exists());
        let resumed = previous.is_some();
        let checkpoint = match previous {
            Some(c) => c,
            None => {
                for d in [&dir, building] {
                    if d.exists() {
                        std::fs::remove_dir_all(d)?;
                    }
                }
                std::fs::create_dir_all(&dir)?;
                let c = Checkpoint {
                    fingerprint,
                    ..Default::default()
                };
                c.save(&dir)?;
                c
            }
        };
        // a run written after the last checkpoint is not part of it: written again
        let spill = Spill::new(&dir, options.chunk_rows, checkpoint.runs.clone());
        Ok(Work {
            dir,
            checkpoint,
            spill,
            options,
            resumed,
            chunks: 0,
        })
    }

    /// Records of `file` already committed by an interrupted import.
    pub fn committed(&self, file: &str) -> u64 {
        self.checkpoint.files.get(file).copied().unwrap_or(0)
    }

    /// Writes the buffered numbers as a run and records that `records` of `file` are in the runs.
    pub fn commit_records(&mut self, file: &str, records: u64) -> Result<()> {
        self.spill.flush()?;
        self.checkpoint.files.insert(file.to_string(), records);
        self.checkpoint.runs = self.spill.runs.clone();
        self.checkpoint.save(&self.dir)?;
        self.chunk_done()
    }

    /// Counts a committed chunk; the tests' stop lands here, after the commit, as a kill could.
    pub fn chunk_done(&mut self) -> Result<()> {
        self.chunks += 1;
        if self.options.stop_after_chunks == Some(self.chunks) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                format!("import stopped after {} chunks (test)", self.chunks),
            )
            .into());
        }
        Ok(())
    }

    pub fn merge(&self) -> Result<Merge> {
        Merge::open(&self.dir, &self.spill.runs)
    }

    /// Removes the work area once the register is in place.
    pub fn finish(self) -> Result<()> {
        if self.dir.exists() {
            std::fs::remove_dir_all(&self.dir)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register::store::{self, Databases};
    use crate::test_register::{link_subset, shared_data, Subset};

    /// Every street record, fst and the hamlets of a built register, as JSON text per key.
    fn contents(data_dir: &Path) -> BTreeMap<String, String> {
        let env = store::open_read_only(&store::register_dir(data_dir)).unwrap();
        let rtxn = env.read_txn().unwrap();
        let dbs = Databases::open(&env, &rtxn).unwrap();
        let mut out = BTreeMap::new();
        for item in dbs.streets.iter(&rtxn).unwrap() {
            let (code, record) = item.unwrap();
            out.insert(
                format!("streets/{code}"),
                serde_json::to_string(&record).unwrap(),
            );
        }
        for item in dbs.street_fsts.iter(&rtxn).unwrap() {
            let (code, fst) = item.unwrap();
            out.insert(format!("fst/{code}"), format!("{fst:?}"));
        }
        let hamlets = dbs.meta.get(&rtxn, "hamlets").unwrap().unwrap();
        out.insert("hamlets".into(), hamlets.to_string());
        out
    }

    fn options(stop: Option<usize>) -> Options {
        Options {
            chunk_rows: 3_000,
            commit_bytes: 256 << 10,
            stop_after_chunks: stop,
        }
    }

    /// Lamezia's real INDIR (22,757 house numbers) and the STRAD of Calabria, read in chunks of
    /// 3,000 numbers; the import is stopped twice (while the numbers stream in, then while the
    /// municipalities are written) and re-run: the register equals one imported in one go, and
    /// the runs hold each number once.
    #[test]
    fn a_killed_import_resumes_to_the_same_register() {
        let shared = shared_data();
        if !shared.join("it/anncsu_indirizzi").exists() {
            eprintln!("skipping: {} is absent", shared.display());
            return;
        }
        let base = tempfile::tempdir().unwrap();
        let source = base.path().join("source");
        let subset = Subset {
            it_folders: &["comuni", "esteri", "anncsu_indirizzi"],
            street_regions: &[],
            contact: false,
        };
        link_subset(&shared, &subset, &source).unwrap();

        let clean = base.path().join("clean");
        let summary = crate::import::run_with(&source, &clean, options(None)).unwrap();
        assert!(!clean.join("register.import").exists(), "work area removed");
        let indir_rows: u64 = summary
            .datasets
            .iter()
            .filter(|d| d.file.contains("indirizzario"))
            .map(|d| d.rows)
            .sum();
        assert!(indir_rows > 20_000, "{indir_rows}");

        let killed = base.path().join("killed");
        let first = crate::import::run_with(&source, &killed, options(Some(3)));
        assert!(first.is_err());
        let work = killed.join("register.import");
        let c = Checkpoint::load(&work).unwrap();
        assert_eq!(c.runs.len(), 3);
        assert_eq!(c.files.values().sum::<u64>(), 9_000);
        assert!(
            !store::exists(&killed),
            "no register before the import completes"
        );

        // 8 runs in all: 5 more, then the 2nd transaction of municipalities
        let second = crate::import::run_with(&source, &killed, options(Some(7)));
        assert!(second.is_err());
        let c = Checkpoint::load(&work).unwrap();
        assert_eq!(c.runs.len(), indir_rows.div_ceil(3_000) as usize);
        let mut merge = Merge::open(&work, &c.runs).unwrap();
        let spilled = merge
            .take_city(super::super::spill::pack_code("M208").unwrap())
            .unwrap();
        assert_eq!(
            spilled.len() as u64,
            indir_rows,
            "every number once in the runs"
        );

        let done = crate::import::run_with(&source, &killed, options(None)).unwrap();
        assert!(!work.exists());
        assert_eq!(
            done.datasets.iter().map(|d| d.rows).collect::<Vec<_>>(),
            summary.datasets.iter().map(|d| d.rows).collect::<Vec<_>>()
        );
        let (a, b) = (contents(&clean), contents(&killed));
        assert!(a.len() > 400, "{} municipalities", a.len());
        assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
        for (k, v) in &a {
            assert!(&b[k] == v, "{k} differs after the resumed import");
        }
    }

    #[test]
    fn another_source_starts_afresh() {
        let base = tempfile::tempdir().unwrap();
        let (source, data) = (base.path().join("s"), base.path().join("d"));
        std::fs::create_dir_all(source.join("it")).unwrap();
        std::fs::write(source.join("it/a.csv"), "x").unwrap();
        let building = data.join("register.building");
        std::fs::create_dir_all(&building).unwrap();
        std::fs::write(building.join("data.mdb"), "").unwrap();
        let w = Work::open(&source, &data, &building, options(None)).unwrap();
        assert!(!w.resumed);
        w.checkpoint.save(&w.dir).unwrap();
        std::fs::create_dir_all(&building).unwrap();
        std::fs::write(building.join("data.mdb"), "").unwrap();
        assert!(
            Work::open(&source, &data, &building, options(None))
                .unwrap()
                .resumed
        );
        std::fs::write(source.join("it/a.csv"), "xy").unwrap();
        let w = Work::open(&source, &data, &building, options(None)).unwrap();
        assert!(!w.resumed, "a changed file: fresh import");
        assert!(!building.exists());
    }
}
