//! Deduplication of contact lists: normalise (names, addresses through the contact engine,
//! phones, e-mails, tax codes), block, score pairs, cluster. Three modes: one list, a list
//! searched in a reference list, and new records matched against a saved result.

pub mod block;
pub mod cluster;
pub mod consolidate;
pub mod foreign;
mod incremental;
pub mod intern;
mod list;
pub mod model;
pub mod names;
mod pairs;
pub mod prepare;
pub mod record;
pub mod score;
pub mod stream;
pub mod strings;
mod two_lists;

pub use incremental::{incremental, incremental_json, Added, IncrementalInput, IncrementalResult};
pub use list::prepare_all;
use list::{prepare_chunk, PREPARE_CHUNK};
pub use pairs::{score_pairs, score_table};
use two_lists::two_lists;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use cluster::{Group, Single};
use prepare::Foreign;
use record::DedupeRecord;
use score::Level;

use crate::register::Register;
use crate::Result;

#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunInput {
    pub records: Vec<DedupeRecord>,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reference: Option<Vec<DedupeRecord>>,
    /// `probable` when absent.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_level: Level,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub foreign: Foreign,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GroupsResult {
    pub groups: Vec<Group>,
    pub singles: Vec<Single>,
    pub min_level: Level,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Match {
    pub id: Value,
    pub index: usize,
    pub reference_id: Value,
    pub reference_index: usize,
    pub level: Level,
    pub score: u8,
    pub reasons: Vec<String>,
    /// Further reference records at or above the level, best first.
    pub others: Vec<OtherMatch>,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OtherMatch {
    pub reference_id: Value,
    pub reference_index: usize,
    pub level: Level,
    pub score: u8,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NotFound {
    pub id: Value,
    pub index: usize,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MatchesResult {
    pub matches: Vec<Match>,
    pub not_found: Vec<NotFound>,
    pub min_level: Level,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RunResult {
    Groups(GroupsResult),
    Matches(MatchesResult),
}

/// Gives the free memory inside the allocator's heaps back to the system between two stages. A
/// stage frees most of what it built (the engine inputs of preparation, the table and candidates
/// of scoring), but glibc returns only the top of each heap: what is freed below a live block
/// stays resident, and the next stage's peak stacks on it (a million records reached 4.1 GiB
/// that way, some 400 MiB of it free). In the service the addon's allocator is mimalloc
/// (`crates/node/src/lib.rs`), which hands freed pages back by itself; this still trims what
/// glibc holds (Node's and the C libraries' allocations), and serves this crate's own tests.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's malloc_trim takes no pointer and only returns free pages of its own
        // heaps to the system; every live allocation stays where it is.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Stage times on stderr with `RECAPITO_DEDUPE_TIMINGS=1` (for the speed bench and profiling):
/// wall time, the process's CPU time (the machine is shared: wall time alone says little) and its
/// resident memory now and at its peak (where the million-record run reaches its peak).
struct Timer(Option<std::time::Instant>);

impl Timer {
    fn start() -> Timer {
        Timer(std::env::var_os("RECAPITO_DEDUPE_TIMINGS").map(|_| std::time::Instant::now()))
    }

    fn lap(&self, stage: &str) {
        if let Some(t) = self.0 {
            let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
            let kib = |field: &str| -> u64 {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(field))
                    .and_then(|v| v.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0)
            };
            // utime and stime, in clock ticks (100 a second on Linux), after the command name.
            let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
            let ticks: u64 = stat
                .rsplit(')')
                .next()
                .map(|rest| {
                    rest.split_whitespace()
                        .skip(11)
                        .take(2)
                        .filter_map(|v| v.parse::<u64>().ok())
                        .sum()
                })
                .unwrap_or(0);
            eprintln!(
                "dedupe {stage}: {:.2} s, process cpu {:.2} s, rss {} MiB, peak {} MiB",
                t.elapsed().as_secs_f64(),
                ticks as f64 / 100.0,
                kib("VmRSS:") / 1024,
                kib("VmHWM:") / 1024
            );
        }
    }
}

/// Settings of the model read once from the environment, for the eval bench only (the service
/// never sets them): `RECAPITO_DEDUPE_KNOBS=name=value,…`.
pub fn knob(name: &str, default: f64) -> f64 {
    static KNOBS: std::sync::OnceLock<Vec<(String, f64)>> = std::sync::OnceLock::new();
    KNOBS
        .get_or_init(|| {
            std::env::var("RECAPITO_DEDUPE_KNOBS")
                .unwrap_or_default()
                .split(',')
                .filter_map(|kv| {
                    let (k, v) = kv.split_once('=')?;
                    Some((k.to_string(), v.parse().ok()?))
                })
                .collect()
        })
        .iter()
        .find(|(k, _)| k == name)
        .map_or(default, |(_, v)| *v)
}

/// `run` from a JSON request to a JSON answer (the binding's door), every stage timed.
pub fn run_json(register: &Register, input: &[u8]) -> Result<Vec<u8>> {
    let timer = Timer::start();
    let request: RunInput = crate::from_json(input)?;
    timer.lap("parsed");
    let result = run_timed(register, request, &timer)?;
    let out = crate::to_json(&result);
    timer.lap("serialised");
    out
}

pub fn run(register: &Register, input: RunInput) -> Result<RunResult> {
    run_timed(register, input, &Timer::start())
}

fn run_timed(register: &Register, input: RunInput, timer: &Timer) -> Result<RunResult> {
    let (min_level, foreign) = (input.min_level, input.foreign);
    match input.reference {
        None => {
            // Only the prepared form is compared and shown from here on.
            let records = prepare_all(register, input.records, 0, foreign);
            release_free_memory();
            timer.lap("prepared");
            let judged = score_pairs(&records, &|_, _| true, None);
            release_free_memory();
            timer.lap("scored");
            let (groups, singles) = cluster::build(&records, &judged, min_level, &[], 0);
            timer.lap("clustered");
            Ok(RunResult::Groups(GroupsResult {
                groups,
                singles,
                min_level,
            }))
        }
        Some(reference) => Ok(RunResult::Matches(two_lists(
            register,
            input.records,
            reference,
            min_level,
            foreign,
        ))),
    }
}

#[cfg(test)]
mod tests;
