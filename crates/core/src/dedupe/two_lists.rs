//! A list searched in a reference list: each record's best match and the others.

use super::list::prepare_all;
use super::pairs::score_pairs;
use super::prepare::Foreign;
use super::record::DedupeRecord;
use super::score::{Level, Pair};
use super::{Match, MatchesResult, NotFound, OtherMatch};
use crate::register::Register;

/// Each record searched in the reference list; pairs inside one list are not compared.
pub(super) fn two_lists(
    register: &Register,
    records: Vec<DedupeRecord>,
    reference: Vec<DedupeRecord>,
    min_level: Level,
    foreign: Foreign,
) -> MatchesResult {
    let n = records.len();
    let mut all = prepare_all(register, records, 0, foreign);
    // Reference ids default to their own position in the reference list.
    all.extend(prepare_all(register, reference, 0, foreign));
    let judged = score_pairs(&all, &|a, b| (a < n) != (b < n), None);
    let mut per_record: Vec<Vec<&Pair>> = vec![Vec::new(); n];
    for p in judged.pairs.iter().filter(|p| p.level >= min_level) {
        per_record[p.a.min(p.b) as usize].push(p);
    }
    let mut matches = Vec::new();
    let mut not_found = Vec::new();
    for (i, mut found) in per_record.into_iter().enumerate() {
        if found.is_empty() {
            not_found.push(NotFound {
                id: all[i].id.clone(),
                index: i,
            });
            continue;
        }
        found.sort_by(|x, y| {
            (y.level, y.score)
                .cmp(&(x.level, x.score))
                .then(x.a.max(x.b).cmp(&y.a.max(y.b)))
        });
        let best = found[0];
        let r = best.a.max(best.b) as usize;
        matches.push(Match {
            id: all[i].id.clone(),
            index: i,
            reference_id: all[r].id.clone(),
            reference_index: r - n,
            level: best.level,
            score: best.score,
            reasons: judged.reasons(best).iter().map(|r| r.to_string()).collect(),
            others: found[1..]
                .iter()
                .map(|p| {
                    let r = p.a.max(p.b) as usize;
                    OtherMatch {
                        reference_id: all[r].id.clone(),
                        reference_index: r - n,
                        level: p.level,
                        score: p.score,
                    }
                })
                .collect(),
        });
    }
    MatchesResult {
        matches,
        not_found,
        min_level,
    }
}
