//! Matching against the real register, imported from `shared/data` for the regions that have
//! house numbers (Piemonte: Alessandria; Lombardia: Milano; Emilia-Romagna: Bologna; Calabria:
//! Lamezia Terme) to keep the test fast.

use std::path::Path;
use std::sync::OnceLock;

use super::*;
use crate::register::Register;
use crate::test_register::{self, Subset};

/// The regions with house numbers (Piemonte, Lombardia, Emilia-Romagna, Calabria), with the
/// first names that tell "Garibaldi" from "Giuseppe Garibaldi".
const HOUSE_NUMBER_REGIONS: Subset<'static> = Subset {
    it_folders: &["comuni", "esteri", "civici", "anncsu_indirizzi"],
    street_regions: &["01", "03", "08", "18"],
    contact: true,
};

/// The answer to one written address (the four fields people fill) on `register`.
pub(crate) fn answer_in(
    register: &Register,
    address: &str,
    postcode: &str,
    city: &str,
    province: &str,
) -> ContactResult {
    let input = ContactInput {
        address: Some(address.into()),
        postcode: Some(postcode.into()),
        city: Some(city.into()),
        province: Some(province.into()),
        ..Default::default()
    };
    verify(register, &input, &VerifyOptions::default())
}

pub(crate) fn register() -> Option<&'static Register> {
    static REGISTER: OnceLock<Option<Register>> = OnceLock::new();
    REGISTER
        .get_or_init(|| {
            // a register already imported (the subset below, or all Italy) saves the import
            if let Ok(dir) = std::env::var("RECAPITO_TEST_REGISTER") {
                return Some(Register::open(Path::new(&dir)).expect("open RECAPITO_TEST_REGISTER"));
            }
            test_register::import(Some(&HOUSE_NUMBER_REGIONS))
        })
        .as_ref()
}

fn contact(address: &str, postcode: &str, city: &str, province: &str) -> ContactInput {
    ContactInput {
        address: Some(address.into()),
        postcode: Some(postcode.into()),
        city: Some(city.into()),
        province: Some(province.into()),
        ..Default::default()
    }
}

fn check(address: &str, postcode: &str, city: &str, province: &str) -> ContactResult {
    let r = register().expect("register");
    verify(
        r,
        &contact(address, postcode, city, province),
        &VerifyOptions::default(),
    )
}

#[test]
fn exact_address_with_house_number_is_ok() {
    if register().is_none() {
        return;
    }
    // Bologna 2012: Via del Faggiolo 5, 40132, with its point
    let r = check("Via del Faggiolo 5", "40132", "Bologna", "BO");
    assert_eq!(r.outcome, Vec::<String>::new(), "{r:?}");
    assert!(r.ok);
    assert_eq!(r.normalized.address, "Via del Faggiolo 5");
    let geo = r.geo.expect("geo");
    assert_eq!(geo.precision, "house_number");
    assert!((geo.lat - 44.5119072).abs() < 1e-6);
    assert_eq!(
        r.territory.as_ref().map(|t| t.cadastral_code.as_str()),
        Some("A944")
    );
    assert!(r.postcode_check.expect("check").confirmed);
    assert_eq!(r.district.as_deref(), Some("Borgo Panigale"));
}

#[test]
fn a_locality_not_in_the_register_keeps_the_accent_of_its_type() {
    if register().is_none() {
        return;
    }
    // the type is matched folded (`LOCALITA`) but shown as Italian writes it
    for written in [
        "Loc. Pian di Mare 1",
        "localita Pian di Mare 1",
        "Località Pian di Mare 1",
    ] {
        let r = check(written, "", "Milano", "MI");
        assert!(
            r.outcome.contains(&"LOCALITY_WITHOUT_STREET".to_string()),
            "{r:?}"
        );
        assert_eq!(r.normalized.address, "Località Pian di Mare 1", "{written}");
    }
}

#[test]
fn abbreviations_and_case_are_form_changes() {
    if register().is_none() {
        return;
    }
    let r = check("v. del faggiolo, 5", "40132", "bologna", "bo");
    assert_eq!(r.outcome, vec!["MODIFIED", "STREET_FORM"], "{r:?}");
    assert_eq!(r.normalized.address, "Via del Faggiolo 5");
}

#[test]
fn missing_postcode_and_province_are_filled_from_the_house_number() {
    if register().is_none() {
        return;
    }
    let r = check("Via Normandia 90", "", "Bologna", "");
    assert_eq!(r.outcome, vec!["MODIFIED", "POSTCODE", "PROVINCE"], "{r:?}");
    assert_eq!(r.normalized.postcode, "40132");
    assert_eq!(r.normalized.province, "BO");
}

#[test]
fn wrong_postcode_is_corrected() {
    if register().is_none() {
        return;
    }
    let r = check("Via Normandia 90", "40121", "Bologna", "BO");
    assert_eq!(r.outcome, vec!["MODIFIED", "POSTCODE"], "{r:?}");
    assert_eq!(r.normalized.postcode, "40132");
}

#[test]
fn typo_in_street_and_city() {
    if register().is_none() {
        return;
    }
    let r = check("Via Normadia 90", "40132", "Bolgona", "BO");
    assert_eq!(r.outcome, vec!["MODIFIED", "CITY", "STREET"], "{r:?}");
    assert_eq!(r.normalized.address, "Via Normandia 90");
    assert_eq!(r.normalized.city, "Bologna");
}

#[test]
fn house_number_not_found_where_the_register_is_complete() {
    if register().is_none() {
        return;
    }
    let r = check("Via del Faggiolo 9999", "40132", "Bologna", "BO");
    assert!(
        r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
        "{r:?}"
    );
    let r = check("Via del Faggiolo", "40132", "Bologna", "BO");
    assert!(
        r.outcome.contains(&"HOUSE_NUMBER_MISSING".to_string()),
        "{r:?}"
    );
}

#[test]
fn street_not_found_is_said_not_guessed() {
    if register().is_none() {
        return;
    }
    let r = check("Via Inesistente dei Test 3", "40132", "Bologna", "BO");
    assert!(r.outcome.contains(&"STREET_NOT_FOUND".to_string()), "{r:?}");
    assert!(
        r.address_key.contains("INESISTENTE"),
        "address_key is always returned"
    );
}

#[test]
fn city_not_found_and_incomplete() {
    if register().is_none() {
        return;
    }
    let r = check("Via Roma 1", "", "Xyzzyville", "");
    assert_eq!(r.outcome, vec!["CITY_NOT_FOUND"]);
    let r = check("", "", "", "");
    assert_eq!(r.outcome, vec!["INCOMPLETE_DATA"]);
    assert!(!r.ok);
}

#[test]
fn alessandria_house_numbers_converted_from_gauss_boaga() {
    if register().is_none() {
        return;
    }
    // numeri-civici: Via Dazio 90/H, 15122, Valle San Bartolomeo; PROJ puts it at 44.9586803, 8.6473254
    let r = check("Via Dazio 90/H", "15122", "Alessandria", "AL");
    let geo = r.geo.expect("geo");
    assert_eq!(geo.precision, "house_number", "{:?}", r.outcome);
    assert!(
        (geo.lat - 44.9586803).abs() < 5e-5 && (geo.lon - 8.6473254).abs() < 5e-5,
        "{geo:?}"
    );
    assert_eq!(r.normalized.postcode, "15122");
}

#[test]
fn lamezia_from_the_anncsu_indir_extract() {
    if register().is_none() {
        return;
    }
    let r = check("Atrio Addolorata 7", "88046", "Lamezia Terme", "CZ");
    let geo = r.geo.expect("geo");
    assert_eq!(geo.precision, "house_number", "{:?}", r.outcome);
    assert_eq!(geo.source, "anncsu");
    assert_eq!(
        r.territory.and_then(|t| t.street_id).as_deref(),
        Some("1245026")
    );
}

#[test]
fn milano_postcode_from_municipio_5() {
    if register().is_none() {
        return;
    }
    let r = check("Via Giuseppe Scalarini 7", "", "Milano", "MI");
    assert_eq!(r.normalized.postcode, "20139", "{r:?}");
    // a partial name (first name left out) is the same street
    let r2 = check("Via Scalarini 7", "20139", "Milano", "MI");
    assert_eq!(r2.normalized.address, r.normalized.address, "{r2:?}");
    assert_eq!(r2.address_key, r.address_key);
}

#[test]
fn foreign_and_po_box() {
    if register().is_none() {
        return;
    }
    let reg = register().expect("register");
    let mut c = contact("10 Downing Street", "SW1A 2AA", "London", "");
    // the service resolved `Regno Unito` (src/countries/resolve.ts): the core reads the code
    c.country_code = Some("GB".into());
    let r = verify(reg, &c, &VerifyOptions::default());
    assert_eq!(r.outcome[0], "FOREIGN");
    let r = check("Casella Postale 45", "40121", "Bologna", "BO");
    assert!(r.outcome.contains(&"PO_BOX".to_string()), "{r:?}");
}

#[test]
fn street_index_loads() {
    let Some(r) = register() else { return };
    let city = r.streets.city("A944").expect("Bologna has streets");
    assert!(city.streets().len() > 1500);
}

#[test]
fn a_frazione_written_as_the_city() {
    if register().is_none() {
        return;
    }
    // Alessandria's numeri-civici: Via Dazio 90/H lies in the sobborgo Valle San Bartolomeo
    let r = check("Via Dazio 90/H", "15122", "Valle San Bartolomeo", "AL");
    assert_eq!(r.municipality.as_deref(), Some("Alessandria"), "{r:?}");
    assert!(r.outcome.contains(&"CITY".to_string()), "{r:?}");
    assert_eq!(r.geo.map(|g| g.precision), Some("house_number"));
}

#[test]
fn options_precision_and_foreign_detect() {
    let Some(reg) = register() else { return };
    // a swap of two letters: fixed at the default precision, not at precision 1
    let c = contact("Via Normanida 90", "40132", "Bologna", "BO");
    let strict = VerifyOptions {
        precision: 1,
        ..Default::default()
    };
    assert!(verify(reg, &c, &strict)
        .outcome
        .contains(&"STREET_NOT_FOUND".to_string()));
    assert_eq!(
        verify(reg, &c, &VerifyOptions::default())
            .normalized
            .address,
        "Via Normandia 90"
    );
    // no country, a city Italy does not have, a country named: foreign only with `detect`
    let c = contact("Rue de Rivoli 10", "75001", "Paris", "");
    assert_eq!(
        verify(reg, &c, &VerifyOptions::default()).outcome,
        vec!["CITY_NOT_FOUND"]
    );
    let detect = VerifyOptions {
        foreign: Foreign::Detect,
        ..Default::default()
    };
    // `Francia` at the end of the line, named FR by the service's country catalogue
    let mut c = contact("Rue de Rivoli 10, Francia", "75001", "Paris", "");
    c.country_named = Some("FR".into());
    let r = verify(reg, &c, &detect);
    assert_eq!(r.outcome[0], "FOREIGN", "{r:?}");
    assert_eq!(r.normalized.country_code, "FR", "{r:?}");
}

#[test]
fn the_city_repeated_at_the_end_of_the_line() {
    if register().is_none() {
        return;
    }
    let r = check("Via Normandia 90 Bologna (BO)", "40132", "Bologna", "BO");
    assert_eq!(r.normalized.address, "Via Normandia 90", "{r:?}");
    assert_eq!(r.geo.map(|g| g.precision), Some("house_number"));
}

#[test]
fn autocomplete_lookups_on_the_register() {
    let Some(r) = register() else { return };
    use crate::address::street_search::{search_streets, search_streets_in_province};
    use crate::register::street::house_numbers;
    let hits = search_streets(&r.streets, "A944", "via norm", 5);
    assert!(hits.iter().any(|h| h.name == "NORMANDIA"), "{hits:?}");
    let typo = search_streets_in_province(r, "BO", "via normadia", 5);
    assert_eq!(
        typo.first().map(|h| h.name.as_str()),
        Some("NORMANDIA"),
        "{typo:?}"
    );
    let numbers = house_numbers(&r.streets, "A944", typo[0].index);
    assert!(numbers.len() > 10);
    assert!(numbers
        .windows(2)
        .all(|w| (w[0].number, &w[0].suffix) <= (w[1].number, &w[1].suffix)));
}

#[test]
fn a_name_one_typo_away_is_not_chosen_by_postcode_or_house_number() {
    if register().is_none() {
        return;
    }
    // Alessandria (viario, numeri-civici): Via Giuseppe Mazzini, 15121, has no number 3; Via
    // Giovanni Mazzoni, 15121, has numbers 1 to 29; neither is Via Mazzini in the register
    for postcode in ["15121", ""] {
        for address in ["Via Mazzini 3", "Via G. Mazzini 3"] {
            let r = check(address, postcode, "Alessandria", "");
            assert_eq!(r.normalized.address, "Via Giuseppe Mazzini 3", "{r:?}");
            assert!(
                r.outcome.contains(&"HOUSE_NUMBER_NOT_FOUND".to_string()),
                "{r:?}"
            );
        }
        // one typo from both names: the number 3 that one of them has does not choose
        let r = check("Via G. Mazzuni 3", postcode, "Alessandria", "");
        assert!(r.outcome.contains(&"STREET_AMBIGUOUS".to_string()), "{r:?}");
    }
}

#[test]
fn postal_capitalisation() {
    for (upper, shown) in [
        ("VIA DELL'INDIPENDENZA", "Via dell'Indipendenza"),
        ("PIAZZA DI PORTA SAN DONATO", "Piazza di Porta San Donato"),
        ("VIA VITTORIO EMANUELE II", "Via Vittorio Emanuele II"),
        ("VIA DE' GESSI", "Via de' Gessi"),
        ("VIA ALCIDE DE GASPERI", "Via Alcide De Gasperi"),
        ("VIA LEONARDO DA VINCI", "Via Leonardo da Vinci"),
        ("VIA SPARANO DA BARI", "Via Sparano da Bari"),
        ("PIAZZA DELLA REPUBBLICA", "Piazza della Repubblica"),
        ("VIA UGO LA MALFA", "Via Ugo La Malfa"),
        (
            "LOCALITA SAN MINA' SUPERIORE",
            "Località San Minà Superiore",
        ),
    ] {
        assert_eq!(display_name(upper), shown, "{upper}");
    }
}

/// `precision: locality`. No municipality of the open data here has both several postcodes and
/// ANNCSU localities (Lamezia Terme, whose streets carry their frazione, has one postcode), so the
/// rule is checked on a constructed municipality: two postcodes, three streets of the frazione
/// San Pietro Lametino as ANNCSU writes them, one of them without house numbers of its own.
#[test]
fn a_street_without_postcodes_takes_the_one_its_locality_shares() {
    let street = |name: &str, postcodes: &[(&str, u32)]| Street {
        street_type: "CONTRADA".into(),
        name: name.into(),
        locality: "SAN PIETRO LAMETINO".into(),
        postcodes: postcodes.iter().map(|(p, c)| (p.to_string(), *c)).collect(),
        ..Street::default()
    };
    let municipality = Municipality {
        cadastral_code: "Z999".into(),
        name: "Constructed".into(),
        postcodes: vec!["88040".into(), "88046".into()],
        ..Municipality::default()
    };
    let unnumbered = street("TRE TERZI", &[]);
    // the postcode of the street without numbers, its neighbours in the locality written with `second`
    let answer = |second: &str| {
        let record = crate::register::street::CityStreetsRecord {
            streets: vec![
                street("CAPANNONE VOTTA", &[("88040", 3)]),
                street("FICARELLA", &[(second, 2)]),
                unnumbered.clone(),
            ],
            ..Default::default()
        };
        let city = crate::register::street::CityStreets::build(record, None).unwrap();
        let mut out = Outcome::default();
        let (pc, check) = postcode(
            &municipality,
            Some(&city),
            Some(&unnumbered),
            None,
            None,
            "",
            false,
            &[],
            "anncsu",
            &mut out,
        );
        (pc, check, out.codes())
    };

    // the locality's streets agree on 88040: the street without numbers takes it, confirmed
    let (pc, check, _) = answer("88040");
    assert_eq!(pc, "88040");
    assert_eq!(check.precision, "locality");
    assert_eq!(check.house_numbers, 5);
    assert!(check.confirmed);

    // they disagree: no locality postcode; the municipality's level, unconfirmed
    let (_, check, codes) = answer("88046");
    assert_eq!(check.precision, "municipality");
    assert!(!check.confirmed);
    assert!(codes.contains(&"POSTCODE_UNCONFIRMED".to_string()));
}

fn has(r: &ContactResult, code: &str) -> bool {
    r.outcome.iter().any(|c| c == code)
}

fn candidate_names(r: &ContactResult) -> Vec<&str> {
    r.candidates.iter().map(|c| c.street.as_str()).collect()
}

#[test]
fn every_word_written_beats_an_edit() {
    if register().is_none() {
        return;
    }
    // Milano has Corso Vittorio Emanuele II and Via Vittorio Emanuele Orlando: the type written
    // and the regnal number left out, not another man's surname
    let r = check("corso vittorio emanuele 15", "", "milano", "");
    assert!(
        r.normalized
            .address
            .starts_with("Corso Vittorio Emanuele II 15"),
        "{r:?}"
    );
    // Modena has Via Reggio Emilia and Via Emilia Centro, Est and Ovest: a word of unknown kind
    // before the name written is no surer than words after it
    let r = check("Via Emilia 100", "41121", "Modena", "");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    let names = candidate_names(&r);
    for name in ["Via Emilia Centro", "Via Reggio Emilia"] {
        assert!(names.contains(&name), "{names:?}");
    }
    // Riccione has Viale Ceccarini Maria Borman and Piazzale Ceccarini Vincenzo: another type is a
    // difference, other words of the type written one too: both are candidates, none taken
    let r = check("Viale Ceccarini 50", "", "Riccione", "RN");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    let names = candidate_names(&r);
    assert!(names.contains(&"Viale Ceccarini Maria Borman"), "{names:?}");
    assert!(names.contains(&"Piazzale Ceccarini Vincenzo"), "{names:?}");
    // Via Orti is one edit from Corti; Via Alfonso Corti and Via Costantino Corti hold the word
    // as written: one of those, or both as candidates, never Via Orti
    let r = check("Via Corti 16", "20131", "Milano", "");
    assert!(!r.normalized.address.starts_with("Via Orti"), "{r:?}");
    assert!(
        r.normalized.address.contains("Corti")
            || candidate_names(&r).iter().all(|c| c.ends_with("Corti")),
        "{r:?}"
    );
    let r = check("Via Corti", "", "Milano", "");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    assert_eq!(
        candidate_names(&r),
        ["Via Alfonso Corti", "Via Costantino Corti"],
        "{r:?}"
    );
    // a house number one of them lacks is no choice between names: Bologna's Via Andrea Costa has
    // a 206, Via Paolo Costa none; all are candidates, the one with the number first
    let r = check("Via Costa 206", "", "Bologna", "");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    let names = candidate_names(&r);
    assert_eq!(names.first(), Some(&"Via Andrea Costa"), "{r:?}");
    assert!(names.contains(&"Via Paolo Costa"), "{r:?}");
    // a number that no municipality has as postcode, after the street's name, is its house number
    let r = check("Via Leonardo da Vinci 98765", "40133", "Bologna", "BO");
    assert!(has(&r, "HOUSE_NUMBER_NOT_FOUND"), "{r:?}");
    // one edit from Via Landolfo, and from the surname of Via Ugo Guido Mondolfo, which is in
    // 20138: never Via Landolfo with confidence
    let r = check("Via Mandolfo 7", "20138", "Milano", "");
    assert!(!r.normalized.address.starts_with("Via Landolfo"), "{r:?}");
    // an initial stands for the name it begins: Corso Cristoforo Colombo, not a typo of another
    let r = check("Corso C. Colombo 10", "", "Milano", "");
    assert!(
        r.normalized.address.starts_with("Corso Cristoforo Colombo"),
        "{r:?}"
    );
}

#[test]
fn an_exact_name_beats_a_longer_one() {
    if register().is_none() {
        return;
    }
    // Via Dante exists: Via Dante Chiasserini is another man's street, whatever its numbers
    let r = check("Via Dante 2", "20121", "Milano", "MI");
    assert_eq!(r.normalized.address, "Via Dante 2", "{r:?}");
    assert!(!has(&r, "STREET_AMBIGUOUS"), "{r:?}");
}

#[test]
fn a_municipal_name_and_the_anncsu_one_are_one_street() {
    if register().is_none() {
        return;
    }
    // Milano's list writes FRA' PAOLO SARPI and gives ANNCSU's spelling, PAOLO SARPI: one street,
    // with Milano's numbers, not two that make `Via P. Sarpi` an ambiguity
    let r = check("Via P. Sarpi 10", "", "Milano", "MI");
    assert!(!has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    assert!(r.normalized.address.ends_with("Sarpi 10"), "{r:?}");
    assert!(!has(&r, "HOUSE_NUMBER_NOT_FOUND"), "{r:?}");
}

#[test]
fn a_particle_written_chooses_the_name_that_has_it() {
    if register().is_none() {
        return;
    }
    // Reggio nell'Emilia has Via Emilio De Marchi and Via Vittorio Marchi, Via Elico De Pietri and
    // Via Dorando Pietri: the `De` written says which (as `Piazza De Ferrari` in Genova)
    for (written, street) in [
        ("Via De Marchi 2", "Via Emilio De Marchi 2"),
        ("Via De Pietri 2", "Via Elico De Pietri 2"),
    ] {
        let r = check(written, "", "Reggio nell'Emilia", "RE");
        assert!(!has(&r, "STREET_AMBIGUOUS"), "{written}: {r:?}");
        assert!(
            r.normalized.address.eq_ignore_ascii_case(street),
            "{written}: {}",
            r.normalized.address
        );
    }
    // before the postcode, which Milano's numbers give Via Nicola Romeo and not Via Enrico De
    // Nicola (as a school in 20142 writes it)
    let r = check("Via De Nicola 2", "20142", "Milano", "MI");
    assert_eq!(r.normalized.address, "Via Enrico De Nicola 2", "{r:?}");
    // no particle written: both men's streets fit alike, or the one without it
    let r = check("Via Pietri 2", "", "Reggio nell'Emilia", "RE");
    assert_ne!(r.normalized.address, "Via Elico De Pietri 2", "{r:?}");
}

#[test]
fn numbers_and_ordinals_in_every_written_form() {
    if register().is_none() {
        return;
    }
    // the register writes CORSO VENTIDUE MARZO
    for address in [
        "Corso XXII Marzo 10",
        "Corso 22 Marzo 10",
        "C.so Ventidue Marzo 10",
    ] {
        let r = check(address, "", "Milano", "MI");
        assert!(
            r.normalized.address.starts_with("Corso Ventidue Marzo"),
            "{address}: {r:?}"
        );
    }
    // Torino writes CORSO VITTORIO EMANUELE SECONDO; the number is left out, or written so
    for address in [
        "Corso Vittorio Emanuele 100",
        "C.so Vittorio Emanuele II 100",
        "Corso Vittorio Emanuele 2° 100",
    ] {
        let r = check(address, "", "Torino", "TO");
        assert!(
            r.normalized
                .address
                .starts_with("Corso Vittorio Emanuele Secondo"),
            "{address}: {r:?}"
        );
    }
    // VIA PAPA GIOVANNI VENTITREESIMO (Berbenno) and VIA VENTIQUATTRO MAGGIO (Paratico)
    let r = check("Via Papa Giovanni XXIII 33", "24030", "Berbenno", "BG");
    assert!(
        r.territory
            .as_ref()
            .and_then(|t| t.street_id.as_ref())
            .is_some(),
        "{r:?}"
    );
    let r = check("Via XXIV Maggio 49", "25030", "Paratico", "BS");
    assert!(
        r.territory
            .as_ref()
            .and_then(|t| t.street_id.as_ref())
            .is_some(),
        "{r:?}"
    );
}

#[test]
fn partial_names_as_people_write_them() {
    if register().is_none() {
        return;
    }
    let street = |r: &ContactResult| -> String { r.normalized.address.clone() };
    // the only Via with Dante in Angera is VIA DANTE ALIGHIERI
    let r = check("Via Dante 2", "21021", "Angera", "VA");
    assert!(street(&r).starts_with("Via Dante Alighieri"), "{r:?}");
    assert!(has(&r, "STREET"), "{r:?}");
    // an initial stands for a word no other written word is: `C.` is not the C of Colombo
    let r = check("Via C. Colombo", "", "Milano", "MI");
    assert!(
        !has(&r, "STREET_AMBIGUOUS") || r.candidates.len() < 3,
        "{r:?}"
    );
    // a first name written that the register leaves out (Medole: VIA MAZZINI), an initial the
    // register writes (Dumenza: VIA A. VOLTA)
    let r = check("Via Giuseppe Mazzini 45", "46046", "Medole", "MN");
    assert!(street(&r).starts_with("Via Mazzini"), "{r:?}");
    let r = check("Via Alessandro Volta 10", "21010", "Dumenza", "VA");
    assert!(street(&r).starts_with("Via A. Volta"), "{r:?}");
    // the type written before the register's own (Milano: BASTIONI DI PORTA NUOVA)
    let r = check("Via Bastioni di Porta Nuova 4", "20121", "Milano", "MI");
    assert!(street(&r).starts_with("Bastioni di Porta Nuova"), "{r:?}");
    // four streets hold the word: an ambiguity with them as candidates
    let r = check("Via Crespi", "", "Milano", "MI");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    assert_eq!(r.candidates.len(), 4, "{r:?}");
    // another type and a partial name are two differences (Bergamo has only Piazza Giacomo
    // Matteotti): a warning with the candidate, not a confident answer
    let r = check("Via Matteotti 10", "", "Bergamo", "BG");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    assert_eq!(candidate_names(&r), ["Piazza Giacomo Matteotti"], "{r:?}");
}

#[test]
fn an_elided_particle_written_is_a_word_of_the_name() {
    if register().is_none() {
        return;
    }
    // Milano has Via Aosta and Via Amedeo d'Aosta: `D'Aosta` is the duke's, never Via Aosta with
    // confidence
    let r = check("Via D'Aosta 17", "", "Milano", "MI");
    assert!(!r.normalized.address.starts_with("Via Aosta"), "{r:?}");
    assert!(has(&r, "STREET_AMBIGUOUS"), "{r:?}");
    assert!(candidate_names(&r).contains(&"Via Amedeo d'Aosta"), "{r:?}");
    // Bologna: `de' Musi` (Via de' Musei with a typo) is not Via Fratelli Musi, which lacks the `de'`
    let r = check("Via de' Musi 9", "40124", "Bologna", "BO");
    assert!(!r.normalized.address.contains("Fratelli"), "{r:?}");
    // a street that has the particle stays found
    let r = check("Via Amedeo D'Aosta 17", "", "Milano", "MI");
    assert!(
        r.normalized.address.starts_with("Via Amedeo d'Aosta"),
        "{r:?}"
    );
}

#[test]
fn a_type_word_another_street_holds_in_its_name_is_not_replaced() {
    if register().is_none() {
        return;
    }
    // Lamezia Terme: `Ponte Bagni` is Località Ponte Bagni, `Monte Sorbello` Via Monte Sorbello;
    // Via Bagni and Contrada Sorbello replace a word written by their type: never confident
    let r = check("Ponte Bagni 16", "88046", "Lamezia Terme", "CZ");
    assert!(!r.normalized.address.starts_with("Via Bagni"), "{r:?}");
    let r = check("Monte Sorbello 5", "88046", "Lamezia Terme", "CZ");
    assert!(!r.normalized.address.starts_with("Contrada"), "{r:?}");
}

#[test]
fn a_name_after_a_title_of_nobility_is_the_person_s() {
    if register().is_none() {
        return;
    }
    // Codogno: VIA CAMILLO BENSO CONTE DI CAVOUR (Regione Lombardia writes VIA CAVOUR)
    let r = check("VIA CAVOUR 24", "26845", "Codogno", "LO");
    assert!(
        r.normalized
            .address
            .to_uppercase()
            .starts_with("VIA CAMILLO BENSO CONTE DI CAVOUR"),
        "{r:?}"
    );
}

#[test]
fn a_written_postcode_the_street_carries_beats_the_neighbours_guess() {
    if register().is_none() {
        return;
    }
    // Milano, Viale Ortles: no 46 in the register, 36 and 52 are 20139, 2 is 20141 (the Ministry
    // of Education writes 20141): the written postcode stays, unconfirmed
    let r = check("VIALE ORTLES 46", "20141", "Milano", "MI");
    assert_eq!(r.normalized.postcode, "20141", "{r:?}");
    assert!(has(&r, "POSTCODE_UNCONFIRMED"), "{r:?}");
    // without a postcode the neighbours' is the answer
    let r = check("VIALE ORTLES 46", "", "Milano", "MI");
    assert_eq!(r.normalized.postcode, "20139", "{r:?}");
}

#[test]
fn a_written_postcode_across_the_street_s_edge_stays_without_a_number() {
    if register().is_none() {
        return;
    }
    // Milano, Via Pescarenico: its six numbers are 20142; 20143 (Regione Lombardia's) is across
    // the Naviglio, where Milano's numbers carry no postcode: with no number written, it stays
    let r = check("VIA PESCARENICO", "20143", "Milano", "MI");
    assert_eq!(r.normalized.postcode, "20143", "{r:?}");
    assert!(has(&r, "POSTCODE_UNCONFIRMED"), "{r:?}");
    // a number of the street decides
    let r = check("VIA PESCARENICO 2", "20143", "Milano", "MI");
    assert_eq!(r.normalized.postcode, "20142", "{r:?}");
    // Bologna, Via Nosadella (all 40123): 40139 is San Donato's, kilometres away
    let r = check("VIA NOSADELLA", "40139", "Bologna", "BO");
    assert_eq!(r.normalized.postcode, "40123", "{r:?}");
}

#[test]
fn a_title_written_before_a_regnal_name_is_left_out() {
    if register().is_none() {
        return;
    }
    // Madone (BG) has VIA GIOVANNI XXIII; Regione Lombardia writes VIA PAPA GIOVANNI XXIII
    let r = check("VIA PAPA GIOVANNI XXIII, 30", "24040", "Madone", "BG");
    assert!(
        r.normalized.address.starts_with("Via Giovanni XXIII"),
        "{r:?}"
    );
}

#[test]
fn a_word_cut_short_with_its_dot_stands_for_the_word_it_begins() {
    if register().is_none() {
        return;
    }
    // Lecco: CORSO MARTIRI DELLA LIBERAZIONE; Somma Lombardo: VIA COLOMBO CRISTOFORO
    let r = check("C.SO MARTIRI LIBER. N.93", "23900", "Lecco", "LC");
    assert!(
        r.normalized
            .address
            .starts_with("Corso Martiri della Liberazione"),
        "{r:?}"
    );
    let r = check("VIA CRIST. COLOMBO 2A", "21019", "Somma Lombardo", "VA");
    assert!(
        r.normalized.address.starts_with("Via Colombo Cristoforo"),
        "{r:?}"
    );
}

#[test]
fn s_dot_is_san_or_the_initial_of_a_first_name() {
    if register().is_none() {
        return;
    }
    // Malnate: VIA SILVIO PELLICO; Varese: VIA SANDRO BOTTICELLI beside VIA BOTTICELLI (the S.
    // written is a word: the name that holds it wins)
    let r = check("VIA S. PELLICO 3", "21046", "Malnate", "VA");
    assert!(
        r.normalized.address.starts_with("Via Silvio Pellico"),
        "{r:?}"
    );
    let r = check("Via S. Botticelli 2", "21100", "Varese", "VA");
    assert!(
        r.normalized.address.starts_with("Via Sandro Botticelli"),
        "{r:?}"
    );
}

#[test]
fn a_noble_s_names_and_a_year_written_are_left_out_as_people_leave_them_out() {
    if register().is_none() {
        return;
    }
    // Cislago: VIA CAVOUR; Rezzato: VIA QUATTRO NOVEMBRE (Regione Lombardia's lines)
    let r = check(
        "VIA CAMILLO BENSO CONTE DI CAVOUR, 246",
        "21040",
        "Cislago",
        "VA",
    );
    assert!(r.normalized.address.starts_with("Via Cavour"), "{r:?}");
    let r = check("VIA IV NOVEMBRE 1918, 90", "25086", "Rezzato", "BS");
    assert!(
        r.normalized.address.starts_with("Via Quattro Novembre"),
        "{r:?}"
    );
    // the other way: Garlasco's CORSO CAMILLO BENSO DI CAVOUR is the Corso Cavour people write
    // (a first name and a surname before `di`: a noble predicate, not a man from Cavour)
    let r = check("CORSO CAVOUR, 127", "27026", "Garlasco", "PV");
    assert!(
        r.normalized
            .address
            .to_uppercase()
            .starts_with("CORSO CAMILLO BENSO DI CAVOUR"),
        "{r:?}"
    );
}
