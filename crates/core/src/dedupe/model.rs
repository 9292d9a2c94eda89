//! The Fellegi–Sunter model of one job: for every field and level, m (how often a true pair
//! shows it) and u (how often two different people do), estimated on the job's own records —
//! u from random pairs, m and the share of matches by expectation-maximisation over the
//! candidate pairs, as Splink does — both drawn towards priors so a job of ten records still
//! has a sensible model. A pair's match weight is the sum of log2(m/u) over its fields; the
//! spec's levels are bands of it, under the hard rules (two tax codes, a gender conflict,
//! birth dates that differ, a different first name without proof of identity).

use std::collections::HashMap;

use serde::Serialize;

use super::score::{note, Comparison, Level, BIRTH, FIELDS, FIRST, LAST, LEVELS, NULL, PLACE, TAX};
use super::score::{BIRTH_FAR, ELSEWHERE, EMAIL, GENDER, LAST_DIFFERENT, PHONE};

/// m priors: how a true pair of a customer list usually compares, field by field.
const PRIOR_M: [&[f64]; FIELDS] = [
    &[0.86, 0.08, 0.02, 0.02, 0.02],
    &[0.74, 0.07, 0.06, 0.03, 0.07, 0.03],
    &[0.62, 0.10, 0.03, 0.03, 0.04, 0.04, 0.14],
    &[0.70, 0.05, 0.25],
    &[0.70, 0.05, 0.25],
    &[0.86, 0.08, 0.02, 0.03, 0.01],
    &[0.98, 0.02],
    &[0.98, 0.02],
    &[0.4, 0.3, 0.2, 0.1],
];

/// u priors: how two different people of one list compare.
const PRIOR_U: [&[f64]; FIELDS] = [
    &[0.003, 0.002, 0.002, 0.01, 0.983],
    &[0.012, 0.002, 0.004, 0.005, 0.03, 0.947],
    &[0.0003, 0.0003, 0.002, 0.002, 0.008, 0.05, 0.9374],
    &[0.0005, 0.002, 0.9975],
    &[0.0002, 0.0008, 0.999],
    &[0.0001, 0.002, 0.01, 0.15, 0.8379],
    &[0.0001, 0.9999],
    &[0.5, 0.5],
    &[0.1, 0.2, 0.3, 0.4],
];

/// Pseudo-pairs behind the priors: u from random pairs needs many (a small job's "random" pairs
/// include its duplicates), m from EM fewer.
const U_STRENGTH: f64 = 2_000.0;
const M_STRENGTH: f64 = 60.0;
const U_EM_STRENGTH: f64 = 500.0;
const EM_ROUNDS: usize = 30;

/// Bands of the match weight (log2 odds that the pair is one person, among candidate pairs).
pub const CERTAIN_WEIGHT: f64 = 10.0;
pub const PROBABLE_WEIGHT: f64 = 3.0;
pub const AMBIGUOUS_WEIGHT: f64 = 2.0;

#[derive(Debug, Clone, Serialize)]
pub struct Model {
    pub m: Vec<Vec<f64>>,
    pub u: Vec<Vec<f64>>,
    /// Share of candidate pairs that are one person.
    pub lambda: f64,
}

fn prior(p: &[&[f64]; FIELDS]) -> Vec<Vec<f64>> {
    p.iter().map(|l| l.to_vec()).collect()
}

impl Model {
    pub fn prior() -> Model {
        Model {
            m: prior(&PRIOR_M),
            u: prior(&PRIOR_U),
            lambda: 0.2,
        }
    }

    /// log2(m/u) of one field at one level (0 when missing).
    pub fn field_weight(&self, field: usize, level: u8) -> f64 {
        if level == NULL {
            return 0.0;
        }
        let l = level as usize;
        (self.m[field][l] / self.u[field][l]).log2()
    }

    /// Prior odds plus every field's weight.
    pub fn weight(&self, gamma: &[u8; FIELDS]) -> f64 {
        let prior = (self.lambda / (1.0 - self.lambda)).log2();
        prior
            + (0..FIELDS)
                .map(|f| self.field_weight(f, gamma[f]))
                .sum::<f64>()
    }

    /// u from random pairs (as Splink samples it), then m, u and lambda by EM over the candidate
    /// comparisons, u drawn towards the random pairs' (candidates share a block, so two people
    /// among them agree more often than two random records: that is what keeps families apart).
    /// `candidates`: each distinct comparison of the candidate pairs with how many pairs show it.
    pub fn train(candidates: &[(Comparison, f64)], random: &[Comparison]) -> Model {
        let mut model = Model::prior();
        // u: frequencies among random pairs, with the prior as pseudo-counts.
        for f in 0..FIELDS {
            let mut counts = vec![0f64; LEVELS[f]];
            for c in random {
                if c.gamma[f] != NULL {
                    counts[c.gamma[f] as usize] += 1.0;
                }
            }
            let total: f64 = counts.iter().sum();
            model.u[f] = (0..LEVELS[f])
                .map(|l| (counts[l] + U_STRENGTH * PRIOR_U[f][l]) / (total + U_STRENGTH))
                .collect();
        }
        let random_u = model.u.clone();
        // EM over distinct patterns: m, u and lambda of the candidate pairs.
        let mut patterns: HashMap<[u8; FIELDS], f64> = HashMap::new();
        for (c, n) in candidates {
            *patterns.entry(c.gamma).or_default() += n;
        }
        let patterns: Vec<([u8; FIELDS], f64)> = patterns.into_iter().collect();
        let total: f64 = patterns.iter().map(|p| p.1).sum();
        if total == 0.0 {
            return model;
        }
        for _ in 0..EM_ROUNDS {
            let prior_odds = model.lambda / (1.0 - model.lambda);
            let mut counts: Vec<Vec<f64>> = LEVELS.iter().map(|&n| vec![0.0; n]).collect();
            let mut apart: Vec<Vec<f64>> = LEVELS.iter().map(|&n| vec![0.0; n]).collect();
            let mut matched = 0.0;
            for (gamma, n) in &patterns {
                let mut odds = prior_odds;
                for (f, &level) in gamma.iter().enumerate() {
                    if level != NULL {
                        let l = level as usize;
                        odds *= model.m[f][l] / model.u[f][l];
                    }
                }
                let p = if odds.is_finite() {
                    odds / (1.0 + odds)
                } else {
                    1.0
                };
                matched += p * n;
                for (f, &level) in gamma.iter().enumerate() {
                    if level != NULL {
                        counts[f][level as usize] += p * n;
                        apart[f][level as usize] += (1.0 - p) * n;
                    }
                }
            }
            for f in 0..FIELDS {
                let seen: f64 = counts[f].iter().sum();
                model.m[f] = (0..LEVELS[f])
                    .map(|l| (counts[f][l] + M_STRENGTH * PRIOR_M[f][l]) / (seen + M_STRENGTH))
                    .collect();
                // u of the candidate pairs that are two people (they share a block, so agree
                // more often than random pairs), drawn towards the random pairs' u.
                let seen: f64 = apart[f].iter().sum();
                model.u[f] = (0..LEVELS[f])
                    .map(|l| {
                        (apart[f][l] + U_EM_STRENGTH * random_u[f][l]) / (seen + U_EM_STRENGTH)
                    })
                    .collect();
            }
            // lambda with a weak prior of 0.2 over 20 pairs.
            let lambda = ((matched + 4.0) / (total + 20.0)).clamp(1e-6, 0.999);
            let done = (lambda - model.lambda).abs() < 1e-6;
            model.lambda = lambda;
            if done {
                break;
            }
        }
        model
    }

    /// Level, score (0–100, inside the level's band) and reasons of one comparison; None below
    /// ambiguous.
    pub fn judge(&self, c: &Comparison) -> Option<(Level, u8, Vec<&'static str>)> {
        let g = &c.gamma;
        let mut reasons = self.reasons(c);
        if c.notes & note::SAME_TAX != 0 {
            return Some((Level::Certain, 100, vec!["same_tax_code"]));
        }
        let w = self.weight(g);
        let mut level = if w >= CERTAIN_WEIGHT {
            Level::Certain
        } else if w >= PROBABLE_WEIGHT {
            Level::Probable
        } else if w >= AMBIGUOUS_WEIGHT {
            Level::Ambiguous
        } else {
            return None;
        };
        // The spec's certain needs the street and house number to coincide, and an address.
        if level == Level::Certain && (g[PLACE] != 0 || c.notes & note::NOWHERE != 0) {
            level = Level::Probable;
        }
        // Hard rules. Proofs of two people: birth dates that differ; another first name
        // (family members at one address) unless the birth date or the tax code says otherwise.
        let identity = g[BIRTH] == 0 || g[TAX] == 0;
        // A personal mobile or mailbox in common also says "one person" (Yasmin/Ysain).
        let personal = g[PHONE] == 0 || g[EMAIL] == 0;
        if refused(c) {
            return None;
        }
        // Two tax codes or two genders: at most ambiguous (the cluster never joins the codes).
        let mut cap = Level::Certain;
        if first_apart(c) {
            cap = Level::Ambiguous;
        }
        if c.notes & note::DIFFERENT_TAX != 0 {
            reasons.insert(0, "different_tax_codes");
            cap = Level::Ambiguous;
        }
        if g[GENDER] == 1 {
            reasons.insert(0, "different_gender");
            cap = Level::Ambiguous;
        }
        // Probable needs something only one person has in common: the street, a personal phone
        // or e-mail, the birth date (or one a slip away), the tax code. A namesake elsewhere is
        // not enough.
        let anchored = g[PLACE] <= 2 || personal || identity || g[BIRTH] == 1;
        if !anchored || c.notes & note::NO_NAMES != 0 {
            cap = cap.min(Level::Ambiguous);
        }
        // Companies (a name, no first name on either side): another name at one address and
        // one phone is another business there (restaurants in one hotel, firms in one
        // building), as another first name is another person; at most ambiguous, and a name
        // only alike at most probable.
        if is_company(c) && super::knob("company", 1.0) > 0.0 {
            if g[LAST] == LAST_DIFFERENT {
                cap = cap.min(Level::Ambiguous);
            } else if g[LAST] >= 2 {
                cap = cap.min(Level::Probable);
            }
        }
        level = level.min(cap);
        let (low, high) = match level {
            Level::Certain => (CERTAIN_WEIGHT, CERTAIN_WEIGHT + 18.0),
            Level::Probable => (PROBABLE_WEIGHT, CERTAIN_WEIGHT),
            Level::Ambiguous => (AMBIGUOUS_WEIGHT, PROBABLE_WEIGHT),
        };
        let (base, span) = match level {
            Level::Certain => (90.0, 9.0),
            Level::Probable => (60.0, 29.0),
            Level::Ambiguous => (30.0, 29.0),
        };
        let score = base + span * ((w - low) / (high - low)).clamp(0.0, 1.0);
        reasons.dedup();
        Some((level, score.round() as u8, reasons))
    }

    /// The comparisons that weighed most: agreements by weight, then the disagreements that
    /// counted against.
    fn reasons(&self, c: &Comparison) -> Vec<&'static str> {
        let g = &c.gamma;
        let mut weighed: Vec<(f64, Vec<&'static str>)> = Vec::new();
        let w = |f: usize| self.field_weight(f, g[f]);
        let mut name = Vec::new();
        if c.notes & note::SWAPPED != 0 {
            name.push("swapped_names");
        }
        match (g[LAST], g[FIRST]) {
            (0, 0) if name.is_empty() => name.push("same_name"),
            _ => {
                if g[FIRST] == 1 {
                    name.push("nickname");
                }
                if g[FIRST] == 4 {
                    name.push(if c.notes & note::FIRST_MISSING != 0 {
                        "first_name_missing"
                    } else if c.notes & note::NICKNAME_WEAK != 0 {
                        "nickname"
                    } else {
                        "first_name_initial"
                    });
                }
                if matches!(g[FIRST], 2 | 3) || matches!(g[LAST], 1 | 3) {
                    name.push("name_typo");
                }
                if g[LAST] == 2 {
                    name.push("name_within_name");
                }
            }
        }
        if g[LAST] != NULL || g[FIRST] != NULL {
            let named: f64 = [LAST, FIRST]
                .iter()
                .map(|&f| w(f))
                .filter(|x| *x > 0.0)
                .sum();
            weighed.push((named.max(0.1), name));
        }
        if g[LAST] == LAST_DIFFERENT {
            weighed.push((w(LAST), vec!["different_last_name"]));
        }
        if g[FIRST] == 5 {
            weighed.push((w(FIRST), vec!["different_first_name"]));
        }
        let mut place = Vec::new();
        if c.notes & note::STREET_TYPO != 0 && g[PLACE] <= 2 {
            place.push("street_typo");
        }
        if c.notes & note::CITY_TYPO != 0 && g[PLACE] <= 5 {
            place.push("city_typo");
        }
        match g[PLACE] {
            0 => place.insert(0, "same_address"),
            1 => place.extend(["same_street", "house_number_missing"]),
            2 => place.extend(["same_street", "house_number_different"]),
            3 => place.push("same_postcode"),
            4 | 5 => place.push("same_city"),
            ELSEWHERE => place.push("different_address"),
            _ => {}
        }
        if !place.is_empty() {
            weighed.push((w(PLACE), place));
        }
        for (f, personal, shared) in [
            (PHONE, "same_phone", "shared_phone"),
            (EMAIL, "same_email", "shared_email"),
        ] {
            match g[f] {
                0 => weighed.push((w(f), vec![personal])),
                1 => weighed.push((w(f), vec![shared])),
                _ => {}
            }
        }
        match g[BIRTH] {
            0 => weighed.push((w(BIRTH), vec!["same_birth_date"])),
            1 => weighed.push((w(BIRTH), vec!["birth_date_typo"])),
            2..=BIRTH_FAR => weighed.push((w(BIRTH), vec!["different_birth_date"])),
            _ => {}
        }
        if g[TAX] == 0 {
            weighed.push((w(TAX), vec!["same_tax_code"]));
        }
        // Agreements strongest first, then disagreements most damning first; faint ones dropped.
        weighed.retain(|(x, r)| !r.is_empty() && x.abs() >= 0.5);
        weighed.sort_by(|x, y| {
            (x.0 < 0.0)
                .cmp(&(y.0 < 0.0))
                .then(y.0.abs().total_cmp(&x.0.abs()))
        });
        weighed.into_iter().flat_map(|(_, r)| r).collect()
    }
}

/// Refused by the hard rules whatever the weights: birth dates decades apart; another first
/// name and another last name unless the birth date, the tax code, or a personal mobile or
/// mailbox says it is one person. Equal tax codes consistent with the names are never refused
/// (always certain).
pub fn refused(c: &Comparison) -> bool {
    let g = &c.gamma;
    if c.notes & note::SAME_TAX != 0 {
        return false;
    }
    let veto = super::knob("veto", BIRTH_FAR as f64) as u8;
    (g[BIRTH] != NULL && g[BIRTH] >= veto) || (first_apart(c) && !last_alike(c))
}

/// Another first name with nothing only one person has (birth date, tax code, a personal mobile
/// or mailbox): two members of one family, or one person whose first name was written another
/// way (a nickname the dictionary does not know, a title, a second name). Refused when the last
/// names differ too; capped at ambiguous otherwise, weighed by what the job's model learnt.
fn first_apart(c: &Comparison) -> bool {
    let g = &c.gamma;
    let identity = g[BIRTH] == 0 || g[TAX] == 0;
    let personal = g[PHONE] == 0 || g[EMAIL] == 0;
    g[FIRST] == 5 && !identity && !personal
}

/// The last names are the same or one typo apart.
fn last_alike(c: &Comparison) -> bool {
    c.gamma[LAST] <= 1
}

/// Two records named without a first name on either side: companies, shops, sites.
pub fn is_company(c: &Comparison) -> bool {
    c.gamma[FIRST] == NULL && c.gamma[LAST] != NULL && c.notes & note::NO_NAMES == 0
}

/// Random pairs of a list, deterministic (the same list gives the same model): up to `max`.
pub fn random_pairs(n: usize, max: usize) -> Vec<(usize, usize)> {
    if n < 2 {
        return Vec::new();
    }
    let all = n * (n - 1) / 2;
    if all <= max {
        return (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
    }
    // xorshift64*: no dependency needed for a reproducible sample.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    let mut next = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = Vec::with_capacity(max);
    while out.len() < max {
        let (i, j) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
        if i != j {
            out.push((i.min(j), i.max(j)));
        }
    }
    out
}
