//! Places read from the shape of the name written, after the municipality's own names: a
//! municipality with one of its hamlets (`Venezia-Mestre`), the later words of a compound name
//! (`Paestum`), a quarter after the municipality (`Roma EUR`), a region word added (`Conegliano
//! Veneto`), a hamlet named after its municipality (`Lido di Camaiore`, `Torrette di Fano`), and a
//! province's name written as the city.

use super::*;

/// A municipality's name and one of its hamlets' in either order (`Venezia-Mestre`, `Mestre
/// Venezia`, `Roma Ostia`): that municipality, the hamlet kept. Both names must be known and the
/// hamlet must be that municipality's, so it is no guess.
pub(super) fn municipality_with_hamlet<'r>(register: &'r Register, city: &str) -> Vec<Cand<'r>> {
    use crate::register::municipality::NameKind;
    let folded = fold(city);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<Cand<'r>> = Vec::new();
    for k in 1..words.len() {
        let (lead, rest) = (words[..k].join(" "), words[k..].join(" "));
        for (town, place) in [(&lead, &rest), (&rest, &lead)] {
            let (towns, _) = named(register, town, &|_| false, false, false);
            if towns.is_empty() {
                continue;
            }
            for hit in register.municipalities.named(place) {
                let Some(p) = hit.place.filter(|_| hit.kind == NameKind::Place) else {
                    continue;
                };
                let theirs = towns.iter().find(|(r, _, _)| std::ptr::eq(*r, hit.record));
                if let Some(&(r, c, _)) = theirs {
                    if !out.iter().any(|(o, _, _)| std::ptr::eq(*o, r)) {
                        out.push((r, c, Some(p.name.as_str())));
                    }
                }
            }
        }
    }
    out
}

/// The municipalities of the province written whose name ends with the city written.
pub(super) fn later_words<'r>(
    register: &'r Register,
    city: &str,
    province: Option<&str>,
    contradicted: &dyn Fn(&Municipality) -> bool,
) -> Vec<Cand<'r>> {
    let Some(province) = province else {
        return Vec::new();
    };
    let words = fold(city).split(' ').filter(|w| !w.is_empty()).count();
    let ms = &register.municipalities;
    let named: Vec<Cand<'r>> = ms
        .ending_with(city, province)
        .into_iter()
        .filter_map(|r| r.current.as_ref().map(|c| (r, c)))
        .filter(|(_, c)| !contradicted(c))
        .map(|(r, c)| (r, c, Some(last_words(&c.name, words))))
        .collect();
    if !named.is_empty() {
        return named;
    }
    // then a hamlet's (`Cervinia` AO: Breuil-Cervinia, Valtournenche's)
    ms.places_ending_with(city, province)
        .into_iter()
        .filter_map(|(r, p)| r.current.as_ref().map(|c| (r, c, p)))
        .filter(|(_, c, _)| !contradicted(c))
        .map(|(r, c, p)| (r, c, Some(last_words(&p.name, words))))
        .collect()
}

/// The last `n` words of a name as the register writes it (`Paestum` of `Capaccio Paestum`).
pub(super) fn last_words(name: &str, n: usize) -> &str {
    let mut seen = 0;
    let mut in_word = false;
    for (i, ch) in name.char_indices().rev() {
        if ch.is_alphanumeric() {
            in_word = true;
        } else if in_word {
            in_word = false;
            seen += 1;
            if seen == n {
                return &name[i + ch.len_utf8()..];
            }
        }
    }
    name
}

/// A municipality's name followed by a quarter or locality of it (`Roma EUR`, `Bari Palese`,
/// `Segrate Milano 2`): the longest leading words that are a municipality's today's or former
/// name, and the rest, folded. Nothing when the rest is itself a municipality's name or a
/// province, also after `con`/`e` (two places written, and nothing says which one the record
/// means), a region word, or holds no word.
pub(super) fn municipality_and_quarter<'r>(
    register: &'r Register,
    city: &str,
) -> Option<(Vec<Cand<'r>>, String)> {
    let folded = fold(city);
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    for k in (1..words.len()).rev() {
        let (first, _) = named(register, &words[..k].join(" "), &|_| false, false, false);
        if first.is_empty() {
            continue;
        }
        let rest = words[k..].join(" ");
        // `X con Y`, `X e Y` of two municipalities is a merger's name (`Uggiate con Ronago`, 2025)
        // the register may not know yet: two places written, never X with a quarter `con Y`
        let joined = ["CON ", "E ", "ED "]
            .iter()
            .find_map(|j| rest.strip_prefix(j))
            .unwrap_or(&rest);
        // a region word after the name is the name's old official form (`Pizzo Calabro`), no quarter
        let names_a_place = [rest.as_str(), joined].iter().any(|r| {
            !named(register, r, &|_| false, false, false).0.is_empty()
                || register.city_names().province_code(r).is_some()
        }) || region_of_word(&rest).is_some();
        let letters = rest.chars().filter(|c| c.is_alphabetic()).count();
        return (!names_a_place && letters >= 2).then_some((first, rest));
    }
    None
}

/// The quarter written after this municipality's name (`EUR` of `Roma EUR`), as a hamlet: as
/// written where its words can be told apart in the text (an acronym keeps its capitals), else
/// in the register's display form.
pub(crate) fn quarter_of(
    register: &Register,
    city: &str,
    record: &MunicipalityRecord,
) -> Option<String> {
    let (named, rest) = municipality_and_quarter(register, city)?;
    if !named.iter().any(|(r, _, _)| std::ptr::eq(*r, record)) {
        return None;
    }
    let written: Vec<&str> = city.split_whitespace().collect();
    let n = rest.split(' ').count();
    if written.len() == fold(city).split(' ').count() && n <= written.len() {
        return Some(written[written.len() - n..].join(" "));
    }
    Some(crate::address::present::display_name(&rest))
}

/// Region names and their adjectives that people add to a municipality's name (`Conegliano
/// Veneto`, an old official form; `Cervia Romagna`; `Pizzo Calabro`) where the register has none,
/// with the ISTAT code of the region each names.
const REGION_WORDS: &[(&str, &str)] = &[
    ("PIEMONTE", "01"),
    ("LOMBARDIA", "03"),
    ("LOMBARDO", "03"),
    ("TRENTINO", "04"),
    ("VENETO", "05"),
    ("FRIULI", "06"),
    ("LIGURE", "07"),
    ("LIGURIA", "07"),
    ("EMILIA", "08"),
    ("ROMAGNA", "08"),
    ("TOSCANA", "09"),
    ("TOSCANO", "09"),
    ("UMBRIA", "10"),
    ("UMBRO", "10"),
    ("MARCHE", "11"),
    ("LAZIO", "12"),
    ("ABRUZZO", "13"),
    ("MOLISE", "14"),
    ("CAMPANIA", "15"),
    ("PUGLIA", "16"),
    ("SALENTO", "16"),
    ("SALENTINO", "16"),
    ("BASILICATA", "17"),
    ("LUCANO", "17"),
    ("CALABRIA", "18"),
    ("CALABRO", "18"),
    ("SICILIA", "19"),
    ("SICULO", "19"),
    ("SARDEGNA", "20"),
    ("SARDO", "20"),
];

fn region_of_word(word: &str) -> Option<&'static str> {
    REGION_WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|(_, region)| *region)
}

/// A name with a region word at its end, folded: the words before it (at least three letters) and
/// the region's code.
pub(super) fn without_region_word(city: &str) -> Option<(String, &'static str)> {
    let folded = fold(city);
    let (rest, last) = folded.rsplit_once(' ')?;
    let region = region_of_word(last)?;
    (rest.chars().filter(|c| c.is_alphabetic()).count() >= 3).then(|| (rest.to_string(), region))
}

/// The municipality a name with a region word at its end names without it (`Conegliano Veneto` →
/// Conegliano), by today's, former or short name, in that region only (`Rossano Calabro` is no
/// Rossano Veneto): tried only when the whole name is nothing.
pub(super) fn with_region_dropped<'r>(
    register: &'r Register,
    city: &str,
    contradicted: &dyn Fn(&Municipality) -> bool,
) -> Vec<Cand<'r>> {
    let Some((rest, region)) = without_region_word(city) else {
        return Vec::new();
    };
    let mut named = either_tier(register, &rest, contradicted);
    named.retain(|(_, c, _)| c.region_code == region);
    named
}

/// First words of places often named after a town that is not theirs: harbours, bridges and
/// stations serve a town across a border (`Porto d'Ascoli` is San Benedetto del Tronto's,
/// `Ponte di Brenta` Padova's).
const HEADS_NAMED_OTHERWISE: &[&str] = &["PORTO", "PONTE", "STAZIONE", "SCALO", "BIVIO"];
/// The joining words after a place's own name (`Lido di Camaiore`); and the words that follow a
/// municipality's name in its hamlets' (`Vibo Marina`, `Catanzaro Lido`). `Marittima`, `Terme`,
/// `Alta` are not among them: `Milano Marittima` is Cervia's; nor `Porto`: `Porto Garibaldi` is
/// Comacchio's.
const PLACE_LINKS: &[&str] = &["DI", "D", "DEL", "DELLA", "DELLO", "DEI", "DEGLI", "DELLE"];
const PLACE_TAILS: &[&str] = &["MARINA", "LIDO", "SCALO", "STAZIONE"];

/// The municipality a place not in the register is named after, by today's, former or short name
/// (`Lido di Camaiore` → Camaiore, `Torrette di Fano` → Fano, `Vibo Marina` → Vibo Valentia): a
/// hamlet of it, as Italian seaside and station hamlets and many others are named. Places (hamlets, merged municipalities) do not count
/// as the name: `Lido di Ostia` is not named after the hamlet Ostia here.
pub(super) fn named_after_municipality<'r>(register: &'r Register, city: &str) -> Vec<Cand<'r>> {
    let folded = fold(city);
    let words: Vec<&str> = folded.split(' ').collect();
    let n = words.len();
    // the words after the first joining word: `Lido di Camaiore`, and any hamlet so named
    // (`Torrette di Fano`, `Santa Maria di Castellabate`)
    let link = (1..n.saturating_sub(1)).find(|&i| PLACE_LINKS.contains(&words[i]));
    let head_names_its_town =
        words[0].chars().all(char::is_alphabetic) && !HEADS_NAMED_OTHERWISE.contains(&words[0]);
    let name = if let Some(i) = link.filter(|_| head_names_its_town) {
        words[i + 1..].join(" ")
    } else if n >= 2 && PLACE_TAILS.contains(&words[n - 1]) {
        words[..n - 1].join(" ")
    } else {
        return Vec::new();
    };
    either_tier(register, &name, &|_| false)
}

/// Today's, former and short names in one list, each municipality once.
pub(super) fn either_tier<'r>(
    register: &'r Register,
    name: &str,
    contradicted: &dyn Fn(&Municipality) -> bool,
) -> Vec<Cand<'r>> {
    let (mut out, second) = named(register, name, contradicted, false, false);
    for cand in second {
        if !out.iter().any(|(o, _, _)| std::ptr::eq(*o, cand.0)) {
            out.push(cand);
        }
    }
    out
}

/// A province's name written as the city (`Monza Brianza`, `Massa Carrara`, `Forlì-Cesena`): no
/// municipality, but the towns of that province whose whole name it holds are what the writer
/// most likely meant — suggested, never taken.
pub(super) fn towns_of_province_named<'r>(
    register: &'r Register,
    city: &str,
) -> Vec<&'r MunicipalityRecord> {
    let Some(code) = register.city_names().province_code(city) else {
        return Vec::new();
    };
    let written = format!(" {} ", fold(city));
    register
        .municipalities
        .records
        .iter()
        .filter(|r| {
            r.current.as_ref().is_some_and(|c| {
                c.province == code && written.contains(&format!(" {} ", fold(&c.name)))
            })
        })
        .collect()
}

/// Whether the city written is a place named after this municipality (`Lido di Camaiore`).
pub(crate) fn named_after(register: &Register, city: &str, record: &MunicipalityRecord) -> bool {
    named_after_municipality(register, city)
        .iter()
        .any(|(r, _, _)| std::ptr::eq(*r, record))
}

/// The name after a hamlet's marker written before it (`Fraz.`, `Frazione`, `Loc.`, `Località`),
/// or None: nothing follows, or a joining word does (`Frazione di Camaiore` names the municipality,
/// read by the name's shape).
pub(super) fn without_hamlet_marker(city: &str) -> Option<&str> {
    let t = city.trim_start();
    let end = t
        .find(|c: char| c == '.' || c.is_whitespace())
        .unwrap_or(t.len());
    if !matches!(
        fold(&t[..end]).as_str(),
        "FRAZ" | "FRAZIONE" | "LOC" | "LOCALITA"
    ) {
        return None;
    }
    let rest = t[end..].trim_start_matches(|c: char| c == '.' || c.is_whitespace());
    let next = rest.split_whitespace().next().map(fold)?;
    (!PLACE_LINKS.contains(&next.as_str())).then_some(rest)
}
