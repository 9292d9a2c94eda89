//! How two personal names compare: first names that denote the same person (the register's
//! `register::names` data), typos and initials.

use crate::register::names::Names;

/// How two first names relate, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FirstName {
    Different,
    /// `G.` against `Giuseppe`, or one name missing.
    Initial,
    /// One typo (`Giusepe`).
    Typo,
    /// Nickname whose short form stands for several names (Nino: Antonino, Antonio, Giovanni).
    WeakNickname,
    /// Nickname or spelling variant (Beppe = Giuseppe, Niccolò = Nicolò, Gianmarco = Gian Marco).
    Nickname,
    Equal,
}

/// A first name as compared: compact form, canonical forms, ambiguity.
#[derive(Debug, Clone, Default)]
pub struct FirstNameKey {
    pub compact: String,
    /// First element of a compound name (`MARIA` of `MARIA GRAZIA`).
    pub head: String,
    pub canonical: Vec<String>,
    pub weak: bool,
    /// A common first name of its own (so Marco and Mirco are two names, not a typo).
    pub known: bool,
}

impl FirstNameKey {
    pub fn new(names: &Names, folded: &str) -> FirstNameKey {
        let compact: String = folded.chars().filter(|c| *c != ' ').collect();
        let head = folded.split(' ').next().unwrap_or("").to_string();
        let (mut canonical, weak) = names.canonical(&compact);
        if head != compact {
            let (more, _) = names.canonical(&head);
            canonical.extend(more.into_iter().skip(1));
        }
        let known = names.known_gender(&compact).is_some();
        FirstNameKey {
            compact,
            head,
            canonical,
            weak,
            known,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.compact.is_empty()
    }
}

/// A first name as two names are compared: its strings and flags (the pair loop reads the
/// strings from the job's numbered strings, `intern.rs`).
#[derive(Debug, Clone, Copy)]
pub struct FirstView<'a> {
    pub compact: &'a str,
    pub head: &'a str,
    pub weak: bool,
    pub known: bool,
}

impl FirstView<'_> {
    fn is_empty(&self) -> bool {
        self.compact.is_empty()
    }

    /// Is this just an initial (`G`) or a register abbreviation not in the data?
    fn is_initial(&self) -> bool {
        self.compact.len() == 1
    }
}

impl FirstNameKey {
    pub fn view(&self) -> FirstView<'_> {
        FirstView {
            compact: &self.compact,
            head: &self.head,
            weak: self.weak,
            known: self.known,
        }
    }
}

pub fn compare_first(a: &FirstNameKey, b: &FirstNameKey) -> FirstName {
    compare_first_with(a.view(), b.view(), a.compact == b.compact, || {
        a.canonical.iter().any(|x| b.canonical.contains(x))
    })
}

/// `compare_first` with the equality of the two names and whether they share a canonical form
/// answered by the caller (the pair loop compares numbered strings, `intern.rs`).
pub fn compare_first_with(
    a: FirstView,
    b: FirstView,
    equal: bool,
    share_canonical: impl FnOnce() -> bool,
) -> FirstName {
    if a.is_empty() || b.is_empty() {
        return FirstName::Initial;
    }
    if equal {
        return FirstName::Equal;
    }
    // Each one's canonical forms against the other's: Pina and Giusy meet on Giuseppina.
    if share_canonical() {
        return if a.weak || b.weak {
            FirstName::WeakNickname
        } else {
            FirstName::Nickname
        };
    }
    if a.is_initial() || b.is_initial() {
        let (i, full) = if a.is_initial() { (a, b) } else { (b, a) };
        return if full.compact.starts_with(i.compact) {
            FirstName::Initial
        } else {
            FirstName::Different
        };
    }
    if !(a.known && b.known) && is_typo(a.compact, b.compact) {
        return FirstName::Typo;
    }
    // Compound name against its first element: Maria Grazia and Maria.
    if (a.head == b.compact || b.head == a.compact) && a.head.len() > 2 {
        return FirstName::Initial;
    }
    FirstName::Different
}

/// One edit (insertion, deletion, substitution or adjacent swap) for names of 4+ letters, two for 9+; first letter must agree.
pub fn is_typo(a: &str, b: &str) -> bool {
    let (la, lb) = (a.chars().count(), b.chars().count());
    let shortest = la.min(lb);
    if shortest < 4 || a.chars().next() != b.chars().next() {
        return false;
    }
    let allowed = if shortest >= 9 { 2 } else { 1 };
    if la.abs_diff(lb) > allowed {
        return false;
    }
    super::strings::osa_distance(a, b) <= allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::fold;
    use crate::register::names::{NameEntry, NamesData, RoleMailboxes};

    fn names() -> Names {
        let e = |c: &[&str], weak| NameEntry {
            canonical: c.iter().map(|s| s.to_string()).collect(),
            weak,
        };
        Names::from_data(NamesData {
            forms: vec![
                ("BEPPE".into(), e(&["GIUSEPPE"], false)),
                ("GIANNI".into(), e(&["GIOVANNI"], false)),
                ("PINA".into(), e(&["GIUSEPPINA", "GIUSEPPA"], false)),
                ("GIUSY".into(), e(&["GIUSEPPINA", "GIUSEPPA"], false)),
                ("NINO".into(), e(&["ANTONINO", "ANTONIO", "GIOVANNI"], true)),
            ],
            role_localparts: vec!["info".into(), "segreteria".into()],
            known: vec![('M', "MARCO"), ('M', "MIRCO"), ('M', "GIUSEPPE")]
                .into_iter()
                .map(|(g, n)| (n.to_string(), g))
                .collect(),
            legal_suffixes: Vec::new(),
        })
    }

    fn key(n: &Names, s: &str) -> FirstNameKey {
        FirstNameKey::new(n, &fold(s))
    }

    #[test]
    fn nicknames_variants_typos_initials() {
        let n = names();
        let c = |a: &str, b: &str| compare_first(&key(&n, a), &key(&n, b));
        assert_eq!(c("Beppe", "Giuseppe"), FirstName::Nickname);
        assert_eq!(c("Pina", "Giusy"), FirstName::Nickname);
        assert_eq!(c("Nino", "Giovanni"), FirstName::WeakNickname);
        assert_eq!(c("Gianni", "Giuseppe"), FirstName::Different);
        assert_eq!(c("Giusepe", "Giuseppe"), FirstName::Typo);
        assert_eq!(c("G.", "Giuseppe"), FirstName::Initial);
        assert_eq!(c("M.", "Giuseppe"), FirstName::Different);
        assert_eq!(c("Maria Grazia", "Maria"), FirstName::Initial);
        assert_eq!(c("Gian Marco", "Gianmarco"), FirstName::Equal);
        assert_eq!(c("Marco", "Mirco"), FirstName::Different);
    }

    #[test]
    fn legal_forms_are_not_part_of_the_name() {
        let n = Names::from_data(NamesData {
            legal_suffixes: vec![
                "SOCIETA PER AZIONI".into(),
                "S N C".into(),
                "S R L".into(),
                "SNC".into(),
                "SRL".into(),
            ],
            ..Default::default()
        });
        assert_eq!(
            n.strip_legal_form(&fold("Rossi Costruzioni S.r.l.")),
            "ROSSI COSTRUZIONI"
        );
        assert_eq!(
            n.strip_legal_form(&fold("ROSSI COSTRUZIONI SRL")),
            "ROSSI COSTRUZIONI"
        );
        assert_eq!(
            n.strip_legal_form(&fold("Bianchi Mario & C. s.n.c.")),
            "BIANCHI MARIO"
        );
        assert_eq!(
            n.strip_legal_form(&fold("Ferrari società per azioni")),
            "FERRARI"
        );
        assert_eq!(n.strip_legal_form(&fold("SRL")), "SRL");
        assert_eq!(n.strip_legal_form(&fold("Marco Srlato")), "MARCO SRLATO");
    }

    #[test]
    fn role_mailboxes() {
        let n = names();
        assert!(n.is_role_localpart("Info"));
        assert!(n.is_role_localpart("segreteria.milano"));
        assert!(!n.is_role_localpart("mario.rossi"));
        let roles = RoleMailboxes::npm();
        assert!(roles.is_role("\"Sales+eu\""));
        assert!(roles.is_role("customer_service"));
        assert!(!roles.is_role("gm.rossi"));
    }
}
