//! Italy's address rules: street types (DUG, `street_type`), the abbreviations, titles and
//! ordinals of street names, particles, months, numbers in words, and how names are capitalised.

pub mod street_type;

use std::borrow::Cow;

use super::CountryRules;

/// Italy's rules, as `rules::for_country("IT")` gives them.
pub struct Italy;

pub static ITALY: Italy = Italy;

impl CountryRules for Italy {
    fn country(&self) -> &'static str {
        "IT"
    }

    fn street_type(&self, written: &str) -> Option<&'static str> {
        street_type::expand(written)
    }

    fn is_locality_type(&self, full: &str) -> bool {
        street_type::is_locality(full)
    }

    fn joined_abbreviation(
        &self,
        word: &str,
        next: &str,
        more_after: bool,
    ) -> Option<&'static [&'static str]> {
        joined_abbreviation(word, next, more_after)
    }

    fn canonical_word(
        &self,
        word: &str,
        next_is_month: bool,
        last_of_many: bool,
    ) -> Option<Cow<'static, str>> {
        canonical_word(word, next_is_month, last_of_many)
    }

    fn is_month(&self, word: &str) -> bool {
        is_month(word)
    }

    fn is_title(&self, word: &str) -> bool {
        is_title(word)
    }

    fn is_particle(&self, word: &str) -> bool {
        is_particle(word)
    }

    fn title_case(&self, upper: &str) -> String {
        title_case(upper)
    }

    fn display_name(&self, upper: &str) -> String {
        display_name(upper)
    }

    fn sub_address_kind(&self, word: &str) -> Option<&'static str> {
        sub_address_kind(word)
    }

    fn is_number_suffix_word(&self, word: &str) -> bool {
        is_number_suffix_word(word)
    }

    fn means_no_number(&self, joined: &str) -> bool {
        means_no_number(joined)
    }

    fn is_number_marker(&self, word: &str) -> bool {
        is_number_marker(word)
    }

    fn names_a_place(&self, word: &str) -> bool {
        names_a_place(word)
    }
    fn street_choice(&self, precision: u8) -> &'static super::ChoiceRules {
        &CHOICE_AT[usize::from(precision.clamp(1, 5)) - 1]
    }
}

/// Italy's street choice: a street type written differently is one difference (`Viale Roma` for
/// Via Roma is a STREET_TYPE change, not another street); a typo is one edit from five letters
/// written, two from eight (under ten only where the first letter stands), the numbers alike, corrected
/// without the record backing it (the municipality is known and its streets are few), the
/// fewest edits winning.
const CHOICE: super::ChoiceRules = super::ChoiceRules {
    type_changes_alone: true,
    partial_names: Some(super::PartialNames {
        words: super::key::canonical_tokens,
        cut_words,
        is_title,
        is_title_of_nobility,
        is_particle,
        names_a_place,
        has_elided_particle,
    }),
    typo: super::TypoRule {
        one_from: 5,
        two_from: 8,
        ends_stand: false,
        two_keep_first_below: 10,
        digits_alike: true,
        particles_alike: false,
        needs_backing: false,
        more_from: [usize::MAX; 2],
        fewest_edits_win: true,
        on_written: true,
    },
    postcode_before_number: true,
    spelling_with_numbers: true,
    precision: 3,
};

/// Italy's choice at each precision a request may ask (1 to 5).
static CHOICE_AT: [super::ChoiceRules; 5] = [
    CHOICE.at(1),
    CHOICE.at(2),
    CHOICE.at(3),
    CHOICE.at(4),
    CHOICE.at(5),
];

/// Whether the written name holds an elided particle (`D'Aosta`, `de' Musi`): in Italian street
/// names these are part of a person's or a family's name (Amedeo d'Aosta, the Bologna `de'`
/// streets), not an article people drop like the `della` of `Via della Chiesa`.
pub fn has_elided_particle(name: &str) -> bool {
    let up = name.to_uppercase();
    up.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .any(|w| ["D'", "D’", "DE'", "DE’"].iter().any(|p| w.starts_with(p)))
}

/// Words written cut short with a dot (`C.SO MARTIRI LIBER.`, `VIA CRIST. COLOMBO`): three letters
/// or more before the dot, and no form the rules already read (`Gen.`, `Card.`, `Prof.`).
pub fn cut_words(name: &str) -> Vec<String> {
    name.split_whitespace()
        .flat_map(|w| w.split_inclusive('.'))
        .filter_map(|w| {
            let head = w.strip_suffix('.')?;
            let folded = crate::normalize::fold(head);
            let plain = folded.len() >= 3 && folded.chars().all(|c| c.is_ascii_alphabetic());
            (plain && super::key::canonical_tokens(head) == [folded.clone()] && !is_title(&folded))
                .then_some(folded)
        })
        .collect()
}

/// Words written after a house number as its suffix: `12 bis`, `3 ter`.
pub fn is_number_suffix_word(w: &str) -> bool {
    matches!(w, "BIS" | "TER" | "QUATER" | "QUINQUIES")
}

/// A house number written as "no number" (`SNC`, `senza numero civico`), compact.
pub fn means_no_number(joined: &str) -> bool {
    matches!(joined, "SNC" | "SN" | "SENZANUMERO" | "SENZANUMEROCIVICO")
}

/// Words that announce the house number: `n.`, `nr`, `civico`.
pub fn is_number_marker(w: &str) -> bool {
    matches!(w, "N" | "NR" | "NUM" | "NUMERO" | "CIV" | "CIVICO" | "NO")
}

/// Sub-address keywords (folded, compact) and the spec's type of sub-address.
pub fn sub_address_kind(compact: &str) -> Option<&'static str> {
    Some(match compact {
        "SCALA" | "SC" | "SCAL" => "staircase",
        "PIANO" | "PT" | "PIAN" => "floor",
        "INTERNO" | "INT" | "INTERNI" | "APPARTAMENTO" | "APP" | "APT" => "unit",
        "P" => "floor",
        "LOTTO" | "LOTT" | "LT" => "block",
        "ISOLATO" | "IS" | "ISOL" => "block_number",
        "PALAZZINA" | "PAL" | "PALAZZ" | "EDIFICIO" | "ED" | "EDIF" | "FABBRICATO" | "FABB" => {
            "building"
        }
        "TORRE" => "building",
        _ => return None,
    })
}

/// Words that make a street name another place when left out: `Via Garibaldi` is not
/// `Via Porta Garibaldi`, `Via Margherita` not `Via Santa Margherita`.
pub fn names_a_place(w: &str) -> bool {
    matches!(
        w,
        "PORTA"
            | "PONTE"
            | "MONTE"
            | "MONTI"
            | "VAL"
            | "VALLE"
            | "BORGO"
            | "CA"
            | "CASA"
            | "CASE"
            | "CASCINA"
            | "CASCINE"
            | "SAN"
            | "SANTA"
            | "SANTO"
            | "SANTI"
            | "SS"
            | "S"
            | "CADUTI"
            | "VITTIME"
            | "MARTIRI"
            | "CORTE"
            | "STRADA"
            | "VIA"
            | "VICOLO"
            | "VICO"
            | "PIAZZA"
            | "LARGO"
            | "TRAVERSA"
            | "ISOLA"
            | "LAGO"
            | "FIUME"
            | "TORRE"
            | "CASTELLO"
            | "PORTO"
            | "RIVA"
            | "COSTA"
            | "COLLE"
            | "PIAN"
            | "PIANO"
            | "PRATO"
            | "VIGNA"
            | "ORTI"
            | "ORTO"
            | "BOSCO"
            | "FONTANA"
            | "FONTE"
            | "MULINO"
            | "MOLINO"
            | "CHIESA"
            | "MADONNA"
            | "SACRO"
            | "NUOVA"
            | "NUOVO"
            | "VECCHIA"
            | "VECCHIO"
            | "ALTA"
            | "ALTO"
            | "BASSA"
            | "BASSO"
            | "GRANDE"
            | "PICCOLA"
            | "PICCOLO"
            | "SOTTO"
            | "SOPRA"
            | "PRIMA"
            | "PRIMO"
            | "SECONDA"
            | "SECONDO"
            | "TERZA"
            | "TERZO"
            | "VILLA"
            | "VILLAGGIO"
            | "PARCO"
            | "GIARDINI"
            | "GIARDINO"
            | "CAMPO"
            | "CAMPI"
            | "POGGIO"
            | "SERRA"
            | "PIAGGIA"
            | "RIO"
            | "CANALE"
            | "STAZIONE"
            | "CIRCONVALLAZIONE"
            | "LUNGO"
            | "FONDO"
            | "CIMA"
            | "CAPO"
            | "PUNTA"
            | "CROCE"
            | "VIALE"
            | "CORSO"
            | "CONTRADA"
            | "LOCALITA"
            | "FRAZIONE"
            | "REGIONE"
            | "ZONA"
    )
}

/// Two-word abbreviations that folding split at the dot: `F.LLI`, `N.S.` (before a name), `SS.MA`.
pub fn joined_abbreviation(
    word: &str,
    next: &str,
    more_after: bool,
) -> Option<&'static [&'static str]> {
    match (word, next) {
        ("F", "LLI") => Some(&["FRATELLI"]),
        ("P", "TA") => Some(&["PORTA"]),
        ("N", "S") if more_after => Some(&["NOSTRA", "SIGNORA"]),
        ("SS", "MA" | "MO") => Some(&["SS"]),
        _ => None,
    }
}

/// Abbreviations of saints, titles and ranks, ordinals, and numbers written in words, each in one form.
pub fn canonical_word(
    w: &str,
    next_is_month: bool,
    last_of_many: bool,
) -> Option<Cow<'static, str>> {
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
        "CARD" | "CARDINAL" => Some("CARDINALE"),
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
        return Some(Cow::Borrowed(m));
    }
    number_word(w)
        .or_else(|| ordinal_word(w))
        .map(|n| Cow::Owned(n.to_string()))
}

/// Ordinals past the thirteenth written out, as the register writes regnal and date numbers:
/// VENTITREESIMO, DICIOTTESIMO, VENTUNESIMA, TRENTESIMO (the number's last vowel dropped before
/// -ESIMO).
fn ordinal_word(w: &str) -> Option<u32> {
    let stem = w
        .strip_suffix("ESIMO")
        .or_else(|| w.strip_suffix("ESIMA"))?;
    if stem.len() < 3 {
        return None;
    }
    ["", "I", "O", "E", "A"]
        .iter()
        .find_map(|v| number_word(&format!("{stem}{v}")))
        .filter(|n| *n >= 11)
}

pub fn is_month(w: &str) -> bool {
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
            // the vowel between: VENTIDUE, TRENTADUE (VENTUNO, TRENTOTTO without)
            let rest = rest
                .strip_prefix(if *base == 20 { 'I' } else { 'A' })
                .unwrap_or(rest);
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

/// Titles of nobility: the place after them and a particle is the person's name (`Conte di
/// Cavour`, `Duca d'Aosta`, `Principe di Piemonte`), and people write it alone (`Via Cavour`).
pub fn is_title_of_nobility(w: &str) -> bool {
    matches!(
        w,
        "CONTE"
            | "CONTESSA"
            | "MARCHESE"
            | "MARCHESA"
            | "DUCA"
            | "DUCHESSA"
            | "PRINCIPE"
            | "PRINCIPESSA"
            | "BARONE"
            | "BARONESSA"
    )
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

/// A street name in the form people read: `VIA DELL'INDIPENDENZA` → `Via dell'Indipendenza`,
/// `PIAZZA XX SETTEMBRE` → `Piazza XX Settembre`, `VIA ALCIDE DE GASPERI` → `Via Alcide De Gasperi`.
pub fn display_name(upper: &str) -> String {
    let titled = title_case(upper);
    let words: Vec<&str> = titled.split(' ').filter(|w| !w.is_empty()).collect();
    let n = words.len();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if super::key::is_roman(w) && i > 0 {
                return w.to_uppercase();
            }
            if i == 0 {
                // the register folds the type's accent away
                return if w.eq_ignore_ascii_case("localita") {
                    "Località".to_string()
                } else {
                    w.to_string()
                };
            }
            let lower = w.to_lowercase();
            // `dell'Indipendenza`: the elided preposition in lower case, the word after capital
            if let Some((head, tail)) = lower.split_once('\'') {
                if ELIDED.contains(&head) && !tail.is_empty() {
                    let rest: String = w.chars().skip(head.chars().count() + 1).collect();
                    return format!("{head}'{rest}");
                }
            }
            // `DE'` (Bologna's `de' Gessi`) is an elision, not an accented `dè`
            if matches!(lower.as_str(), "dè" | "dé" | "de'") {
                return "de'".to_string();
            }
            let bare = lower.trim_end_matches('\'');
            if PREPOSITIONS.contains(&bare) {
                return lower;
            }
            // `da` names an origin and stays lower case (`Leonardo da Vinci`, `Sparano da Bari`)
            if matches!(bare, "di" | "de") {
                // a surname's particle between a first name and the surname: `Alcide De Gasperi`
                let surname = i >= 2 && i + 2 == n;
                return if surname {
                    let mut c = bare.chars();
                    c.next()
                        .map(|f| f.to_uppercase().chain(c).collect())
                        .unwrap_or_default()
                } else {
                    lower
                };
            }
            w.to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Prepositions and articulated prepositions written in lower case inside a name.
const PREPOSITIONS: &[&str] = &[
    "del", "dello", "della", "dei", "degli", "delle", "dal", "dallo", "dalla", "dai", "dagli",
    "dalle", "al", "allo", "alla", "ai", "agli", "alle", "nel", "nello", "nella", "nei", "negli",
    "nelle", "sul", "sullo", "sulla", "sui", "sugli", "sulle", "e", "ed", "in", "per", "con",
    "tra", "su",
];

/// Elided prepositions: `dell'`, `dall'`, `all'`, `nell'`, `sull'`, `d'`.
const ELIDED: &[&str] = &["dell", "dall", "all", "nell", "sull", "d"];

/// ANPR writes names in capitals with apostrophes for accents (`SANT'AGATA`, `CANTU'`);
/// shown to users as `Sant'Agata`, `Cantù`.
pub fn title_case(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    let mut out = String::with_capacity(s.len());
    let mut start = true;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next_is_word_end = chars
            .get(i + 1)
            .is_none_or(|n| n.is_whitespace() || *n == '-');
        if c == '\'' && next_is_word_end && i > 0 && chars[i - 1].is_alphabetic() {
            // trailing apostrophe marks an accent on the vowel before it
            if let Some(last) = out.pop() {
                out.push(accented(last));
            }
            start = false;
            continue;
        }
        if c.is_alphabetic() {
            if start {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            start = false;
        } else {
            out.push(c);
            start = c.is_whitespace() || c == '-' || c == '\'' || c == '(' || c == '/';
        }
    }
    lower_particles(&out)
}

/// Italian names keep their particles in lower case: `Sant'Agata di Militello`.
fn lower_particles(name: &str) -> String {
    const PARTICLES: &[&str] = &[
        "di", "de", "del", "della", "dello", "dei", "degli", "delle", "d", "in", "e", "ed", "al",
        "alla", "allo", "ai", "agli", "alle", "sul", "sulla", "sullo", "sui", "con", "da", "dal",
        "dalla", "nel", "nella", "sopra", "sotto", "su",
    ];
    let mut out = String::with_capacity(name.len());
    for (i, word) in name.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let lower = word.to_lowercase();
        let head = lower.split('\'').next().unwrap_or("");
        if i > 0 && PARTICLES.contains(&head) {
            out.push_str(&lower[..head.len()]);
            out.push_str(&word[head.len()..]);
        } else {
            out.push_str(word);
        }
    }
    out
}

fn accented(c: char) -> char {
    match c {
        'a' => 'à',
        'e' => 'è',
        'i' => 'ì',
        'o' => 'ò',
        'u' => 'ù',
        'A' => 'À',
        'E' => 'È',
        'I' => 'Ì',
        'O' => 'Ò',
        'U' => 'Ù',
        other => other,
    }
}
