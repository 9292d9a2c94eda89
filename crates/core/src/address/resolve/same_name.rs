//! Streets of one name (a name split by postcode or by locality, a street listed twice): the
//! evidence written tells them apart, in the order the country's register makes it reliable. One
//! function for Italy (`disambiguate`) and for the foreign registers (`foreign::matcher`).

use crate::register::street::StreetFacts;

/// One piece of evidence about which of several streets of one name was meant.
pub enum Evidence<'a> {
    /// The postcode written (no evidence when empty).
    Postcode(&'a str),
    /// The house number written, with its suffix.
    Number(Option<(u32, &'a str)>),
    /// The place written: whether a street lies in it.
    Within(&'a dyn Fn(u32) -> bool),
}

/// For each piece of evidence in turn, the streets that agree with it, when any does: evidence no
/// street agrees with (a postcode of another place, a number the register lacks) is passed over
/// rather than emptying the answer.
pub fn narrow<F: StreetFacts + ?Sized>(
    facts: &F,
    streets: Vec<u32>,
    evidence: &[Evidence],
) -> Vec<u32> {
    let mut v = streets;
    for e in evidence {
        if v.len() < 2 {
            break;
        }
        let agrees = |i: u32| match e {
            Evidence::Postcode(pc) => !pc.is_empty() && facts.has_postcode(i, pc),
            Evidence::Number(Some((n, suffix))) => facts.has_number(i, *n, suffix),
            Evidence::Number(None) => false,
            Evidence::Within(inside) => inside(i),
        };
        let kept: Vec<u32> = v.iter().copied().filter(|&i| agrees(i)).collect();
        if !kept.is_empty() {
            v = kept;
        }
    }
    v
}
