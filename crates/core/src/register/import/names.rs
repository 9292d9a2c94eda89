//! First-name equivalences (Italian hypocoristics and spelling variants, English nicknames) and
//! role e-mail local parts, read from `contact/names` and `contact/email` for deduplication.

use std::collections::{BTreeMap, BTreeSet};

use super::{csv_reader, ImportContext, PROGRESS};
use crate::dedupe::names::{NameEntry, NamesData, NAMES_KEY};
use crate::normalize::compact;
use crate::Result;

const HYPOCORISTICS: &str = "contact/names/it_hypocoristics.csv";
const VARIANTS: &str = "contact/names/it_name_spelling_variants.csv";
const EN_NICKNAMES: &str = "contact/names/en_nicknames_carltonnorthern.csv";
const BIRTHS: &str = "contact/names/it_firstnames_gender_births_italiatools.csv";
const ADMINISTRATORS: &str = "contact/names/it_firstnames_gender_amministratori.csv";
const LEGAL_FORMS: &str = "contact/legal/it_legal_form_markers.csv";
const ROLE_LOCALPARTS: &str = "contact/email/it_role_localparts.csv";

/// Optional data: a register without it still opens, and dedupe compares first names literally.
pub fn import(ctx: &mut ImportContext) -> Result<()> {
    let mut forms: BTreeMap<String, NameEntry> = BTreeMap::new();
    let add = |form: &str, canonical: &str, weak: bool, forms: &mut BTreeMap<String, NameEntry>| {
        let (form, canonical) = (compact(form), compact(canonical));
        if form.is_empty() || canonical.is_empty() || form == canonical {
            return;
        }
        let e = forms.entry(form).or_default();
        if !e.canonical.contains(&canonical) {
            e.canonical.push(canonical);
        }
        e.weak |= weak;
    };
    PROGRESS.start("names", 4);

    let path = ctx.source.join(HYPOCORISTICS);
    if path.exists() {
        let mut rows = 0;
        for rec in csv_reader(&path, b',')?.records() {
            let rec = rec?;
            let (short, full, ambiguous) = (
                rec.get(0).unwrap_or(""),
                rec.get(1).unwrap_or(""),
                rec.get(5) == Some("1"),
            );
            for name in full.split('|') {
                add(short, name, ambiguous, &mut forms);
            }
            rows += 1;
        }
        ctx.record("it_hypocoristics", &path, rows, "");
    }
    PROGRESS.advance(1);

    let path = ctx.source.join(VARIANTS);
    if path.exists() {
        let mut rows = 0;
        for rec in csv_reader(&path, b',')?.records() {
            let rec = rec?;
            add(
                rec.get(0).unwrap_or(""),
                rec.get(1).unwrap_or(""),
                false,
                &mut forms,
            );
            rows += 1;
        }
        ctx.record("it_name_spelling_variants", &path, rows, "");
    }
    PROGRESS.advance(1);

    let path = ctx.source.join(EN_NICKNAMES);
    if path.exists() {
        let mut rows = 0;
        for rec in csv_reader(&path, b',')?.records() {
            let rec = rec?;
            // English pairs never override an Italian reading: they only add a canonical form,
            // and they are weak where the short form is also an Italian name of its own.
            let (full, short) = (rec.get(0).unwrap_or(""), rec.get(2).unwrap_or(""));
            let italian = forms.contains_key(&compact(short));
            add(short, full, italian, &mut forms);
            rows += 1;
        }
        ctx.record(
            "en_nicknames",
            &path,
            rows,
            "English nicknames: carltonnorthern/nicknames, Apache-2.0",
        );
    }
    PROGRESS.advance(1);

    let mut role_localparts: BTreeSet<String> = BTreeSet::new();
    let path = ctx.source.join(ROLE_LOCALPARTS);
    if path.exists() {
        for rec in csv_reader(&path, b',')?.records() {
            let rec = rec?;
            let lp = rec.get(0).unwrap_or("").trim().to_lowercase();
            if !lp.is_empty() {
                role_localparts.insert(lp);
            }
        }
        ctx.record(
            "it_role_localparts",
            &path,
            role_localparts.len() as u64,
            "",
        );
    }
    PROGRESS.advance(1);

    let known = known_first_names(ctx)?;
    let legal_suffixes = legal_suffixes(ctx)?;
    let data = NamesData {
        forms: forms.into_iter().collect(),
        role_localparts: role_localparts.into_iter().collect(),
        known: known.into_iter().collect(),
        legal_suffixes,
    };
    let mut wtxn = ctx.env.write_txn()?;
    ctx.dbs
        .meta
        .put(&mut wtxn, NAMES_KEY, &serde_json::to_value(&data)?)?;
    wtxn.commit()?;
    Ok(())
}

/// Single first names frequent enough that a one-letter difference means another name
/// (Mario/Maria, Marco/Mirco), not a typo. Rare spellings (`GIUSEPE`, 3 births) stay out.
fn known_first_names(ctx: &mut ImportContext) -> Result<BTreeMap<String, char>> {
    let mut counts: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    let sources = [(BIRTHS, 50.0, Some(3usize)), (ADMINISTRATORS, 200.0, None)];
    for (file, min, signal_col) in sources {
        let path = ctx.source.join(file);
        if !path.exists() {
            continue;
        }
        let mut rows = 0;
        for rec in csv_reader(&path, b',')?.records() {
            let rec = rec?;
            rows += 1;
            let name = rec.get(0).unwrap_or("");
            if name.contains([' ', '.', '\'', '’'])
                || signal_col.is_some_and(|c| rec.get(c) != Some("1"))
            {
                continue;
            }
            // births: name,male,female,signal; administrators: name,tot,male,female
            let (m, f) = if signal_col.is_some() {
                (num(rec.get(1)), num(rec.get(2)))
            } else {
                (num(rec.get(2)), num(rec.get(3)))
            };
            if m + f < min {
                continue;
            }
            let e = counts.entry(compact(name)).or_default();
            e.0 += m;
            e.1 += f;
        }
        let name = if signal_col.is_some() {
            "it_firstnames_births"
        } else {
            "it_firstnames_administrators"
        };
        ctx.record(name, &path, rows, "");
    }
    Ok(counts
        .into_iter()
        .map(|(n, (m, f))| {
            let g = if m >= 9.0 * f {
                'M'
            } else if f >= 9.0 * m {
                'F'
            } else {
                'U'
            };
            (n, g)
        })
        .collect())
}

fn num(v: Option<&str>) -> f64 {
    v.and_then(|s| s.trim().parse().ok()).unwrap_or(0.0)
}

/// Legal forms written after a company name (S.R.L., S.P.A., S.N.C., & C. S.A.S....), folded,
/// longest first so that `S R L S` is removed before `S R L`. Forms that may stand before the name
/// or that are ambiguous (`s.s.` is also santi or strada statale) are left out.
fn legal_suffixes(ctx: &mut ImportContext) -> Result<Vec<String>> {
    let path = ctx.source.join(LEGAL_FORMS);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut out: BTreeSet<String> = BTreeSet::new();
    let mut rows = 0;
    for rec in csv_reader(&path, b',')?.records() {
        let rec = rec?;
        rows += 1;
        if rec.get(6) != Some("suffisso") || rec.get(0) == Some("SS") {
            continue;
        }
        for v in rec.get(2).unwrap_or("").split('|') {
            let f = crate::normalize::fold(v);
            if f.len() >= 3 {
                out.insert(f);
            }
        }
    }
    ctx.record("it_legal_form_markers", &path, rows, "");
    let mut list: Vec<String> = out.into_iter().collect();
    list.sort_by_key(|s| std::cmp::Reverse(s.len()));
    Ok(list)
}
