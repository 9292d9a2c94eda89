use super::*;

fn hn(n: u32, suffix: &str) -> Option<HouseNumber> {
    Some(HouseNumber {
        number: n,
        suffix: suffix.into(),
        ..Default::default()
    })
}

#[test]
fn street_types_and_their_abbreviations() {
    for (line, ty, name) in [
        ("Via Roma 12", "VIA", "Roma"),
        ("V. Roma 12", "VIA", "Roma"),
        ("V.LE Europa 3", "VIALE", "Europa"),
        ("P.ZZA Duomo 1", "PIAZZA", "Duomo"),
        ("P.LE Loreto 2", "PIAZZALE", "Loreto"),
        ("C.SO Buenos Aires 10", "CORSO", "Buenos Aires"),
        ("L.GO Augusto 3", "LARGO", "Augusto"),
        ("VIC. Stretto 4", "VICOLO", "Stretto"),
        ("LOC. Lato 5", "LOCALITA", "Lato"),
        (
            "FRAZ. Valle San Bartolomeo 90",
            "FRAZIONE",
            "Valle San Bartolomeo",
        ),
        (
            "STR. Vicinale dei Boschi 7",
            "STRADA",
            "Vicinale dei Boschi",
        ),
        ("C.DA Agli 7", "CONTRADA", "Agli"),
        ("Strada Provinciale 12 km 3", "STRADA PROVINCIALE", "12"),
    ] {
        let p = parse(line);
        assert_eq!(p.street_type, Some(ty), "{line}");
        assert_eq!(p.name, name, "{line}");
    }
}

#[test]
fn house_numbers_in_every_form() {
    for (line, expected) in [
        ("Via Roma 12", hn(12, "")),
        ("Via Roma, 12", hn(12, "")),
        ("Via Roma 12/A", hn(12, "A")),
        ("Via Roma 12 A", hn(12, "A")),
        ("Via Roma 12a", hn(12, "A")),
        ("Via Roma 12 bis", hn(12, "BIS")),
        ("Via Roma 12/1", hn(12, "1")),
        ("Via Roma n. 12", hn(12, "")),
        ("Via Roma n.12", hn(12, "")),
        ("12, Via Roma", hn(12, "")),
        ("12 Via Roma", hn(12, "")),
        ("Via Roma12", hn(12, "")),
        ("Via Roma12/A", hn(12, "A")),
    ] {
        let p = parse(line);
        assert_eq!(p.house_number, expected, "{line}");
        assert_eq!(p.name, "Roma", "{line}");
        assert_eq!(p.number_status, NumberStatus::Found, "{line}");
    }
    let range = parse("Via Roma 12-14");
    assert_eq!(
        range.house_number,
        Some(HouseNumber {
            number: 12,
            range_to: Some(14),
            ..Default::default()
        })
    );
    assert_eq!(range.house_number.unwrap().display(), "12-14");
    let snc = parse("Contrada Agli SNC");
    assert!(snc.house_number.unwrap().without_number);
    assert_eq!(snc.name, "Agli");
    let km = parse("S.S. 106 KM 3,5");
    assert_eq!(km.house_number.unwrap().km.as_deref(), Some("3.5"));
    assert_eq!(km.street_type, Some("STRADA STATALE"));
    assert_eq!(km.name, "106");
}

#[test]
fn numbers_inside_names_stay_in_the_name() {
    let p = parse("Via 4 Novembre 21");
    assert_eq!(p.name, "4 Novembre");
    assert_eq!(p.house_number, hn(21, ""));
    let p = parse("Via XX Settembre");
    assert_eq!(p.name, "XX Settembre");
    assert_eq!(p.number_status, NumberStatus::Missing);
    let p = parse("Corso 22 Marzo");
    assert_eq!(p.name, "22 Marzo");
    assert!(p.house_number.is_none());
}

#[test]
fn a_number_glued_to_an_abbreviated_or_elided_name_is_read() {
    for (line, name, number) in [
        ("VIA S.MARCO63", "S.MARCO", 63),
        ("VIA SANT'ANNA49", "SANT'ANNA", 49),
        ("VIA N.CASALI70", "N.CASALI", 70),
        ("VIA PIETRO D'ANCARANO13", "PIETRO D'ANCARANO", 13),
        ("VIA CATERINA DA FORLI'14", "CATERINA DA FORLI'", 14),
        ("VIA CHIESAN.69", "CHIESA", 69),
        ("VIA DELLE SCUOLE3 - GUIZZA", "DELLE SCUOLE", 3),
        ("Via per Feriolo n. 1 - Fraz. Fondotoce", "per Feriolo", 1),
        ("Via Roma - Figline 3 - Gaville", "Roma Figline", 3),
        // the number glued by a dash or a slash to its hamlet (as lists of schools write it)
        ("VIA FERMI 2-VARAGO", "FERMI", 2),
        ("V.S.AMBROGIO 2/PALERA", "S.AMBROGIO", 2),
        ("VIA FABBRI38-SOLIGHETTO", "FABBRI", 38),
    ] {
        let p = parse(line);
        assert_eq!(p.name, name, "{line}");
        assert_eq!(p.house_number, hn(number, ""), "{line}");
    }
    // the hamlet goes on the line after the number; a suffix or a sub-address stays the number's
    assert_eq!(
        parse("VIA FERMI 2-VARAGO").extra,
        vec!["VARAGO".to_string()]
    );
    assert_eq!(parse("Via Roma 2/BIS").house_number, hn(2, "BIS"));
    // short heads are codes, not names with a number: the motorway, the state road, the kilometre
    assert_eq!(parse("Autostrada A4").name, "A4");
    assert_eq!(parse("Strada SS91").name, "SS91");
}

#[test]
fn invalid_number_forms_are_flagged() {
    let p = parse("Via Roma 12/A/B/CCCC");
    assert_eq!(p.number_status, NumberStatus::InvalidFormat);
}

#[test]
fn sub_address_parts() {
    let p = parse("Via Roma 12 scala B piano 3 interno 7");
    assert_eq!(p.house_number, hn(12, ""));
    assert_eq!(
        p.sub_address,
        vec![
            SubAddress {
                kind: "staircase",
                value: "B".into()
            },
            SubAddress {
                kind: "floor",
                value: "3".into()
            },
            SubAddress {
                kind: "unit",
                value: "7".into()
            },
        ]
    );
    let p = parse("Via Roma 12, sc. A, int. 5, lotto 4, palazzina C, edificio 2");
    assert_eq!(p.house_number, hn(12, ""));
    let kinds: Vec<&str> = p.sub_address.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        vec![
            "staircase",
            "unit",
            "building_number",
            "building",
            "building_number"
        ]
    );
    // keywords inside the name before any number stay in the name
    let p = parse("Via della Scala 5");
    assert_eq!(p.name, "della Scala");
    assert!(p.sub_address.is_empty());
}

#[test]
fn po_boxes_and_care_of() {
    let p = parse("CASELLA POSTALE 45");
    assert_eq!(p.po_box.as_deref(), Some("45"));
    let p = parse("C.P. 123");
    assert_eq!(p.po_box.as_deref(), Some("123"));
    let p = parse("c/o Mario Rossi, Via Roma 12");
    assert_eq!(p.care_of.as_deref(), Some("Mario Rossi"));
    assert_eq!(p.name, "Roma");
    assert_eq!(p.house_number, hn(12, ""));
    let p = parse("Via Roma 12 presso Studio Bianchi");
    assert_eq!(p.care_of.as_deref(), Some("Studio Bianchi"));
    assert_eq!(p.house_number, hn(12, ""));
}

#[test]
fn any_text_parses_without_panic() {
    for line in [
        "",
        " ",
        ",,,",
        "ß c/o ß, ﬁ presso Ⅻ",
        "ǅ KM 3,5,",
        "n°",
        "N.",
        "c/o",
        "presso",
        "Via 𝕽oma 12/Ä",
        "12-",
        "-12",
        "KM",
        "km ,",
        "Via Roma 99999999999999",
        "C.P.",
        "Casella Postale",
        "scala",
        "1 scala",
        "Straße 5 presso Müller, İstanbul",
        "ΟΔΟΣ 5",
        "通り 3",
        "\u{0}\u{1}",
        "/",
        "12//",
        "12/",
        "v.",
        "P.ZZA",
    ] {
        let _ = parse(line);
    }
}

#[test]
fn postcode_and_city_in_the_line() {
    let p = parse("Via Roma 12, 20121 Milano");
    assert_eq!(p.postcode.as_deref(), Some("20121"));
    assert_eq!(p.city.as_deref(), Some("Milano"));
    assert_eq!(p.house_number, hn(12, ""));
}

/// Lines from the institutional lists (Regione Lombardia, Ministry of Education): the street, the
/// number, and what is left over.
#[test]
fn notes_corners_and_glued_types_of_institutional_lines() {
    for (line, ty, name, number) in [
        // a hamlet or a name before a dash, the street after it
        (
            "COGOZZO- VIA TOLOTTI 10",
            Some("VIA"),
            "TOLOTTI",
            hn(10, ""),
        ),
        (
            "LOCALITÀ PAGNANO - VIA CAPPELLETTA 23",
            Some("VIA"),
            "CAPPELLETTA",
            hn(23, ""),
        ),
        (
            "ISTITUTO SACRO CUORE - CORSO UMBERTO I 326",
            Some("CORSO"),
            "UMBERTO I",
            hn(326, ""),
        ),
        // the hamlet after the street, the number at its end the street's
        (
            "VIA CENTRO - FRAZ. ENDENNA 36",
            Some("VIA"),
            "CENTRO",
            hn(36, ""),
        ),
        // corners: the first street is the address
        ("VIA OTRANTO ANG. CITTADINI 1", Some("VIA"), "OTRANTO", None),
        ("VIA ZANOIA ANGOLO VIA PONZIO", Some("VIA"), "ZANOIA", None),
        (
            "VIA DON MILANI 30 ANG. VIA LEGNANO",
            Some("VIA"),
            "DON MILANI",
            hn(30, ""),
        ),
        ("VIA ARLUNO & VIA BOLZANO", Some("VIA"), "ARLUNO", None),
        ("VIA DECIA/VIA TOFANE 43", Some("VIA"), "DECIA", None),
        (
            "VIALE CROCE ROSSA 46/48 e VIA VAL PLATANI 8",
            Some("VIALE"),
            "CROCE ROSSA",
            hn(46, "48"),
        ),
        ("VIA ASTURIE - VIA MANN", Some("VIA"), "ASTURIE", None),
        // a type glued to the name by its dot
        ("V.GIOIA 51", Some("VIA"), "GIOIA", hn(51, "")),
        ("V.G.CARCANO 53/9", Some("VIA"), "G.CARCANO", hn(53, "9")),
        ("PZ.SANTUARIO 10", Some("PIAZZA"), "SANTUARIO", hn(10, "")),
        ("Str.BERTOLLA 74", Some("STRADA"), "BERTOLLA", hn(74, "")),
        // a type alone before a comma
        ("VIA, 25 APRILE, 2", Some("VIA"), "25 APRILE", hn(2, "")),
    ] {
        let p = parse(line);
        assert_eq!(
            (p.street_type, p.name.as_str(), &p.house_number),
            (ty, name, &number),
            "{line}"
        );
    }
    // the register's own names stay whole
    for (line, name) in [
        (
            "Via Chatelard - Frazione La Ruine",
            "Chatelard Frazione La Ruine",
        ),
        (
            "Via Congiungente Via Gervasi e Via Trapani",
            "Congiungente Via Gervasi e Via Trapani",
        ),
        (
            "Via Aldo Moro e Caduti di Via Fani 3",
            "Aldo Moro e Caduti di Via Fani",
        ),
    ] {
        assert_eq!(parse(line).name, name, "{line}");
    }
}

#[test]
fn two_numbers_a_few_doors_apart_are_a_range() {
    for (line, name, number, to) in [
        ("VIA BRUNACCI 2  4", "BRUNACCI", 2, Some(4)),
        ("VIALE ROMAGNA 16  18", "ROMAGNA", 16, Some(18)),
        ("VIA XXIV MAGGIO 34  36", "XXIV MAGGIO", 34, Some(36)),
        // no range: a road number and a door, a year and a door
        ("SP 12 14", "12", 14, None),
        ("Via IV Novembre 1918 90", "IV Novembre 1918", 90, None),
        // a road's number inside the name (Alessandria's VIA DEVAZIONE STRADA STATALE 10)
        (
            "Via Deviazione Strada Statale 10 20",
            "Deviazione Strada Statale 10",
            20,
            None,
        ),
    ] {
        let p = parse(line);
        let h = p.house_number.clone().expect(line);
        assert_eq!(
            (p.name.as_str(), h.number, h.range_to),
            (name, number, to),
            "{line}"
        );
    }
}
