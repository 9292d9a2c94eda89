//! Comparison forms of street names. The register and what people type go through the same
//! functions, so two spellings of one street meet on the same key: `S. Giovanni` and
//! `San Giovanni`, `XX Settembre` and `Venti Settembre`, `Gen. Cantore` and `Generale Cantore`.

use crate::normalize::fold;

/// Canonical tokens of a street text (type included or not): folded, abbreviations of saints,
/// titles and numbers written out one way. Particles are kept (see `loose_tokens`).
pub fn canonical_tokens(text: &str) -> Vec<String> {
    let folded = fold(text);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied();
        // two-token abbreviations that folding split at the dot: F.LLI, N.S., SS.MA
        match (w, next) {
            ("F", Some("LLI")) => {
                out.push("FRATELLI".into());
                i += 2;
                continue;
            }
            ("N", Some("S")) if words.len() > i + 2 => {
                out.push("NOSTRA".into());
                out.push("SIGNORA".into());
                i += 2;
                continue;
            }
            ("SS", Some("MA" | "MO")) => {
                out.push("SS".into());
                i += 2;
                continue;
            }
            _ => {}
        }
        let next_is_month = next.is_some_and(is_month);
        let last_of_many = next.is_none() && i >= 1;
        out.push(canonical_word(w, next_is_month, last_of_many).to_string());
        i += 1;
    }
    out
}

fn canonical_word(w: &str, next_is_month: bool, last_of_many: bool) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    let mapped: Option<&'static str> = match w {
        "S" | "SAN" | "SANTO" | "SANTA" | "SANT" | "STO" | "STA" => Some("SAN"),
        "SS" | "SANTI" | "SANTISSIMO" | "SANTISSIMA" | "SSMA" | "SSMO" => Some("SS"),
        "GEN" | "GENER" => Some("GENERALE"),
        "DOTT" | "DOTTORE" | "DR" => Some("DOTTOR"),
        "PROF" | "PROFESSORE" => Some("PROFESSOR"),
        "AVV" => Some("AVVOCATO"),
        "ING" => Some("INGEGNERE"),
        "ON" | "ONOR" => Some("ONOREVOLE"),
        "CAV" => Some("CAVALIERE"),
        "COMM" => Some("COMMENDATORE"),
        "CARD" => Some("CARDINALE"),
        "MONS" | "MONSIGNORE" => Some("MONSIGNOR"),
        "SEN" => Some("SENATORE"),
        "PRES" => Some("PRESIDENTE"),
        "COL" => Some("COLONNELLO"),
        "TEN" => Some("TENENTE"),
        "MAGG" => Some("MAGGIORE"),
        "AMM" => Some("AMMIRAGLIO"),
        "SERG" => Some("SERGENTE"),
        "GEOM" => Some("GEOMETRA"),
        "RAG" => Some("RAGIONIERE"),
        "ARCIV" => Some("ARCIVESCOVO"),
        "FRATELLI" | "FLLI" => Some("FRATELLI"),
        "MADONNA" => Some("MADONNA"),
        "PRIMO" | "PRIMA" => Some("1"),
        "I" if next_is_month || last_of_many => Some("1"),
        "SECONDO" | "SECONDA" => Some("2"),
        "TERZO" | "TERZA" => Some("3"),
        "QUARTO" | "QUARTA" => Some("4"),
        "QUINTO" | "QUINTA" => Some("5"),
        "SESTO" | "SESTA" => Some("6"),
        "SETTIMO" | "SETTIMA" => Some("7"),
        "OTTAVO" | "OTTAVA" => Some("8"),
        "NONO" | "NONA" => Some("9"),
        "DECIMO" | "DECIMA" => Some("10"),
        "UNDICESIMO" => Some("11"),
        "DODICESIMO" => Some("12"),
        "TREDICESIMO" => Some("13"),
        _ => None,
    };
    if let Some(m) = mapped {
        return Cow::Borrowed(m);
    }
    if let Some(n) = number_word(w) {
        return Cow::Owned(n.to_string());
    }
    if w.len() >= 2 || next_is_month {
        if let Some(n) = roman(w) {
            return Cow::Owned(n.to_string());
        }
    }
    Cow::Borrowed(w)
}

fn is_month(w: &str) -> bool {
    matches!(
        w,
        "GENNAIO"
            | "FEBBRAIO"
            | "MARZO"
            | "APRILE"
            | "MAGGIO"
            | "GIUGNO"
            | "LUGLIO"
            | "AGOSTO"
            | "SETTEMBRE"
            | "OTTOBRE"
            | "NOVEMBRE"
            | "DICEMBRE"
    )
}

fn number_word(w: &str) -> Option<u32> {
    const UNITS: &[&str] = &[
        "ZERO",
        "UNO",
        "DUE",
        "TRE",
        "QUATTRO",
        "CINQUE",
        "SEI",
        "SETTE",
        "OTTO",
        "NOVE",
        "DIECI",
        "UNDICI",
        "DODICI",
        "TREDICI",
        "QUATTORDICI",
        "QUINDICI",
        "SEDICI",
        "DICIASSETTE",
        "DICIOTTO",
        "DICIANNOVE",
        "VENTI",
    ];
    if let Some(i) = UNITS.iter().position(|u| *u == w) {
        return Some(i as u32);
    }
    let tens: &[(&str, u32)] = &[
        ("VENT", 20),
        ("TRENT", 30),
        ("QUARANT", 40),
        ("CINQUANT", 50),
    ];
    for (stem, base) in tens {
        if let Some(rest) = w.strip_prefix(stem) {
            if rest == "A" || (rest.is_empty() && *base == 20) {
                return Some(*base);
            }
            let rest = rest.strip_prefix('A').unwrap_or(rest);
            let unit = match rest {
                "I" if *base == 20 => return Some(20),
                "UNO" | "UN" => 1,
                "DUE" => 2,
                "TRE" => 3,
                "QUATTRO" => 4,
                "CINQUE" => 5,
                "SEI" => 6,
                "SETTE" => 7,
                "OTTO" => 8,
                "NOVE" => 9,
                _ => continue,
            };
            return Some(base + unit);
        }
    }
    None
}

/// Whether a word is a Roman numeral of two letters or more (`II`, `XXIII`): kept in capitals.
pub fn is_roman(word: &str) -> bool {
    let up = word.to_uppercase();
    up.len() >= 2 && roman(&up).is_some()
}

/// Titles and words that precede a name in street names: left out when people write them.
pub fn is_title(w: &str) -> bool {
    matches!(
        w,
        "GENERALE"
            | "DOTTOR"
            | "PROFESSOR"
            | "AVVOCATO"
            | "INGEGNERE"
            | "ONOREVOLE"
            | "CAVALIERE"
            | "COMMENDATORE"
            | "CARDINALE"
            | "MONSIGNOR"
            | "SENATORE"
            | "PRESIDENTE"
            | "COLONNELLO"
            | "TENENTE"
            | "MAGGIORE"
            | "AMMIRAGLIO"
            | "SERGENTE"
            | "GEOMETRA"
            | "RAGIONIERE"
            | "ARCIVESCOVO"
            | "VESCOVO"
            | "SAN"
            | "SS"
            | "PAPA"
            | "DON"
            | "PADRE"
            | "BEATO"
            | "BEATA"
            | "CAPITANO"
            | "MARESCIALLO"
            | "CAPORALE"
            | "MAESTRO"
            | "CONTE"
            | "MARCHESE"
            | "DUCA"
            | "PRINCIPE"
            | "RE"
            | "REGINA"
            | "SUOR"
            | "FRA"
            | "MADRE"
            | "FRATELLI"
            | "POETA"
            | "PITTORE"
            | "MEDICO"
            | "NOTAIO"
            | "PROF"
            | "DOTT"
            | "ING"
            | "AVV"
            | "GEN"
            | "CAV"
            | "EROE"
            | "EROI"
            | "MARTIRE"
            | "MARTIRI"
            | "CADUTI"
            | "PARTIGIANO"
            | "CARABINIERE"
            | "BRIGADIERE"
            | "APPUNTATO"
            | "AGENTE"
            | "VIGILE"
            | "SINDACO"
            | "PIO"
            | "ABATE"
            | "CANONICO"
            | "ARCIPRETE"
            | "PARROCO"
            | "SACERDOTE"
            | "MISSIONARIO"
            | "MADONNA"
    )
}

/// Strict Roman numerals made of I, V, X, L up to 89 (`XX`, `XXIV`, `IV`).
fn roman(w: &str) -> Option<u32> {
    if w.is_empty() || !w.chars().all(|c| matches!(c, 'I' | 'V' | 'X' | 'L')) {
        return None;
    }
    let value = |c: char| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        _ => 50,
    };
    let chars: Vec<u32> = w.chars().map(value).collect();
    let mut total = 0i32;
    for (i, &v) in chars.iter().enumerate() {
        if chars.get(i + 1).is_some_and(|&n| n > v) {
            total -= v as i32;
        } else {
            total += v as i32;
        }
    }
    let total = u32::try_from(total).ok().filter(|t| *t > 0)?;
    // strictness: the canonical spelling of the value must be what was written
    (to_roman(total) == w).then_some(total)
}

fn to_roman(mut n: u32) -> String {
    let table = [
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut s = String::new();
    for (v, r) in table {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

/// Articles and prepositions people drop or add: `Via della Chiesa` / `Via Chiesa`.
pub fn is_particle(w: &str) -> bool {
    matches!(
        w,
        "DI" | "DE"
            | "DEL"
            | "DELLO"
            | "DELLA"
            | "DEI"
            | "DEGLI"
            | "DELLE"
            | "D"
            | "DELL"
            | "DA"
            | "DAL"
            | "DALLA"
            | "DALLE"
            | "E"
            | "ED"
            | "A"
            | "AL"
            | "ALLA"
            | "ALLE"
            | "AI"
            | "AGLI"
            | "ALL"
            | "IN"
            | "LA"
            | "IL"
            | "LO"
            | "LE"
            | "GLI"
            | "L"
            | "SU"
            | "SUL"
            | "SULLA"
            | "NEL"
            | "NELLA"
    )
}

/// The key for an exact match: every canonical token, type included, no spaces.
pub fn full_key(text: &str) -> String {
    canonical_tokens(text).concat()
}

/// Name tokens without particles (type excluded by the caller).
pub fn loose_tokens(name: &str) -> Vec<String> {
    let tokens = canonical_tokens(name);
    let kept: Vec<String> = tokens.iter().filter(|t| !is_particle(t)).cloned().collect();
    if kept.is_empty() {
        tokens
    } else {
        kept
    }
}

/// The key for a match without type and particles; also the fuzzy index's key.
pub fn loose_key(name: &str) -> String {
    loose_tokens(name).concat()
}

/// The key for a match in any word order.
pub fn sorted_key(name: &str) -> String {
    let mut t = loose_tokens(name);
    t.sort();
    t.join(" ")
}

/// The comparison form dedupe uses: canonical type and name, then the house number.
pub fn address_key(street_type: &str, name: &str, house_number: &str) -> String {
    let street_type = super::street_type::expand(street_type).unwrap_or(street_type);
    let mut tokens = canonical_tokens(&format!("{street_type} {name}"));
    let number = fold(house_number).replace(' ', "");
    if !number.is_empty() {
        tokens.push(number);
    }
    tokens.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saints_titles_and_numbers_meet() {
        assert_eq!(
            full_key("Via S. Giovanni Bosco"),
            full_key("VIA SAN GIOVANNI BOSCO")
        );
        assert_eq!(full_key("Via Santa Lucia"), full_key("via s.lucia"));
        assert_eq!(
            full_key("Via XX Settembre"),
            full_key("VIA VENTI SETTEMBRE")
        );
        assert_eq!(full_key("Via 20 Settembre"), full_key("VIA XX SETTEMBRE"));
        assert_eq!(full_key("Corso IV Novembre"), full_key("CORSO 4 NOVEMBRE"));
        assert_eq!(full_key("Via I Maggio"), full_key("VIA PRIMO MAGGIO"));
        assert_eq!(
            full_key("Via Gen. Cantore"),
            full_key("VIA GENERALE CANTORE")
        );
        assert_eq!(
            full_key("Via F.lli Rosselli"),
            full_key("VIA FRATELLI ROSSELLI")
        );
        assert_eq!(
            full_key("Via Papa Giovanni XXIII"),
            full_key("VIA PAPA GIOVANNI 23")
        );
        assert_eq!(
            full_key("Corso Vittorio Emanuele II"),
            full_key("CORSO VITTORIO EMANUELE SECONDO")
        );
        assert_eq!(full_key("Corso Umberto I"), full_key("CORSO UMBERTO PRIMO"));
        assert_ne!(full_key("Via Dei Mille"), full_key("Via 501 Mille"));
        assert_eq!(loose_key("della Chiesa"), loose_key("Chiesa"));
        assert_eq!(sorted_key("Alighieri Dante"), sorted_key("Dante Alighieri"));
    }

    #[test]
    fn address_key_is_one_form_for_two_spellings() {
        assert_eq!(
            address_key("V.LE", "S. Martino", "12/a"),
            address_key("VIALE", "SAN MARTINO", "12 A")
        );
        assert_eq!(address_key("VIA", "ROMA", "12"), "VIA ROMA 12");
    }
}
