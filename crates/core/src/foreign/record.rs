//! A foreign record verified in its country's register: the line read (`line::read`), the place
//! found from city and postcode (`place`), the street chosen by the address engine
//! (`address::street_choice::choose`, which this register feeds through `choice.rs`), and the
//! answer for the street chosen written with its number, postcode and point (`answer`).

use super::answer::{answer_base, answer_street, Found};
use super::line::{self, Line};
use super::model::CountryRegister;
use super::place::Place;
use crate::address::outcome::Outcome;
use crate::address::street_choice::{choose, Decision, NamedStreets, Written};
use crate::address::{ContactInput, ContactResult};

pub(super) fn text(s: &Option<String>) -> &str {
    s.as_deref().map(str::trim).unwrap_or("")
}

/// The postcode of the record in the country's form: the one written in its field, else the one
/// written in the line.
fn written_postcode(cc: &str, field: &str, line: &Line) -> String {
    if field.is_empty() {
        line.postcode
            .as_deref()
            .map(|p| crate::postal::postcode::key(cc, p))
            .unwrap_or_default()
    } else {
        crate::postal::postcode::key(cc, field)
    }
}

/// Verifies the record in the register; None when the record lies outside what the register
/// covers at street level (the postal form answers it then).
pub fn verify(
    reg: &CountryRegister,
    input: &ContactInput,
    base: &ContactResult,
) -> Option<ContactResult> {
    if reg.streets.is_empty() {
        return None;
    }
    let address = text(&input.address);
    let city_in = text(&input.city);
    let line = line::read(address, city_in, &reg.expander);
    let written_pc = text(&input.postcode);
    let place = Place::new(
        reg,
        city_in,
        written_postcode(reg.info.country, written_pc, &line),
    );
    if place.empty && !reg.national {
        return None;
    }
    let readings: Vec<Written> = line
        .readings
        .iter()
        .map(|r| Written {
            name: reg.name_key(&r.street),
            number: r.number.as_ref(),
        })
        .collect();
    let choice = choose(reg, &place, &readings);
    let mut r = answer_base(reg, input, base, written_pc, &place.postcode);
    let mut out = Outcome::default();
    out.condition("FOREIGN");
    let not_found = |mut r: ContactResult, mut out: Outcome| {
        out.condition("STREET_NOT_FOUND");
        r.outcome = out.codes();
        place.complete_streets.then_some(r)
    };
    let Some(choice) = choice else {
        if address.is_empty() {
            return None;
        }
        return not_found(r, out);
    };
    match choice.decision {
        Decision::Found(id, score) => {
            let found = Found {
                reading: &line.readings[choice.reading],
                street: id,
                score,
            };
            return Some(answer_street(reg, r, out, &found, city_in, &place.postcode));
        }
        // the candidates are not part of the foreign answer (yet): one name in several places is
        // an ambiguity; names that fit alike, or one name of several types, are not found
        Decision::Ambiguous(_) => {}
        Decision::Unclear(_) | Decision::TypeMissing(_) | Decision::NotFound => {
            return not_found(r, out)
        }
    }
    out.condition("STREET_AMBIGUOUS");
    r.outcome = out.codes();
    Some(r)
}
