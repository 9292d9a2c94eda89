//! House numbers of a big extract (the national ANNCSU INDIR: ~25 million rows) kept out of RAM:
//! while the file streams in, its numbers go to a bounded buffer that is sorted and written as a
//! run file (`run-NNNNN.bin`) each time it fills; at write time the runs are merged back, one
//! municipality after another in cadastral order, so memory holds one chunk while reading and one
//! municipality's numbers while writing, whatever the size of the country.
//!
//! A run is an ordered sequence of fixed-layout records (packed municipality code, street index,
//! number, point, then three short strings); it is written to a temporary name and renamed once
//! synced, so a killed import leaves either a whole run or none (see `checkpoint.rs`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::register::street::HouseNumberEntry;
use crate::Result;

/// A municipality code of up to 8 ASCII bytes packed into an integer whose order is the code's
/// order (shorter codes are padded with zeros, which sort before every character).
pub fn pack_code(code: &str) -> Option<u64> {
    let bytes = code.as_bytes();
    if bytes.is_empty() || bytes.len() > 8 || !code.is_ascii() {
        return None;
    }
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    Some(u64::from_be_bytes(buf))
}

/// One spilled house number: the municipality (packed), the street's index in it, the entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SpilledNumber {
    pub city: u64,
    pub street: u32,
    pub entry: HouseNumberEntry,
}

impl SpilledNumber {
    fn key(&self) -> (u64, u32, u32, &str) {
        (
            self.city,
            self.street,
            self.entry.number,
            &self.entry.suffix,
        )
    }

    fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&self.city.to_le_bytes())?;
        out.write_all(&self.street.to_le_bytes())?;
        out.write_all(&self.entry.number.to_le_bytes())?;
        out.write_all(&self.entry.lat.to_le_bytes())?;
        out.write_all(&self.entry.lon.to_le_bytes())?;
        for s in [
            &self.entry.suffix,
            &self.entry.postcode,
            &self.entry.district,
        ] {
            let b = &s.as_bytes()[..s.len().min(255)];
            out.write_all(&[b.len() as u8])?;
            out.write_all(b)?;
        }
        Ok(())
    }

    /// The next record of a run; None at its end.
    fn read(input: &mut impl Read) -> Result<Option<SpilledNumber>> {
        let mut head = [0u8; 32];
        match input.read_exact(&mut head[..1]) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        input.read_exact(&mut head[1..])?;
        let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap_or_default());
        let u64_at = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().unwrap_or_default());
        let mut strings = [String::new(), String::new(), String::new()];
        for s in &mut strings {
            let mut len = [0u8; 1];
            input.read_exact(&mut len)?;
            let mut b = vec![0u8; len[0] as usize];
            input.read_exact(&mut b)?;
            *s = String::from_utf8_lossy(&b).into_owned();
        }
        let [suffix, postcode, district] = strings;
        Ok(Some(SpilledNumber {
            city: u64_at(0),
            street: u32_at(8),
            entry: HouseNumberEntry {
                number: u32_at(12),
                lat: f64::from_bits(u64_at(16)),
                lon: f64::from_bits(u64_at(24)),
                suffix,
                postcode,
                district,
            },
        }))
    }
}

/// The bounded buffer and the runs written so far.
pub struct Spill {
    dir: PathBuf,
    buffer: Vec<SpilledNumber>,
    chunk_rows: usize,
    /// Run files, in the order written (their order breaks ties when merging).
    pub runs: Vec<String>,
}

impl Spill {
    /// Runs go to `dir`; `runs` are the ones a previous, interrupted import already wrote.
    pub fn new(dir: &Path, chunk_rows: usize, runs: Vec<String>) -> Spill {
        Spill {
            dir: dir.to_path_buf(),
            buffer: Vec::new(),
            chunk_rows: chunk_rows.max(1),
            runs,
        }
    }

    pub fn push(&mut self, n: SpilledNumber) {
        self.buffer.push(n);
    }

    pub fn full(&self) -> bool {
        self.buffer.len() >= self.chunk_rows
    }

    /// Sorts the buffer and writes it as the next run (synced, then renamed into place).
    pub fn flush(&mut self) -> Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        // stable: numbers equal in key keep the order they were read in, as the in-memory path does
        self.buffer.sort_by(|a, b| a.key().cmp(&b.key()));
        let name = format!("run-{:05}.bin", self.runs.len());
        let tmp = self.dir.join(format!("{name}.tmp"));
        let file = File::create(&tmp)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        for n in &self.buffer {
            n.write(&mut out)?;
        }
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&tmp, self.dir.join(&name))?;
        self.runs.push(name);
        self.buffer.clear();
        Ok(())
    }

    pub fn buffered(&self) -> usize {
        self.buffer.len()
    }

    /// Drops what was buffered since the last run (a file re-read from its checkpoint).
    pub fn discard_buffer(&mut self) {
        self.buffer.clear();
    }
}

/// A run's next record as the merge orders it: municipality, street, number, suffix, then the run.
type HeadKey = (u64, u32, u32, String, usize);

/// The runs merged back into one stream ordered by municipality, street, number, suffix (ties in
/// run order, so the result does not depend on where the chunks were cut).
pub struct Merge {
    readers: Vec<BufReader<File>>,
    heads: Vec<Option<SpilledNumber>>,
    heap: BinaryHeap<Reverse<HeadKey>>,
}

impl Merge {
    pub fn open(dir: &Path, runs: &[String]) -> Result<Merge> {
        let mut merge = Merge {
            readers: Vec::new(),
            heads: Vec::new(),
            heap: BinaryHeap::new(),
        };
        for (i, run) in runs.iter().enumerate() {
            let mut r = BufReader::with_capacity(1 << 16, File::open(dir.join(run))?);
            let head = SpilledNumber::read(&mut r)?;
            merge.readers.push(r);
            merge.heads.push(None);
            merge.set_head(i, head);
        }
        Ok(merge)
    }

    fn set_head(&mut self, i: usize, head: Option<SpilledNumber>) {
        if let Some(h) = &head {
            let (c, s, n, x) = h.key();
            self.heap.push(Reverse((c, s, n, x.to_string(), i)));
        }
        self.heads[i] = head;
    }

    /// Every spilled number of the municipality `city` (packed), street by street in order.
    /// Municipalities must be asked for in ascending order; smaller ones left behind are skipped.
    pub fn take_city(&mut self, city: u64) -> Result<Vec<SpilledNumber>> {
        let mut out = Vec::new();
        while let Some(Reverse((c, ..))) = self.heap.peek() {
            if *c > city {
                break;
            }
            let Some(Reverse((c, _, _, _, i))) = self.heap.pop() else {
                break;
            };
            let next = SpilledNumber::read(&mut self.readers[i])?;
            if let Some(n) = std::mem::take(&mut self.heads[i]) {
                if c == city {
                    out.push(n);
                }
            }
            self.set_head(i, next);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(city: &str, street: u32, n: u32, suffix: &str, lat: f64) -> SpilledNumber {
        SpilledNumber {
            city: pack_code(city).unwrap(),
            street,
            entry: HouseNumberEntry {
                number: n,
                suffix: suffix.to_string(),
                lat,
                lon: 16.2,
                ..Default::default()
            },
        }
    }

    #[test]
    fn packed_codes_sort_as_the_codes() {
        let mut codes = ["M208", "A1", "A10", "A182", "Z999", "B", "A944X"];
        let mut packed: Vec<u64> = codes.iter().map(|c| pack_code(c).unwrap()).collect();
        codes.sort();
        packed.sort();
        let expected: Vec<u64> = codes.iter().map(|c| pack_code(c).unwrap()).collect();
        assert_eq!(packed, expected);
        assert_eq!(pack_code(""), None);
        assert_eq!(pack_code("TOOLONGCODE"), None);
    }

    #[test]
    fn runs_merge_back_in_order_whatever_the_chunk_size() {
        let dir = tempfile::tempdir().unwrap();
        // read order: two municipalities interleaved, a duplicate number with another point
        let input = vec![
            number("M208", 3, 10, "", 38.1),
            number("A182", 0, 5, "A", 44.9),
            number("M208", 0, 7, "", 38.2),
            number("M208", 3, 2, "BIS", 38.3),
            number("A182", 0, 5, "", 44.8),
            number("M208", 3, 10, "", 38.4),
            number("C351", 1, 1, "", 37.5),
        ];
        for chunk in [1, 2, 3, 100] {
            let sub = dir.path().join(format!("c{chunk}"));
            std::fs::create_dir_all(&sub).unwrap();
            let mut spill = Spill::new(&sub, chunk, Vec::new());
            for n in &input {
                spill.push(n.clone());
                if spill.full() {
                    spill.flush().unwrap();
                }
            }
            spill.flush().unwrap();
            assert_eq!(spill.runs.len(), input.len().div_ceil(chunk));
            let mut merge = Merge::open(&sub, &spill.runs).unwrap();
            let a182 = merge.take_city(pack_code("A182").unwrap()).unwrap();
            assert_eq!(
                a182.iter()
                    .map(|n| n.entry.suffix.as_str())
                    .collect::<Vec<_>>(),
                vec!["", "A"]
            );
            // C351 is never asked for: skipped, not returned with M208
            let m208 = merge.take_city(pack_code("M208").unwrap()).unwrap();
            let got: Vec<(u32, u32, f64)> = m208
                .iter()
                .map(|n| (n.street, n.entry.number, n.entry.lat))
                .collect();
            // ties (street 3, number 10) keep the order they were read in
            assert_eq!(
                got,
                vec![(0, 7, 38.2), (3, 2, 38.3), (3, 10, 38.1), (3, 10, 38.4)],
                "chunk {chunk}"
            );
            assert!(merge.take_city(u64::MAX).unwrap().is_empty());
        }
    }

    #[test]
    fn a_run_is_there_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let mut spill = Spill::new(dir.path(), 10, Vec::new());
        spill.push(number("M208", 0, 1, "", 38.0));
        spill.flush().unwrap();
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec!["run-00000.bin".to_string()]);
        // an empty buffer writes no run
        spill.flush().unwrap();
        assert_eq!(spill.runs.len(), 1);
    }
}
