//! One list deduplicated from a file to a file, in memory that does not hold the list: the
//! records are read (NDJSON, one record a line) and prepared a chunk at a time, and of each
//! chunk only what scoring reads is kept (the record's numbered strings in the job's table and
//! its blocking-key entries, some 400 bytes a record) plus its id and where its line starts; the
//! prepared records (a couple of KiB each: names and addresses as compared and as shown) are
//! dropped. Once the pairs are linked into groups, the members of each group are read again
//! from the file and prepared again, a batch of groups at a time, to write the group's record to
//! keep and its consolidated record. Groups and singles are written as they come, one a line.
//!
//! The answer is the one `run` gives for the same records, in the same order (groups by number,
//! singles by position, interleaved in the order of their first record).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::os::unix::fs::FileExt;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cluster::{self, Found, LinkFacts};
use super::intern::Interner;
use super::prepare::{Foreign, Prepared};
use super::record::DedupeRecord;
use super::score::Level;
use super::{block, prepare_chunk, release_free_memory, score_table, Timer, PREPARE_CHUNK};
use crate::register::Register;
use crate::{Error, Result};

/// A one-list job between two files (paths the service's own process can read and write).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FilesInput {
    /// NDJSON: one record a line, as in `RunInput::records`; blank lines are skipped.
    pub input: String,
    /// Written (replaced): one group or single a line, as in `GroupsResult`.
    pub output: String,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub min_level: Level,
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "Option<_>", optional))]
    pub foreign: Foreign,
}

#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FilesResult {
    pub records: usize,
    pub groups: usize,
    pub singles: usize,
    pub min_level: Level,
}

/// Records re-read and re-prepared for the written groups, about this many at a time.
const WRITE_BATCH: usize = 50_000;

/// `run_files` from a JSON request to a JSON answer (the binding's door).
pub fn run_files_json(register: &Register, input: &[u8]) -> Result<Vec<u8>> {
    let request: FilesInput = crate::from_json(input)?;
    crate::to_json(&run_files(register, request)?)
}

/// Where each record's line starts in the input, and where the last one ends.
struct Lines {
    file: File,
    starts: Vec<u64>,
}

impl Lines {
    /// Record `i` read again from its line.
    fn record(&self, i: usize) -> Result<DedupeRecord> {
        let (start, end) = (self.starts[i], self.starts[i + 1]);
        let mut buf = vec![0u8; (end - start) as usize];
        self.file.read_exact_at(&mut buf, start)?;
        parse_line(&buf, i)
    }
}

fn parse_line(line: &[u8], i: usize) -> Result<DedupeRecord> {
    serde_json::from_slice(line)
        .map_err(|e| Error::BadInput(format!("record {} of the input file: {e}", i + 1)))
}

/// Blocking-key entries on disk until every record is prepared (removed when read back).
struct Spill {
    path: String,
    file: BufWriter<File>,
    count: usize,
}

impl Spill {
    fn create(path: &str) -> Result<Spill> {
        let file =
            File::create(path).map_err(|e| Error::BadInput(format!("scratch file {path}: {e}")))?;
        Ok(Spill {
            path: path.to_string(),
            file: BufWriter::with_capacity(1 << 20, file),
            count: 0,
        })
    }

    fn write(&mut self, entries: &[[u32; 3]]) -> Result<()> {
        for e in entries {
            for x in e {
                self.file.write_all(&x.to_le_bytes())?;
            }
        }
        self.count += entries.len();
        Ok(())
    }

    fn read_all(self) -> Result<Vec<[u32; 3]>> {
        let Spill { path, file, count } = self;
        drop(file.into_inner().map_err(|e| e.into_error())?);
        let mut entries: Vec<[u32; 3]> = Vec::with_capacity(count);
        let mut reader = BufReader::with_capacity(1 << 20, File::open(&path)?);
        let mut buf = [0u8; 12];
        for _ in 0..count {
            std::io::Read::read_exact(&mut reader, &mut buf)?;
            let x = |k: usize| u32::from_le_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
            entries.push([x(0), x(4), x(8)]);
        }
        drop(reader);
        std::fs::remove_file(&path)?;
        Ok(entries)
    }
}

/// The prepared records of a batch, by their place in the list.
struct Loaded(HashMap<usize, Prepared>);

impl std::ops::Index<usize> for Loaded {
    type Output = Prepared;
    fn index(&self, i: usize) -> &Prepared {
        &self.0[&i]
    }
}

pub fn run_files(register: &Register, request: FilesInput) -> Result<FilesResult> {
    run_files_in(register, request, PREPARE_CHUNK, WRITE_BATCH)
}

/// `run_files` with its chunk sizes: records read and prepared `chunk` at a time, records read
/// again for the written groups about `batch` at a time.
fn run_files_in(
    register: &Register,
    request: FilesInput,
    chunk_size: usize,
    batch: usize,
) -> Result<FilesResult> {
    let timer = Timer::start();
    let FilesInput {
        input,
        output,
        min_level,
        foreign,
    } = request;
    let file =
        File::open(&input).map_err(|e| Error::BadInput(format!("input file {input}: {e}")))?;
    let mut reader = BufReader::with_capacity(1 << 20, &file);
    let mut starts: Vec<u64> = Vec::new();
    let mut ids: Vec<Value> = Vec::new();
    let mut internal: Vec<bool> = Vec::new();
    let mut interner = Interner::new();
    // The blocking-key entries go to a scratch file beside the output as each chunk gives them,
    // and come back into one array of exactly their size: grown in memory, the array's doubling
    // held up to twice the entries (a gigabyte more at 5 million records).
    let spill_path = format!("{output}.entries");
    let mut spill = Spill::create(&spill_path)?;
    let mut position = 0u64;
    let mut line = Vec::new();
    let mut chunk: Vec<Vec<u8>> = Vec::new();
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line)?;
        let blank = line.iter().all(u8::is_ascii_whitespace);
        if read > 0 && !blank {
            starts.push(position);
            chunk.push(std::mem::take(&mut line));
        }
        position += read as u64;
        if chunk.len() == chunk_size || (read == 0 && !chunk.is_empty()) {
            let offset = ids.len();
            let records: Vec<DedupeRecord> = chunk
                .par_iter()
                .enumerate()
                .map(|(k, l)| parse_line(l, offset + k))
                .collect::<Result<_>>()?;
            chunk.clear();
            let prepared = prepare_chunk(register, records, &|k| offset + k, foreign);
            let chunk_entries: Vec<[u32; 3]> = prepared
                .par_iter()
                .enumerate()
                .flat_map_iter(|(k, p)| block::entries((offset + k) as u32, p))
                .collect();
            spill.write(&chunk_entries)?;
            drop(chunk_entries);
            for p in &prepared {
                interner.push(p);
            }
            ids.extend(prepared.iter().map(|p| p.id.clone()));
            internal.extend(prepared.iter().map(|p| p.internal_duplicate));
            drop(prepared);
            release_free_memory();
        }
        if read == 0 {
            break;
        }
    }
    // The end of the last line (a record's line runs to the next record's start).
    starts.push(position);
    let n = ids.len();
    if u32::try_from(n).is_err() {
        return Err(Error::BadInput(format!("{n} records: at most 2^32 - 1")));
    }
    let entries = spill.read_all()?;
    timer.lap("prepared");
    let table = interner.finish();
    let judged = score_table(&table, entries, &|_, _| true, None);
    let facts = LinkFacts::of_table(&table);
    drop(table);
    release_free_memory();
    timer.lap("scored");
    let mut linked = cluster::link(&facts, &judged, min_level, &[], 0);
    drop(facts);
    timer.lap("linked");
    let lines = Lines { file, starts };
    let out =
        File::create(&output).map_err(|e| Error::BadInput(format!("output file {output}: {e}")))?;
    let mut out = BufWriter::with_capacity(1 << 20, out);
    let (mut groups, mut singles) = (0usize, 0usize);
    let mut failed: Option<Error> = None;
    // Roots in output order, a batch at a time: the records each batch writes are read again and
    // prepared together (in parallel, each distinct address once).
    let roots: Vec<Vec<usize>> = linked
        .groups()
        .map(|m| {
            if m.len() > 1 || internal[m[0] as usize] {
                m.iter().map(|&i| i as usize).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut k = 0;
    while k < roots.len() {
        let mut end = k;
        let mut needed: Vec<usize> = Vec::new();
        while end < roots.len() && needed.len() < batch {
            needed.extend(&roots[end]);
            end += 1;
        }
        needed.sort_unstable();
        let records: Vec<DedupeRecord> = needed
            .par_iter()
            .map(|&i| lines.record(i))
            .collect::<Result<_>>()?;
        let prepared = prepare_chunk(register, records, &|j| needed[j], foreign);
        let loaded = Loaded(needed.iter().copied().zip(prepared).collect());
        linked.write(
            k..end,
            &loaded,
            &|i| ids[i].clone(),
            &|i| internal[i],
            &judged,
            &mut |found| {
                if failed.is_some() {
                    return;
                }
                let written = match &found {
                    Found::Group(g) => {
                        groups += 1;
                        serde_json::to_writer(&mut out, g)
                    }
                    Found::Single(s) => {
                        singles += 1;
                        serde_json::to_writer(&mut out, s)
                    }
                };
                if let Err(e) = written
                    .map_err(Error::from)
                    .and_then(|()| Ok(out.write_all(b"\n")?))
                {
                    failed = Some(e);
                }
            },
        );
        if let Some(e) = failed.take() {
            return Err(e);
        }
        k = end;
    }
    out.flush()?;
    timer.lap("written");
    Ok(FilesResult {
        records: n,
        groups,
        singles,
        min_level,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dedupe::tests::register;
    use crate::dedupe::{run, RunInput, RunResult};

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("recapito-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// Copies with typos, a family at one address, a company on two sites, a record with its
    /// phone written twice (a single with a consolidated record), a namesake elsewhere.
    fn records() -> Vec<serde_json::Value> {
        vec![
            json!({"id": "a1", "first_name": "Mario", "last_name": "Rossi", "address": "Via San Vitale 12", "city": "Bologna", "phone": "3351112233", "email": "mario.rossi@example.it"}),
            json!({"id": "a2", "first_name": "Maria", "last_name": "Rossi", "address": "Via San Vitale 12", "city": "Bologna", "phones": [{"type": "Casa", "value": "051 223344"}]}),
            json!({"id": "a3", "first_name": "MARIO", "last_name": "ROSSI", "address": "V. S. Vitale, 12", "postcode": "40125", "city": "Bologna", "phone": "+39 335 111 2233"}),
            json!({"id": "a4", "first_name": "Giuseppe", "last_name": "Verdi", "address": "Via Zamboni 33", "city": "Bologna", "phone": ["3357778899", "335 777 8899"]}),
            json!({"id": "a5", "first_name": "Beppe", "last_name": "Verdi", "address": "Via Zamboni 33", "city": "Bologna", "email": "g.verdi@example.it"}),
            json!({"id": "a6", "first_name": "Giuseppe", "last_name": "Verdi", "address": "Via Zambonii 33", "city": "Bologna", "email": "g.verdi@example.it"}),
            json!({"id": "a7", "last_name": "Centro Infanzia S.r.l.", "address": "Strada Maggiore 4", "city": "Bologna", "phone": "051 998877"}),
            json!({"id": "a8", "last_name": "Centro Infanzia", "address": "Strada Maggiore 4", "city": "Bologna", "phone": "051998877"}),
            json!({"id": "a9", "first_name": "Mario", "last_name": "Rossi", "address": "Via Dazio 90", "city": "Alessandria", "birth_date": "1950-02-03"}),
            json!({"first_name": "Anna", "last_name": "Bianchi", "address": "Via Irnerio 5", "city": "Bologna", "phone": "3391234567"}),
            json!({"first_name": "Anna", "last_name": "Bianchi", "address": "Via Irnerio 5", "city": "Bologna", "phone": "339 1234567"}),
        ]
    }

    /// The streamed job writes, line for line, the groups and singles `run` answers for the
    /// same list (read in chunks of 3, written in batches of 2 records, blank lines skipped).
    #[test]
    fn the_streamed_job_answers_as_the_whole_list_run() {
        let Some(reg) = register() else { return };
        let list = records();
        let input = scratch("in.ndjson");
        let mut text = String::new();
        for (i, r) in list.iter().enumerate() {
            text.push_str(&r.to_string());
            text.push('\n');
            if i == 4 {
                text.push_str("  \n");
            }
        }
        std::fs::write(&input, text).unwrap();
        let output = scratch("out.ndjson");
        let request = FilesInput {
            input: input.display().to_string(),
            output: output.display().to_string(),
            min_level: Level::Probable,
            foreign: Foreign::default(),
        };
        let summary = run_files_in(reg, request, 3, 2).unwrap();
        let whole: RunInput = serde_json::from_value(json!({ "records": list })).unwrap();
        let RunResult::Groups(whole) = run(reg, whole).unwrap() else {
            panic!("expected groups")
        };
        assert!(whole.groups.len() >= 2, "the set has duplicates");
        assert_eq!(summary.groups, whole.groups.len());
        assert_eq!(summary.singles, whole.singles.len());
        assert_eq!(summary.records, list.len());
        let written: Vec<String> = std::fs::read_to_string(&output)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        let mut expected: Vec<(usize, String)> = whole
            .groups
            .iter()
            .map(|g| (g.member_index[0], serde_json::to_string(g).unwrap()))
            .chain(
                whole
                    .singles
                    .iter()
                    .map(|s| (s.index, serde_json::to_string(s).unwrap())),
            )
            .collect();
        expected.sort();
        let expected: Vec<String> = expected.into_iter().map(|(_, l)| l).collect();
        assert_eq!(written, expected);
    }

    /// A line that is not a record is the caller's error, named by its record number.
    #[test]
    fn a_bad_line_is_bad_input() {
        let Some(reg) = register() else { return };
        let input = scratch("bad.ndjson");
        std::fs::write(&input, "{\"last_name\": \"Rossi\"}\n{\"last_name\": [1]}\n").unwrap();
        let request = FilesInput {
            input: input.display().to_string(),
            output: scratch("bad-out.ndjson").display().to_string(),
            min_level: Level::Probable,
            foreign: Foreign::default(),
        };
        match run_files(reg, request) {
            Err(Error::BadInput(m)) => assert!(m.contains("record 2"), "{m}"),
            other => panic!("expected bad input, got {other:?}"),
        }
    }
}
