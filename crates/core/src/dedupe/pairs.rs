//! Candidate pairs compared, the job's model trained on them, and the pairs that reach a level.

use rayon::prelude::*;

use super::prepare::Prepared;
use super::score::{self, Judged, Level, Pair};
use super::{block, intern, model};

/// Random pairs sampled for u: enough for rare agreements to show, cheap at a million records.
const RANDOM_PAIRS: usize = 200_000;

/// Candidate pairs compared, the job's model trained on them, and the pairs that reach a level.
/// A pair is kept as two indexes and its packed comparison (16 bytes: a million records give
/// tens of millions of candidates); the model is trained on, and judges, each distinct pattern
/// once (a few thousand). `train`: the pairs the model learns from; `judge`: those among them
/// that are judged (None: all of them, without a call per pair).
pub fn score_pairs(
    records: &[Prepared],
    train: &(dyn Fn(usize, usize) -> bool + Sync),
    judge: Option<&(dyn Fn(usize, usize) -> bool + Sync)>,
) -> Judged {
    let table = intern::intern(records);
    let entries: Vec<[u32; 3]> = records
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, p)| block::entries(i as u32, p))
        .collect();
    score_table(&table, entries, train, judge)
}

/// `score_pairs` on the records' table and blocking-key entries alone (a streamed job holds no
/// prepared record while it scores).
pub fn score_table(
    table: &intern::Table,
    entries: Vec<[u32; 3]>,
    train: &(dyn Fn(usize, usize) -> bool + Sync),
    judge: Option<&(dyn Fn(usize, usize) -> bool + Sync)>,
) -> Judged {
    use std::collections::HashMap;
    let n = table.facts.len();
    // Every candidate pair counts for the model; only those the hard rules do not already
    // refuse whatever the weights (another first name with nothing personal in common, birth
    // dates that differ) are kept to be judged: most pairs of a long street are neighbours.
    type Counted = (HashMap<u64, u64>, Vec<(u32, u32, u64)>, usize);
    let (patterns, compared, total): Counted = block::fold_blocks(
        table,
        entries,
        train,
        || (HashMap::new(), Vec::new(), 0),
        |(patterns, kept, total): &mut Counted, a, b| {
            if let Some(c) = score::compare(table, a as usize, b as usize) {
                let k = c.pack();
                *patterns.entry(k).or_default() += 1;
                *total += 1;
                if judge.is_none_or(|j| j(a as usize, b as usize)) && !model::refused(&c) {
                    kept.push((a, b, k));
                }
            }
        },
        |a, b| {
            let (mut big, small) = if a.0.len() >= b.0.len() {
                (a, b)
            } else {
                (b, a)
            };
            for (k, v) in small.0 {
                *big.0.entry(k).or_default() += v;
            }
            big.1.extend(small.1);
            big.2 += small.2;
            big
        },
    );
    // The parallel parts arrive in any order: one order for one answer.
    let mut compared = compared;
    compared.par_sort_unstable();
    let random: Vec<score::Comparison> = model::random_pairs(n, RANDOM_PAIRS)
        .into_par_iter()
        .filter(|&(a, b)| train(a, b))
        .filter_map(|(a, b)| score::compare(table, a, b))
        .collect();
    if std::env::var_os("RECAPITO_DEDUPE_TIMINGS").is_some() {
        eprintln!(
            "dedupe candidate pairs: {total}, kept to judge: {}",
            compared.len()
        );
    }
    let counted: Vec<(score::Comparison, f64)> = patterns
        .iter()
        .map(|(&k, &n)| (score::Comparison::unpack(k), n as f64))
        .collect();
    let model = model::Model::train(&counted, &random);
    if std::env::var_os("RECAPITO_DEDUPE_MODEL").is_some() {
        // For the eval bench: the trained model of each run on stderr.
        eprintln!("{}", serde_json::to_string(&model).unwrap_or_default());
    }
    // Each judged pattern once: its level, score and the number of its reasons in the table.
    let mut reasons: Vec<Vec<&'static str>> = Vec::new();
    let mut numbered: HashMap<Vec<&'static str>, u32> = HashMap::new();
    let mut judged: HashMap<u64, (Level, u8, u32)> = HashMap::new();
    for (c, _) in &counted {
        if let Some((level, score, list)) = model.judge(c) {
            let number = *numbered.entry(list).or_insert_with_key(|list| {
                reasons.push(list.clone());
                reasons.len() as u32 - 1
            });
            judged.insert(c.pack(), (level, score, number));
        }
    }
    let pairs = compared
        .par_iter()
        .filter_map(|&(a, b, k)| {
            judged.get(&k).map(|&(level, score, reasons)| Pair {
                a,
                b,
                level,
                score,
                reasons,
            })
        })
        .collect();
    Judged {
        pairs,
        reasons,
        model: Some(model),
    }
}
