//! Partial names: the streets whose name holds every word written (`Garibaldi` for Via Giuseppe
//! Garibaldi, `C. Colombo` for Via Cristoforo Colombo, `Martiri Liber.` for Corso Martiri della
//! Liberazione), scored by what the name has that was not written (`covering`), and the street a
//! partial name settles on, or the candidates it leaves (`partial`). The words people leave out
//! are the country's (`rules::PartialNames`: titles, particles, words that name a place) and the
//! register's first names (`ChoiceFacts::is_first_name`); a country without them (every foreign
//! register today) has no partial names beyond `name::score`'s.

use super::decide::Decision;
use super::name::NameKey;
use super::ChoiceFacts;
use crate::address::resolve::{narrow, Evidence};
use crate::normalize::fold;
use crate::register::street::edit_distance;
use crate::rules::PartialNames;

/// The most streets an ambiguous partial name is answered with (`Via Caracciolo` in Napoli fits
/// five); more is no answer.
pub const MAX_CANDIDATES: usize = 8;

/// How the words of one street's name hold the words written (`covering`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cover {
    pub street: u32,
    /// Words written that fit a word of the name only with a typo.
    pub typos: usize,
    /// First names and titles written that the name, all of whose words were written, lacks
    /// (`Via Giuseppe Mazzini` for Via Mazzini, `Piazza Cardinale Pietro Gasparri` for Piazza
    /// Pietro Gasparri).
    pub dropped: usize,
    /// What the name has that was not written: 0, nothing but first names, titles and regnal
    /// numbers (`Garibaldi` for Giuseppe Garibaldi, `Vittorio Emanuele` for Vittorio Emanuele II);
    /// 1, one leading word of unknown kind that names no place (`Prisco` for Tarquinio Prisco);
    /// 2, other words that name no place (`Sparano` for Sparano da Bari): taken only when one
    /// street fits so; 3, words that name a place (`Vecchio` in Via Molino Vecchio): never taken,
    /// but a street of tier 2 is not the only one that fits beside it.
    pub tier: u8,
    /// Words of the name that were not written (first names, titles, regnal numbers or others):
    /// 0 when the words written are the whole name (`P. Sarpi` for Paolo Sarpi).
    pub extra: usize,
}

/// What a partial name is read with: the country's words and the register's first names.
struct Words<'a, R: ChoiceFacts + ?Sized> {
    reg: &'a R,
    rules: &'a PartialNames,
}

impl<R: ChoiceFacts + ?Sized> Words<'_, R> {
    fn first_name(&self, w: &str) -> bool {
        self.reg.is_first_name(w)
    }
    fn title(&self, w: &str) -> bool {
        (self.rules.is_title)(w)
    }
    fn particle(&self, w: &str) -> bool {
        (self.rules.is_particle)(w)
    }
    fn nobility(&self, w: &str) -> bool {
        (self.rules.is_title_of_nobility)(w)
    }
    /// Words that make a street name another place when left out (numbers too: `Via Marzo` is
    /// never Via XXII Marzo).
    fn names_a_place(&self, w: &str) -> bool {
        w.chars().any(|c| c.is_ascii_digit()) || (self.rules.names_a_place)(w)
    }
}

/// The streets whose name holds every word written (an initial stands for a word it begins, a
/// word of five letters or more may carry one typo beside another word written right, or alone
/// with `single_typo`; none with `typos` off), with how they hold them. Numbers are words
/// (`XXII`, `22` and `Ventidue` are one), so `Via Marzo` never holds `Via XXII Marzo`.
pub fn covering<R: ChoiceFacts + ?Sized>(
    reg: &R,
    rules: &PartialNames,
    q: &NameKey,
    typos: bool,
    single_typo: bool,
) -> Vec<Cover> {
    let w = Words { reg, rules };
    let tokens = &q.tokens;
    let truncated = (rules.cut_words)(&q.written);
    let cut = |t: &String| truncated.contains(t);
    let person = noble_person(&w, &q.written);
    // first names and titles written may be missing from the name: the anchor is another word;
    // so may the person's names before a title of nobility (`Camillo Benso Conte di Cavour` for
    // Via Cavour) and a year after the name (`IV Novembre 1918` for Via Quattro Novembre)
    let droppable =
        |t: &str| w.title(t) || w.first_name(t) || person.iter().any(|p| p == t) || is_year(t);
    // `S.` is San, or the initial of a first name (`Via S. Pellico` for Via Silvio Pellico)
    let initial_s = fold(&q.written).split(' ').any(|w| w == "S");
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
    let typo = |t: &str| -> usize { usize::from(typos && t.len() >= 5 && !single) };
    let mut cands: Vec<u32> = reg.by_word(anchor).map(<[u32]>::to_vec).unwrap_or_default();
    if typo(anchor) > 0 {
        for near in reg.words_near(anchor, 1) {
            cands.extend(reg.by_word(near).into_iter().flatten().copied());
        }
    }
    cands.sort_unstable();
    cands.dedup();
    // an initial stands for a word it begins, written or in the register (`Via A. Volta`)
    // a word cut short with its dot stands for the words it begins (`LIBER.` for Liberazione)
    let exact = |t: &str, n: &str| -> bool {
        n == t
            || (t.len() == 1 && n.starts_with(t))
            || (initial_s && t == "SAN" && n.len() > 1 && n.starts_with('S') && w.first_name(n))
            || (n.len() == 1 && t.starts_with(n))
            || (n.len() > t.len() && n.starts_with(t) && truncated.iter().any(|c| c == t))
    };
    let matches = |t: &str, n: &str| -> bool {
        exact(t, n) || (typo(t) > 0 && edit_distance(n, t, typo(t)).is_some())
    };
    // `Roma` is not `Giovanni Francesco da Roma`: words written that follow a particle of the
    // register's name, with words left out before them, name another thing (a person "from Rome")
    // — unless the particle was written too (`Via de Medici` for Via Antonio de Medici), or follows
    // a title of nobility
    let written = (rules.words)(&q.written);
    let after_particle = |i: u32| -> bool {
        let full = (rules.words)(reg.name(i));
        let Some(first) = full
            .iter()
            .position(|n| !w.particle(n) && tokens.iter().any(|t| matches(t, n)))
        else {
            return false;
        };
        let particle = first >= 2 && full.get(first - 1).is_some_and(|n| w.particle(n));
        // after a title of nobility the place is the person's name (`Camillo Benso Conte di
        // Cavour` is Via Cavour, `Duca d'Aosta`), and so after a first name and a surname (a noble
        // predicate: `Camillo Benso di Cavour`; `Leonardo da Vinci` is a man from Vinci)
        let noble = (first >= 2 && w.nobility(&full[first - 2]))
            || (first >= 3
                && !w.first_name(&full[first - 2])
                && !w.title(&full[first - 2])
                && !w.particle(&full[first - 2])
                && w.first_name(&full[first - 3]));
        particle
            && !noble
            && !written
                .iter()
                .zip(written.iter().skip(1))
                .any(|(p, n)| Some(p) == full.get(first - 1) && matches(n, &full[first]))
    };
    let long_word = tokens.iter().any(|t| t.len() >= 4);
    let cover = |i: u32| -> Option<Cover> {
        reg.keys(i)
            .iter()
            .map(|k| &k.tokens)
            .filter_map(|st| {
                let hit = |n: &String| tokens.iter().any(|t| matches(t, n));
                // an initial stands for a word no other word written is (`C. Colombo` is not
                // Emilio Colombo for the C of Colombo)
                let held = |t: &String| {
                    st.iter().any(|n| {
                        matches(t, n)
                            && (t.len() > 1 || !tokens.iter().any(|u| u.len() > 1 && matches(u, n)))
                    })
                };
                let missing: Vec<&String> = tokens.iter().filter(|t| !held(t)).collect();
                // a first name or title written that the name lacks, only where every word of the
                // name was written (`Via Giuseppe Verdi` is never Via Giovanni Verdi)
                let dropped = missing.len();
                // a name of its own beside the first names: a surname, or a regnal number
                // (`Via Papa Giovanni XXIII` for Via Giovanni XXIII)
                let distinctive = st.iter().enumerate().any(|(j, n)| {
                    (n.len() >= 4 && !droppable(n))
                        || (j >= 1
                            && n.bytes().all(|b| b.is_ascii_digit())
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
                    .filter(|t| held(t) && !st.iter().any(|n| exact(t, n)))
                    .count();
                // a number right after a first name or title is a regnal one (`Umberto I`,
                // `Papa Giovanni XXIII`): left out as people leave it out
                let regnal = |j: usize| -> bool {
                    st[j].bytes().all(|b| b.is_ascii_digit())
                        && j >= 1
                        && (w.first_name(&st[j - 1]) || w.title(&st[j - 1]))
                };
                let extra: Vec<usize> = (0..st.len()).filter(|&j| !hit(&st[j])).collect();
                let first_hit = st.iter().position(hit).unwrap_or(0);
                let tier = if extra
                    .iter()
                    .all(|&j| w.title(&st[j]) || w.first_name(&st[j]) || regnal(j))
                {
                    0
                } else if extra == [0]
                    && first_hit == 1
                    && st[0].len() >= 3
                    && !w.names_a_place(&st[0])
                    && long_word
                {
                    1
                } else if typos == 0 && long_word {
                    if extra.iter().all(|&j| !w.names_a_place(&st[j])) {
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
fn noble_person<R: ChoiceFacts + ?Sized>(w: &Words<R>, name: &str) -> Vec<String> {
    let words = (w.rules.words)(name);
    match words.iter().position(|n| w.nobility(n)) {
        Some(k) if k >= 1 && k + 1 < words.len() && w.first_name(&words[0]) => words[..=k].to_vec(),
        _ => Vec::new(),
    }
}

/// A year written after a name (`1918`, `1945`).
fn is_year(t: &str) -> bool {
    t.len() == 4 && t.parse::<u32>().is_ok_and(|y| (1000..=2099).contains(&y))
}

/// Streets of one name told apart by the postcode and the house number written; of one
/// spelling from the national list and one from a municipal list of the same street, the one that
/// carries house numbers.
fn of_one_name<R: ChoiceFacts + ?Sized>(
    reg: &R,
    v: Vec<u32>,
    postcode: &str,
    number: Option<(u32, &str)>,
) -> Vec<u32> {
    let mut v = narrow(
        reg,
        v,
        &[Evidence::Postcode(postcode), Evidence::Number(number)],
    );
    if v.len() > 1 {
        let with_numbers: Vec<u32> = v
            .iter()
            .copied()
            .filter(|&i| reg.lists_numbers(i))
            .collect();
        if with_numbers.len() == 1 {
            let full = |i: u32| reg.keys(i)[0].key.replace(' ', "");
            let k = full(with_numbers[0]);
            if v.iter().all(|&i| full(i) == k) {
                v = with_numbers;
            }
        }
    }
    v
}

/// Streets a typo or a partial name fits: the postcode and the house number tell apart streets
/// of one name, never choose between names (`Via G. Mazzini 3` is not Via Giovanni Mazzoni for
/// having a number 3 that Via Giuseppe Mazzini lacks).
fn near_names<R: ChoiceFacts + ?Sized>(
    reg: &R,
    mut v: Vec<u32>,
    postcode: &str,
    number: Option<(u32, &str)>,
) -> Vec<u32> {
    v.sort_unstable();
    v.dedup();
    let name = |i: u32| reg.keys(i)[0].compact.as_str();
    if v.iter().all(|&i| name(i) == name(v[0])) {
        return of_one_name(reg, v, postcode, number);
    }
    v
}

/// The partial fits the type written chooses among `scored` (`is_of_type`): those of the type
/// written; and where each of them left out a word of unknown kind (`tier` 1), also the fits of
/// another type that left out nothing but first names and titles (`tier` 0) from another name
/// (`name`: its words without type and particles, sorted). A leading word of unknown kind left
/// out is a weaker fit than a first name, and a changed type a second difference: `Via
/// Garibaldi` in Pesaro (or Tortona) is Via Brigata Garibaldi or Piazzale (Corso) Giuseppe
/// Garibaldi, a doubt with both (a street of another type is never found by a partial name
/// alone). Where a street of the type written left out only first names and titles, the type
/// decides (`Corso Garibaldi` in Reggio di Calabria is Corso Giuseppe Garibaldi, not Via Anita
/// Garibaldi; `Via Amendola` in Pagani is Via Giovanni Amendola, not Traversa Alfonso Amendola);
/// one person under two types is no rival (Via Giacomo Matteotti and Piazza Matteotti Giacomo in
/// Borgo Virgilio). Empty when no fit is of the type written. Italy's named steps (`cover.rs`)
/// read it too, until they go (issue 29, item 6).
pub(crate) fn of_type_written<T: Copy, K: PartialEq>(
    scored: &[T],
    is_of_type: impl Fn(&T) -> bool,
    tier: impl Fn(&T) -> u8,
    name: impl Fn(&T) -> K,
) -> Vec<T> {
    let same: Vec<T> = scored.iter().copied().filter(&is_of_type).collect();
    if same.is_empty() || same.iter().any(|c| tier(c) != 1) {
        return same;
    }
    let names: Vec<K> = same.iter().map(&name).collect();
    let rivals = scored
        .iter()
        .filter(|c| !is_of_type(c) && tier(c) == 0)
        .filter(|c| !names.contains(&name(c)));
    same.iter().chain(rivals).copied().collect()
}

/// What a partial name answers, and how many written words needed a typo.
pub struct Partial {
    pub decision: Decision,
    pub typos: usize,
}

/// The street a partial name settles on (`covering`). The fewest typos win (`Via G. Mazzini` is
/// Via Giuseppe Mazzini, not Via Giovanni Mazzoni), then the fewest first names and titles
/// written and not in the name, then the fewest words of unknown kind left out, then the type
/// written. Streets that fit as well are told apart by the postcode (and, for streets of one
/// name, the house number), else they are an ambiguity with candidates (`Via Costa 206`: Andrea
/// or Paolo Costa, the ones holding the number first). A street of another type than the one
/// written, reached by a partial name, is two differences: an ambiguity; so is a street that
/// names a place beside the words written. None when no street holds the words, or more than
/// `MAX_CANDIDATES` do alike.
pub fn partial<R: ChoiceFacts + ?Sized>(
    reg: &R,
    rules: &PartialNames,
    q: &NameKey,
    postcode: &str,
    number: Option<(u32, &str)>,
) -> Option<Partial> {
    // a word with a typo only where the request reads typos (precision 3 up)
    let mut scored = covering(reg, rules, q, reg.rules().typos(), false);
    let fewest = scored.iter().map(|c| c.typos).min()?;
    scored.retain(|c| c.typos == fewest);
    let dropped = scored.iter().map(|c| c.dropped).min()?;
    scored.retain(|c| c.dropped == dropped);
    // a first name left out and a word of unknown kind left out rank alike (two streets that fit
    // so are an ambiguity, not a choice); other words left out only where nothing else fits
    let rank = |c: &Cover| u8::from(c.tier >= 2);
    let best = scored.iter().map(rank).min()?;
    let ty = q.types.as_str();
    // the best fits all of another type than the one written are two differences each (an
    // ambiguity whatever follows): a street of the type written with other words left out is as
    // likely, and is among the candidates (`Viale Ceccarini` in Riccione: Viale Ceccarini Maria
    // Borman beside Piazzale Ceccarini Vincenzo)
    let other_type = |c: &Cover| reg.street_type(c.street) != ty;
    if !ty.is_empty() && scored.iter().filter(|c| rank(c) == best).all(other_type) {
        let written_type = scored
            .iter()
            .filter(|c| rank(c) > best && c.tier == 2 && !other_type(c));
        let mut v: Vec<u32> = scored
            .iter()
            .filter(|c| rank(c) == best)
            .chain(written_type)
            .map(|c| c.street)
            .collect();
        if v.len() > scored.iter().filter(|c| rank(c) == best).count() {
            v.sort_unstable();
            v.dedup();
            return (v.len() <= MAX_CANDIDATES).then_some(Partial {
                decision: Decision::Ambiguous(v),
                typos: fewest,
            });
        }
    }
    // a word of unknown kind before the name written (`Via Reggio Emilia` for `Via Emilia` in
    // Modena) is no surer than words after it where the name written begins other streets (Via
    // Emilia Centro, Est, Ovest): all of them are candidates
    if best == 0 && scored.iter().filter(|c| rank(c) == 0).all(|c| c.tier == 1) {
        let written = (rules.words)(&q.written);
        let continued = scored
            .iter()
            .filter(|c| c.tier == 2 && (rules.words)(reg.name(c.street)).starts_with(&written));
        let mut v: Vec<u32> = scored
            .iter()
            .filter(|c| c.tier == 1)
            .chain(continued)
            .map(|c| c.street)
            .collect();
        if v.len() > scored.iter().filter(|c| c.tier == 1).count() {
            v.sort_unstable();
            v.dedup();
            return (v.len() <= MAX_CANDIDATES).then_some(Partial {
                decision: Decision::Ambiguous(v),
                typos: fewest,
            });
        }
    }
    scored.retain(|c| rank(c) == best);
    if !ty.is_empty() {
        let same = of_type_written(
            &scored,
            |c| reg.street_type(c.street) == ty,
            |c| c.tier,
            |c| reg.keys(c.street)[0].sorted.as_str(),
        );
        if !same.is_empty() {
            scored = same;
        }
    }
    let mut v: Vec<u32> = scored.iter().map(|c| c.street).collect();
    // a particle written before its word is part of a surname (`Via De Nicola` is Via Enrico De
    // Nicola, not Via Nicola Romeo): the streets that hold it come before the postcode and number
    // are read, which may know the postcode of one street and not the other's
    let written = (rules.words)(&q.written);
    let particle_pairs: Vec<&[String]> = written
        .windows(2)
        .filter(|pair| (rules.is_particle)(&pair[0]))
        .collect();
    let particles_held = |i: u32| {
        particle_pairs.is_empty() || {
            let full = (rules.words)(reg.name(i));
            particle_pairs
                .iter()
                .all(|pair| full.windows(2).any(|f| f == *pair))
        }
    };
    if fewest == 0 && v.iter().any(|&i| particles_held(i)) {
        v.retain(|&i| particles_held(i));
    }
    let mut v = near_names(reg, v, postcode, number);
    if fewest == 0 {
        // streets of other names that hold every word written: the postcode written tells them
        // apart, the house number alone does not; the ones that hold the number come first
        v = of_one_name(reg, v, postcode, None);
        if let Some((n, suffix)) = number {
            v.sort_by_key(|&i| !reg.has_number(i, n, suffix));
        }
    }
    if v.is_empty() {
        return None;
    }
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
    let decision = match v.len() {
        // a street that names a place beside the words written is never the answer, only a
        // candidate; nor one whose name goes on after a municipality's name written (`Via Roma`
        // is not surely Via Roma Imperiale, nor Via Roma Libera: a place, not a person's name
        // the words after complete); another type and a partial name: two differences, not a
        // confident match
        1 if scored.iter().any(|c| {
            c.street == v[0]
                && (c.tier == 3
                    || goes_on_after_a_place(reg, rules, q, c.street)
                    || a_person_named_as_a_city(reg, rules, q, c.street))
        }) || (!ty.is_empty() && reg.street_type(v[0]) != ty) =>
        {
            Decision::Ambiguous(v)
        }
        1 => Decision::Found(v[0], PARTIAL),
        // a handful of streets the words fit is an ambiguity; many is no answer at all
        n if n <= MAX_CANDIDATES => Decision::Ambiguous(v),
        _ => return None,
    };
    Some(Partial {
        decision,
        typos: fewest,
    })
}

/// Whether the street's name goes on after the words written, the last of which names a
/// municipality (`ChoiceFacts::names_a_municipality`), with words that are no phrase of their own
/// opened by a particle: `Via Roma` for Via Roma Imperiale or Via Roma Libera (a first name, yet
/// after a place's name no person's), where the name written is a place the street's name adds
/// to. A surname or a first name written, and the words after it, are a person's name (`Via
/// Dante` for Via Dante Alighieri, `Via Galilei` for Via Galilei Galileo, `Via Tintoretto` for Via
/// Tintoretto Jacopo Robusti): no doubt; nor `Via Sparano` for Via Sparano da Bari.
fn goes_on_after_a_place<R: ChoiceFacts + ?Sized>(
    reg: &R,
    rules: &PartialNames,
    q: &NameKey,
    street: u32,
) -> bool {
    let full = (rules.words)(reg.name(street));
    // an initial written stands for the word it begins (`Via S. Vignola` for Via Vignola Stella)
    let initial_s = fold(&q.written).split(' ').any(|w| w == "S");
    let written = |n: &String| {
        q.tokens.iter().any(|t| {
            t == n
                || (t.len() == 1 && n.starts_with(t.as_str()))
                || (initial_s && t == "SAN" && n.starts_with('S'))
        })
    };
    let Some(last) = full.iter().rposition(written) else {
        return false;
    };
    let after_particle =
        |next: &String| (rules.is_particle)(next) && !full[last + 1..].iter().any(written);
    match full.get(last + 1) {
        None => false,
        Some(next) if after_particle(next) => false,
        Some(_) => reg.names_a_municipality(&full[last]),
    }
}

/// Whether the name written is one word, a provincial capital's name, that the street's name puts
/// words before (`Via Roma` for Via Giulio Roma in Fiumicino, which has no Via Roma): people
/// writing a city's name as a street mean the street named after the city, which that
/// municipality lacks, so the person's street is only a candidate. A capital only: `Via Cavour`
/// (Cavour is a municipality of Turin's province) is Via Camillo Benso Conte di Cavour, and an
/// initial written (`Via G. Milano`) names the person.
fn a_person_named_as_a_city<R: ChoiceFacts + ?Sized>(
    reg: &R,
    rules: &PartialNames,
    q: &NameKey,
    street: u32,
) -> bool {
    let [written] = q.tokens.as_slice() else {
        return false;
    };
    // an initial written beside it (`Via G. Milano`) says a person is meant
    if fold(&q.written)
        .split(' ')
        .filter(|w| !w.is_empty())
        .count()
        > 1
    {
        return false;
    }
    let full = (rules.words)(reg.name(street));
    full.iter()
        .position(|w| w == written)
        .is_some_and(|at| at > 0)
        && reg.names_a_provincial_capital(written)
}

/// The score of a street found by a partial name (`name::score`'s for every word written being
/// one of the register's).
pub const PARTIAL: f64 = 0.85 * 0.96;

/// A street found without any particle, for a name written with an elided one (`Via D'Aosta` is
/// not Via Aosta; `Via de' Musi` is not Via Fratelli Musi; the country's
/// `PartialNames::has_elided_particle`): a word written is missing from the street, so the answer
/// is a doubt: the streets of any type whose name holds every word written, then the street
/// found. None where the country reads no such particle, none was written, or the street's names
/// have a particle.
pub fn elided_particle_doubt<R: ChoiceFacts + ?Sized>(
    reg: &R,
    q: &NameKey,
    found: u32,
) -> Option<Vec<u32>> {
    let rules = reg.rules().partial_names.as_ref()?;
    if !(rules.has_elided_particle)(&q.written) {
        return None;
    }
    let with_particle = std::iter::once(reg.name(found))
        .chain(reg.alt_names(found).iter().map(String::as_str))
        .any(|n| (rules.words)(n).iter().any(|w| (rules.is_particle)(w)));
    if with_particle {
        return None;
    }
    let mut v: Vec<u32> = holding_every_word(reg, q)
        .into_iter()
        .filter(|&j| j != found)
        .take(MAX_CANDIDATES - 1)
        .collect();
    v.push(found);
    Some(v)
}

/// The streets one of whose names holds every word written (an initial fits a word it begins),
/// whatever their type.
pub(super) fn holding_every_word<R: ChoiceFacts + ?Sized>(reg: &R, q: &NameKey) -> Vec<u32> {
    let Some(anchor) = q
        .tokens
        .iter()
        .max_by_key(|t| t.len())
        .filter(|t| t.len() >= 3)
    else {
        return Vec::new();
    };
    let fits = |t: &String, w: &String| w == t || (t.len() == 1 && w.starts_with(t.as_str()));
    let mut out: Vec<u32> = reg
        .by_word(anchor)
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|&i| {
            reg.keys(i)
                .iter()
                .any(|k| q.tokens.iter().all(|t| k.tokens.iter().any(|w| fits(t, w))))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}
