//! Words glued together as people type them: a number after a street word or an abbreviation
//! (`S.MARCO63`, `FORLI'14`), a street type glued to the name by its dot (`V.GIOIA`).

use super::*;

/// `12/A` stays one token; `Roma12` is two (`Roma`, `12`) when digits follow a word (`glued_number`);
/// `n.12` → `n.`, `12`.
pub(super) fn split_glued(word: &str) -> Vec<String> {
    // Most words hold no dot, slash, degree sign or digit: of the splits below only a type glued to
    // a name (`ViaRoma`) can cut them, so they skip the others' searches and the list of chars.
    if !word.contains(|c: char| matches!(c, '.' | '/' | '°') || c.is_ascii_digit()) {
        return split_after_glued_type(word).unwrap_or_else(|| vec![word.to_string()]);
    }
    let chars: Vec<char> = word.chars().collect();
    // "n.12", "nr.12", "civ.12"
    if let Some(dot) = word.find('.') {
        let (head, tail) = word.split_at(dot + 1);
        let head_c = fold(head).replace(' ', "");
        if matches!(head_c.as_str(), "N" | "NR" | "NUM" | "CIV" | "NO")
            && tail.chars().next().is_some_and(|c| c.is_ascii_digit())
        {
            return vec![head.to_string(), tail.to_string()];
        }
    }
    // `ANG.VIA`, `ANG.CITTADINI`: the corner marker glued to the next street
    if let Some(rest) = word
        .strip_prefix("ANG.")
        .or_else(|| word.strip_prefix("ang."))
        .filter(|r| r.chars().next().is_some_and(char::is_alphabetic))
    {
        let mut out = vec![word[..4].to_string()];
        out.extend(split_glued(rest));
        return out;
    }
    // `DECIA/VIA`: two streets of a corner glued by a slash
    if let Some((a, b)) = word.split_once('/') {
        let letters = |s: &str| s.len() >= 2 && s.chars().all(char::is_alphabetic);
        if letters(a) && letters(b) && street_type::expand(b).is_some_and(|f| fold(b) == f) {
            return vec![a.to_string(), "/".to_string(), b.to_string()];
        }
    }
    if let Some(rest) = word.strip_prefix("n°").or_else(|| word.strip_prefix("N°")) {
        if !rest.is_empty() {
            return vec!["N".to_string(), rest.to_string()];
        }
    }
    // "ViaRoma", "PiazzaDuomo": a type glued to a capitalised name
    if let Some(out) = split_after_glued_type(word) {
        return out;
    }
    if let Some(parts) = glued_number_marker(word) {
        return parts.to_vec();
    }
    if let Some(parts) = number_then_place(word) {
        return parts.to_vec();
    }
    if let Some(d) = glued_number(&chars) {
        let (a, b) = chars.split_at(d);
        let tail: String = b.iter().collect();
        let mut out = vec![a.iter().collect()];
        match number_then_place(&tail) {
            Some(parts) => out.extend(parts),
            None => out.push(tail),
        }
        return out;
    }
    vec![word.to_string()]
}

/// `2-VARAGO`, `2/PALERA`, `38-SOLIGHETTO`: a house number glued by a dash or a slash to the
/// name of its hamlet (institutional lists write it so). Split as `2 - VARAGO`, which the line's
/// reader already cuts after the number; a suffix (`2/BIS`, `2-A`) or a sub-address word
/// (`2/INT`) stays the number's.
fn number_then_place(word: &str) -> Option<[String; 3]> {
    let cut = word.find(['-', '/'])?;
    let (number, rest) = word.split_at(cut);
    let place = &rest[1..];
    let letters = place.chars().filter(|c| c.is_alphabetic()).count();
    let fits = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && letters >= 3
        && place.chars().all(|c| c.is_alphabetic() || is_apostrophe(c))
        && !italy().is_number_suffix_word(&fold(place))
        && italy().sub_address_kind(&fold(place)).is_none();
    fits.then(|| [number.to_string(), "-".to_string(), place.to_string()])
}

/// Where a house number glued to the name's last word starts: `Roma12`, `S.MARCO63`, `SANT'ANNA49`,
/// `N.CASALI70` (lists typed without the space). The word before the digits must be at least three letters,
/// so that `A4`, `SS91`, `KM.44` and `IS.485` stay as written; the head may hold the dots and apostrophes of
/// an abbreviation or an elision, nothing else.
pub(super) fn glued_number(chars: &[char]) -> Option<usize> {
    let d = chars.iter().position(|c| c.is_ascii_digit())?;
    let head = &chars[..d];
    // an accent typed as an apostrophe ends the word: `FORLI'14`, `LIBERTA'7/A`
    let word_end = head.len() - usize::from(head.last().is_some_and(|c| is_apostrophe(*c)));
    let letters_before = head[..word_end]
        .iter()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .count();
    let head_ok = head
        .iter()
        .all(|c| c.is_alphabetic() || *c == '.' || is_apostrophe(*c));
    (letters_before >= 3 && head_ok).then_some(d)
}

pub(super) fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’')
}

/// `ViaRoma` → `Via`, then the rest split in turn; None when no type is glued at the start.
fn split_after_glued_type(word: &str) -> Option<Vec<String>> {
    let split = glued_type(word)?;
    let mut out = vec![word[..split].to_string()];
    out.extend(split_glued(&word[split..]));
    Some(out)
}

/// `CHIESAN.69`, `KENNEDYN.2`: the marker `N.` glued between the name and its number. The name keeps
/// at least three letters.
pub(super) fn glued_number_marker(word: &str) -> Option<[String; 3]> {
    // one byte search first: most words hold no dot, and the two pattern searches cost more
    if !word.as_bytes().contains(&b'.') {
        return None;
    }
    let dot = word.find("N.").or_else(|| word.find("n."))?;
    let (name, rest) = word.split_at(dot);
    let number = &rest[2..];
    let name_ok = name.chars().count() >= 3 && name.chars().all(char::is_alphabetic);
    let number_ok = number.chars().next().is_some_and(|c| c.is_ascii_digit());
    (name_ok && number_ok).then(|| [name.to_string(), rest[..2].to_string(), number.to_string()])
}

/// Where a street type at the start of `word` ends (a byte offset) when a capitalised word follows
/// it (`ViaRoma`); capitals alone (`VIALE`, `VIAREGGIO`) never split.
pub(super) fn glued_type(word: &str) -> Option<usize> {
    const GLUED: &[&str] = &[
        "Via",
        "Viale",
        "Piazza",
        "Piazzale",
        "Corso",
        "Largo",
        "Vicolo",
        "Strada",
        "Contrada",
        "Localita",
        "Località",
        "Frazione",
    ];
    // the longest type that fits (`Piazzale` over `Piazza`), followed by at least three characters,
    // an upper-case letter then a lower-case one; compared in place, nothing built per type
    GLUED
        .iter()
        .filter(|t| {
            word.strip_prefix(**t).is_some_and(|rest| {
                let mut after = rest.chars();
                after.next().is_some_and(char::is_uppercase)
                    && after.next().is_some_and(char::is_lowercase)
                    && after.next().is_some()
            })
        })
        .map(|t| t.len())
        .max()
}
