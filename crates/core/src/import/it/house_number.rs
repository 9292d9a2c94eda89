//! A house number as the municipal files write it (`12`, `12/A`, `12 A`, `1B`, `2/3`): the number
//! and its suffix in the register's form (upper case, no separator), as `HouseNumberEntry` keeps it.

use crate::normalize::fold;
use crate::register::street::HouseNumberEntry;

pub fn split(text: &str) -> Option<(u32, String)> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number = text[..digits].parse::<u32>().ok().filter(|&n| n > 0)?;
    let suffix = fold(&text[digits..]).replace(' ', "").to_uppercase();
    Some((number, suffix.trim_start_matches('0').to_string()))
}

/// A number of a layer of address points (Fiè, Villesse): its postcode only where it is a CAP
/// (five characters), its frazione as the district.
pub fn point_entry(
    (number, suffix): (u32, String),
    postcode: &str,
    district: &str,
    (lat, lon): (f64, f64),
) -> HouseNumberEntry {
    HouseNumberEntry {
        number,
        suffix,
        postcode: if postcode.len() == 5 {
            postcode.to_string()
        } else {
            String::new()
        },
        district: district.to_string(),
        lat,
        lon,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn number_and_suffix() {
        assert_eq!(super::split("12/A"), Some((12, "A".into())));
        assert_eq!(super::split("1b"), Some((1, "B".into())));
        assert_eq!(super::split("2/3"), Some((2, "3".into())));
        assert_eq!(super::split(" 50 "), Some((50, String::new())));
        assert_eq!(super::split("SNC"), None);
    }
}
