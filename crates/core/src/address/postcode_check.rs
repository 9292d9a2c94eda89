//! Step 7 of `verify`: the postcode answered and how sure it is — the house number's, the
//! neighbouring numbers', the street's or locality's, else the municipality's.

use super::*;

/// The postcode answered and how sure it is.
#[allow(clippy::too_many_arguments)]
pub(super) fn postcode(
    m: &Municipality,
    city: Option<&CityStreets>,
    street: Option<&Street>,
    house_number: Option<u32>,
    number: Option<&crate::register::street::HouseNumberEntry>,
    given: &str,
    given_unlisted: bool,
    hamlet: &[&str],
    source: &'static str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    let in_city = |p: &str| m.has_postcode(p);
    // the number's own postcode
    if let Some(n) = number.filter(|n| !n.postcode.is_empty()) {
        return certain(n.postcode.clone(), source, "house_number", 1, given, out);
    }
    // a hamlet written as the city with postcodes of its own (GeoNames' postal-code dump), on a
    // street that carries none: the one written when it is the hamlet's, else the hamlet's one;
    // another postcode of the municipality written stays (below)
    if street.is_none_or(|s| s.postcodes.is_empty()) && !hamlet.is_empty() {
        let locality = |confirmed| PostcodeCheck {
            source: "register",
            precision: "locality",
            house_numbers: 0,
            agreement: 1.0 / hamlet.len() as f64,
            confirmed,
        };
        if hamlet.contains(&given) {
            return (given.to_string(), locality(true));
        }
        if let [own] = hamlet {
            if given.is_empty() || !in_city(given) {
                return certain(own.to_string(), "register", "locality", 0, given, out);
            }
        }
    }
    // one postcode for the municipality, unless the one written is a frazione's of its own that a
    // current source gives it (Rossano's 87067 in Corigliano-Rossano): the postal-code dump, or
    // its house numbers — read from the numbers too, for a register imported before it kept
    // `street_postcodes`
    if m.postcodes.len() == 1 {
        let pc = m.postcodes[0].clone();
        if given != pc
            && !given.is_empty()
            && (m.place_postcodes.iter().any(|p| p == given) || numbers_carry(city, given))
        {
            let check = PostcodeCheck {
                source,
                precision: "locality",
                house_numbers: 0,
                agreement: 1.0,
                confirmed: true,
            };
            return (given.to_string(), check);
        }
        // a postcode no list gives any municipality, in this one's postal area (its first three
        // digits): a frazione's own the data lacks (Tremezzina's 22019) as likely as a typo —
        // nothing disproves it, so it stays, unconfirmed. Not a round one (`23800`): generic
        // forms are replaced
        let same_area = super::resolve::same_postal_area(given, &pc) && !given.ends_with("00");
        if given_unlisted && same_area && given.bytes().all(|b| b.is_ascii_digit()) {
            out.condition("POSTCODE_UNCONFIRMED");
            let check = PostcodeCheck {
                source: "register",
                precision: "municipality",
                house_numbers: 0,
                agreement: 0.0,
                confirmed: false,
            };
            return (given.to_string(), check);
        }
        return certain(pc, "register", "municipality", 0, given, out);
    }
    // a number the register lacks, between two numbers of the same side with one postcode; a
    // guess that never replaces a written postcode the street carries (`Viale Ortles 46, 20141`:
    // 36 and 52 are 20139, 2 is 20141), which stays unconfirmed below
    let carried = |s: &&Street| s.postcodes.iter().any(|(p, _)| p == given);
    if let (Some(s), Some(n)) = (
        street.filter(|s| s.postcodes.len() > 1 && !carried(s)),
        house_number,
    ) {
        if let Some(pc) = neighbours_postcode(s, n) {
            return certain(pc, source, "interpolated", 2, given, out);
        }
    }
    // a street without postcodes of its own, in a locality whose streets share one
    if let Some((pc, count)) = street
        .filter(|s| s.postcodes.is_empty() && !s.locality.is_empty())
        .and_then(|s| locality_postcode(city, &s.locality))
    {
        return certain(pc, source, "locality", count, given, out);
    }
    // the street's postcodes
    if let Some(s) = street.filter(|s| !s.postcodes.is_empty()) {
        let total: u32 = s.postcodes.iter().map(|(_, c)| *c).sum();
        let (top, count) = s.postcodes[0].clone();
        let agreement = if total == 0 {
            1.0 / s.postcodes.len() as f64
        } else {
            f64::from(count) / f64::from(total)
        };
        let unanimous = s.postcodes.len() == 1;
        // one postcode on every number of the street (or a street table) is certain; one on the
        // few numbers that carry one (Milano's municipi 5 and 9) is not, against a written postcode
        // of the municipality (Corso Lodi 62 is 20139, its numbers with a postcode all 20135)
        let every_number = total == 0 || total as usize >= s.numbers.len();
        // with no house number written, a written postcode of the municipality that its numbers
        // near the street carry, or that none of them carries (the register does not know where
        // it runs), may be the street's other side: kept, unconfirmed (`Via Pescarenico, 20143`:
        // its six numbers are 20142, 20143 is across the Naviglio where Milano's numbers carry none)
        let numberless = house_number.is_none() && in_city(given) && !carried(&s);
        if numberless && written_postcode_near(city, s, given) {
            out.condition("POSTCODE_UNCONFIRMED");
            let check = PostcodeCheck {
                source,
                precision: "street",
                house_numbers: total,
                agreement,
                confirmed: false,
            };
            return (given.to_string(), check);
        }
        if unanimous && (every_number || given.is_empty() || !in_city(given)) {
            return certain(top, source, "street", total, given, out);
        }
        let check = PostcodeCheck {
            source,
            precision: "street",
            house_numbers: total,
            agreement,
            confirmed: false,
        };
        if s.postcodes.iter().any(|(p, _)| p == given) || (!given.is_empty() && in_city(given)) {
            out.condition("POSTCODE_UNCONFIRMED");
            return (given.to_string(), check);
        }
        out.condition("POSTCODE_PRESUMED");
        out.change(Change::Postcode);
        return (top, check);
    }
    let check = PostcodeCheck {
        source: "register",
        precision: "municipality",
        house_numbers: 0,
        agreement: if m.postcodes.is_empty() {
            0.0
        } else {
            1.0 / m.postcodes.len() as f64
        },
        confirmed: false,
    };
    out.condition("POSTCODE_UNCONFIRMED");
    (given.to_string(), check)
}

/// A postcode known for certain: `MODIFIED POSTCODE` when it differs from the one given.
pub(super) fn certain(
    postcode: String,
    source: &'static str,
    precision: &'static str,
    house_numbers: u32,
    given: &str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    if given != postcode {
        out.change(Change::Postcode);
    }
    (
        postcode,
        PostcodeCheck {
            source,
            precision,
            house_numbers,
            agreement: 1.0,
            confirmed: true,
        },
    )
}

/// Whether a house number of the municipality carries this postcode.
pub(super) fn numbers_carry(city: Option<&CityStreets>, postcode: &str) -> bool {
    city.is_some_and(|c| {
        c.streets()
            .iter()
            .any(|s| s.postcodes.iter().any(|(p, _)| p == postcode))
    })
}

/// How far from a street's numbers a written postcode's numbers still make it the street's
/// neighbourhood (a block or two: across the road, the canal, the square).
const NEIGHBOURHOOD_METRES: f64 = 300.0;

/// Whether the municipality's house numbers carrying `postcode` lie within
/// `NEIGHBOURHOOD_METRES` of the street's numbers, or none carries it at all.
pub(super) fn written_postcode_near(
    city: Option<&CityStreets>,
    s: &Street,
    postcode: &str,
) -> bool {
    let Some(city) = city else {
        return false;
    };
    let points: Vec<(f64, f64)> = s.numbers.iter().map(|n| (n.lat, n.lon)).collect();
    if points.is_empty() {
        return false;
    }
    // a box around the street's numbers, then the distance to the nearest of them
    let lat_pad = NEIGHBOURHOOD_METRES / 111_000.0;
    let lon_pad = lat_pad / points[0].0.to_radians().cos().max(0.1);
    let (mut lat0, mut lat1, mut lon0, mut lon1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(la, lo) in &points {
        (lat0, lat1, lon0, lon1) = (lat0.min(la), lat1.max(la), lon0.min(lo), lon1.max(lo));
    }
    let mut carried = false;
    for other in city.streets() {
        if !other.postcodes.iter().any(|(p, _)| p == postcode) {
            continue;
        }
        carried = true;
        for n in other.numbers.iter().filter(|n| n.postcode == postcode) {
            let inside = n.lat >= lat0 - lat_pad
                && n.lat <= lat1 + lat_pad
                && n.lon >= lon0 - lon_pad
                && n.lon <= lon1 + lon_pad;
            if inside
                && points
                    .iter()
                    .any(|&(la, lo)| metres((la, lo), (n.lat, n.lon)) <= NEIGHBOURHOOD_METRES)
            {
                return true;
            }
        }
    }
    !carried
}

/// Metres between two points a few km apart at most (equirectangular).
fn metres(a: (f64, f64), b: (f64, f64)) -> f64 {
    let x = (b.1 - a.1).to_radians() * ((a.0 + b.0) / 2.0).to_radians().cos();
    let y = (b.0 - a.0).to_radians();
    (x * x + y * y).sqrt() * 6_371_000.0
}

/// The postcode of the nearest numbers below and above on the same side, when they agree.
pub(super) fn neighbours_postcode(s: &Street, n: u32) -> Option<String> {
    let side = |e: &&crate::register::street::HouseNumberEntry| {
        e.number % 2 == n % 2 && !e.postcode.is_empty()
    };
    let below = s.numbers.iter().rev().filter(side).find(|e| e.number < n)?;
    let above = s.numbers.iter().filter(side).find(|e| e.number > n)?;
    (below.postcode == above.postcode).then(|| below.postcode.clone())
}

/// The one postcode of the streets of a locality (frazione), with how many numbers carry it.
pub(super) fn locality_postcode(
    city: Option<&CityStreets>,
    locality: &str,
) -> Option<(String, u32)> {
    let mut found: Option<(String, u32)> = None;
    for s in city?.streets().iter().filter(|s| s.locality == locality) {
        for (pc, count) in &s.postcodes {
            match &mut found {
                None => found = Some((pc.clone(), *count)),
                Some((p, c)) if p == pc => *c += count,
                Some(_) => return None,
            }
        }
    }
    found
}

pub(super) fn postal(n: &Normalized) -> Normalized {
    let up = |s: &str| fold(s);
    Normalized {
        address: up(&n.address.replace('/', " ")).replace(" BIS", "BIS"),
        postcode: n.postcode.clone(),
        city: up(&n.city),
        province: n.province.clone(),
        country: up(&n.country),
        country_code: n.country_code.clone(),
    }
}

/// Step 7: the postcode answered and how sure it is (the number's, the street's, the city's).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_postcode(
    m: &Municipality,
    city: Option<&CityStreets>,
    street: Option<&Street>,
    parsed: &ParsedAddress,
    number: Option<&HouseNumberEntry>,
    given: &str,
    given_unlisted: bool,
    hamlet: &[&str],
    source: &'static str,
    out: &mut Outcome,
) -> (String, PostcodeCheck) {
    let house_number = parsed
        .house_number
        .as_ref()
        .filter(|h| h.km.is_none() && !h.without_number)
        .map(|h| h.number);
    postcode(
        m,
        city,
        street,
        house_number,
        number,
        given,
        given_unlisted,
        hamlet,
        source,
        out,
    )
}
