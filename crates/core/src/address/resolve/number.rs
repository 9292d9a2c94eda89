//! The house number on the street found, and its point (the entry's, or interpolated between neighbours).

use super::*;

pub fn find_number<'s>(
    street: &'s Street,
    number: u32,
    suffix: &str,
) -> Option<&'s HouseNumberEntry> {
    street.find_number(number, suffix)
}

/// A point between the nearest numbers on the same side of the street (same parity).
pub fn interpolate(street: &Street, number: u32) -> Option<(f64, f64)> {
    let side = |n: &&HouseNumberEntry| n.number % 2 == number % 2;
    let below = street
        .numbers
        .iter()
        .filter(side)
        .filter(|n| n.number < number)
        .max_by_key(|n| n.number);
    let above = street
        .numbers
        .iter()
        .filter(side)
        .filter(|n| n.number > number)
        .min_by_key(|n| n.number);
    match (below, above) {
        (Some(a), Some(b)) => {
            let t = f64::from(number - a.number) / f64::from(b.number - a.number);
            Some((a.lat + (b.lat - a.lat) * t, a.lon + (b.lon - a.lon) * t))
        }
        (Some(a), None) | (None, Some(a)) => Some((a.lat, a.lon)),
        (None, None) => None,
    }
}
