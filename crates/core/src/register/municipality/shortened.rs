//! City names written shortened (`Nocera Inf.`, `Cologno M.se`, `Trezzano s/Naviglio`): how each
//! written word stands for a word of the name, for `Municipalities::abbreviated`.

use super::name_words;
use crate::normalize::fold;

/// How a written word of a city name stands for the name's word in its place.
#[derive(Debug, PartialEq)]
pub(super) enum WrittenWord {
    Whole(String),
    /// Cut short and closed by a dot (`Inf.`, `Garf.`), or a joining word by its letter and a
    /// slash (`s/Naviglio`): the name's word begins with it.
    Cut(String),
    /// Contracted, the dot between its first and last letters (`M.se` Monzese, `D.no` Dugnano,
    /// `Mil.se` Milanese), as Italian lists shorten a municipality's adjective.
    Contracted(String, String),
}

impl WrittenWord {
    pub(super) fn stands_for(&self, name_word: &str) -> bool {
        match self {
            WrittenWord::Whole(w) => name_word == w,
            WrittenWord::Cut(head) => name_word.len() > head.len() && name_word.starts_with(head),
            WrittenWord::Contracted(head, tail) => {
                name_word.len() > head.len() + tail.len()
                    && name_word.starts_with(head)
                    && name_word.ends_with(tail)
            }
        }
    }
}

/// A word written with a dot inside (`M.se`): 1–3 letters, the dot, 2–3 letters, not a saint
/// (`S.Pio`, `St.Ulrich` are a saint and a name).
fn contracted(raw: &str) -> Option<WrittenWord> {
    let (head, tail) = raw.split_once('.')?;
    let letters = |p: &str, max: usize| {
        (1..=max).contains(&p.chars().count()) && p.chars().all(char::is_alphabetic)
    };
    if !letters(head, 3) || !letters(tail, 3) || tail.chars().count() < 2 {
        return None;
    }
    let head = fold(head);
    if matches!(name_words(&head).as_slice(), [s] if s == "S" || s == "SS") {
        return None;
    }
    Some(WrittenWord::Contracted(head, fold(tail)))
}

/// The words of a written name, each marked when it is cut short with a dot (the rules' own
/// `cut_words`: `Inf.`, `Garf.`), contracted (`M.se`) or a joining word's letter before a slash
/// (`s/Naviglio`). None when no word is shortened or none is whole: a lone cut word (`Mil.`)
/// begins too many names to be read as one.
pub(super) fn shortened_words(written: &str) -> Option<Vec<WrittenWord>> {
    let cut = crate::rules::it::cut_words(written);
    let mut words = Vec::new();
    for raw in written.split_whitespace() {
        if let Some(word) = contracted(raw) {
            words.push(word);
            continue;
        }
        // `s/Naviglio`: the letter before the slash is a joining word's (`sul`)
        let (joining, rest) = match raw.split_once('/') {
            Some((j, rest)) if j.chars().count() == 1 && j.chars().all(char::is_alphabetic) => {
                (Some(fold(j)), rest)
            }
            _ => (None, raw),
        };
        words.extend(joining.map(WrittenWord::Cut));
        words.extend(name_words(rest).into_iter().map(|w| {
            if cut.contains(&w) {
                WrittenWord::Cut(w)
            } else {
                WrittenWord::Whole(w)
            }
        }));
    }
    let shortened = words.iter().any(|w| !matches!(w, WrittenWord::Whole(_)));
    let whole = words.iter().any(|w| matches!(w, WrittenWord::Whole(_)));
    (shortened && whole).then_some(words)
}
