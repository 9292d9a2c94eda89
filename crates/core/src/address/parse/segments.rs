//! Cuts of a segment of the line before the street is read: a note before a dash, a corner
//! (`ANG.`, `&`, `e`), a spaced dash after the number.

use super::*;

/// A street type written as a word of its own: in full (`VIA`, `Frazione`) or abbreviated with its
/// dot (`FRAZ.`, `V.le`), not a name word that happens to abbreviate one (`P`, `S`).
pub(super) fn is_type_word(t: &Token) -> bool {
    let Some(full) = street_type::expand(&t.raw) else {
        return false;
    };
    t.compact == full.replace(' ', "") || (t.raw.contains('.') && t.compact.len() >= 2)
}

/// Where a dash ends a part: a lone `-`, or one glued to the word before (`COGOZZO- VIA TOLOTTI`).
/// Answers the end of the part before and the start of the part after.
pub(super) fn dash_at(seg: &[Token], i: usize) -> Option<(usize, usize)> {
    let raw = seg[i].raw.as_str();
    if raw == "-" || raw == "–" {
        return Some((i, i + 1));
    }
    (raw.len() > 1 && raw.ends_with(['-', '–'])).then_some((i + 1, i + 1))
}

/// A dash followed by a street type: the address and a note in one segment. `COGOZZO- VIA TOLOTTI
/// 10`, `LOCALITÀ PAGNANO - VIA CAPPELLETTA 23`, `ISTITUTO SACRO CUORE - CORSO UMBERTO I 326`: the
/// part before is a hamlet or a name, the street follows. `VIA CENTRO - FRAZ. ENDENNA 36`: the
/// part after is the hamlet, and the house number written at its end is the street's (without a
/// number the whole stays one name, as the register writes some). `VIA
/// ASTURIE - VIA MANN`: a corner, the first street is the address. The street comes first in the
/// answer, the note after it (read as the rest of the line).
pub(super) fn street_after_dash_note(seg: Vec<Token>) -> Vec<Vec<Token>> {
    let Some((end, start)) = (0..seg.len()).find_map(|i| {
        dash_at(&seg, i).filter(|&(end, start)| {
            end > 0 && seg.get(start).is_some_and(is_type_word) && start + 1 < seg.len()
        })
    }) else {
        return vec![seg];
    };
    let mut before: Vec<Token> = seg[..end].to_vec();
    if let Some(last) = before.last_mut() {
        let trimmed = last.raw.trim_end_matches(['-', '–']).to_string();
        *last = Token::new(&trimmed);
    }
    before.retain(|t| !t.compact.is_empty());
    let mut after: Vec<Token> = seg[start..].to_vec();
    let locality = |t: &Token| street_type::expand(&t.raw).is_some_and(street_type::is_locality);
    let street_before = before
        .first()
        .is_some_and(|t| is_type_word(t) && !locality(t));
    if !locality(&after[0]) {
        return if street_before {
            vec![before, after]
        } else {
            vec![after, before]
        };
    }
    // the hamlet after the street: its trailing number is the street's (without a number, the
    // register's own `VIA CHATELARD - FRAZIONE LA RUINE` stays one name)
    let number_at = after
        .iter()
        .rposition(|t| !t.starts_with_digit() && !is_suffix_word(t))
        .map_or(after.len(), |n| n + 1);
    let numbered = after.get(number_at).is_some_and(Token::starts_with_digit);
    if !street_before || !numbered || before.iter().any(Token::starts_with_digit) {
        return vec![seg];
    }
    before.extend(after.split_off(number_at));
    vec![before, after]
}

/// Two streets of a corner: `VIA OTRANTO ANG. CITTADINI 1`, `VIA GOZZADINI ANGOLO VIA PARAVIA
/// 31`, `VIA ARLUNO & VIA BOLZANO`, `VIA DECIA/VIA TOFANE 43`, `VIA AQUILEIA N. 32 E/O VIA
/// ASPROMONTE N. 19`. The first street is the address, with the number written after it; the
/// second is kept as written. `ANGOLO` cuts after a name word; `&`, `/`, `E`, `E/O` only before a
/// street type (`Via Aldo Moro e Caduti di Via Fani` is one name).
pub(super) fn cut_intersection(seg: Vec<Token>) -> Vec<Vec<Token>> {
    let corner = |i: usize| -> bool {
        let t = &seg[i];
        // asked only of a conjunction or a sign: the check folds the word and looks it up
        let next_is_type = || seg.get(i + 1).is_some_and(is_type_word);
        match t.compact.as_str() {
            "ANG" | "ANGOLO" | "INCROCIO" => seg.get(i + 1).is_some(),
            // `CONGIUNGENTE VIA GERVASI E VIA TRAPANI` is a register name: one type before
            "E" | "EO" => next_is_type() && !seg[1..i].iter().any(is_type_word),
            "" => matches!(t.raw.as_str(), "&" | "/") && next_is_type(),
            _ => false,
        }
    };
    let Some(at) = (2..seg.len()).find(|&i| corner(i)) else {
        return vec![seg];
    };
    let mut seg = seg;
    let rest = seg.split_off(at + 1);
    seg.pop();
    vec![seg, rest]
}

/// `Via delle Scuole 3 - Guizza`, `Via per Feriolo n. 1 - Fraz. Fondotoce`: a dash between spaces after the
/// house number ends the street as a comma would (what follows is a hamlet or a note). Elsewhere a lone
/// dash is dropped as before: `Via Roma - Figline` is a register name, `12 - 14` a range.
pub(super) fn cut_after_number_dash(mut seg: Vec<Token>) -> Vec<Vec<Token>> {
    let is_dash = |t: &Token| t.raw == "-";
    if !seg.iter().any(is_dash) {
        return vec![seg];
    }
    let cut = seg.iter().enumerate().position(|(i, t)| {
        t.raw == "-"
            && i > 0
            && seg[i - 1].starts_with_digit()
            && seg.get(i + 1).is_some_and(|next| !next.starts_with_digit())
    });
    // every other lone dash is dropped, as it always was
    let mut parts = match cut {
        Some(i) => {
            let tail = seg.split_off(i + 1);
            seg.pop();
            vec![seg, tail]
        }
        None => vec![seg],
    };
    for part in &mut parts {
        part.retain(|t| !is_dash(t));
    }
    parts
}
