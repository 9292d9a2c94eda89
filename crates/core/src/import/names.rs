//! The one reader of the contact dictionaries in `contact/` (names, titles, professions, legal
//! forms, role mailboxes, free-mail domains, phone districts and special numbers), in their
//! published formats (`contact/SOURCES.md`). Each CSV is read once per import and feeds both:
//! - dedupe: first-name equivalences (Italian hypocoristics and spelling variants, English
//!   nicknames), common first names, legal-form suffixes and role mailboxes, stored in the
//!   register's `meta` ([`NamesData`]);
//! - the TypeScript capabilities (enrichment, email, phone): [`ContactDictionaries`], written to
//!   `<data dir>/contact/dictionaries.json` beside the register and read through the
//!   `contactDictionaries` door. It is a file of its own so that a data dir holding only the
//!   dictionaries (no street register: the light capabilities and their tests) works too.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{csv_reader, ImportContext, PROGRESS};
use crate::normalize::{compact, fold};
use crate::register::names::{npm_role_localparts, NameEntry, NamesData, NAMES_KEY};
use crate::register::DatasetSummary;
use crate::Result;

const HYPOCORISTICS: &str = "contact/names/it_hypocoristics.csv";
const VARIANTS: &str = "contact/names/it_name_spelling_variants.csv";
const EN_NICKNAMES: &str = "contact/names/en_nicknames_carltonnorthern.csv";
const BIRTHS: &str = "contact/names/it_firstnames_gender_births_italiatools.csv";
const ADMINISTRATORS: &str = "contact/names/it_firstnames_gender_amministratori.csv";
const TITLES: &str = "contact/names/it_titles.csv";
const PROFESSIONS: &str = "contact/names/it_professioni_titoli.csv";
const LEGAL_FORMS: &str = "contact/legal/it_legal_form_markers.csv";
const ROLE_LOCALPARTS: &str = "contact/email/it_role_localparts.csv";
const FREEMAIL: &str = "contact/email/it_freemail_isp_domains.csv";
const DISTRICTS: &str = "contact/phone/it_prefissi_distretti.csv";
const MOBILE_OPERATORS: &str = "contact/phone/it_mobile_prefix_operator.csv";
const SPECIAL_NUMBERS: &str = "contact/phone/it_numerazioni_speciali.csv";

/// Gender evidence for one folded first name: share of male bearers (0..1) and how many records
/// back it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NameGender {
    pub male: f64,
    pub weight: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Gender {
    M,
    F,
}

/// A title (`Dott.`/`Dott.ssa`, `Avv.`, `Sig.ra`) with its forms and salutations.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct TitleRow {
    pub id: String,
    pub category: String,
    pub abbr_m: String,
    pub abbr_f: String,
    pub name_m: String,
    pub name_f: String,
    pub salutation_m: String,
    pub salutation_f: String,
    /// Folded written forms (abbreviations and full words) that name this title.
    pub forms: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ProfessionRow {
    /// Folded masculine and feminine profession names.
    pub forms: Vec<String>,
    pub title_id: String,
    pub abbr_m: String,
    pub abbr_f: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct LegalFormRow {
    pub form: String,
    pub description: String,
    pub category: String,
    /// giuridica, giuridica_probabile, fisica_imprenditore, ente_di_gestione, ambiguo
    pub subject: String,
    /// Where the marker usually sits: prefisso, suffisso, prefisso/suffisso.
    pub position: String,
    /// Folded variants, longest first.
    pub variants: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SpecialNumberRow {
    pub prefix: String,
    /// Allowed digit counts.
    pub lengths: Vec<u32>,
    pub category: String,
    pub description: String,
}

/// What the TypeScript capabilities read from `contact/` (the `contactDictionaries` door).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ContactDictionaries {
    /// Folded first name → gender evidence.
    pub names: BTreeMap<String, NameGender>,
    /// Short form (folded) → gender, from the curated hypocoristics that are not ambiguous.
    pub hypocoristics: BTreeMap<String, Gender>,
    pub titles: Vec<TitleRow>,
    pub professions: Vec<ProfessionRow>,
    pub legal_forms: Vec<LegalFormRow>,
    /// Role mailboxes (lower case): the Italian list and the npm one, as dedupe holds them.
    pub role_local_parts: Vec<String>,
    /// Italian free-mail and ISP mail domains.
    pub freemail_domains: Vec<String>,
    /// District prefix (with the 0) → district name.
    pub districts: BTreeMap<String, String>,
    /// National mobile prefix → original block assignee.
    pub mobile_operators: BTreeMap<String, String>,
    pub special_numbers: Vec<SpecialNumberRow>,
}

/// Everything read from `contact/` in one pass, and what was read.
pub struct Read {
    pub names: NamesData,
    pub contact: ContactDictionaries,
    pub datasets: Vec<DatasetSummary>,
}

/// Where the dictionaries of a data dir are.
pub fn dictionaries_file(data_dir: &Path) -> PathBuf {
    data_dir.join("contact").join("dictionaries.json")
}

/// The register import's step: the dedupe part into the register, the rest beside it.
/// Optional data: a register without it still opens, and dedupe compares first names literally.
pub fn import(ctx: &mut ImportContext) -> Result<()> {
    let read = read(ctx.source)?;
    ctx.datasets.extend(read.datasets);
    let mut wtxn = ctx.env.write_txn()?;
    ctx.dbs
        .meta
        .put(&mut wtxn, NAMES_KEY, &serde_json::to_value(&read.names)?)?;
    wtxn.commit()?;
    // the register is being built in `<data dir>/register.building-…`: its parent is the data dir
    let published = ctx.source.join("contact").is_dir();
    if let (true, Some(data_dir)) = (published, ctx.env.path().parent()) {
        write_dictionaries(data_dir, &read.contact)?;
    }
    Ok(())
}

/// The dictionaries alone into `data_dir`, without a register (light capabilities, their tests).
pub fn import_dictionaries(source: &Path, data_dir: &Path) -> Result<Vec<DatasetSummary>> {
    let contact = source.join("contact");
    if !contact.is_dir() {
        return Err(crate::Error::SourceMissing(contact.display().to_string()));
    }
    let read = read(source)?;
    write_dictionaries(data_dir, &read.contact)?;
    Ok(read.datasets)
}

/// The dictionaries of `data_dir`, None when none were imported there.
pub fn load_dictionaries(data_dir: &Path) -> Result<Option<ContactDictionaries>> {
    let file = dictionaries_file(data_dir);
    if !file.exists() {
        return Ok(None);
    }
    Ok(Some(serde_json::from_slice(&std::fs::read(&file)?)?))
}

fn write_dictionaries(data_dir: &Path, contact: &ContactDictionaries) -> Result<()> {
    let file = dictionaries_file(data_dir);
    std::fs::create_dir_all(file.parent().unwrap_or(data_dir))?;
    // written aside and renamed, so a reader never sees half a file
    let partial = file.with_extension(format!("json.{}", std::process::id()));
    std::fs::write(&partial, serde_json::to_vec(contact)?)?;
    std::fs::rename(&partial, &file)?;
    Ok(())
}

/// One CSV of `contact/` read whole, fields by column name, trimmed.
struct Table {
    path: PathBuf,
    columns: HashMap<String, usize>,
    rows: Vec<csv::StringRecord>,
}

impl Table {
    /// None when the file is not there: every dictionary is optional.
    fn read(source: &Path, file: &str) -> Result<Option<Table>> {
        let path = source.join(file);
        if !path.exists() {
            return Ok(None);
        }
        let mut reader = csv_reader(&path, b',')?;
        let columns = reader
            .headers()?
            .iter()
            .enumerate()
            .map(|(i, h)| (h.trim().to_string(), i))
            .collect();
        let rows = reader
            .records()
            .filter(|r| {
                !r.as_ref()
                    .is_ok_and(|r| r.iter().all(|f| f.trim().is_empty()))
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(Some(Table {
            path,
            columns,
            rows,
        }))
    }

    fn get<'r>(&self, row: &'r csv::StringRecord, column: &str) -> &'r str {
        self.columns
            .get(column)
            .and_then(|&i| row.get(i))
            .unwrap_or("")
            .trim()
    }
}

/// Reads every dictionary of `source/contact` once.
pub fn read(source: &Path) -> Result<Read> {
    let mut datasets = Vec::new();
    let mut seen = |table: &Table, name: &str, attribution: &str| {
        datasets.push(DatasetSummary {
            name: name.to_string(),
            file: table
                .path
                .strip_prefix(source)
                .unwrap_or(&table.path)
                .display()
                .to_string(),
            rows: table.rows.len() as u64,
            attribution: attribution.to_string(),
        });
    };
    PROGRESS.start("contact dictionaries", 5);
    let mut contact = ContactDictionaries::default();

    let hypocoristics = Table::read(source, HYPOCORISTICS)?;
    let variants = Table::read(source, VARIANTS)?;
    let nicknames = Table::read(source, EN_NICKNAMES)?;
    let forms = name_forms(
        hypocoristics.as_ref(),
        variants.as_ref(),
        nicknames.as_ref(),
    );
    if let Some(t) = &hypocoristics {
        seen(t, "it_hypocoristics", "");
        for r in &t.rows {
            let g = match t.get(r, "genere") {
                "M" => Gender::M,
                "F" => Gender::F,
                _ => continue,
            };
            if t.get(r, "ambiguo") != "1" {
                contact
                    .hypocoristics
                    .insert(fold(t.get(r, "forma_breve")), g);
            }
        }
    }
    if let Some(t) = &variants {
        seen(t, "it_name_spelling_variants", "");
    }
    if let Some(t) = &nicknames {
        seen(
            t,
            "en_nicknames",
            "English nicknames: carltonnorthern/nicknames, Apache-2.0",
        );
    }
    PROGRESS.advance(1);

    let births = Table::read(source, BIRTHS)?;
    let admins = Table::read(source, ADMINISTRATORS)?;
    if let Some(t) = &births {
        seen(t, "it_firstnames_births", "");
    }
    if let Some(t) = &admins {
        seen(t, "it_firstnames_administrators", "");
    }
    let known = known_first_names(births.as_ref(), admins.as_ref());
    contact.names = name_genders(births.as_ref(), admins.as_ref());
    PROGRESS.advance(1);

    if let Some(t) = Table::read(source, TITLES)? {
        seen(&t, "it_titles", "");
        contact.titles = titles(&t);
    }
    if let Some(t) = Table::read(source, PROFESSIONS)? {
        seen(&t, "it_professions", "");
        contact.professions = professions(&t);
    }
    PROGRESS.advance(1);

    let mut legal_suffixes = Vec::new();
    if let Some(t) = Table::read(source, LEGAL_FORMS)? {
        seen(&t, "it_legal_form_markers", "");
        legal_suffixes = self::legal_suffixes(&t);
        contact.legal_forms = legal_forms(&t);
    }
    PROGRESS.advance(1);

    // one list of role mailboxes for /email and dedupe: the Italian one and npm's English-centric one
    let mut roles: BTreeSet<String> = npm_role_localparts().map(str::to_string).collect();
    if let Some(t) = Table::read(source, ROLE_LOCALPARTS)? {
        seen(&t, "it_role_localparts", "");
        roles.extend(
            t.rows
                .iter()
                .map(|r| t.get(r, "localpart").to_lowercase())
                .filter(|lp| !lp.is_empty()),
        );
    }
    contact.role_local_parts = roles.into_iter().collect();
    if let Some(t) = Table::read(source, FREEMAIL)? {
        seen(&t, "it_freemail_domains", "");
        contact.freemail_domains = t
            .rows
            .iter()
            .map(|r| t.get(r, "domain").to_lowercase())
            .collect();
    }
    if let Some(t) = Table::read(source, DISTRICTS)? {
        seen(&t, "it_phone_districts", "");
        for r in &t.rows {
            let prefix = t.get(r, "prefisso");
            if prefix.len() > 1
                && prefix.starts_with('0')
                && prefix.bytes().all(|b| b.is_ascii_digit())
            {
                contact
                    .districts
                    .insert(prefix.to_string(), t.get(r, "distretto").to_string());
            }
        }
    }
    if let Some(t) = Table::read(source, MOBILE_OPERATORS)? {
        seen(&t, "it_mobile_operators", "");
        for r in &t.rows {
            contact.mobile_operators.insert(
                t.get(r, "prefisso_nazionale").to_string(),
                t.get(r, "operatore_assegnatario_originale").to_string(),
            );
        }
    }
    if let Some(t) = Table::read(source, SPECIAL_NUMBERS)? {
        seen(&t, "it_special_numbers", "");
        contact.special_numbers = t
            .rows
            .iter()
            .map(|r| SpecialNumberRow {
                prefix: t.get(r, "prefisso").to_string(),
                lengths: lengths(t.get(r, "lunghezza_cifre")),
                category: t.get(r, "categoria").to_string(),
                description: t.get(r, "descrizione").to_string(),
            })
            .collect();
    }
    PROGRESS.advance(1);

    let names = NamesData {
        forms: forms.into_iter().collect(),
        role_localparts: contact.role_local_parts.clone(),
        known: known.into_iter().collect(),
        legal_suffixes,
    };
    Ok(Read {
        names,
        contact,
        datasets,
    })
}

/// Written first-name form (compact) → its canonical full forms, for dedupe.
fn name_forms(
    hypocoristics: Option<&Table>,
    variants: Option<&Table>,
    nicknames: Option<&Table>,
) -> BTreeMap<String, NameEntry> {
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
    if let Some(t) = hypocoristics {
        for r in &t.rows {
            let ambiguous = t.get(r, "ambiguo") == "1";
            for name in t.get(r, "nomi_completi").split('|') {
                add(t.get(r, "forma_breve"), name, ambiguous, &mut forms);
            }
        }
    }
    if let Some(t) = variants {
        for r in &t.rows {
            add(
                t.get(r, "forma"),
                t.get(r, "forma_canonica"),
                false,
                &mut forms,
            );
        }
    }
    if let Some(t) = nicknames {
        for r in &t.rows {
            // English pairs never override an Italian reading: they only add a canonical form,
            // and they are weak where the short form is also an Italian name of its own.
            let (full, short) = (t.get(r, "name1"), t.get(r, "name2"));
            let italian = forms.contains_key(&compact(short));
            add(short, full, italian, &mut forms);
        }
    }
    forms
}

/// Births rows with a real gender signal (SOURCES.md: 9,342 rare names carry equal weights).
fn birth_rows(births: &Table) -> impl Iterator<Item = (&str, f64, f64)> {
    births
        .rows
        .iter()
        .filter(|r| births.get(r, "gender_signal") == "1")
        .filter_map(|r| {
            let (m, f) = counts(births.get(r, "male_weight"), births.get(r, "female_weight"))?;
            Some((births.get(r, "name"), m, f))
        })
}

fn admin_rows(admins: &Table) -> impl Iterator<Item = (&str, f64, f64)> {
    admins.rows.iter().filter_map(|r| {
        let (m, f) = counts(admins.get(r, "male"), admins.get(r, "female"))?;
        Some((admins.get(r, "nome"), m, f))
    })
}

/// Single first names frequent enough that a one-letter difference means another name
/// (Mario/Maria, Marco/Mirco), not a typo. Rare spellings (`GIUSEPE`, 3 births) stay out.
fn known_first_names(births: Option<&Table>, admins: Option<&Table>) -> BTreeMap<String, char> {
    let mut counts: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    let sources = [
        (births.map(|t| birth_rows(t).collect::<Vec<_>>()), 50.0),
        (admins.map(|t| admin_rows(t).collect::<Vec<_>>()), 200.0),
    ];
    for (rows, min) in sources {
        for (name, m, f) in rows.into_iter().flatten() {
            if name.contains([' ', '.', '\'', '’']) || m + f < min {
                continue;
            }
            let e = counts.entry(compact(name)).or_default();
            e.0 += m;
            e.1 += f;
        }
    }
    counts
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
        .collect()
}

/// Admin-register counts are the stronger signal (SOURCES.md); births weights fill names with
/// few records.
fn name_genders(births: Option<&Table>, admins: Option<&Table>) -> BTreeMap<String, NameGender> {
    let mut out: BTreeMap<String, NameGender> = BTreeMap::new();
    for (name, m, f) in births.into_iter().flat_map(birth_rows) {
        let key = fold(name);
        if key.is_empty() || m + f <= 0.0 {
            continue;
        }
        out.insert(
            key,
            NameGender {
                male: m / (m + f),
                weight: m + f,
            },
        );
    }
    // the administrators' file repeats a name under spellings that fold alike: their counts add up
    let mut from_admins: BTreeMap<String, NameGender> = BTreeMap::new();
    for (name, m, f) in admins.into_iter().flat_map(admin_rows) {
        let key = fold(name);
        if key.is_empty() || m + f <= 0.0 {
            continue;
        }
        let known = from_admins.get(&key).copied();
        let male = m + known.map_or(0.0, |k| k.male * k.weight);
        let weight = m + f + known.map_or(0.0, |k| k.weight);
        from_admins.insert(
            key,
            NameGender {
                male: male / weight,
                weight,
            },
        );
    }
    for (key, g) in from_admins {
        if g.weight >= 5.0 || !out.contains_key(&key) {
            out.insert(key, g);
        }
    }
    for g in out.values_mut() {
        g.male = (g.male * 1000.0).round() / 1000.0;
        g.weight = g.weight.round();
    }
    out
}

/// Folded, without empties and repeats, in the order written.
fn folded_forms<'a>(written: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in written.into_iter().map(fold) {
        if !f.is_empty() && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

fn split_list(s: &str, sep: char) -> impl Iterator<Item = &str> {
    s.split(sep).map(str::trim).filter(|x| !x.is_empty())
}

fn titles(t: &Table) -> Vec<TitleRow> {
    t.rows
        .iter()
        .map(|r| {
            let written = split_list(t.get(r, "varianti_abbr"), '|')
                .chain([t.get(r, "abbr_m"), t.get(r, "abbr_f")])
                .chain(split_list(t.get(r, "titolo_m"), '/'))
                .chain(split_list(t.get(r, "titolo_f"), '/'));
            TitleRow {
                id: t.get(r, "id").into(),
                category: t.get(r, "categoria").into(),
                abbr_m: t.get(r, "abbr_m").into(),
                abbr_f: t.get(r, "abbr_f").into(),
                name_m: t.get(r, "titolo_m").into(),
                name_f: t.get(r, "titolo_f").into(),
                salutation_m: t.get(r, "saluto_m").into(),
                salutation_f: t.get(r, "saluto_f").into(),
                forms: folded_forms(written),
            }
        })
        .collect()
}

/// Without the bracketed notes of a profession name (`ingegnere (civile)`).
fn without_brackets(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('(') {
        match rest[open..].find(')') {
            Some(close) => {
                out.push_str(&rest[..open]);
                rest = &rest[open + close + 1..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

fn professions(t: &Table) -> Vec<ProfessionRow> {
    t.rows
        .iter()
        .filter(|r| !t.get(r, "titolo_id").is_empty())
        .map(|r| {
            let names: Vec<String> = split_list(t.get(r, "professione"), '/')
                .chain(split_list(t.get(r, "professione_f"), '/'))
                .map(without_brackets)
                .collect();
            ProfessionRow {
                forms: folded_forms(names.iter().map(String::as_str)),
                title_id: t.get(r, "titolo_id").into(),
                abbr_m: t.get(r, "abbr_m").into(),
                abbr_f: t.get(r, "abbr_f").into(),
            }
        })
        .collect()
}

fn legal_forms(t: &Table) -> Vec<LegalFormRow> {
    t.rows
        .iter()
        .map(|r| {
            let mut variants = folded_forms(split_list(t.get(r, "varianti"), '|'));
            variants.sort_by_key(|v| std::cmp::Reverse(v.chars().count()));
            LegalFormRow {
                form: t.get(r, "forma").into(),
                description: t.get(r, "descrizione").into(),
                category: t.get(r, "categoria").into(),
                subject: t.get(r, "soggetto").into(),
                position: t.get(r, "posizione_tipica").into(),
                variants,
            }
        })
        .collect()
}

/// Legal forms written after a company name (S.R.L., S.P.A., S.N.C., & C. S.A.S....), folded,
/// longest first so that `S R L S` is removed before `S R L`. Forms that may stand before the name
/// or that are ambiguous (`s.s.` is also santi or strada statale) are left out.
fn legal_suffixes(t: &Table) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    for r in &t.rows {
        if t.get(r, "posizione_tipica") != "suffisso" || t.get(r, "forma") == "SS" {
            continue;
        }
        for v in t.get(r, "varianti").split('|') {
            let f = fold(v);
            if f.len() >= 3 {
                out.insert(f);
            }
        }
    }
    let mut list: Vec<String> = out.into_iter().collect();
    list.sort_by_key(|s| std::cmp::Reverse(s.len()));
    list
}

/// `4-5` → [4, 5]; `9` → [9].
fn lengths(spec: &str) -> Vec<u32> {
    let mut bounds = spec.split('-').map(|s| s.trim().parse::<u32>());
    let Some(Ok(low)) = bounds.next() else {
        return Vec::new();
    };
    let high = match bounds.next() {
        Some(Ok(high)) => high,
        _ => low,
    };
    (low..=high).collect()
}

/// Male and female counts of a row; an empty field counts none, anything else unreadable drops
/// the row.
fn counts(male: &str, female: &str) -> Option<(f64, f64)> {
    let count = |v: &str| {
        if v.is_empty() {
            Some(0.0)
        } else {
            v.parse::<f64>().ok().filter(|c| c.is_finite())
        }
    };
    Some((count(male)?, count(female)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_counts() {
        assert_eq!(lengths("4-5"), vec![4, 5]);
        assert_eq!(lengths("10"), vec![10]);
        assert!(lengths("").is_empty());
    }

    #[test]
    fn bracketed_notes_dropped() {
        assert_eq!(
            without_brackets("ingegnere (civile) iunior"),
            "ingegnere  iunior"
        );
        assert_eq!(without_brackets("medico"), "medico");
    }
}
