//! Italian municipalities: the one in force today and every period of its history (names,
//! ISTAT codes, provinces), keyed by cadastral (Belfiore) code.

use std::collections::HashMap;

use heed::RoTxn;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::store::Databases;
use crate::normalize::fold;
use crate::Result;

mod shortened;
use shortened::{shortened_words, WrittenWord};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Municipality {
    pub istat_code: String,
    pub cadastral_code: String,
    pub name: String,
    /// Name in the second official language (German, French, Slovenian...), empty when none.
    pub alt_name: String,
    /// Car-plate province abbreviation (RM, MI...).
    pub province: String,
    pub province_name: String,
    pub region_code: String,
    pub region_name: String,
    /// None when no source says; never guessed.
    pub provincial_capital: Option<bool>,
    pub postcodes: Vec<String>,
    /// Today's postcodes of the municipality that `postcodes` (one list per municipality: gi_cap)
    /// lacks: a frazione's own (Rossano's 87067 in Corigliano-Rossano), given by the street and
    /// house-number files and by GeoNames' postal-code dump. They belong to the municipality (a
    /// written one stays, one alone names it) without being its postcode when nothing else says.
    #[serde(default)]
    pub place_postcodes: Vec<String>,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    pub former_names: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MunicipalityPeriod {
    pub istat_code: String,
    pub name: String,
    pub alt_name: String,
    pub province: String,
    /// ISO dates; `valid_to` is 9999-12-31 while in force.
    pub valid_from: String,
    pub valid_to: String,
}

impl Municipality {
    /// Whether a current source gives the municipality this postcode (its list, its frazioni's).
    pub fn has_postcode(&self, postcode: &str) -> bool {
        self.postcodes
            .iter()
            .chain(&self.place_postcodes)
            .any(|p| p == postcode)
    }
}

impl MunicipalityPeriod {
    pub fn covers(&self, iso_date: &str) -> bool {
        self.valid_from.as_str() <= iso_date && iso_date <= self.valid_to.as_str()
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct MunicipalityRecord {
    pub cadastral_code: String,
    /// The municipality in force today; None for a suppressed one.
    pub current: Option<Municipality>,
    /// Every period the archive knows, oldest first.
    pub periods: Vec<MunicipalityPeriod>,
}

impl MunicipalityRecord {
    pub fn period_on(&self, iso_date: &str) -> Option<&MunicipalityPeriod> {
        self.periods.iter().find(|p| p.covers(iso_date))
    }

    pub fn latest_period(&self) -> Option<&MunicipalityPeriod> {
        self.periods
            .iter()
            .max_by(|a, b| a.valid_to.cmp(&b.valid_to))
    }

    /// Name and province in force on a date, else the latest known.
    pub fn name_on(&self, iso_date: Option<&str>) -> Option<(&str, &str)> {
        let period = iso_date
            .and_then(|d| self.period_on(d))
            .or_else(|| self.latest_period());
        if let Some(p) = period {
            return Some((p.name.as_str(), p.province.as_str()));
        }
        self.current
            .as_ref()
            .map(|m| (m.name.as_str(), m.province.as_str()))
    }
}

/// A place people write as their city that is not a municipality of today.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    /// A frazione, località or town section (GeoNames `PPL`/`PPLX`/`PPLL`).
    Hamlet,
    /// A municipality merged into today's one (ANPR archive).
    Merged,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Place {
    pub name: String,
    /// The municipality it belongs to today.
    pub cadastral_code: String,
    pub kind: PlaceKind,
    pub lat: Option<f64>,
    pub lon: Option<f64>,
    /// The place's own postcodes (GeoNames' postal-code dump), empty when no source gives one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub postcodes: Vec<String>,
}

/// How a written name reaches a municipality (`Municipalities::named`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// Today's name in either language, the two together (`Bolzano/Bozen`), or one of them with
    /// the saint abbreviated (`S. Giovanni Rotondo`) or spaced otherwise.
    Official,
    /// A name the same municipality had before.
    Former,
    /// The name cut short (`Reggio Emilia`, `Montecatini`, `Vibo`): one municipality only where
    /// the province, postcode or the whole country leaves one.
    Short,
    /// A first word too common to name a municipality by itself (`Casale`, `Torre`, `Pieve`) that
    /// people still write for one of their province (`Casale` AL is Casale Monferrato): counted
    /// only where the province or postcode written agrees, never alone.
    Lead,
    /// A hamlet or a municipality merged away: the place is kept apart from the municipality.
    Place,
}

/// One way a written name reaches a municipality.
#[derive(Debug, Clone, Copy)]
pub struct NameHit<'m> {
    pub record: &'m MunicipalityRecord,
    pub kind: NameKind,
    pub place: Option<&'m Place>,
}

/// All municipalities in memory with their lookup keys (about 10,000 records: small).
#[derive(Default)]
// Lookups hash with Fx: the keys are the register's own names, so a written text can only look
// them up, never fill a map (no flooding to guard against), and one-line addresses look up
// several runs of words per record.
pub struct Municipalities {
    pub records: Vec<MunicipalityRecord>,
    pub places: Vec<Place>,
    by_cadastral: FxHashMap<String, usize>,
    by_istat: FxHashMap<String, usize>,
    by_name: FxHashMap<String, Vec<usize>>,
    by_postcode: FxHashMap<String, Vec<usize>>,
    /// `name_key` → (record, kind, place index or `NO_PLACE`).
    by_key: FxHashMap<String, Vec<(usize, NameKind, usize)>>,
    /// Each word (`name_words`) of today's names (either language) → the records, in order: the
    /// candidates of `abbreviated`, whose every form holds a word written whole.
    by_word: FxHashMap<String, Vec<usize>>,
}

const NO_PLACE: usize = usize::MAX;

/// The register's meta key of the postcodes each municipality's streets and house numbers carry
/// (cadastral code → postcodes), written by `import::street_builder::write`.
pub const STREET_POSTCODES: &str = "street_postcodes";

/// Words that join a name to its tail (`di`, `nell'`, `sulla`; German `an der`, `im`): cut there
/// for the short form, or dropped (`Reggio nell'Emilia` → `Reggio Emilia`).
const PARTICLES: &[&str] = &[
    "DI", "DEL", "DELLA", "DELLO", "DELL", "DEI", "DEGLI", "DELLE", "D", "NEL", "NELL", "NELLA",
    "NELLO", "NEI", "NEGLI", "NELLE", "SUL", "SULL", "SULLA", "SULLO", "SUI", "SUGLI", "SULLE",
    "IN", "AL", "ALL", "ALLA", "ALLO", "AI", "AGLI", "ALLE", "A", "DA", "CON", "ED", "E", "SU",
    "NE", "AN", "DER", "IM", "AM", "BEI", "DE", "LA", "LE", "LO", "IL",
];

/// First words too common to name one municipality by themselves (`Monte`, `Castel`, `Porto`).
const GENERIC_FIRST: &[&str] = &[
    "S", "SS", "MONTE", "MONTE", "CASTEL", "CASTELLO", "PORTO", "BORGO", "VILLA", "TORRE", "ROCCA",
    "PIEVE", "COLLE", "CAMPO", "MARINA", "LIDO", "VALLE", "VAL", "CASALE", "PONTE", "POGGIO",
    "SERRA", "TERRA", "CITTA", "BAGNI", "BAGNO", "ISOLA", "PALAZZO", "CASA", "CASE", "FONTE",
    "SANTO", "SANTA", "SAN", "ST", "SANKT", "ALTO", "BASSO", "NUOVO", "VECCHIO", "VICO", "CORTE",
    "CROCE", "PIANO", "PIAN", "PRATO", "MONTAGNA",
];

/// Words that end many names and name no place alone (`Terme`, `Marina`, `Scalo`, a region): a
/// name's later words are never read alone when they hold one.
const GENERIC_LAST: &[&str] = &[
    "TERME",
    "MARINA",
    "LIDO",
    "SCALO",
    "STAZIONE",
    "SUPERIORE",
    "INFERIORE",
    "ALTO",
    "ALTA",
    "BASSO",
    "BASSA",
    "MARITTIMA",
    "MARITTIMO",
    "MARE",
    "NUOVO",
    "NUOVA",
    "VECCHIO",
    "VECCHIA",
    "VENETO",
    "EMILIA",
    "ROMAGNA",
    "LOMBARDO",
    "LIGURE",
    "TOSCANO",
    "UMBRO",
    "LAZIALE",
    "SABINA",
    "CALABRO",
    "SICULO",
    "SARDO",
    "SALENTINO",
    "MONFERRATO",
    "BRIANZA",
    "LANGHE",
];

/// The words written as the later part of a compound name, or None when they cannot be one:
/// beginning with a joining word, a saint, an article, a common first word or a word that ends
/// many names (`Terme`, `Marina`), or fewer than five letters. Such a word after the first is
/// the part's own (`Igea Marina` of Bellaria-Igea Marina).
fn later_part(written: &str) -> Option<Vec<String>> {
    let tail = name_words(written);
    let letters: usize = tail.iter().map(|w| w.len()).sum();
    let head = tail.first()?;
    if letters < 5
        || GENERIC_LAST.contains(&head.as_str())
        || PARTICLES.contains(&head.as_str())
        || GENERIC_FIRST.contains(&head.as_str())
        || ARTICLES.contains(&head.as_str())
    {
        return None;
    }
    Some(tail)
}

/// Whether `name` ends with `tail` after at least one word that is not an article.
fn ends_with_part(name: &str, tail: &[String]) -> bool {
    let words = name_words(name);
    let lead = &words[..words.len().saturating_sub(tail.len())];
    words.ends_with(tail) && lead.iter().any(|w| !ARTICLES.contains(&w.as_str()))
}

/// The words of a name as compared: folded, with the saints written one way (`S.`, `San`,
/// `Santa`, `Sant'`, `St.` → `S`, and French and German `Saint`, `Sankt` too, as `St.` stands for
/// them in the Aosta Valley and South Tyrol; `SS.`, `Santi` → `SS`).
fn name_words(name: &str) -> Vec<String> {
    fold(name)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "S" | "SAN" | "SANTO" | "SANTA" | "SANT" | "STO" | "STA" | "ST" | "SAINT"
            | "SAINTE" | "SANKT" => "S".to_string(),
            "SS" | "SANTI" => "SS".to_string(),
            _ => w.to_string(),
        })
        .collect()
}

/// The key a written city name is looked up by: its words as compared, without spaces.
pub fn name_key(name: &str) -> String {
    name_words(name).concat()
}

/// Articles a name may begin with (`L'Aquila`, `La Spezia`, `Il Pozzo`).
const ARTICLES: &[&str] = &["L", "LA", "LE", "LO", "IL", "I", "GLI"];

/// The shorter forms people write for a name: without its joining words (`Reggio Emilia`), without
/// its article (`Aquila`), and every leading run of words that does not end in one (`Reggio`,
/// `Montecatini`, `Vibo`) — not a lone saint or common word.
pub fn short_keys(name: &str) -> Vec<String> {
    let words = name_words(name);
    let mut out = Vec::new();
    if words.len() < 2 {
        return out;
    }
    let kept: Vec<&String> = words
        .iter()
        .enumerate()
        .filter(|(i, w)| *i == 0 || !PARTICLES.contains(&w.as_str()))
        .map(|(_, w)| w)
        .collect();
    if kept.len() >= 2 && kept.len() < words.len() {
        out.push(kept.iter().map(|w| w.as_str()).collect::<String>());
    }
    // the name without its article (`Aquila` for L'Aquila, `Spezia` for La Spezia)
    if ARTICLES.contains(&words[0].as_str()) && words[1].len() >= 3 {
        out.push(words[1..].concat());
    }
    for k in 1..words.len() {
        let last = words[k - 1].as_str();
        if PARTICLES.contains(&last) {
            continue;
        }
        if k == 1 && (GENERIC_FIRST.contains(&last) || last.len() < 3) {
            continue;
        }
        if k == 2 && GENERIC_FIRST.contains(&words[0].as_str()) && words[1].len() < 3 {
            continue;
        }
        out.push(words[..k].concat());
    }
    out
}

/// First words that are saints or the heads of seaside hamlets: never a municipality's lead alone
/// (`San` is every saint's town; `Marina di …` and `Lido di …` are read by their shape).
const NOT_A_LEAD: &[&str] = &[
    "S", "SS", "SANTO", "SANTA", "SAN", "ST", "SANKT", "MARINA", "LIDO",
];

/// The lone common first word of a name of several words (`Casale` for Casale Monferrato), which
/// `short_keys` leaves out: a `NameKind::Lead`.
pub fn lead_key(name: &str) -> Option<String> {
    let words = name_words(name);
    let first = words.first()?;
    (words.len() >= 2
        && GENERIC_FIRST.contains(&first.as_str())
        && !NOT_A_LEAD.contains(&first.as_str()))
    .then(|| first.clone())
}

/// The name with its later words written as initials, as lists abbreviate a long name
/// (`Cinisello B.`, `Cologno M.`, `Barcellona P.G.`, `Barcellona P.d.G.`): the first words whole,
/// each later word by its first letter, joining words left out, by their letter or whole. A
/// head of one word must name by itself (not a saint or a common word).
pub fn initial_keys(name: &str) -> Vec<String> {
    let words = name_words(name);
    let particle = |w: &str| PARTICLES.contains(&w);
    let initial = |w: &str| w.chars().next().map(String::from).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for k in 1..words.len() {
        let (head, tail) = words.split_at(k);
        let last = head[k - 1].as_str();
        if particle(last) || (k == 1 && (GENERIC_FIRST.contains(&last) || last.len() < 3)) {
            continue;
        }
        // a tail of single letters already is its own initials
        if !tail.iter().any(|w| !particle(w) && w.len() > 1) {
            continue;
        }
        let head = head.concat();
        let dropped: String = tail
            .iter()
            .filter(|w| !particle(w))
            .map(|w| initial(w))
            .collect();
        let lettered: String = tail.iter().map(|w| initial(w)).collect();
        let whole: String = tail
            .iter()
            .map(|w| if particle(w) { w.clone() } else { initial(w) })
            .collect();
        for t in [dropped, lettered, whole] {
            let key = format!("{head}{t}");
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

impl Municipalities {
    pub fn load(dbs: &Databases, rtxn: &RoTxn) -> Result<Municipalities> {
        let mut records = Vec::new();
        for item in dbs.municipalities.iter(rtxn)? {
            let (_, record) = item?;
            records.push(record);
        }
        let places: Vec<Place> = match dbs.meta.get(rtxn, "places")? {
            Some(v) => serde_json::from_value(v)?,
            None => Vec::new(),
        };
        // the postcodes the street and house-number files carry (`street_builder::write`)
        let carried: HashMap<String, Vec<String>> = match dbs.meta.get(rtxn, STREET_POSTCODES)? {
            Some(v) => serde_json::from_value(v)?,
            None => HashMap::new(),
        };
        for r in &mut records {
            let (Some(c), Some(pcs)) = (r.current.as_mut(), carried.get(&r.cadastral_code)) else {
                continue;
            };
            for pc in pcs {
                if !c.has_postcode(pc) {
                    c.place_postcodes.push(pc.clone());
                }
            }
        }
        Ok(Municipalities::from_records_and_places(records, places))
    }

    pub fn from_records(records: Vec<MunicipalityRecord>) -> Municipalities {
        Municipalities::from_records_and_places(records, Vec::new())
    }

    pub fn from_records_and_places(
        records: Vec<MunicipalityRecord>,
        places: Vec<Place>,
    ) -> Municipalities {
        let mut m = Municipalities {
            records,
            places,
            ..Default::default()
        };
        for (i, r) in m.records.iter().enumerate() {
            m.by_cadastral.insert(r.cadastral_code.clone(), i);
            let mut names: Vec<&str> = r.periods.iter().map(|p| p.name.as_str()).collect();
            names.extend(r.periods.iter().map(|p| p.alt_name.as_str()));
            if let Some(c) = &r.current {
                m.by_istat.insert(c.istat_code.clone(), i);
                names.push(&c.name);
                names.push(&c.alt_name);
                names.extend(c.former_names.iter().map(String::as_str));
                for pc in c.postcodes.iter().chain(&c.place_postcodes) {
                    let of = m.by_postcode.entry(pc.clone()).or_default();
                    if !of.contains(&i) {
                        of.push(i);
                    }
                }
            }
            let mut keys: Vec<String> = names
                .into_iter()
                .filter(|n| !n.is_empty())
                .map(fold)
                .collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                m.by_name.entry(k).or_default().push(i);
            }
        }
        m.index_written_names();
        m
    }

    /// The keys of `named`: today's names (each language, both together), former names, the
    /// short forms of today's names, and the places.
    fn index_written_names(&mut self) {
        let mut by_key: FxHashMap<String, Vec<(usize, NameKind, usize)>> = FxHashMap::default();
        let mut add = |key: String, hit: (usize, NameKind, usize)| {
            if key.is_empty() {
                return;
            }
            let v = by_key.entry(key).or_default();
            if !v
                .iter()
                .any(|h| h.0 == hit.0 && h.1 == hit.1 && h.2 == hit.2)
            {
                v.push(hit);
            }
        };
        for (i, r) in self.records.iter().enumerate() {
            let Some(c) = &r.current else { continue };
            let mut official = vec![c.name.clone()];
            if !c.alt_name.is_empty() {
                official.push(c.alt_name.clone());
                official.push(format!("{} {}", c.name, c.alt_name));
            }
            for n in &official {
                add(name_key(n), (i, NameKind::Official, NO_PLACE));
            }
            for n in &c.former_names {
                add(name_key(n), (i, NameKind::Former, NO_PLACE));
            }
            for n in [&c.name, &c.alt_name] {
                for k in short_keys(n).into_iter().chain(initial_keys(n)) {
                    add(k, (i, NameKind::Short, NO_PLACE));
                }
                if let Some(k) = lead_key(n) {
                    add(k, (i, NameKind::Lead, NO_PLACE));
                }
            }
        }
        for (p, place) in self.places.iter().enumerate() {
            if let Some(&i) = self.by_cadastral.get(&place.cadastral_code) {
                add(name_key(&place.name), (i, NameKind::Place, p));
            }
        }
        self.by_key = by_key;
        for (i, r) in self.records.iter().enumerate() {
            let Some(c) = &r.current else { continue };
            for w in name_words(&c.name)
                .into_iter()
                .chain(name_words(&c.alt_name))
            {
                let v = self.by_word.entry(w).or_default();
                if v.last() != Some(&i) {
                    v.push(i);
                }
            }
        }
    }

    /// Every way `written` names a municipality of today (see `NameKind`); a name with joining
    /// words left out or added (`Colle Val d'Elsa` for Colle di Val d'Elsa) by its words alone;
    /// two names joined by a slash (`Aosta/Aoste`, as bilingual names are written) when both
    /// name the same one municipality.
    pub fn named(&self, written: &str) -> Vec<NameHit<'_>> {
        let hits = self.named_whole(written);
        if !hits.is_empty() || !written.contains('/') {
            return hits;
        }
        self.named_by_parts(written)
    }

    /// `Aosta/Aoste`: the one municipality every part that names any names (by today's or former
    /// name where a part has one, else by any), with the first such part's ways to it.
    fn named_by_parts(&self, written: &str) -> Vec<NameHit<'_>> {
        let parts: Vec<&str> = written
            .split('/')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let named_by = |hits: &[NameHit]| -> Vec<*const MunicipalityRecord> {
            let official = |h: &&NameHit| matches!(h.kind, NameKind::Official | NameKind::Former);
            let best: Vec<&NameHit> = if hits.iter().any(|h| official(&h)) {
                hits.iter().filter(official).collect()
            } else {
                hits.iter().collect()
            };
            best.iter()
                .map(|h| h.record as *const MunicipalityRecord)
                .collect()
        };
        // only names on either side: `Caldaro sulla strada del vino (Bolzano/Bozen)` is a
        // municipality with its province written after it
        let name_like = |p: &str| p.chars().all(|c| c.is_alphabetic() || " '’.-".contains(c));
        if parts.len() < 2 || !parts.iter().all(|p| name_like(p)) {
            return Vec::new();
        }
        let found: Vec<Vec<NameHit>> = parts.iter().map(|p| self.named_whole(p)).collect();
        // a part that names nothing counts only as one word (a language's name the register
        // lacks: `Aoste`); one that names another municipality rules the rest out
        if parts
            .iter()
            .zip(&found)
            .any(|(p, h)| h.is_empty() && p.contains(' '))
        {
            return Vec::new();
        }
        let mut named_parts = found.into_iter().filter(|h| !h.is_empty());
        let Some(hits) = named_parts.next() else {
            return Vec::new();
        };
        let mut common = named_by(&hits);
        for other in named_parts {
            let other = named_by(&other);
            common.retain(|r| other.contains(r));
        }
        common.sort_unstable();
        common.dedup();
        match common.as_slice() {
            [one] => hits
                .into_iter()
                .filter(|h| std::ptr::eq(h.record, *one))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn named_whole(&self, written: &str) -> Vec<NameHit<'_>> {
        // the words folded once: the key and the key without joining words are both built
        // from them (a one-line address asks for up to four runs of words per record)
        let words = name_words(written);
        let found = self.keyed(&words).or_else(|| {
            // `Cassano Jonio`: the older spelling of an i between vowels or at the start, which
            // ISTAT's names no longer use (Cassano all'Ionio); names still written with a j
            // (`Jesolo`, `Jesi`) are found above. Tried only for a name with a j: the one-line
            // reader asks for many runs of words that name none
            words.iter().any(|w| w.contains('J')).then(|| {
                let with_i: Vec<String> = words.iter().map(|w| w.replace('J', "I")).collect();
                self.keyed(&with_i)
            })?
        });
        found
            .map(|v| {
                v.iter()
                    .map(|&(i, kind, p)| NameHit {
                        record: &self.records[i],
                        kind,
                        place: (p != NO_PLACE).then(|| &self.places[p]),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The hits of a name's words, whole or without their joining words (`Colle Val d'Elsa`).
    fn keyed(&self, words: &[String]) -> Option<&Vec<(usize, NameKind, usize)>> {
        let whole = words.concat();
        self.by_key.get(&whole).or_else(|| {
            let kept: String = words
                .iter()
                .enumerate()
                .filter(|(i, w)| *i == 0 || !PARTICLES.contains(&w.as_str()))
                .map(|(_, w)| w.as_str())
                .collect();
            (kept.len() < whole.len())
                .then(|| self.by_key.get(&kept))
                .flatten()
        })
    }

    /// The municipalities of `province` whose today's name ends with the words written after
    /// other words (`Paestum` → Capaccio Paestum, `Marconi` → Sasso Marconi): people
    /// often write the later, better known part of a compound name. Nothing when the words begin
    /// with a joining word, a saint or a common word, or hold fewer than five letters.
    pub fn ending_with(&self, written: &str, province: &str) -> Vec<&MunicipalityRecord> {
        let Some(tail) = later_part(written) else {
            return Vec::new();
        };
        self.records
            .iter()
            .filter(|r| {
                r.current
                    .as_ref()
                    .is_some_and(|c| c.province == province && ends_with_part(&c.name, &tail))
            })
            .collect()
    }

    /// The municipalities whose today's name (either language) the written name gives with some
    /// words shortened (`Nocera Inf.`, `Cologno M.se`, `Trezzano s/Naviglio`; initials such as
    /// `Bagni di S. Giuliano T.` are `initial_keys`): every word written whole is the name's, every
    /// shortened word stands for the name's word in its place. Read only when no name matched: a
    /// shortened word is a weak sign.
    pub fn abbreviated(&self, written: &str) -> Vec<&MunicipalityRecord> {
        // every shortened form holds a dot or a slash: the common case costs one scan
        if !written.contains(['.', '/']) {
            return Vec::new();
        }
        let Some(words) = shortened_words(written) else {
            return Vec::new();
        };
        let fits_words = |name: &[&String]| {
            name.len() == words.len() && name.iter().zip(&words).all(|(n, w)| w.stands_for(n))
        };
        // with or without its joining words (`Castelnuovo Garf.` for Castelnuovo di Garfagnana)
        let fits = |name: &str| {
            let name = name_words(name);
            let all: Vec<&String> = name.iter().collect();
            let kept: Vec<&String> = name
                .iter()
                .enumerate()
                .filter(|(i, w)| *i == 0 || !PARTICLES.contains(&w.as_str()))
                .map(|(_, w)| w)
                .collect();
            fits_words(&all) || fits_words(&kept)
        };
        // a name fits only when it holds the words written whole, each in its place: the records
        // with the first of them in a name (in records' order), not every record's name folded
        // and split (that scan cost a foreign batch of 500 with a dot in its lines ~490,000
        // instructions a record)
        let Some(whole) = words.iter().find_map(|w| match w {
            WrittenWord::Whole(w) => Some(w),
            _ => None,
        }) else {
            return Vec::new();
        };
        self.by_word
            .get(whole)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(|&i| &self.records[i])
            .filter(|r| {
                r.current
                    .as_ref()
                    .is_some_and(|c| fits(&c.name) || (!c.alt_name.is_empty() && fits(&c.alt_name)))
            })
            .collect()
    }

    /// The same for the places (hamlets) of the municipalities of `province`: `Cervinia` →
    /// Breuil-Cervinia, Valtournenche's.
    pub fn places_ending_with(
        &self,
        written: &str,
        province: &str,
    ) -> Vec<(&MunicipalityRecord, &Place)> {
        let Some(tail) = later_part(written) else {
            return Vec::new();
        };
        // the province first: a name is folded only for the places of that province
        self.places
            .iter()
            .filter(|p| p.kind == PlaceKind::Hamlet)
            .filter_map(|p| self.by_cadastral(&p.cadastral_code).map(|r| (r, p)))
            .filter(|(r, p)| {
                r.current.as_ref().is_some_and(|c| c.province == province)
                    && ends_with_part(&p.name, &tail)
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn active_count(&self) -> usize {
        self.records.iter().filter(|r| r.current.is_some()).count()
    }

    pub fn by_cadastral(&self, code: &str) -> Option<&MunicipalityRecord> {
        self.by_cadastral
            .get(&code.trim().to_uppercase())
            .map(|&i| &self.records[i])
    }

    pub fn by_istat(&self, code: &str) -> Option<&MunicipalityRecord> {
        self.by_istat.get(code.trim()).map(|&i| &self.records[i])
    }

    /// Records whose name (today's, a former one, or the second-language one) folds to `name`.
    pub fn by_name(&self, name: &str) -> Vec<&MunicipalityRecord> {
        self.by_name
            .get(&fold(name))
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }

    /// Whether some municipality has the postcode (its list, or a place's own): `by_postcode`
    /// without collecting the records.
    pub fn lists_postcode(&self, postcode: &str) -> bool {
        self.by_postcode
            .get(postcode.trim())
            .is_some_and(|v| !v.is_empty())
    }

    pub fn by_postcode(&self, postcode: &str) -> Vec<&MunicipalityRecord> {
        self.by_postcode
            .get(postcode.trim())
            .map(|v| v.iter().map(|&i| &self.records[i]).collect())
            .unwrap_or_default()
    }

    /// The own postcodes of the place `name` of the municipality (a hamlet's, from GeoNames'
    /// postal-code dump): empty when no source gives it one.
    pub fn place_postcodes(&self, cadastral: &str, name: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for hit in self.named(name) {
            let Some(place) = hit.place.filter(|p| p.cadastral_code == cadastral) else {
                continue;
            };
            for pc in &place.postcodes {
                if !out.contains(&pc.as_str()) {
                    out.push(pc);
                }
            }
        }
        out
    }

    /// Every folded name key with the records it reaches: for fuzzy indexes built on top.
    pub fn name_keys(&self) -> impl Iterator<Item = (&String, &Vec<usize>)> {
        self.by_name.iter()
    }
}
