//! Street types (DUG, "denominazione urbanistica generica") as the register writes them and as
//! people abbreviate them. The register's own types are many (578 in ANNCSU); this table holds
//! the ones people write often enough to be recognised in free text, and every common short form.

/// Full forms, folded (no accents, upper case). Multi-word types are matched before single words.
pub const FULL_TYPES: &[&str] = &[
    "STRADA PROVINCIALE",
    "STRADA STATALE",
    "STRADA COMUNALE",
    "STRADA VICINALE",
    "STRADA REGIONALE",
    "STRADA PRIVATA",
    "VIA PRIVATA",
    "VIA VICINALE",
    "VIA PROVINCIALE",
    "VIA COMUNALE",
    "VIA NAZIONALE",
    "CASE SPARSE",
    "VICO CHIUSO",
    "VICOLO CHIUSO",
    "VICOLO CIECO",
    "VICO CIECO",
    "TRAVERSA PRIVATA",
    "NUCLEO ABITATO",
    "ZONA INDUSTRIALE",
    "ZONA ARTIGIANALE",
    "CENTRO ABITATO",
    "VIA",
    "VIALE",
    "PIAZZA",
    "PIAZZALE",
    "PIAZZETTA",
    "CORSO",
    "LARGO",
    "LARGHETTO",
    "VICOLO",
    "VICO",
    "VICOLETTO",
    "LOCALITA",
    "FRAZIONE",
    "CONTRADA",
    "CONTRA",
    "STRADA",
    "STRADELLA",
    "STRADELLO",
    "STRADONE",
    "TRAVERSA",
    "CASCINA",
    "PODERE",
    "VOCABOLO",
    "CORTILE",
    "CORTE",
    "REGIONE",
    "BORGATA",
    "BORGO",
    "SALITA",
    "DISCESA",
    "SCESA",
    "RONCO",
    "ROTONDA",
    "RIONE",
    "VILLAGGIO",
    "ZONA",
    "RAMPA",
    "LUNGOMARE",
    "LUNGOLAGO",
    "LUNGARNO",
    "LUNGOTEVERE",
    "LUNGADIGE",
    "LUNGOFIUME",
    "GALLERIA",
    "SCALINATA",
    "PASSAGGIO",
    "PASSEGGIATA",
    "CALLE",
    "CAMPO",
    "CAMPIELLO",
    "FONDAMENTA",
    "SALIZADA",
    "RUGA",
    "RIO TERA",
    "CIRCONVALLAZIONE",
    "ROTATORIA",
    "RUA",
    "CALATA",
    "CHIASSO",
    "SENTIERO",
    "VIOTTOLO",
    "ARCO",
    "AUTOSTRADA",
    "VANELLA",
    "QUARTIERE",
    "BELVEDERE",
    "MASO",
    "PARCO",
    "TRAZZERA",
    "ALZAIA",
    "BALUARDO",
    "BASTIONI",
    "CUPA",
    "SUPPORTICO",
    "SOTTOPORTICO",
    "SOTTOPASSO",
    "RIVA",
    "RIVIERA",
    "COSTA",
    "PIAGGIA",
    "VIALETTO",
    "TANGENZIALE",
    "MOLO",
    "BANCHINA",
    "CAVALCAVIA",
    "ISOLATO",
    "CASE",
    "ALPE",
    "PONTE",
    "PORTA",
    "PORTICO",
];

/// Short forms (dots and spaces removed, folded) → full form.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("V", "VIA"),
    ("VLE", "VIALE"),
    ("VL", "VIALE"),
    ("PZZA", "PIAZZA"),
    ("PZA", "PIAZZA"),
    ("PZ", "PIAZZA"),
    ("PIAZ", "PIAZZA"),
    ("P", "PIAZZA"),
    ("PLE", "PIAZZALE"),
    ("PZLE", "PIAZZALE"),
    ("PTTA", "PIAZZETTA"),
    ("CSO", "CORSO"),
    ("LGO", "LARGO"),
    ("VIC", "VICOLO"),
    ("VCLO", "VICOLO"),
    ("VLO", "VICOLO"),
    ("LOC", "LOCALITA"),
    ("LOCTA", "LOCALITA"),
    ("LOCALITE", "LOCALITA"),
    ("FRAZ", "FRAZIONE"),
    ("FRZ", "FRAZIONE"),
    ("FR", "FRAZIONE"),
    ("STR", "STRADA"),
    ("STRDA", "STRADA"),
    ("CDA", "CONTRADA"),
    ("CTDA", "CONTRADA"),
    ("CONTR", "CONTRADA"),
    ("TRAV", "TRAVERSA"),
    ("TRAVERS", "TRAVERSA"),
    ("BGO", "BORGO"),
    ("BORG", "BORGATA"),
    ("SAL", "SALITA"),
    ("CIRC", "CIRCONVALLAZIONE"),
    ("CIRCONV", "CIRCONVALLAZIONE"),
    ("LMARE", "LUNGOMARE"),
    ("LUNGOM", "LUNGOMARE"),
    ("GALL", "GALLERIA"),
    ("CASC", "CASCINA"),
    ("POD", "PODERE"),
    ("VOC", "VOCABOLO"),
    ("REG", "REGIONE"),
    ("SP", "STRADA PROVINCIALE"),
    ("STRPROV", "STRADA PROVINCIALE"),
    ("SS", "STRADA STATALE"),
    ("STRSTAT", "STRADA STATALE"),
    ("SR", "STRADA REGIONALE"),
    ("STRCOM", "STRADA COMUNALE"),
    ("VPRIV", "VIA PRIVATA"),
];

/// The full form of a type written in full or abbreviated (`P.ZZA`, `v.le`, `C.da`), if known.
/// `raw` is one token as written, dots included.
pub fn expand(raw: &str) -> Option<&'static str> {
    let compact: String = crate::normalize::fold(raw).replace(' ', "");
    if compact.is_empty() {
        return None;
    }
    expansions().get(compact.as_str()).copied().or_else(|| {
        // short forms that are only a type with their dots (`C.O`, as the Ministry of Education
        // writes Corso): without them they are words of their own (`CO`, Como's province code)
        // compared in place: `expand` misses on most words of every line, so nothing is allocated
        let dotted = raw.trim().trim_end_matches('.');
        DOTTED_ONLY
            .iter()
            .find(|(short, _)| dotted.eq_ignore_ascii_case(short))
            .map(|(_, full)| *full)
    })
}

/// Short forms read as a type only as written with their dots (any case, the last dot optional).
const DOTTED_ONLY: &[(&str, &str)] = &[("C.O", "CORSO")];

/// Every single-word full type and every abbreviation, folded and without spaces, with its full
/// type: built once, where `expand` (asked of nearly every word of every address line) walked
/// both tables. A full type wins over an abbreviation written alike, and the first abbreviation
/// listed over a later one, as the walk found them.
fn expansions() -> &'static rustc_hash::FxHashMap<&'static str, &'static str> {
    static MAP: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static str>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let mut map = rustc_hash::FxHashMap::default();
        for t in FULL_TYPES.iter().filter(|t| !t.contains(' ')) {
            map.entry(*t).or_insert(*t);
        }
        for (short, full) in ABBREVIATIONS {
            map.entry(*short).or_insert(*full);
        }
        map
    })
}

/// The multi-word full types in the table's order, each with its words: split once.
fn multi_word_types() -> &'static [(&'static str, Vec<&'static str>)] {
    static TYPES: std::sync::OnceLock<Vec<(&'static str, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    TYPES.get_or_init(|| {
        FULL_TYPES
            .iter()
            .filter(|t| t.contains(' '))
            .map(|t| (*t, t.split(' ').collect()))
            .collect()
    })
}

/// Whether the folded words at the start of `words` form a full multi-word type; returns it and
/// how many words it takes.
pub fn multi_word_prefix(words: &[String]) -> Option<(&'static str, usize)> {
    multi_word_types().iter().find_map(|(t, parts)| {
        (words.len() > parts.len() && words.iter().zip(parts).all(|(w, p)| w == p))
            .then_some((*t, parts.len()))
    })
}

/// Splits a street written with its type in one field (`VIA DEL FAGGIOLO`, ANNCSU `ODONIMO`)
/// into the folded type and the name as written. Unknown types leave the whole text as name.
pub fn split(text: &str) -> (String, String) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let folded: Vec<String> = words.iter().map(|w| crate::normalize::compact(w)).collect();
    if let Some((full, n)) = multi_word_prefix(&folded) {
        return (full.to_string(), words[n..].join(" "));
    }
    if words.len() >= 2 {
        if let Some(full) = FULL_TYPES
            .iter()
            .find(|t| !t.contains(' ') && **t == folded[0])
        {
            return (full.to_string(), words[1..].join(" "));
        }
    }
    (String::new(), text.trim().to_string())
}

/// Types that name a place rather than a street: a "località" with a number is still deliverable.
pub fn is_locality(full: &str) -> bool {
    matches!(
        full,
        "LOCALITA"
            | "FRAZIONE"
            | "CONTRADA"
            | "CONTRA"
            | "BORGATA"
            | "CASCINA"
            | "PODERE"
            | "VOCABOLO"
            | "REGIONE"
            | "CASE SPARSE"
            | "CASE"
            | "NUCLEO ABITATO"
            | "CENTRO ABITATO"
            | "ZONA"
            | "ZONA INDUSTRIALE"
            | "ZONA ARTIGIANALE"
            | "MASO"
            | "ALPE"
            | "VILLAGGIO"
            | "RIONE"
            | "QUARTIERE"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_common_abbreviations() {
        for (raw, full) in [
            ("VIA", "VIA"),
            ("V.", "VIA"),
            ("V.LE", "VIALE"),
            ("v.le", "VIALE"),
            ("P.ZZA", "PIAZZA"),
            ("P.za", "PIAZZA"),
            ("P.LE", "PIAZZALE"),
            ("C.SO", "CORSO"),
            ("L.GO", "LARGO"),
            ("VIC.", "VICOLO"),
            ("LOC.", "LOCALITA"),
            ("Località", "LOCALITA"),
            ("FRAZ.", "FRAZIONE"),
            ("STR.", "STRADA"),
            ("C.DA", "CONTRADA"),
            ("c.da", "CONTRADA"),
            ("C.O", "CORSO"),
            ("c.o.", "CORSO"),
        ] {
            assert_eq!(expand(raw), Some(full), "{raw}");
        }
        assert_eq!(expand("ROMA"), None);
        // Como's province code is no Corso
        assert_eq!(expand("CO"), None);
        assert_eq!(
            split("VIA DEL FAGGIOLO"),
            ("VIA".into(), "DEL FAGGIOLO".into())
        );
        assert_eq!(
            split("STRADA PROVINCIALE 12"),
            ("STRADA PROVINCIALE".into(), "12".into())
        );
        assert_eq!(split("ROMA"), (String::new(), "ROMA".into()));
    }
}
