//! Resolution against the register: the municipality from city, postcode and province; the
//! street within it; then the house number. Each step says how sure it is, and a step that is
//! not sure answers "not found" or "ambiguous" rather than a guess.
//!
//! One file per step: `city` (the municipality), `choice` (the street, through the one engine
//! `address::street_choice`), `street_match` (the former named steps of `street_steps`, kept as
//! the measure `choice` is compared with), `cover` (names read word by word), `same_name` (streets
//! of one name told apart by the evidence written, for every country), `number` (the house number
//! and its point).

mod choice;
mod city;
mod cover;
mod number;
mod place_shapes;
mod same_name;
mod street_match;

pub use choice::{choose_in_municipality, street_chosen, MunicipalityPlace};
pub use city::*;
use cover::*;
pub use number::*;
pub(crate) use place_shapes::*;
pub use same_name::*;
pub use street_match::*;

use super::parse::ParsedAddress;
use crate::normalize::{compact, fold};
use crate::register::municipality::{name_key, MunicipalityRecord};
use crate::register::street::{
    edit_distance, CityStreets, HouseNumberEntry, KeyKind, Street, StreetArea,
};
use crate::register::{Municipality, Register};
use crate::rules::it::street_type;
use crate::rules::key::{
    canonical_tokens, full_key, is_particle, is_title, loose_key, loose_tokens, sorted_key,
};
