//! The shape of a tax code: check character, month letters, omocodia (homocode) letters.

/// Month letters, January to December.
pub const MONTHS: &[u8; 12] = b"ABCDEHLMPRST";
/// Letters that replace digits 0..9 when the Agenzia issues a homocode variant.
pub const HOMOCODE_LETTERS: &[u8; 10] = b"LMNPQRSTUV";
/// Positions (0-based) that hold digits, in the order the Agenzia replaces them (right to left).
pub const NUMERIC_POSITIONS: [usize; 7] = [14, 13, 12, 10, 9, 7, 6];

const ODD_VALUES: [u8; 36] = [
    // 0-9
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, // A-Z
    1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];

fn index36(c: u8) -> Option<usize> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 10),
        _ => None,
    }
}

/// The check character of the first 15 characters; None if they are not upper-case alphanumerics.
pub fn check_char(first15: &[u8]) -> Option<u8> {
    if first15.len() != 15 {
        return None;
    }
    let mut sum = 0usize;
    for (i, &c) in first15.iter().enumerate() {
        let k = index36(c)?;
        // Positions are counted from 1: odd ones (index 0, 2, ...) use the odd table.
        sum += if i % 2 == 0 {
            ODD_VALUES[k] as usize
        } else if k < 10 {
            k
        } else {
            k - 10
        };
    }
    Some(b'A' + (sum % 26) as u8)
}

pub fn is_numeric_position(i: usize) -> bool {
    NUMERIC_POSITIONS.contains(&i)
}

/// The digit a homocode letter stands for.
pub fn homocode_digit(c: u8) -> Option<u8> {
    HOMOCODE_LETTERS
        .iter()
        .position(|&l| l == c)
        .map(|d| b'0' + d as u8)
}

pub fn homocode_letter(digit: u8) -> u8 {
    HOMOCODE_LETTERS[(digit - b'0') as usize]
}

/// The code with every homocode letter in a numeric position turned back into its digit.
/// Leaves anything else untouched (the caller validates first).
pub fn decode_homocode(code: &[u8]) -> Vec<u8> {
    code.iter()
        .enumerate()
        .map(|(i, &c)| {
            if is_numeric_position(i) {
                homocode_digit(c).unwrap_or(c)
            } else {
                c
            }
        })
        .collect()
}

pub fn month_of_letter(c: u8) -> Option<u32> {
    MONTHS.iter().position(|&m| m == c).map(|i| i as u32 + 1)
}

pub fn month_letter(month: u32) -> u8 {
    MONTHS[(month - 1) as usize]
}

fn is_vowel(c: char) -> bool {
    matches!(c, 'A' | 'E' | 'I' | 'O' | 'U')
}

/// The A-Z letters of a name; folded first unless it already is (callers may pass raw text).
fn letters(name: &str) -> Vec<char> {
    let folded;
    let text = if name.bytes().all(|b| b.is_ascii_uppercase() || b == b' ') {
        name
    } else {
        folded = crate::normalize::fold(name);
        &folded
    };
    text.chars().filter(char::is_ascii_uppercase).collect()
}

/// Three letters for a last name: consonants, then vowels, then X. Takes raw or folded text.
pub fn last_name_part(name: &str) -> String {
    let letters = letters(name);
    let consonants = letters.iter().copied().filter(|&c| !is_vowel(c));
    let vowels = letters.iter().copied().filter(|&c| is_vowel(c));
    consonants
        .chain(vowels)
        .chain(std::iter::repeat('X'))
        .take(3)
        .collect()
}

/// Three letters for a first name: with four or more consonants the 1st, 3rd and 4th.
pub fn first_name_part(name: &str) -> String {
    let letters = letters(name);
    let consonants: Vec<char> = letters.iter().copied().filter(|&c| !is_vowel(c)).collect();
    if consonants.len() >= 4 {
        return [consonants[0], consonants[2], consonants[3]]
            .iter()
            .collect();
    }
    last_name_part(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_char_of_known_shape() {
        // Check character computed from the published tables, by hand: RSSMRA80A01H501 → U.
        assert_eq!(check_char(b"RSSMRA80A01H501"), Some(b'U'));
        assert_eq!(check_char(b"rssmra80a01h501"), None);
        assert_eq!(check_char(b"SHORT"), None);
    }

    #[test]
    fn name_parts_follow_the_rules() {
        assert_eq!(last_name_part("ROSSI"), "RSS");
        assert_eq!(last_name_part("FO"), "FOX");
        assert_eq!(last_name_part("DE LUCA"), "DLC");
        assert_eq!(first_name_part("MARIO"), "MRA");
        assert_eq!(first_name_part("GIANFRANCO"), "GFR");
        assert_eq!(first_name_part("EVA"), "VEA");
        assert_eq!(first_name_part("IO"), "IOX");
        assert_eq!(last_name_part("D'Angelo"), "DNG");
        assert_eq!(first_name_part("Nicolò"), "NCL");
    }

    #[test]
    fn homocode_letters_round_trip() {
        for d in b'0'..=b'9' {
            assert_eq!(homocode_digit(homocode_letter(d)), Some(d));
        }
        assert_eq!(
            decode_homocode(b"RSSMRAULALMHRLMX"),
            b"RSSMRA80A01H501X".to_vec()
        );
    }
}
