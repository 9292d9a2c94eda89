//! Field repair before matching: customer files put things in the wrong field. The postcode and
//! province written in the city field (`15121 Alessandria (AL)`), the city, postcode, province and
//! country written at the end of the address line (`Via Pontida 12 Alessandria`,
//! `Via Roma 1, 20121 Milano MI Italia`) are taken out and moved to their own fields — without
//! eating a street name that ends in a place name (`Via Genova`, `Strada per Casale`): a city is
//! read at the end of the line only after a house number, a postcode or a separator.

use super::resolve::{normalize_postcode, province_code};
use crate::normalize::fold;
use crate::register::Register;

/// The four fields after repair; `moved` says what was moved, for the debug trace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Repaired {
    pub address: String,
    pub postcode: String,
    pub city: String,
    pub province: String,
    pub moved: Vec<&'static str>,
}

pub fn repair(
    register: &Register,
    address: &str,
    postcode: &str,
    city: &str,
    province: &str,
) -> Repaired {
    let fixed = utf8_read_as_latin1(city);
    let city: &str = &fixed;
    let mut r = Repaired {
        address: address.to_string(),
        postcode: postcode.to_string(),
        city: city.to_string(),
        province: province.to_string(),
        moved: Vec::new(),
    };
    if !city.is_empty() {
        let c = split_city_field(register, city);
        if c.city != city {
            r.city = c.city;
            fill(
                &mut r.postcode,
                c.postcode,
                &mut r.moved,
                "postcode_from_city",
            );
            fill(
                &mut r.province,
                c.province,
                &mut r.moved,
                "province_from_city",
            );
            r.moved.push("city_field_cleaned");
        }
    }
    let tail = split_line_tail(register, address, &r.city).or_else(|| {
        r.city
            .is_empty()
            .then(|| split_line_head(register, address))
            .flatten()
    });
    if let Some(t) = tail {
        r.address = t.head;
        if t.city.is_empty() {
            // only a postcode (and province) at the end of the line
        } else if r.city.is_empty() {
            r.city = t.city;
            r.moved.push("city_from_address");
        } else {
            r.moved.push("city_repeated_in_address");
        }
        fill(
            &mut r.postcode,
            t.postcode,
            &mut r.moved,
            "postcode_from_address",
        );
        fill(
            &mut r.province,
            t.province,
            &mut r.moved,
            "province_from_address",
        );
    }
    r
}

/// `CANTÃ\u{99}` → `CANTÙ`: UTF-8 text that was read as Latin-1 somewhere before us (the
/// Lombardy pharmacy list writes its accented cities so), when it decodes back whole.
fn utf8_read_as_latin1(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['Ã', 'Â']) || text.chars().any(|c| c as u32 > 0xFF) {
        return std::borrow::Cow::Borrowed(text);
    }
    let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
    match String::from_utf8(bytes) {
        Ok(fixed) => std::borrow::Cow::Owned(fixed),
        Err(_) => std::borrow::Cow::Borrowed(text),
    }
}

fn fill(
    field: &mut String,
    found: Option<String>,
    moved: &mut Vec<&'static str>,
    why: &'static str,
) {
    if let Some(v) = found {
        if field.trim().is_empty() {
            *field = v;
            moved.push(why);
        }
    }
}

/// A name people write as their city: a municipality's (today's, former, short, shortened:
/// `Cologno M.se`), a hamlet's. A common first word alone (`Torre`, `Villa`) is not: it ends street names too.
fn is_municipality(register: &Register, name: &str) -> bool {
    use crate::register::municipality::NameKind;
    // no municipality has a digit in its name, so the runs of words that hold a house number or
    // postcode are not looked up; three GeoNames places do (`Vigliatore 2`, `Zona 179`, `Progetto
    // Case Coppito 3`): written at the end of a one-line address they are not read as its city
    !name.bytes().any(|b| b.is_ascii_digit())
        && !fold(name).is_empty()
        && (!register.municipalities.by_name(name).is_empty()
            || register
                .municipalities
                .named(name)
                .iter()
                .any(|h| h.kind != NameKind::Lead)
            || !register.municipalities.abbreviated(name).is_empty())
}

fn is_country_word(word: &str) -> bool {
    matches!(
        fold(word).as_str(),
        "ITALIA" | "ITALY" | "ITA" | "ITALIE" | "ITALIEN"
    )
}

fn is_separator(word: &str) -> bool {
    word.chars()
        .all(|c| matches!(c, '-' | '–' | ',' | ';' | '/'))
}

fn is_postcode_word(word: &str) -> Option<String> {
    let w = word.trim_matches([',', ';', '-']);
    let w = w
        .strip_prefix("I-")
        .or_else(|| w.strip_prefix("IT-"))
        .unwrap_or(w);
    (w.len() == 5 && w.chars().all(|c| c.is_ascii_digit())).then(|| w.to_string())
}

struct CityField {
    city: String,
    postcode: Option<String>,
    province: Option<String>,
}

/// `15121 Alessandria (AL)`, `15121 Alessandria AL`, `Alessandria (Alessandria)`,
/// `15121 - ALESSANDRIA`, `Milano, Italia` → the city with postcode and province apart. A city
/// whose own name ends in a province code (`San Benedetto Po`) is left whole.
fn split_city_field(register: &Register, city: &str) -> CityField {
    let mut out = CityField {
        city: city.trim().to_string(),
        postcode: None,
        province: None,
    };
    if is_municipality(register, city) {
        return out;
    }
    let mut words: Vec<String> = city
        .replace([',', ';'], " ")
        .split_whitespace()
        .filter(|w| !is_separator(w))
        .map(str::to_string)
        .collect();
    if let Some(i) = words.iter().position(|w| is_postcode_word(w).is_some()) {
        if i == 0 || i + 1 == words.len() {
            out.postcode = is_postcode_word(&words[i]);
            words.remove(i);
        }
    }
    while words.len() > 1 && words.last().is_some_and(|w| is_country_word(w)) {
        words.pop();
    }
    if let Some((province, n)) = trailing_province(&words) {
        let head = words[..words.len() - n].join(" ");
        if province_code_of(register, &province).is_some() && !head.is_empty() {
            out.province = province_code_of(register, &province);
            words.truncate(words.len() - n);
        }
    }
    // a postcode alone (`40125`) names no city by its words: the postcode says it
    out.city = words.join(" ");
    out
}

/// The province a text names; a code is kept as written (a former one, `PS`, is read and
/// answered as today's where the province is checked).
fn province_code_of(register: &Register, text: &str) -> Option<String> {
    let bare = text.trim_matches(['(', ')']);
    let code = province_code(register, bare)?;
    let written_code = bare.len() == 2 && bare.chars().all(|c| c.is_ascii_alphabetic());
    Some(if written_code {
        bare.to_uppercase()
    } else {
        code
    })
}

/// The province written last: `(AL)`, `(Reggio Emilia)`, `AL`; returns its text and how many
/// words it takes. A bare word counts only as a two-letter code.
fn trailing_province(words: &[String]) -> Option<(String, usize)> {
    let last = words.last()?;
    if last.ends_with(')') {
        let open = words.iter().rposition(|w| w.starts_with('('))?;
        if words.len() - open <= 3 {
            return Some((words[open..].join(" "), words.len() - open));
        }
        return None;
    }
    (last.len() == 2 && last.chars().all(|c| c.is_ascii_alphabetic()) && words.len() > 1)
        .then(|| (last.clone(), 1))
}

struct LineTail {
    head: String,
    city: String,
    postcode: Option<String>,
    province: Option<String>,
}

/// The city (with postcode, province, country) at the end of the address line. Read only when it
/// follows a house number, a postcode or a separator, so `Via Genova 5` keeps its name; when the
/// city field is filled, only a repetition of it (or a tail with a postcode) is taken out.
fn split_line_tail(register: &Register, address: &str, city_field: &str) -> Option<LineTail> {
    let mut words: Vec<&str> = address.split_whitespace().collect();
    let strip = |w: &str| w.trim_matches([',', ';']).to_string();
    // trailing separators and the country
    loop {
        match words.last() {
            Some(w) if is_separator(w) => {
                words.pop();
            }
            Some(w) if words.len() > 2 && is_country_word(&strip(w)) => {
                words.pop();
            }
            _ => break,
        }
    }
    let owned: Vec<String> = words.iter().map(|w| strip(w)).collect();
    let mut province = None;
    let mut end = owned.len();
    // `Via Pontida 12 Alessandria 15121`: the postcode after the city, taken with it (below)
    let postcode_last = (end > 2)
        .then(|| is_postcode_word(&owned[end - 1]))
        .flatten()
        .filter(|pc| {
            !owned[end - 2].starts_with(|c: char| c.is_ascii_digit())
                && register.municipalities.lists_postcode(pc)
        });
    if postcode_last.is_some() {
        end = before_separators(&owned, end - 1);
    }
    let mut bracketed = false;
    if let Some((p, n)) = trailing_province(&owned[..end]) {
        let upper = p.trim_matches(['(', ')']);
        // a bare code only in capitals: `Milano MI`, never the word `Po` of a name
        let bare_ok = p.starts_with('(') || upper.chars().all(|c| c.is_ascii_uppercase());
        if bare_ok {
            if let Some(code) = province_code_of(register, &p) {
                // a name that ends in a province code (`San Benedetto Po`) is an exact name: the
                // short forms and hamlets of the second tier would read `Alessandria (AL)` as one
                let whole = owned[end.saturating_sub(2)..end].join(" ");
                if n != 1 || register.municipalities.by_name(&whole).is_empty() {
                    province = Some(code);
                    end -= n;
                    bracketed = p.starts_with('(');
                }
            }
        }
    }
    // `…, Gallarate, Varese`, `… - Gallarate - Varese`: a province by its name after the city
    if province.is_none() {
        if let Some((code, start)) = province_name_after_city(register, &words, &owned[..end]) {
            province = Some(code);
            end = start;
        }
    }
    // the longest run of words before that is a municipality's name
    let mut city_len = 0;
    for k in (1..=4.min(end)).rev() {
        let candidate = owned[end - k..end].join(" ");
        if is_municipality(register, &candidate) {
            city_len = k;
            break;
        }
    }
    if city_len == 0 {
        // no city before a last postcode: the line is read as if it had not been taken off
        return match postcode_last {
            Some(_) => postcode_at_the_end(register, &words, &owned, None),
            None => postcode_at_the_end(register, &words, &owned[..end], province),
        };
    }
    let city = owned[end - city_len..end].join(" ");
    let mut postcode = postcode_last.as_ref().map(|pc| normalize_postcode(pc));
    // `Via Roma, 1 - 21013 - Gallarate`: dashes around the postcode
    let mut head_end = before_separators(&words, end - city_len);
    let dashed = head_end < end - city_len;
    if head_end > 0 && postcode.is_none() {
        if let Some(pc) = is_postcode_word(words[head_end - 1]) {
            postcode = Some(normalize_postcode(&pc));
            head_end = before_separators(&words, head_end - 1);
        }
    }
    // what separates the street from the city: a comma or dash, a postcode, a number before
    let separated = dashed
        || head_end > 0
            && (words[head_end - 1].ends_with([',', ';'])
                || is_separator(words[head_end - 1])
                || words
                    .get(head_end)
                    .is_some_and(|w| w.starts_with([',', '-'])));
    let number_before = words[..head_end]
        .iter()
        .rev()
        .take(3)
        .any(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()));
    let head_words = &words[..head_end];
    let has_street = head_words
        .iter()
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2);
    if !has_street {
        return None;
    }
    let repeated = !city_field.is_empty() && fold(city_field) == fold(&city);
    // a postcode after a place name that is not the city written ends a street's name
    // (`Via Leonardo da Vinci 50059`, city Bologna): only one before it marks the city
    if !city_field.is_empty() && !repeated && (postcode.is_none() || postcode_last.is_some()) {
        return None;
    }
    // `Via Roma 12 Milano`: a number, a postcode or a separator stands between the street and the city
    if !(postcode.is_some() || separated || number_before || bracketed || repeated) {
        return None;
    }
    let head = head_words
        .join(" ")
        .trim_end_matches([' ', ',', ';', '-', '–'])
        .to_string();
    Some(LineTail {
        head,
        city,
        postcode,
        province,
    })
}

/// A province written by its name after a separator that follows a municipality's name
/// (`Gallarate, Varese`, `Gallarate - Varese`): the province's code and where the words before
/// it end. `Via Roma 1, Varese` has no city before the name: Varese stays the city.
fn province_name_after_city(
    register: &Register,
    words: &[&str],
    owned: &[String],
) -> Option<(String, usize)> {
    let end = owned.len();
    (1..=3.min(end)).rev().find_map(|k| {
        let start = end - k;
        let name = owned[start..end].join(" ");
        if name.bytes().any(|b| b.is_ascii_digit()) || name.len() <= 2 {
            return None;
        }
        let code = province_code_of(register, &name)?;
        let before = before_separators(words, start);
        let separated = before < start || (before > 0 && words[before - 1].ends_with([',', ';']));
        let city_before = (1..=4.min(before))
            .any(|n| is_municipality(register, &owned[before - n..before].join(" ")));
        (separated && city_before).then_some((code, before))
    })
}

/// `Gallarate, Via Roma 1`, `21013 Gallarate (VA) Via Roma 1`: the city (with its postcode before
/// and province after) at the start of the address line, read only when what follows begins with
/// a street type, so a street named after a place (`Roma 12`) is never taken for one.
fn split_line_head(register: &Register, address: &str) -> Option<LineTail> {
    let words: Vec<&str> = address.split_whitespace().collect();
    let owned: Vec<String> = words
        .iter()
        .map(|w| w.trim_matches([',', ';']).to_string())
        .collect();
    let mut at = 0;
    let postcode = is_postcode_word(owned.first()?).map(|pc| normalize_postcode(&pc));
    if postcode.is_some() {
        at = after_separators(&words, 1);
    }
    let rest = words.len().checked_sub(at)?;
    let city_len = (1..=4.min(rest)).rev().find(|&k| {
        // a comma closes the city, a bracket opens the province: neither is inside it
        !words[at..at + k - 1]
            .iter()
            .any(|w| w.ends_with([',', ';']))
            && !words[at..at + k].iter().any(|w| w.starts_with('('))
            && is_municipality(register, &owned[at..at + k].join(" "))
    })?;
    let city = owned[at..at + city_len].join(" ");
    at += city_len;
    // `Alessandria 15121 Via Pontida 12`
    let mut postcode = postcode;
    if postcode.is_none() {
        postcode = owned
            .get(at)
            .and_then(|w| is_postcode_word(w))
            .map(|pc| normalize_postcode(&pc));
        at += usize::from(postcode.is_some());
    }
    let mut province = None;
    if let Some(w) = owned.get(at) {
        let bracketed = w.starts_with('(') && w.ends_with(')');
        let bare = w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase());
        if bracketed || bare {
            if let Some(code) = province_code_of(register, w) {
                province = Some(code);
                at += 1;
            }
        }
    }
    let at = after_separators(&words, at);
    let street = &owned[at..];
    let typed = street.len() >= 2
        && (crate::rules::it::street_type::expand(&street[0]).is_some()
            || crate::rules::it::street_type::multi_word_prefix(
                &street.iter().map(|w| fold(w)).collect::<Vec<_>>(),
            )
            .is_some());
    // and a name after the type (`Corso 5` is no street)
    let named = street
        .iter()
        .skip(1)
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2);
    if !(typed && named) {
        return None;
    }
    Some(LineTail {
        head: words[at..].join(" "),
        city,
        postcode,
        province,
    })
}

/// Where the words before `end` end once the separators (`-`, `,`) just before it are left out;
/// the first word always stays.
fn before_separators<W: AsRef<str>>(words: &[W], mut end: usize) -> usize {
    while end > 1 && is_separator(words[end - 1].as_ref()) {
        end -= 1;
    }
    end
}

/// The first word from `at` on that is no separator.
fn after_separators<W: AsRef<str>>(words: &[W], mut at: usize) -> usize {
    while at < words.len() && is_separator(words[at].as_ref()) {
        at += 1;
    }
    at
}

/// `Strada Maggiore 20 40125 BO`, `Via Roma 1, 40125`: no city at the end of the line, but a
/// postcode (and the province) after the street and its number: they leave the line, and the
/// postcode names the municipality. Five digits are a postcode only after a house number or a
/// separator, and only when some municipality has them (`Via Leonardo da Vinci 98765` keeps its
/// number, however unlikely).
fn postcode_at_the_end(
    register: &Register,
    words: &[&str],
    owned: &[String],
    province: Option<String>,
) -> Option<LineTail> {
    let last = owned.len().checked_sub(1)?;
    let postcode = is_postcode_word(&owned[last])?;
    let before = words.get(last.checked_sub(1)?)?;
    let after_number_or_separator = before.ends_with([',', ';'])
        || is_separator(before)
        || before.chars().any(|c| c.is_ascii_digit());
    if !after_number_or_separator || !register.municipalities.lists_postcode(&postcode) {
        return None;
    }
    let head_words = &words[..last];
    let has_street = head_words
        .iter()
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2);
    if !has_street {
        return None;
    }
    let head = head_words
        .join(" ")
        .trim_end_matches([' ', ',', ';', '-', '–'])
        .to_string();
    Some(LineTail {
        head,
        city: String::new(),
        postcode: Some(normalize_postcode(&postcode)),
        province,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_read_as_latin1_is_read_back() {
        assert_eq!(utf8_read_as_latin1("CANT\u{c3}\u{99}"), "CANTÙ");
        assert_eq!(utf8_read_as_latin1("SAL\u{c3}\u{92}"), "SALÒ");
        assert_eq!(utf8_read_as_latin1("Cantù"), "Cantù");
        assert_eq!(utf8_read_as_latin1("Ãbc"), "Ãbc");
    }

    #[test]
    fn postcode_and_province_leave_the_city_field() {
        let Some(reg) = crate::address::tests::register() else {
            return;
        };
        for (city, pc, prov) in [
            ("15121 Alessandria (AL)", "15121", "AL"),
            ("15121 Alessandria AL", "15121", "AL"),
            ("Alessandria (Alessandria)", "", "AL"),
            ("15121 - ALESSANDRIA", "15121", ""),
            ("Alessandria, Italia", "", ""),
        ] {
            let r = repair(reg, "Via Pontida 12", "", city, "");
            assert_eq!(fold(&r.city), "ALESSANDRIA", "{city}");
            assert_eq!(r.postcode, pc, "{city}");
            assert_eq!(r.province, prov, "{city}");
        }
        // a name that ends in a province code stays whole
        let r = repair(reg, "Via Roma 1", "", "San Benedetto Po", "");
        assert_eq!(r.city, "San Benedetto Po");
        assert_eq!(r.province, "");
    }

    #[test]
    fn city_at_the_end_of_the_line() {
        let Some(reg) = crate::address::tests::register() else {
            return;
        };
        for (line, head, pc, prov) in [
            ("Via Pontida 12 Alessandria", "Via Pontida 12", "", ""),
            (
                "Via Pontida 12 - Alessandria (AL)",
                "Via Pontida 12",
                "",
                "AL",
            ),
            (
                "Via Pontida 12, 15121 Alessandria AL",
                "Via Pontida 12",
                "15121",
                "AL",
            ),
            (
                "Via Pontida 12 15121 Alessandria (AL) Italia",
                "Via Pontida 12",
                "15121",
                "AL",
            ),
            // the postcode after the city
            (
                "Via Pontida 12 Alessandria 15121",
                "Via Pontida 12",
                "15121",
                "",
            ),
            (
                "Via Pontida 12, Alessandria AL 15121",
                "Via Pontida 12",
                "15121",
                "AL",
            ),
        ] {
            let r = repair(reg, line, "", "", "");
            assert_eq!(r.address, head, "{line}");
            assert_eq!(fold(&r.city), "ALESSANDRIA", "{line}");
            assert_eq!(r.postcode, pc, "{line}");
            assert_eq!(r.province, prov, "{line}");
        }
        // dashes around the postcode, the province by its name after the city
        let r = repair(
            reg,
            "Via Pontida, 12 - 15121 - Alessandria - Alessandria",
            "",
            "",
            "",
        );
        assert_eq!(
            (r.address.as_str(), r.postcode.as_str(), r.province.as_str()),
            ("Via Pontida, 12", "15121", "AL")
        );
        assert_eq!(fold(&r.city), "ALESSANDRIA");
        let r = repair(reg, "Via Roma 1, Valenza, Alessandria", "", "", "");
        assert_eq!((r.city.as_str(), r.province.as_str()), ("Valenza", "AL"));
        // a province's name alone after the street is the city
        let r = repair(reg, "Via Roma 1, Alessandria", "", "", "");
        assert_eq!((r.city.as_str(), r.province.as_str()), ("Alessandria", ""));
        // a former province's code (Pesaro e Urbino's until 1998)
        let r = repair(reg, "Via Roma 1 Pesaro (PS)", "", "", "");
        assert_eq!((r.city.as_str(), r.province.as_str()), ("Pesaro", "PS"));
        // street names that end in a place name keep it
        for line in [
            "Via Genova",
            "Strada per Casale 12",
            "Via Genova di Spinetta Marengo",
        ] {
            let r = repair(reg, line, "", "Alessandria", "");
            assert_eq!(r.address, line);
            let r = repair(reg, line, "", "", "");
            assert_eq!(r.address, line);
        }
    }

    #[test]
    fn city_at_the_start_of_the_line() {
        let Some(reg) = crate::address::tests::register() else {
            return;
        };
        for (line, pc, prov) in [
            ("Valenza, Via Roma 1", "", ""),
            ("Valenza Via Roma 1", "", ""),
            ("15048 Valenza (AL) Via Roma 1", "15048", "AL"),
            ("15048 - Valenza, Via Roma 1", "15048", ""),
            ("Valenza 15048 Via Roma 1", "15048", ""),
        ] {
            let r = repair(reg, line, "", "", "");
            assert_eq!(
                (
                    r.address.as_str(),
                    r.city.as_str(),
                    r.postcode.as_str(),
                    r.province.as_str()
                ),
                ("Via Roma 1", "Valenza", pc, prov),
                "{line}"
            );
        }
        // only before a street type: a street named after a place keeps its name
        for line in ["Valenza 12", "Alessandria Corso 5"] {
            let r = repair(reg, line, "", "", "");
            assert_eq!((r.address.as_str(), r.city.as_str()), (line, ""), "{line}");
        }
    }
}
