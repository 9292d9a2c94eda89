//! The register's names data: first names that denote the same person (Beppe = Giuseppe, Gianni =
//! Giovanni, Niccolò = Nicolò, Bill = William), common first names with their gender, legal forms
//! and role mailboxes, as `import::names` wrote them. How two names compare is `dedupe::names`.

use std::collections::{HashMap, HashSet};

use heed::RoTxn;
use serde::{Deserialize, Serialize};

use super::store::Databases;
use crate::Result;

/// Key of the names data in the register's `meta` database (written by `import::names`).
pub const NAMES_KEY: &str = "names";

/// Canonical full forms of one written form, all compact-folded (`GIUSEPPE`, `GIOVANNIBATTISTA`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NameEntry {
    pub canonical: Vec<String>,
    /// The short form stands for several names (Pippo: Filippo or Giuseppe): a weak signal.
    pub weak: bool,
}

/// What the importer stores.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NamesData {
    pub forms: Vec<(String, NameEntry)>,
    pub role_localparts: Vec<String>,
    /// First names common enough to be names in their own right, with gender M, F or U.
    #[serde(default)]
    pub known: Vec<(String, char)>,
    /// Legal-form suffixes of company names, folded (`S R L`, `SOCIETA PER AZIONI`), longest first.
    #[serde(default)]
    pub legal_suffixes: Vec<String>,
}

#[derive(Default)]
pub struct Names {
    forms: HashMap<String, NameEntry>,
    role_localparts: RoleMailboxes,
    known: HashMap<String, char>,
    legal_suffixes: Vec<String>,
}

impl Names {
    /// Empty when the register was built without the names data.
    pub fn load(dbs: &Databases, rtxn: &RoTxn) -> Result<Names> {
        match dbs.meta.get(rtxn, NAMES_KEY)? {
            Some(v) => Ok(Names::from_data(serde_json::from_value(v)?)),
            None => Ok(Names::default()),
        }
    }

    pub fn from_data(data: NamesData) -> Names {
        Names {
            forms: data.forms.into_iter().collect(),
            role_localparts: RoleMailboxes::new(data.role_localparts),
            known: data.known.into_iter().collect(),
            legal_suffixes: data.legal_suffixes,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// The form itself plus its canonical full forms; `weak` when the short form is ambiguous.
    pub fn canonical(&self, compact_first: &str) -> (Vec<String>, bool) {
        let mut out = vec![compact_first.to_string()];
        let mut weak = false;
        if let Some(e) = self.forms.get(compact_first) {
            out.extend(e.canonical.iter().cloned());
            weak = e.weak;
        }
        (out, weak)
    }

    /// A company name without its legal form: `ROSSI COSTRUZIONI S R L` and `ROSSI COSTRUZIONI
    /// SRL` and `ROSSI COSTRUZIONI` are one name. Only a suffix is removed, and never the whole name.
    pub fn strip_legal_form<'a>(&self, folded: &'a str) -> &'a str {
        let mut name = folded;
        for _ in 0..2 {
            let before = name;
            for suffix in &self.legal_suffixes {
                if let Some(rest) = name.strip_suffix(suffix.as_str()) {
                    if rest.ends_with(' ') && !rest.trim().is_empty() {
                        name = rest.trim_end();
                        break;
                    }
                }
            }
            // `& C.` before the form (Rossi Mario & C. s.n.c.) folds to ` C` or ` E C`
            for tail in [" E C", " C"] {
                if let Some(rest) = name.strip_suffix(tail) {
                    if before != name && !rest.trim().is_empty() {
                        name = rest.trim_end();
                    }
                }
            }
            if before == name {
                break;
            }
        }
        name
    }

    /// Gender of a common first name (compact-folded), None when not a common name.
    pub fn known_gender(&self, compact_first: &str) -> Option<char> {
        self.known.get(compact_first).copied()
    }

    /// `info`, `segreteria`, `amministrazione`...: a mailbox of an office, not of a person.
    pub fn is_role_localpart(&self, localpart: &str) -> bool {
        self.role_localparts.is_role(localpart)
    }
}

/// npm `role-based-email-addresses` (English-centric: no segreteria, ufficio, urp), shipped with
/// the core so that every data dir has it, imported or not; `test/email.test.ts` checks it
/// against the package.
const NPM_ROLE_LOCALPARTS: &str = include_str!("../../data/role_based_email_addresses.txt");

pub fn npm_role_localparts() -> impl Iterator<Item = &'static str> {
    NPM_ROLE_LOCALPARTS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Role mailboxes and the one rule that reads them, for dedupe and for `/email` (through the
/// `roleMailboxes` door): the list is the Italian one and npm's (`register/import/names.rs`).
#[derive(Debug, Default)]
pub struct RoleMailboxes(HashSet<String>);

impl RoleMailboxes {
    pub fn new(list: impl IntoIterator<Item = String>) -> RoleMailboxes {
        RoleMailboxes(list.into_iter().map(|l| l.to_lowercase()).collect())
    }

    /// The npm list alone: a data dir whose dictionaries were not imported.
    pub fn npm() -> RoleMailboxes {
        RoleMailboxes::new(npm_role_localparts().map(str::to_string))
    }

    /// Quotes and a `+tag` do not count (`"info+shop"`); the whole local part, its form without
    /// separators (`ufficiotecnico` for `ufficio.tecnico`) or its first element (`info.milano`,
    /// `segreteria-roma`) is on the list. A first element of one or two letters is an initial
    /// (`gm.rossi`), not a role, even where the list has it (`gm`, `pm`).
    pub fn is_role(&self, localpart: &str) -> bool {
        let lp = localpart.strip_prefix('"').unwrap_or(localpart);
        let lp = lp.strip_suffix('"').unwrap_or(lp);
        let lp = lp.split('+').next().unwrap_or("").to_lowercase();
        if lp.is_empty() {
            return false;
        }
        if self.0.contains(&lp) {
            return true;
        }
        let joined: String = lp
            .chars()
            .filter(|c| !matches!(c, '.' | '-' | '_'))
            .collect();
        if joined != lp && self.0.contains(&joined) {
            return true;
        }
        lp.split(['.', '-', '_'])
            .next()
            .is_some_and(|head| head != lp && head.chars().count() >= 3 && self.0.contains(head))
    }
}
