//! Street names read word by word: which streets' words hold the words written (`covering`), and
//! partial names (`Garibaldi` for `Via Giuseppe Garibaldi`).

use super::*;
use crate::address::street_choice::partial::of_type_written;

/// How the words of one street's name hold the words written (`covering`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cover {
    pub(super) street: u32,
    /// Words written that fit a word of the name only with a typo.
    pub(super) typos: usize,
    /// First names and titles written that the name, all of whose words were written, lacks
    /// (`Via Giuseppe Mazzini` for Via Mazzini, `Piazza Cardinale Pietro Gasparri` for Piazza
    /// Pietro Gasparri).
    pub(super) dropped: usize,
    /// What the name has that was not written: 0, nothing but first names, titles and regnal
    /// numbers (`Garibaldi` for Giuseppe Garibaldi, `Vittorio Emanuele` for Vittorio Emanuele II);
    /// 1, one leading word of unknown kind that names no place (`Prisco` for Tarquinio Prisco);
    /// 2, other words that name no place (`Sparano` for Sparano da Bari): taken only when one
    /// street fits so; 3, words that name a place (`Vecchio` in Via Molino Vecchio): never taken,
    /// but a street of tier 2 is not the only one that fits beside it.
    pub(super) tier: u8,
    /// Words of the name that were not written (first names, titles, regnal numbers or others):
    /// 0 when the words written are the whole name (`P. Sarpi` for Paolo Sarpi).
    pub(super) extra: usize,
}

/// The streets whose name holds every word written (an initial stands for a word it begins, a
/// word of five letters or more may carry one typo beside another word written right, or alone
/// with `single_typo`), with how they hold them. Numbers are words (`XXII`, `22` and `Ventidue`
/// are one), so `Via Marzo` never holds `Via XXII Marzo`.
pub(super) fn covering<A: StreetArea + ?Sized>(
    city: &A,
    name: &str,
    precision: u8,
    is_first_name: &dyn Fn(&str) -> bool,
    single_typo: bool,
) -> Vec<Cover> {
    let tokens = loose_tokens(name);
    let truncated = crate::rules::it::cut_words(name);
    let cut = |t: &String| truncated.contains(t);
    let person = noble_person(name, is_first_name);
    // first names and titles written may be missing from the name: the anchor is another word;
    // so may the person's names before a title of nobility (`Camillo Benso Conte di Cavour` for
    // Via Cavour) and a year after the name (`IV Novembre 1918` for Via Quattro Novembre)
    let droppable =
        |t: &str| is_title(t) || is_first_name(t) || person.iter().any(|p| p == t) || is_year(t);
    // `S.` is San, or the initial of a first name (`Via S. Pellico` for Via Silvio Pellico)
    let initial_s = fold(name).split(' ').any(|w| w == "S");
    let long = |t: &&String| t.len() >= 3;
    let Some(anchor) = tokens
        .iter()
        .filter(long)
        .filter(|t| !droppable(t) && !cut(t))
        .max_by_key(|t| t.len())
        .or_else(|| {
            tokens
                .iter()
                .filter(long)
                .max_by_key(|t| (!cut(t), t.len()))
        })
        // `R. Settimo`: SETTIMO is the number 7
        .or_else(|| tokens.iter().max_by_key(|t| t.len()))
    else {
        return Vec::new();
    };
    // one word with a typo inside a longer name is too little to go on (`Romaa` is not
    // `Lucrezia Romana`): a typo is tolerated only beside another word written right, unless asked
    let single = tokens.len() == 1 && !single_typo;
    let typo = |t: &str| -> usize {
        if precision < 3 || t.len() < 5 || single {
            0
        } else {
            1
        }
    };
    let mut cands: Vec<u32> = Vec::new();
    for near in city.tokens_near(anchor, typo(anchor) as u32) {
        cands.extend_from_slice(city.by_token(near));
    }
    cands.sort_unstable();
    cands.dedup();
    // an initial stands for a word it begins, written or in the register (`Via A. Volta`)
    // a word cut short with its dot stands for the words it begins (`LIBER.` for Liberazione)
    let exact = |t: &str, w: &str| -> bool {
        w == t
            || (t.len() == 1 && w.starts_with(t))
            || (initial_s && t == "SAN" && w.len() > 1 && w.starts_with('S') && is_first_name(w))
            || (w.len() == 1 && t.starts_with(w))
            || (w.len() > t.len() && w.starts_with(t) && truncated.iter().any(|c| c == t))
    };
    let matches = |t: &str, w: &str| -> bool {
        exact(t, w) || (typo(t) > 0 && edit_distance(w, t, typo(t)).is_some())
    };
    // `Roma` is not `Giovanni Francesco da Roma`: words written that follow a particle of the
    // register's name, with words left out before them, name another thing (a person "from Rome")
    // — unless the particle was written too (`Via de Medici` for Via Antonio de Medici), or follows
    // a title of nobility
    let written = canonical_tokens(name);
    let after_particle = |i: u32| -> bool {
        let full = canonical_tokens(city.name(i));
        let Some(first) = full
            .iter()
            .position(|w| !is_particle(w) && tokens.iter().any(|t| matches(t, w)))
        else {
            return false;
        };
        let particle = first >= 2 && full.get(first - 1).is_some_and(|w| is_particle(w));
        // after a title of nobility the place is the person's name (`Camillo Benso Conte di
        // Cavour` is Via Cavour, `Duca d'Aosta`), and so after a first name and a surname (a noble
        // predicate: `Camillo Benso di Cavour`; `Leonardo da Vinci` is a man from Vinci)
        let noble = (first >= 2 && crate::rules::it::is_title_of_nobility(&full[first - 2]))
            || (first >= 3
                && !is_first_name(&full[first - 2])
                && !is_title(&full[first - 2])
                && !is_particle(&full[first - 2])
                && is_first_name(&full[first - 3]));
        particle
            && !noble
            && !written
                .iter()
                .zip(written.iter().skip(1))
                .any(|(p, w)| Some(p) == full.get(first - 1) && matches(w, &full[first]))
    };
    let long_word = tokens.iter().any(|t| t.len() >= 4);
    let cover = |i: u32| -> Option<Cover> {
        city.name_tokens(i)
            .iter()
            .filter_map(|st| {
                let hit = |w: &String| tokens.iter().any(|t| matches(t, w));
                // an initial stands for a word no other word written is (`C. Colombo` is not
                // Emilio Colombo for the C of Colombo)
                let held = |t: &String| {
                    st.iter().any(|w| {
                        matches(t, w)
                            && (t.len() > 1 || !tokens.iter().any(|u| u.len() > 1 && matches(u, w)))
                    })
                };
                let missing: Vec<&String> = tokens.iter().filter(|t| !held(t)).collect();
                // a first name or title written that the name lacks, only where every word of the
                // name was written (`Via Giuseppe Verdi` is never Via Giovanni Verdi)
                let dropped = missing.len();
                // a name of its own beside the first names: a surname, or a regnal number
                // (`Via Papa Giovanni XXIII` for Via Giovanni XXIII)
                let distinctive = st.iter().enumerate().any(|(j, w)| {
                    (w.len() >= 4 && !droppable(w))
                        || (j >= 1
                            && w.bytes().all(|b| b.is_ascii_digit())
                            && droppable(&st[j - 1]))
                });
                if dropped > 0
                    && (!missing.iter().all(|t| droppable(t))
                        || !st.iter().all(hit)
                        || dropped == tokens.len()
                        || !distinctive)
                {
                    return None;
                }
                let typos = tokens
                    .iter()
                    .filter(|t| held(t) && !st.iter().any(|w| exact(t, w)))
                    .count();
                // a number right after a first name or title is a regnal one (`Umberto I`,
                // `Papa Giovanni XXIII`): left out as people leave it out
                let regnal = |j: usize| -> bool {
                    st[j].bytes().all(|b| b.is_ascii_digit())
                        && j >= 1
                        && (is_first_name(&st[j - 1]) || is_title(&st[j - 1]))
                };
                let extra: Vec<usize> = (0..st.len()).filter(|&j| !hit(&st[j])).collect();
                let first_hit = st.iter().position(hit).unwrap_or(0);
                let tier = if extra
                    .iter()
                    .all(|&j| is_title(&st[j]) || is_first_name(&st[j]) || regnal(j))
                {
                    0
                } else if extra == [0]
                    && first_hit == 1
                    && st[0].len() >= 3
                    && !names_a_place(&st[0])
                    && long_word
                {
                    1
                } else if typos == 0 && long_word {
                    if extra.iter().all(|&j| !names_a_place(&st[j])) {
                        2
                    } else {
                        3
                    }
                } else {
                    return None;
                };
                // a word written stands for one word of the name (`Gorga` is not `G Gorga`)
                let unwritten = extra.len().max(st.len().saturating_sub(tokens.len()));
                Some((typos, dropped, tier, unwritten))
            })
            .min()
            .map(|(typos, dropped, tier, extra)| Cover {
                street: i,
                typos,
                dropped,
                tier,
                extra,
            })
    };
    cands
        .into_iter()
        .filter_map(cover)
        .filter(|c| !after_particle(c.street))
        .collect()
}

/// The words written before a title of nobility (`Camillo Benso` of `Camillo Benso Conte di
/// Cavour`) with the title: the person whose name is the place after it.
fn noble_person(name: &str, is_first_name: &dyn Fn(&str) -> bool) -> Vec<String> {
    let words = canonical_tokens(name);
    match words
        .iter()
        .position(|w| crate::rules::it::is_title_of_nobility(w))
    {
        Some(k) if k >= 1 && k + 1 < words.len() && is_first_name(&words[0]) => {
            words[..=k].to_vec()
        }
        _ => Vec::new(),
    }
}

/// A year written after a name (`1918`, `1945`).
fn is_year(t: &str) -> bool {
    t.len() == 4 && t.parse::<u32>().is_ok_and(|y| (1000..=2099).contains(&y))
}

/// Partial names: the streets whose name holds every word written (`covering`). The fewest typos
/// win (`Via G. Mazzini` is Via Giuseppe Mazzini, not Via Giovanni Mazzoni), then the fewest words
/// of unknown kind left out, then the type written. Streets that fit as well are told apart by the
/// postcode (and, for streets of one name, the house number: `pick`), else they are an ambiguity
/// with candidates. A street of
/// another type than the one written, reached by a partial name, is two differences: an ambiguity.
/// Answers the street(s) and how many written words needed a typo.
pub(super) fn partial<A: StreetArea + ?Sized>(
    city: &A,
    name: &str,
    ty: &str,
    precision: u8,
    pick: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
    pick_near: &dyn Fn(&[u32]) -> Option<Vec<u32>>,
    is_first_name: &dyn Fn(&str) -> bool,
) -> Option<(StreetResolution, u32)> {
    let mut scored = covering(city, name, precision, is_first_name, false);
    let fewest = scored.iter().map(|c| c.typos).min()?;
    scored.retain(|c| c.typos == fewest);
    let dropped = scored.iter().map(|c| c.dropped).min()?;
    scored.retain(|c| c.dropped == dropped);
    // a first name left out and a word of unknown kind left out rank alike (two streets that fit
    // so are an ambiguity, not a choice); other words left out only where nothing else fits
    let rank = |c: &Cover| u8::from(c.tier >= 2);
    let best = scored.iter().map(rank).min()?;
    // the best fits all of another type than the one written are two differences each (an
    // ambiguity whatever follows): a street of the type written with other words left out is as
    // likely, and is among the candidates (`Viale Ceccarini` in Riccione: Viale Ceccarini Maria
    // Borman beside Piazzale Ceccarini Vincenzo)
    let other_type = |c: &Cover| city.street_type(c.street) != ty;
    if !ty.is_empty() && scored.iter().filter(|c| rank(c) == best).all(other_type) {
        let written_type: Vec<u32> = scored
            .iter()
            .filter(|c| rank(c) > best && c.tier == 2 && !other_type(c))
            .map(|c| c.street)
            .collect();
        if !written_type.is_empty() {
            let mut v: Vec<u32> = scored
                .iter()
                .filter(|c| rank(c) == best)
                .map(|c| c.street)
                .chain(written_type)
                .collect();
            v.sort_unstable();
            v.dedup();
            return (v.len() <= MAX_CANDIDATES)
                .then_some((StreetResolution::Ambiguous(v), fewest as u32));
        }
    }
    // a word of unknown kind before the name written (`Via Reggio Emilia` for `Via Emilia` in
    // Modena) is no surer than words after it where the name written begins other streets (Via
    // Emilia Centro, Est, Ovest): all of them are candidates
    if best == 0 && scored.iter().filter(|c| rank(c) == 0).all(|c| c.tier == 1) {
        let written = canonical_tokens(name);
        let continued = scored
            .iter()
            .filter(|c| c.tier == 2 && canonical_tokens(city.name(c.street)).starts_with(&written));
        let mut v: Vec<u32> = scored
            .iter()
            .filter(|c| c.tier == 1)
            .chain(continued)
            .map(|c| c.street)
            .collect();
        if v.len() > scored.iter().filter(|c| c.tier == 1).count() {
            v.sort_unstable();
            v.dedup();
            return (v.len() <= MAX_CANDIDATES)
                .then_some((StreetResolution::Ambiguous(v), fewest as u32));
        }
    }
    scored.retain(|c| rank(c) == best);
    if !ty.is_empty() {
        let same = of_type_written(
            &scored,
            |c| city.street_type(c.street) == ty,
            |c| c.tier,
            |c| sorted_key(city.name(c.street)),
        );
        if !same.is_empty() {
            scored = same;
        }
    }
    let mut v: Vec<u32> = scored.iter().map(|c| c.street).collect();
    // a particle written before its word is part of a surname (`Via De Nicola` is Via Enrico De
    // Nicola, not Via Nicola Romeo): the streets that hold it come before the postcode and number
    // are read, which know the postcode of one street and not the other's
    let written = canonical_tokens(name);
    let particle_pairs: Vec<&[String]> = written
        .windows(2)
        .filter(|pair| is_particle(&pair[0]))
        .collect();
    let particles_held = |i: u32| {
        particle_pairs.is_empty() || {
            let full = canonical_tokens(city.name(i));
            particle_pairs
                .iter()
                .all(|pair| full.windows(2).any(|f| f == *pair))
        }
    };
    if fewest == 0 && v.iter().any(|&i| particles_held(i)) {
        v.retain(|&i| particles_held(i));
    }
    // streets of other names, found through a typo, are never chosen by their postcode or number
    let mut v = if fewest == 0 {
        pick(&v)?
    } else {
        pick_near(&v)?
    };
    // of streets the postcode and number leave alike, what was written beats what was not: a
    // particle written before its word (`Piazza De Ferrari` is Piazza Raffaele De Ferrari, not
    // Piazza Giovanni Battista Ferrari), then a name that is all written (`Via P. Sarpi` is Via
    // Paolo Sarpi, not Via Frà Paolo Sarpi); streets still alike stay an ambiguity (`Via Costa`:
    // Andrea or Paolo Costa)
    if v.len() > 1 && fewest == 0 {
        let as_written = |i: u32| {
            let extra = scored.iter().find(|c| c.street == i).map_or(1, |c| c.extra);
            (!particles_held(i), extra > 0)
        };
        let keyed: Vec<(u32, (bool, bool))> = v.iter().map(|&i| (i, as_written(i))).collect();
        let best = keyed.iter().map(|(_, k)| *k).min()?;
        v = keyed
            .into_iter()
            .filter(|(_, k)| *k == best)
            .map(|(i, _)| i)
            .collect();
    }
    let edits = fewest as u32;
    // a street that names a place beside the words written is never the answer, only a candidate
    if v.len() == 1 && scored.iter().any(|c| c.street == v[0] && c.tier == 3) {
        return Some((StreetResolution::Ambiguous(v), edits));
    }
    if v.len() == 1 {
        // another type and a partial name: two differences, not a confident match
        if !ty.is_empty() && city.street_type(v[0]) != ty {
            return Some((StreetResolution::Ambiguous(v), edits));
        }
        return Some((StreetResolution::Found(v[0], StreetMatch::Changed), edits));
    }
    // a handful of streets the words fit is an ambiguity; many is no answer at all
    (v.len() <= MAX_CANDIDATES).then_some((StreetResolution::Ambiguous(v), edits))
}

/// The most streets an ambiguous partial name is answered with (`Via Caracciolo` in Napoli fits
/// five); more is no answer.
pub(super) const MAX_CANDIDATES: usize = 8;

/// Streets of type `ty` (any type when empty) whose name holds every word written, as written
/// (an initial stands for a word it begins), whatever else the name has.
pub(super) fn containing<A: StreetArea + ?Sized>(city: &A, name: &str, ty: &str) -> Vec<u32> {
    let tokens = loose_tokens(name);
    let Some(anchor) = tokens
        .iter()
        .max_by_key(|t| t.len())
        .filter(|t| t.len() >= 3)
    else {
        return Vec::new();
    };
    let fits = |t: &String, w: &String| w == t || (t.len() == 1 && w.starts_with(t.as_str()));
    let mut out: Vec<u32> = city
        .by_token(anchor)
        .iter()
        .copied()
        .filter(|&i| ty.is_empty() || city.street_type(i) == ty)
        .filter(|&i| {
            city.name_tokens(i)
                .iter()
                .any(|st| tokens.iter().all(|t| st.iter().any(|w| fits(t, w))))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Words that make a street name another place when left out (see `CountryRules::names_a_place`).
pub(super) fn names_a_place(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit()) || crate::rules::italy().names_a_place(w)
}

/// A street found without any particle, for a name written with an elided one (`Via D'Aosta` is
/// not Via Aosta; `Via de' Musi` is not Via Fratelli Musi): a word written is missing from the
/// street, so the answer is not a confident match but an ambiguity, with the streets that hold
/// the words written named first.
pub(super) fn keep_elided_particle<A: StreetArea + ?Sized>(
    city: &A,
    name: &str,
    r: StreetResolution,
) -> StreetResolution {
    let StreetResolution::Found(i, _) = r else {
        return r;
    };
    if !crate::rules::it::has_elided_particle(name) {
        return r;
    }
    let with_particle = std::iter::once(city.name(i))
        .chain(city.alt_names(i).iter().map(String::as_str))
        .any(|n| canonical_tokens(n).iter().any(|w| is_particle(w)));
    if with_particle {
        return r;
    }
    let mut v: Vec<u32> = containing(city, name, "")
        .into_iter()
        .filter(|&j| j != i)
        .take(MAX_CANDIDATES - 1)
        .collect();
    v.push(i);
    StreetResolution::Ambiguous(v)
}

/// The word read as the type, written as it is, when it names a place (`Ponte`, or `Monte` read as
/// a mistyped `Ponte`), that other streets carry as a word of their name beside every word written (`Ponte Bagni`:
/// Località Ponte Bagni, or Via Bagni? `Monte Sorbello`: Via Monte Sorbello, or Contrada
/// Sorbello?): the street `found` under another type replaced a word written by its type, and is
/// not a confident match. The streets that hold every word, then `found`.
pub(super) fn type_word_as_name<A: StreetArea + ?Sized>(
    city: &A,
    parsed: &ParsedAddress,
    found: u32,
) -> Option<Vec<u32>> {
    let ty = parsed.street_type?;
    let raw = &parsed.street_type_raw;
    // only a word that names a place (`Ponte`, `Monte`), not `Via` (`Traversa Prima di Via
    // Salvator Rosa` holds `Via Salvator Rosa` as a reference to another street)
    if city.street_type(found) == ty || !names_a_place(&compact(raw)) {
        return None;
    }
    let mut v: Vec<u32> = containing(city, &format!("{raw} {}", parsed.name), "")
        .into_iter()
        .filter(|&j| j != found)
        .take(MAX_CANDIDATES - 1)
        .collect();
    if v.is_empty() {
        return None;
    }
    v.push(found);
    Some(v)
}
