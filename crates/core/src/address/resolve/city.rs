//! The municipality from the city as written, the postcode and the province.

use super::*;

/// `MI`, `(mi)`, `Milano` → `MI`: a province code or name as written.
pub fn province_code(register: &Register, text: &str) -> Option<String> {
    register.city_names().province_code(text)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CityMatch {
    /// Written as the register writes it (case aside).
    Same,
    /// Same name, other accents or punctuation.
    Form,
    /// Another name: former, second language, typo, or found from the postcode.
    Changed,
}

pub enum CityResolution<'r> {
    /// The municipality, how the written city reached it, and the hamlet (or merged municipality)
    /// written as the city, by its name.
    Found(
        &'r MunicipalityRecord,
        &'r Municipality,
        CityMatch,
        Option<&'r str>,
    ),
    /// More than one municipality fits as well: CITY_AMBIGUOUS with them as candidates.
    Ambiguous(Vec<&'r MunicipalityRecord>),
    /// Only a weak match (a typo, a short form or hamlet the postcode and province contradict):
    /// CITY_NOT_FOUND with what it might be.
    Suggested(Vec<&'r MunicipalityRecord>),
    NotFound,
    Missing,
}

pub(super) type Cand<'r> = (&'r MunicipalityRecord, &'r Municipality, Option<&'r str>);

/// The city as written, the postcode and province; `street_probe` tells candidates apart when
/// the name alone cannot (the municipality that has the street wins).
///
/// Names are tried in two tiers: today's and former names of a municipality first; then the short
/// forms (`Montecatini`), hamlets (`Mestre`) and merged municipalities (`Rossano`). Where a
/// postcode or province is written, a tier's candidates that agree with it win; the first tier
/// also stands when nothing agrees (the province written is then corrected, when it is of the
/// municipality's region or was its province; the postcode always). A name reached only
/// by a typo must agree with the postcode or province to be taken: otherwise it is only suggested.
pub fn municipality<'r>(
    register: &'r Register,
    city: &str,
    postcode: &str,
    province: &str,
    precision: u8,
    street_probe: &dyn Fn(&str) -> bool,
) -> CityResolution<'r> {
    let names = register.city_names();
    let (city, province_in_city) = split_province(city);
    let province = if province.trim().is_empty() {
        province_in_city.unwrap_or_default()
    } else {
        province.trim().to_string()
    };
    let province = names.province_code(&province);
    let records = &register.municipalities.records;
    let pc = normalize_postcode(postcode);
    let pc = (pc.len() == 5 && pc.bytes().all(|b| b.is_ascii_digit())).then_some(pc);
    let constrained = pc.is_some() || province.is_some();
    let pc_known = pc
        .as_deref()
        .is_some_and(|p| register.municipalities.lists_postcode(p));
    // a postcode no list gives any municipality (a frazione's own the data lacks: Rossano's
    // 87067; a generic x100) still names its postal area
    let unlisted = pc.as_deref().filter(|_| !pc_known);
    let agreement = |c: &Municipality| -> u8 {
        let in_area = unlisted.is_some_and(|p| c.postcodes.iter().any(|q| same_postal_area(p, q)));
        u8::from(province.as_deref() == Some(c.province.as_str()))
            + u8::from(pc.as_ref().is_some_and(|p| c.has_postcode(p)) || in_area)
    };
    // the candidates of a tier that agree best with what else was written (all when nothing was)
    let agreeing = |tier: &[Cand<'r>]| -> Vec<Cand<'r>> {
        if !constrained {
            return tier.to_vec();
        }
        let best = tier.iter().map(|(_, c, _)| agreement(c)).max().unwrap_or(0);
        if best == 0 {
            return Vec::new();
        }
        tier.iter()
            .copied()
            .filter(|(_, c, _)| agreement(c) == best)
            .collect()
    };

    let mut how: CityMatch;
    let mut cands: Vec<Cand<'r>>;
    let mut probe = true;
    if !fold(&city).is_empty() {
        let contradicted =
            |c: &Municipality| pc_known && !pc.as_ref().is_some_and(|p| c.has_postcode(p));
        // `Fraz. Spinetta Marengo`, `Loc. Fregene`: a hamlet by its marker, so never a
        // municipality of that name (`Frazione Montecchio` is no municipality Montecchio)
        let marked = without_hamlet_marker(&city).map(str::to_string);
        let marked_hamlet = marked.is_some();
        let city = marked.unwrap_or_else(|| city.clone());
        let (mut first, mut second, only_a_guess) =
            tiers(register, &city, &contradicted, constrained);
        if marked_hamlet {
            first.clear();
            let localities = register.streets.hamlet(&city);
            second
                .retain(|(r, _, place)| place.is_some() || localities.contains(&r.cadastral_code));
        }
        if first.is_empty() && second.is_empty() {
            // the later words of a compound name (`Paestum` SA: Capaccio Paestum), only among
            // the province's municipalities: never a guess across the country
            second = later_words(register, &city, province.as_deref(), &contradicted);
        }
        if first.is_empty() && second.is_empty() {
            // and of the name without its region word (`Rossano Calabro` CS: Corigliano-Rossano)
            if let Some((rest, region)) = without_region_word(&city) {
                second = later_words(register, &rest, province.as_deref(), &contradicted);
                second.retain(|(_, c, _)| c.region_code == region);
            }
        }
        if marked_hamlet && second.is_empty() {
            // a hamlet the registers do not know is no municipality of a name like it
            return by_postcode_alone(register, pc.as_deref(), province.as_deref())
                .unwrap_or(CityResolution::NotFound);
        }
        if only_a_guess && !constrained {
            // `Marina di Milano`: a place named after a municipality is only a guess from the
            // name's shape (every `Marina di X` is not X's), and a locality one street register
            // names is one of many places of its name; without a province or postcode agreeing
            // it is suggested, not taken
            return CityResolution::Suggested(distinct(second.iter().map(|(r, _, _)| *r)));
        }
        cands = agreeing(&first);
        how = official_match(&cands, &city);
        if cands.is_empty() {
            cands = agreeing(&second);
            how = CityMatch::Changed;
            // a short form or hamlet is not told from its namesakes by a street they may all have
            probe = false;
        }
        if cands.is_empty() && !first.is_empty() {
            // the name is a municipality's: the province or postcode written is what is wrong.
            // A province written is a slip near the place (its region, or its former province:
            // `Sappada` BL); one of another region is as likely a hamlet of that name there
            // (`Valverde` FC is Cesenatico's, not Valverde CT): suggested, not taken. A postcode
            // is five digits, often mistyped (`Milano` 15146 for 20146): the name stays first
            let slip = |(r, c, _): &Cand<'r>| {
                province
                    .as_deref()
                    .is_none_or(|p| province_in_region(register, r, c, p))
            };
            if !first.iter().any(slip) {
                return CityResolution::Suggested(distinct(first.iter().map(|(r, _, _)| *r)));
            }
            cands = first.clone();
            how = official_match(&cands, &city);
        }
        if cands.is_empty() && first.is_empty() && province.is_none() {
            // the old name of one municipality merged away, with its old postcode (`Pieve di
            // Coriano` 46020 is Borgo Mantovano's now)
            if let Some(found) = merged_alone(register, &city) {
                return found;
            }
        }
        if cands.is_empty() && !second.is_empty() {
            // only a short form, hamlet or old name, and the postcode or province say otherwise:
            // the name written is not dropped for the postcode's municipality, only suggested
            return CityResolution::Suggested(distinct(second.iter().map(|(r, _, _)| *r)));
        }
        if cands.is_empty() {
            let c = compact(&city);
            let d = match (precision, c.chars().count()) {
                (1, _) => 0,
                (_, n) if n >= 9 => 2 + u32::from(precision >= 5),
                (_, n) if n >= 4 => 1 + u32::from(precision >= 4),
                _ => 0,
            };
            let near = names.near(&city, d);
            if let Some(best) = near.iter().map(|(_, d)| *d).min() {
                let mut idx: Vec<usize> = near
                    .iter()
                    .filter(|(_, dd)| *dd == best)
                    .map(|(i, _)| *i)
                    .collect();
                idx.sort();
                idx.dedup();
                let fuzzy: Vec<Cand<'r>> = idx
                    .into_iter()
                    .filter_map(|i| records[i].current.as_ref().map(|c| (&records[i], c, None)))
                    .collect();
                how = if best == 0 {
                    CityMatch::Form
                } else {
                    CityMatch::Changed
                };
                // the same letters spaced otherwise stand alone; a typo needs the postcode or
                // province to agree
                cands = if best == 0 {
                    let agree = agreeing(&fuzzy);
                    if agree.is_empty() {
                        fuzzy.clone()
                    } else {
                        agree
                    }
                } else if constrained {
                    agreeing(&fuzzy)
                } else {
                    Vec::new()
                };
                if cands.is_empty() {
                    if let Some(found) =
                        by_postcode_alone(register, pc.as_deref(), province.as_deref())
                    {
                        return found;
                    }
                    return CityResolution::Suggested(distinct(fuzzy.iter().map(|(r, _, _)| *r)));
                }
            }
        }
        if cands.is_empty() {
            // the city may be unknown while the postcode is certain
            if let Some(found) = by_postcode_alone(register, pc.as_deref(), province.as_deref()) {
                return found;
            }
            let towns = towns_of_province_named(register, &city);
            if !towns.is_empty() {
                return CityResolution::Suggested(towns);
            }
            return CityResolution::NotFound;
        }
    } else if pc.is_some() {
        let named = by_postcode(register, postcode, province.as_deref());
        if province.is_some()
            && !named
                .iter()
                .any(|(_, c)| Some(&c.province) == province.as_ref())
        {
            // the postcode alone names municipalities of another province than the one written:
            // one of the two is wrong, and nothing written says which — suggested, not taken
            return CityResolution::Suggested(distinct(named.iter().map(|(r, _)| *r)));
        }
        cands = named.into_iter().map(|(r, c)| (r, c, None)).collect();
        how = CityMatch::Changed;
        if cands.is_empty() {
            return CityResolution::NotFound;
        }
    } else {
        return CityResolution::Missing;
    }

    if cands.len() > 1 {
        // "Paternò" (CT) and "Paterno" (PZ) fold alike: the accents written decide
        let exact: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(_, c, _)| c.name.to_lowercase() == city.trim().to_lowercase())
            .collect();
        if exact.len() == 1 && how != CityMatch::Changed && !city.is_ascii() {
            cands = exact;
        }
    }
    if cands.len() > 1 {
        if let Some(p) = &province {
            let same: Vec<_> = cands
                .iter()
                .copied()
                .filter(|(_, c, _)| &c.province == p)
                .collect();
            if !same.is_empty() {
                cands = same;
            }
        }
    }
    if cands.len() > 1 {
        let pc = postcode.trim();
        let same: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(_, c, _)| c.has_postcode(pc))
            .collect();
        if !same.is_empty() {
            cands = same;
        }
    }
    if cands.len() > 1 {
        // one municipality reached several ways (a hamlet and a short form of it): one answer
        let mut seen: Vec<&str> = Vec::new();
        cands.retain(|(r, _, _)| {
            let new = !seen.contains(&r.cadastral_code.as_str());
            seen.push(&r.cadastral_code);
            new
        });
    }
    if cands.len() > 1 && probe {
        let with_street: Vec<_> = cands
            .iter()
            .copied()
            .filter(|(r, _, _)| street_probe(&r.cadastral_code))
            .collect();
        if with_street.len() == 1 {
            cands = with_street;
        }
    }
    if cands.len() > 1 {
        // a name that lands on several municipalities is no answer
        return CityResolution::Ambiguous(cands.into_iter().map(|(r, _, _)| r).collect());
    }
    let (r, c, hamlet) = cands[0];
    CityResolution::Found(r, c, how, hamlet)
}

/// Whether the province written is of the municipality's region, or was its province once.
fn province_in_region(
    register: &Register,
    record: &MunicipalityRecord,
    c: &Municipality,
    province: &str,
) -> bool {
    record
        .periods
        .iter()
        .any(|period| period.province == province)
        || register.municipalities.records.iter().any(|r| {
            r.current
                .as_ref()
                .is_some_and(|o| o.province == province && o.region_code == c.region_code)
        })
}

/// The two tiers of `municipality`: today's and former names (and the old key, which also holds
/// names the register lists only in its history); then short forms, hamlets and merged
/// municipalities, with the frazioni and località of the street register.
///
/// A hamlet whose municipality does not have the postcode written, when that postcode is some
/// municipality's today, is left out (`contradicted`): hamlet names repeat everywhere (`Sala`),
/// and the postcode says which place is meant. Short forms and merged municipalities stay: their
/// writers often keep the old postcode (`Ruino` 27040, now Colli Verdi). A common first word
/// alone (`Casale`) counts only when a province or postcode was `constrained`. The flag says the
/// second tier is only a guess: from the name's shape (`Marina di X`: no place of that name
/// known), or a locality that only one street register names.
pub(super) fn tiers<'r>(
    register: &'r Register,
    city: &str,
    contradicted: &dyn Fn(&Municipality) -> bool,
    constrained: bool,
) -> (Vec<Cand<'r>>, Vec<Cand<'r>>, bool) {
    let ms = &register.municipalities;
    let (first, mut second) = named(register, city, contradicted, true, constrained);
    let named_elsewhere = !second.is_empty();
    // a populated place or a municipality merged away of that name is what people write as their
    // city; a locality only a street register names is no rival to it (`Castiglioncello` LI is
    // Rosignano Marittimo's town, not Castagneto Carducci's `Località Castiglioncello`)
    let a_place_named = second.iter().any(|(_, _, place)| place.is_some());
    if first.is_empty() && !a_place_named {
        for code in register.streets.hamlet(city) {
            if let Some(r) = ms.by_cadastral(code) {
                if let Some(c) = r.current.as_ref().filter(|c| !contradicted(c)) {
                    if !second.iter().any(|(o, _, _)| std::ptr::eq(*o, r)) {
                        second.push((r, c, None));
                    }
                }
            }
        }
        if !named_elsewhere && !second.is_empty() {
            // a locality only a street register names (`Località Mondello` of Porto Azzurro) is
            // one of many places of that name the registers do not list (Mondello of Palermo is a
            // quarter, no street's locality): without a province or postcode agreeing, a guess
            return (first, second, true);
        }
    }
    if first.is_empty() && second.is_empty() {
        second = municipality_with_hamlet(register, city);
        second.retain(|(_, c, _)| !contradicted(c));
        if !second.is_empty() {
            return (first, second, false);
        }
    }
    if first.is_empty() && second.is_empty() {
        // a guess from the name's shape: never against the postcode written (`Porto d'Ascoli`
        // 63074 is San Benedetto del Tronto's, not Ascoli Piceno's)
        second = named_after_municipality(register, city);
        second.retain(|(_, c, _)| !contradicted(c));
        if !second.is_empty() {
            return (first, second, true);
        }
    }
    if first.is_empty() && second.is_empty() {
        second = with_region_dropped(register, city, contradicted);
    }
    if first.is_empty() && second.is_empty() {
        // also a guess from the shape: the words after a municipality's name may be anything
        if let Some((mut named, _)) = municipality_and_quarter(register, city) {
            named.retain(|(_, c, _)| !contradicted(c));
            if !named.is_empty() {
                return (first, named, true);
            }
        }
    }
    (first, second, false)
}

/// Today's and former names (first) and short forms, with hamlets and merged municipalities
/// when `places` and common first words alone when `leads` (second).
pub(super) fn named<'r>(
    register: &'r Register,
    city: &str,
    contradicted: &dyn Fn(&Municipality) -> bool,
    places: bool,
    leads: bool,
) -> (Vec<Cand<'r>>, Vec<Cand<'r>>) {
    use crate::register::municipality::{NameKind, PlaceKind};
    let ms = &register.municipalities;
    let mut first: Vec<Cand<'r>> = Vec::new();
    let mut second: Vec<Cand<'r>> = Vec::new();
    for r in ms.by_name(city) {
        if let Some(c) = &r.current {
            first.push((r, c, None));
        }
    }
    for hit in ms.named(city) {
        let Some(c) = &hit.record.current else {
            continue;
        };
        match hit.kind {
            NameKind::Official | NameKind::Former => {
                if !first.iter().any(|(r, _, _)| std::ptr::eq(*r, hit.record)) {
                    first.push((hit.record, c, None));
                }
            }
            NameKind::Short => second.push((hit.record, c, None)),
            NameKind::Lead if leads => second.push((hit.record, c, None)),
            NameKind::Lead => {}
            NameKind::Place if places => {
                let hamlet = hit.place.is_some_and(|p| p.kind == PlaceKind::Hamlet);
                if !(hamlet && contradicted(c)) {
                    second.push((hit.record, c, hit.place.map(|p| p.name.as_str())));
                }
            }
            NameKind::Place => {}
        }
    }
    if first.is_empty() && second.is_empty() {
        // `Nocera Inf.`: a cut word is a short form, one municipality only where the province,
        // postcode or the whole country leaves one
        for r in ms.abbreviated(city) {
            if let Some(c) = &r.current {
                second.push((r, c, None));
            }
        }
    }
    (first, second)
}

/// How a city found among today's and former names was written: as the register writes it, in
/// another form (accents, spacing, `S.` for `San`, one language of two), or another name.
pub(super) fn official_match(cands: &[Cand], city: &str) -> CityMatch {
    if cands.is_empty() {
        return CityMatch::Same;
    }
    let written = fold(city);
    if cands
        .iter()
        .any(|(_, c, _)| c.name.to_lowercase() == city.trim().to_lowercase())
    {
        return CityMatch::Same;
    }
    let key = name_key(city);
    let official = |c: &Municipality| {
        fold(&c.name) == written
            || name_key(&c.name) == key
            || (!c.alt_name.is_empty()
                && (name_key(&c.alt_name) == key
                    || name_key(&format!("{} {}", c.name, c.alt_name)) == key))
    };
    if cands.iter().any(|(_, c, _)| official(c)) {
        CityMatch::Form
    } else {
        CityMatch::Changed
    }
}

pub(super) fn distinct<'r>(
    records: impl Iterator<Item = &'r MunicipalityRecord>,
) -> Vec<&'r MunicipalityRecord> {
    let mut out: Vec<&MunicipalityRecord> = Vec::new();
    for r in records {
        if !out.iter().any(|o| std::ptr::eq(*o, r)) {
            out.push(r);
        }
    }
    out
}

/// The municipality an old municipality's name names, when it names only one and nothing else.
pub(super) fn merged_alone<'r>(register: &'r Register, city: &str) -> Option<CityResolution<'r>> {
    use crate::register::municipality::{NameKind, PlaceKind};
    let hits = register.municipalities.named(city);
    let merged = hits
        .iter()
        .all(|h| h.kind == NameKind::Place && h.place.is_some_and(|p| p.kind == PlaceKind::Merged));
    match hits.as_slice() {
        [h] if merged => {
            let c = h.record.current.as_ref()?;
            Some(CityResolution::Found(
                h.record,
                c,
                CityMatch::Changed,
                h.place.map(|p| p.name.as_str()),
            ))
        }
        _ => None,
    }
}

/// The one municipality a postcode names (within the province written), whatever the city says.
pub(super) fn by_postcode_alone<'r>(
    register: &'r Register,
    pc: Option<&str>,
    province: Option<&str>,
) -> Option<CityResolution<'r>> {
    let by_pc = by_postcode(register, pc?, province);
    match by_pc.as_slice() {
        [(r, c)] => Some(CityResolution::Found(r, c, CityMatch::Changed, None)),
        _ => None,
    }
}

pub(super) fn by_postcode<'r>(
    register: &'r Register,
    postcode: &str,
    province: Option<&str>,
) -> Vec<(&'r MunicipalityRecord, &'r Municipality)> {
    let pc = normalize_postcode(postcode);
    if pc.len() != 5 {
        return Vec::new();
    }
    let mut out: Vec<_> = register
        .municipalities
        .by_postcode(&pc)
        .into_iter()
        .filter_map(|r| r.current.as_ref().map(|c| (r, c)))
        .collect();
    if let Some(p) = province {
        let same: Vec<_> = out
            .iter()
            .copied()
            .filter(|(_, c)| c.province == p)
            .collect();
        if !same.is_empty() {
            out = same;
        }
    }
    out
}

/// Two postcodes of one postal area: the same first three digits (Tremezzina's 22016 and its
/// frazioni's 22019).
pub fn same_postal_area(a: &str, b: &str) -> bool {
    a.len() == 5 && b.len() == 5 && a.get(..3).is_some_and(|head| b.starts_with(head))
}

/// Postcodes lose their leading zeros in spreadsheets: `118` → `00118`.
pub fn normalize_postcode(text: &str) -> String {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = digits
        .trim_start_matches("I-")
        .trim_start_matches("IT-")
        .to_string();
    if digits.len() >= 3 && digits.len() < 5 && digits.chars().all(|c| c.is_ascii_digit()) {
        return format!("{digits:0>5}");
    }
    digits
}

/// `Milano (MI)` → (`Milano`, `MI`); `Milano MI` stays a name unless the last word is a known code.
pub(super) fn split_province(city: &str) -> (String, Option<String>) {
    let t = city.trim();
    if let (Some(open), true) = (t.rfind('('), t.ends_with(')')) {
        let inner = t[open + 1..t.len() - 1].trim();
        if inner.len() == 2 {
            return (t[..open].trim().to_string(), Some(inner.to_uppercase()));
        }
    }
    (t.to_string(), None)
}
