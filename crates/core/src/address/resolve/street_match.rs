//! The street within the municipality: the named steps tried in order, each saying how sure it is.

use super::*;

/// How a street was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreetMatch {
    Same,
    Form,
    Changed,
}

pub enum StreetResolution {
    Found(u32, StreetMatch),
    Ambiguous(Vec<u32>),
    TypeMissing(Vec<u32>),
    NotFound,
}

/// Which matching step answered, and how far the text was from the name: the debug trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Step {
    /// full, full_as_via, name_with_type_word, loose, any_order, typo, partial, typo_or_partial, none
    pub name: &'static str,
    /// Edits (typos) between the words written and the name found.
    pub edits: u32,
}

impl Step {
    /// 1 for the name as registered, lower the looser the step.
    pub fn score(&self) -> f64 {
        let base: f64 = match self.name {
            "full" => 1.0,
            "full_as_via" | "name_with_type_word" => 0.95,
            "loose" => 0.93,
            "any_order" => 0.9,
            "partial" => 0.85,
            "typo" | "typo_or_partial" => 0.88,
            _ => 0.0,
        };
        (base - 0.06 * f64::from(self.edits)).max(0.0)
    }

    pub fn reason(&self) -> &'static str {
        match self.name {
            "full" => "the name with its type as the register writes it",
            "full_as_via" => {
                "the type written is part of the registered name (Via Salita della Chiesa)"
            }
            "name_with_type_word" => "the name begins with a word the parser did not take as type",
            "loose" => "the name without type and articles",
            "any_order" => "the words of the name in another order",
            "typo" => "a name within a few edits, of the type written",
            "partial" => {
                "every word written is in the name; the words left out are first names or titles"
            }
            "typo_or_partial" => "a typo and a partial name agree on the street",
            "ambiguous" => "several streets fit as well: the answer is an ambiguity, not a guess",
            _ => "no street of the municipality fits",
        }
    }
}

/// Finds the street of `parsed` among a municipality's streets, loosening step by step:
/// full name; name without type and particles; any word order; typos; partial names (first
/// names, titles and initials left out). Each step stops at the first unique answer.
pub fn street(
    city: &CityStreets,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
) -> StreetResolution {
    street_explained(city, parsed, postcode, precision, is_first_name).0
}

/// `street`, with the step that answered, in any set of streets.
pub fn street_explained<A: StreetArea + ?Sized>(
    city: &A,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
) -> (StreetResolution, Step) {
    let mut step = Step::default();
    let r = street_steps(city, parsed, postcode, precision, is_first_name, &mut step);
    let r = keep_elided_particle(city, &parsed.name, r);
    if matches!(r, StreetResolution::Ambiguous(_)) {
        step.name = "ambiguous";
    }
    if step.name.is_empty() {
        step.name = "none";
    }
    (r, step)
}

/// The street in one municipality, in named steps: the full name (`by_full_name`), the name
/// without type and particles or in any word order (`by_name_key`), then partial names and typos
/// (`by_partial_or_typo`). The first step that answers gives the answer.
pub(super) fn street_steps<A: StreetArea + ?Sized>(
    city: &A,
    parsed: &ParsedAddress,
    postcode: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
    step: &mut Step,
) -> StreetResolution {
    let name = parsed.name.as_str();
    if fold(name).is_empty() {
        return StreetResolution::NotFound;
    }
    let search = Written {
        city,
        parsed,
        ty: parsed.street_type.unwrap_or(""),
        name,
        postcode,
        number: parsed
            .house_number
            .as_ref()
            .map(|h| (h.number, h.suffix.as_str())),
        precision,
        is_first_name,
    };
    if let Some(r) = search.by_full_name(step) {
        return r;
    }
    if let Some(r) = search.by_name_key(step) {
        return r;
    }
    if precision < 2 {
        return StreetResolution::NotFound;
    }
    search.by_partial_or_typo(step)
}

/// What was written, as the steps of `street_steps` look for it in one set of streets.
struct Written<'a, A: StreetArea + ?Sized> {
    city: &'a A,
    parsed: &'a ParsedAddress,
    ty: &'a str,
    name: &'a str,
    postcode: &'a str,
    number: Option<(u32, &'a str)>,
    precision: u8,
    is_first_name: &'a dyn Fn(&str) -> bool,
}

impl<A: StreetArea + ?Sized> Written<'_, A> {
    /// The streets found, told apart by the postcode and the house number.
    fn pick(&self, hits: &[u32]) -> Option<Vec<u32>> {
        let mut v: Vec<u32> = hits.to_vec();
        v.sort();
        v.dedup();
        if v.len() > 1 {
            v = disambiguate(self.city, v, self.postcode, self.number);
        }
        (!v.is_empty()).then_some(v)
    }

    /// A typo or a partial name fits streets of other names: the postcode and the house number
    /// tell apart streets of one name, never choose between names (`Via G. Mazzini 3` is not Via
    /// Giovanni Mazzoni for having a number 3 that Via Giuseppe Mazzini lacks).
    fn pick_near(&self, hits: &[u32]) -> Option<Vec<u32>> {
        let mut v: Vec<u32> = hits.to_vec();
        v.sort();
        v.dedup();
        let name = |i: u32| loose_key(self.city.name(i));
        if v.iter().all(|&i| name(i) == name(v[0])) {
            return self.pick(&v);
        }
        (!v.is_empty()).then_some(v)
    }

    /// Streets of other names that hold every word written: the postcode written tells them
    /// apart, the house number alone does not (`Via Costa 206` in Bologna: Via Andrea Costa has a
    /// 206 and Via Paolo Costa none, yet the writer may mean either); the ones that hold the
    /// number are named first.
    fn pick_names(&self, hits: &[u32]) -> Option<Vec<u32>> {
        let mut v = disambiguate(self.city, self.pick_near(hits)?, self.postcode, None);
        if let Some((n, suffix)) = self.number {
            v.sort_by_key(|&i| !self.city.has_number(i, n, suffix));
        }
        (!v.is_empty()).then_some(v)
    }

    fn partial_name(&self) -> Option<(StreetResolution, u32)> {
        partial(
            self.city,
            self.name,
            self.ty,
            self.precision,
            &|h: &[u32]| self.pick_names(h),
            &|h: &[u32]| self.pick_near(h),
            self.is_first_name,
        )
    }

    /// A street found by name whose house numbers lack the one written, while a longer name with
    /// the words written has it (`Via Lodi 196`: Via Lodi has no 196, Via Luigi Lodi has): the
    /// evidence disagrees, and the answer is an ambiguity.
    fn conflict(&self, i: u32) -> Option<StreetResolution> {
        let city = self.city;
        let (n, suffix) = self.number?;
        if self.precision < 3 || !city.complete_numbers() || !city.lists_numbers(i) {
            return None;
        }
        if city.has_number(i, n, suffix) {
            return None;
        }
        // the type written, unless the street found has another (then any type may be meant)
        let of_type = if city.street_type(i) == self.ty {
            self.ty
        } else {
            ""
        };
        // only names the words written stand for (`Via Lodi` for Via Luigi Lodi; `Via Dante` is
        // not Via Dante Chiasserini)
        let named: Vec<u32> = covering(city, self.name, self.precision, self.is_first_name, false)
            .into_iter()
            .filter(|c| c.typos == 0 && c.tier == 0 && c.dropped == 0)
            .map(|c| c.street)
            .collect();
        let others: Vec<u32> = containing(city, self.name, of_type)
            .into_iter()
            .filter(|&j| j != i && named.contains(&j))
            .filter(|&j| city.has_number(j, n, suffix))
            .collect();
        (!others.is_empty()).then(|| {
            let mut v = vec![i];
            v.extend(others.into_iter().take(2));
            StreetResolution::Ambiguous(v)
        })
    }

    /// Step 1: the full name, type included (`full`); a type registered as part of the name
    /// (`full_as_via`); a name that begins with a type word (`name_with_type_word`).
    fn by_full_name(&self, step: &mut Step) -> Option<StreetResolution> {
        let (city, ty, name) = (self.city, self.ty, self.name);
        let full = full_key(&format!("{ty} {name}"));
        if let Some(v) = self.pick(city.by_key(KeyKind::Full, &full)) {
            step.name = "full";
            if v.len() == 1 {
                if let Some(a) = self.conflict(v[0]) {
                    return Some(a);
                }
                let same = fold(&format!("{} {}", city.street_type(v[0]), city.name(v[0])))
                    == fold(&format!("{ty} {name}"))
                    && (self.parsed.street_type_raw.is_empty()
                        || fold(&self.parsed.street_type_raw) == city.street_type(v[0]));
                return Some(StreetResolution::Found(
                    v[0],
                    if same {
                        StreetMatch::Same
                    } else {
                        StreetMatch::Form
                    },
                ));
            }
            return Some(StreetResolution::Ambiguous(v));
        }
        // "Salita della Chiesa" registered as VIA + "SALITA DELLA CHIESA"
        if !ty.is_empty() && ty != "VIA" {
            if let Some(v) =
                self.pick(city.by_key(KeyKind::Full, &full_key(&format!("VIA {ty} {name}"))))
            {
                if v.len() == 1 {
                    step.name = "full_as_via";
                    return Some(StreetResolution::Found(v[0], StreetMatch::Changed));
                }
            }
        }
        // a name that begins with a type the parser did not take ("Vecchia" of "Via Vecchia X"); a
        // type written before the name's own (`Via Bastioni di Porta Nuova`, `Via Corso Italia`)
        // (only after a plain `Via`: `Vico Via Calia` is Vico di Via Calia, not Via Calia)
        let own_type = street_type::split(name).0;
        if ty.is_empty() || (ty == "VIA" && !own_type.is_empty() && own_type != "VIA") {
            if let Some(v) = self.pick(city.by_key(KeyKind::Full, &full_key(name))) {
                if v.len() == 1 {
                    step.name = "name_with_type_word";
                    return Some(StreetResolution::Found(
                        v[0],
                        if ty.is_empty() {
                            StreetMatch::Form
                        } else {
                            StreetMatch::Changed
                        },
                    ));
                }
            }
        }
        None
    }

    /// Steps 2 and 3: the name without type and particles (`loose`), then in any word order
    /// (`any_order`), with the doubts a type written raises.
    fn by_name_key(&self, step: &mut Step) -> Option<StreetResolution> {
        let (city, ty, name, precision) = (self.city, self.ty, self.name, self.precision);
        for (kind, key) in [
            (KeyKind::Loose, loose_key(name)),
            (KeyKind::Sorted, sorted_key(name)),
        ] {
            if precision < 2 && kind == KeyKind::Sorted {
                break;
            }
            if let Some(r) = by_name(city, city.by_key(kind, &key), ty, &|h: &[u32]| self.pick(h)) {
                step.name = if kind == KeyKind::Loose {
                    "loose"
                } else {
                    "any_order"
                };
                if let StreetResolution::Found(i, _) = r {
                    if let Some(a) = self.conflict(i) {
                        return Some(a);
                    }
                    // found under another type, while streets of the type written hold every word
                    // written in a longer name (`Vicolo Gregoraci`: Largo Gregoraci, or Vicolo
                    // Secondo Gregoraci?): ambiguous
                    if !ty.is_empty() && city.street_type(i) != ty && precision >= 2 {
                        let others: Vec<u32> = containing(city, name, ty)
                            .into_iter()
                            .filter(|&j| j != i)
                            .collect();
                        if !others.is_empty() {
                            let mut v = vec![i];
                            v.extend(others.into_iter().take(2));
                            return Some(StreetResolution::Ambiguous(v));
                        }
                    }
                    if let Some(v) = type_word_as_name(city, self.parsed, i) {
                        return Some(StreetResolution::Ambiguous(v));
                    }
                }
                // streets of the name under other types only, while one street of the type written
                // holds every word as written (`Piazza De Ferrari`: Piazza Raffaele De Ferrari, not
                // Vico Ferrari or Sottopassaggio de Ferrari)
                if !ty.is_empty() && precision >= 2 && !matches!(r, StreetResolution::Found(..)) {
                    if let Some((StreetResolution::Found(j, how), 0)) = self.partial_name() {
                        if city.street_type(j) == ty {
                            step.name = "partial";
                            return Some(StreetResolution::Found(j, how));
                        }
                    }
                }
                // the same name under another type, while a street of the type written has the
                // name in full (`Via Canefri`: Vicolo Canefri, or Via Cesare Canefri?): ambiguous
                if let StreetResolution::Found(i, _) = r {
                    if !ty.is_empty() && city.street_type(i) != ty && precision >= 2 {
                        if let Some((StreetResolution::Found(j, _), _)) = self.partial_name() {
                            if j != i && city.street_type(j) == ty {
                                return Some(StreetResolution::Ambiguous(vec![i, j]));
                            }
                        }
                    }
                }
                return Some(r);
            }
        }
        None
    }

    /// Steps 4 and 5: partial names with every word as written (first names, titles, regnal
    /// numbers left out): what was written beats any edit (`Via Corti` is Via Alfonso or Via
    /// Costantino Corti, never Via Orti; `Via C. Colombo` is Via Cristoforo Colombo, not Via dei
    /// Colombi); then typos, and partial names with a typo: when both answer and disagree, the
    /// answer is an ambiguity rather than either guess.
    fn by_partial_or_typo(&self, step: &mut Step) -> StreetResolution {
        let (city, ty, name) = (self.city, self.ty, self.name);
        let part = self.partial_name();
        if let Some((r, 0)) = part {
            if let StreetResolution::Found(..) = r {
                step.name = "partial";
            }
            return r;
        }
        let typo = typo_match(city, name, ty, self.precision, &|h: &[u32]| {
            self.pick_near(h)
        });
        let typo_edits = typo.as_ref().map_or(0, |(_, d)| *d);
        let part_edits = part.as_ref().map_or(0, |(_, d)| *d);
        let typo = typo.map(|(r, _)| r);
        let part = part.map(|(r, _)| r);
        match (typo, part) {
            (Some(StreetResolution::Found(a, _)), Some(StreetResolution::Found(b, _)))
                if a != b =>
            {
                StreetResolution::Ambiguous(vec![a, b])
            }
            // a typo's answer is doubted by its house number; a partial name's is not (`Via
            // Mazzini 3` stays Via Giuseppe Mazzini, whose list lacks the 3)
            (Some(StreetResolution::Found(a, _)), _) if self.conflict(a).is_some() => {
                self.conflict(a).unwrap_or(StreetResolution::NotFound)
            }
            (Some(StreetResolution::Found(a, _)), Some(StreetResolution::Found(_, _))) => {
                *step = Step {
                    name: "typo_or_partial",
                    edits: typo_edits.min(part_edits),
                };
                StreetResolution::Found(a, StreetMatch::Changed)
            }
            (Some(StreetResolution::Found(a, _)), _) => {
                // one word written, one edit from a whole name and as near a word of other names
                // (`Via Mandolfo`: Via Landolfo, or Via Ugo Guido Mondolfo?): the streets that fit
                // as well are told apart by the postcode and house number, else an ambiguity
                let doubt: Vec<u32> =
                    covering(city, name, self.precision, self.is_first_name, true)
                        .into_iter()
                        .filter(|c| c.street != a && c.tier == 0 && c.dropped == 0)
                        .filter(|c| c.typos as u32 <= typo_edits)
                        .filter(|c| ty.is_empty() || city.street_type(c.street) == ty)
                        .map(|c| c.street)
                        .collect();
                if !doubt.is_empty() && loose_tokens(name).len() == 1 {
                    let mut v = vec![a];
                    v.extend(doubt);
                    let v = disambiguate(city, v, self.postcode, self.number);
                    if v.len() > 1 {
                        return StreetResolution::Ambiguous(v);
                    }
                    *step = Step {
                        name: "typo_or_partial",
                        edits: typo_edits,
                    };
                    return StreetResolution::Found(v[0], StreetMatch::Changed);
                }
                *step = Step {
                    name: "typo",
                    edits: typo_edits,
                };
                StreetResolution::Found(a, StreetMatch::Changed)
            }
            (_, Some(StreetResolution::Found(a, _))) => {
                *step = Step {
                    name: "partial",
                    edits: part_edits,
                };
                StreetResolution::Found(a, StreetMatch::Changed)
            }
            (Some(other), _) | (None, Some(other)) => other,
            (None, None) => StreetResolution::NotFound,
        }
    }
}

/// Names within a few edits, of the type written (a typo and another type are two errors), with
/// the same numbers (`1 Maggio` is not a typo of `Maggio`).
pub(super) fn typo_match<A: StreetArea + ?Sized>(
    city: &A,
    name: &str,
    ty: &str,
    precision: u8,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
) -> Option<(StreetResolution, u32)> {
    let loose = loose_key(name);
    let len = loose.chars().count();
    let d = match len {
        n if n >= 8 => 2,
        n if n >= 5 => 1,
        _ => 0,
    } + u32::from(precision >= 4 && len >= 4)
        + u32::from(precision >= 5 && len >= 8);
    if precision < 3 || d == 0 {
        return None;
    }
    let digits = |k: &str| -> String { k.chars().filter(char::is_ascii_digit).collect() };
    let want = digits(&loose);
    let mut found = city.fuzzy(&loose, d);
    if d >= 2 && found.iter().all(|(_, e)| *e >= 2) {
        // two substitutions are beyond the deletion index: scan the municipality's names
        found = city.fuzzy_scan(&loose, d);
    }
    // two edits in a name under ten letters only where the first letter stands (people rarely
    // mistype it, and `Via Prma` is nearer many short names than the one meant)
    let first = loose.chars().next();
    let near: Vec<(u32, u32)> = found
        .into_iter()
        .filter(|(i, e)| {
            *e < 2
                || len >= 10
                || std::iter::once(city.name(*i))
                    .chain(city.alt_names(*i).iter().map(String::as_str))
                    .any(|n| loose_key(n).chars().next() == first)
        })
        .filter(|(i, _)| {
            (ty.is_empty() || city.street_type(*i) == ty)
                && std::iter::once(city.name(*i))
                    .chain(city.alt_names(*i).iter().map(String::as_str))
                    .any(|n| digits(&loose_key(n)) == want)
        })
        .collect();
    let best = near.iter().map(|(_, d)| *d).min()?;
    let hits: Vec<u32> = near
        .iter()
        .filter(|(_, dd)| *dd == best)
        .map(|(i, _)| *i)
        .collect();
    by_name(city, &hits, ty, pick).map(|r| (r, best))
}

/// Candidates found by name only: the type decides, else the only one, else ambiguity.
pub(super) fn by_name<A: StreetArea + ?Sized>(
    city: &A,
    hits: &[u32],
    ty: &str,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
) -> Option<StreetResolution> {
    let v = pick(hits)?;
    if !ty.is_empty() {
        let same: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| city.street_type(i) == ty)
            .collect();
        if same.len() == 1 {
            return Some(StreetResolution::Found(same[0], StreetMatch::Changed));
        }
        if same.len() > 1 {
            return Some(StreetResolution::Ambiguous(same));
        }
    }
    if v.len() == 1 {
        return Some(StreetResolution::Found(v[0], StreetMatch::Changed));
    }
    let types: std::collections::HashSet<&str> = v.iter().map(|&i| city.street_type(i)).collect();
    if ty.is_empty() && types.len() > 1 {
        return Some(StreetResolution::TypeMissing(v));
    }
    Some(StreetResolution::Ambiguous(v))
}

/// Several streets of the same name: the postcode, then the house number, tell them apart.
pub(super) fn disambiguate<A: StreetArea + ?Sized>(
    city: &A,
    v: Vec<u32>,
    postcode: &str,
    number: Option<(u32, &str)>,
) -> Vec<u32> {
    let mut v = narrow(
        city,
        v,
        &[
            Evidence::Postcode(postcode.trim()),
            Evidence::Number(number),
        ],
    );
    if v.len() > 1 {
        // one spelling from the national list and one from a municipal list of the same street:
        // the one that carries house numbers is the street
        let with_numbers: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| city.lists_numbers(i))
            .collect();
        if with_numbers.len() == 1 {
            let full = |i: u32| full_key(&format!("{} {}", city.street_type(i), city.name(i)));
            let k = full(with_numbers[0]);
            if v.iter().all(|&i| full(i) == k) {
                v = with_numbers;
            }
        }
    }
    v
}

/// Whether the first word of a name is a street type typed wrong (`Vai`, `Piaza`, `Coso`).
pub fn mistyped_type(name: &str) -> Option<(&'static str, String)> {
    let mut words = name.split_whitespace();
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    if rest.is_empty() {
        return None;
    }
    let f = compact(first);
    // every record without a type asks (foreign lines too): the written word is sorted once, and
    // one edit is told by comparing, not by a distance table per type
    let sorted3 = |w: &str| -> Option<[u8; 3]> {
        let mut b: [u8; 3] = w.as_bytes().try_into().ok()?;
        b.sort_unstable();
        Some(b)
    };
    let f_sorted = sorted3(&f);
    let found = street_type::FULL_TYPES.iter().find(|t| {
        !t.contains(' ')
            && ((t.len() >= 5 && f.len() >= 4 && one_edit_apart(t, &f))
                || (t.len() == 3 && **t != f && f_sorted.is_some() && sorted3(t) == f_sorted))
    })?;
    Some((found, rest.join(" ")))
}

/// Whether two words are at most one edit apart (a letter changed, added, dropped, or two
/// neighbours swapped): `edit_distance(a, b, 1).is_some()` without its table.
fn one_edit_apart(a: &str, b: &str) -> bool {
    if !(a.is_ascii() && b.is_ascii()) {
        return edit_distance(a, b, 1).is_some();
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let Some(i) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return true; // equal, or one letter added at the end
    };
    let (ra, rb) = (&a[i..], &b[i..]);
    ra[1..] == rb[1..]
        || ra[1..] == *rb
        || *ra == rb[1..]
        || (ra.len() >= 2
            && rb.len() >= 2
            && ra[0] == rb[1]
            && ra[1] == rb[0]
            && ra[2..] == rb[2..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_apart_is_the_distance_table_within_one() {
        // every word of up to four letters over a small alphabet, against every other
        let mut words = vec![String::new()];
        for len in 1..=4 {
            let longer: Vec<String> = words
                .iter()
                .filter(|w| w.len() == len - 1)
                .flat_map(|w| ['A', 'B', 'C'].map(|c| format!("{w}{c}")))
                .collect();
            words.extend(longer);
        }
        for a in &words {
            for b in &words {
                assert_eq!(
                    one_edit_apart(a, b),
                    edit_distance(a, b, 1).is_some(),
                    "{a} {b}"
                );
            }
        }
        assert_eq!(mistyped_type("Vai Roma"), Some(("VIA", "Roma".to_string())));
        assert_eq!(mistyped_type("Rue de Rivoli"), None);
    }
}
