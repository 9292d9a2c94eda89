//! Attribution lines of Italy's datasets, as the licences ask them to be shown: the importers record
//! them with each dataset (`ImportSummary`), and an answer cites the ones its facts come from.

/// Municipalities (codes, names, provinces).
pub const ISTAT: &str = "Fonte: ISTAT – Elenco comuni italiani (novembre 2023), CC BY 4.0";
/// Street names of every region.
pub const ANNCSU_STREETS: &str = "Fonte: ANNCSU – Archivio Nazionale dei Numeri Civici e delle Strade Urbane (Agenzia delle Entrate – ISTAT), CC BY 4.0; estrazione e riorganizzazione per regione: onData, https://github.com/ondata/archivio_anncsu (CC BY 4.0)";
/// House numbers of the national archive.
pub const ANNCSU_NUMBERS: &str = "Fonte: ANNCSU – Archivio Nazionale dei Numeri Civici delle Strade Urbane, Agenzia delle Entrate e ISTAT, CC BY 4.0";
pub const ALESSANDRIA: &str = "Comune di Alessandria – Open Data (https://github.com/ComunediAlessandria/open-data), CC BY 4.0";
pub const BOLOGNA: &str = "Comune di Bologna – SIT / Open Data, numeri civici (2012)";
pub const MILANO: &str =
    "Comune di Milano – Open Data, dataset ds634 Numeri civici (SIT Centrale e Toponomastica)";

/// Venice's numbers per sestiere: the DoVe app's list, built from the Comune di Venezia's carta
/// tecnica and OpenStreetMap (ODbL); the file states no licence of its own.
pub const VENEZIA: &str = "Civici di Venezia per sestiere – DoVe (https://github.com/andreatoffanello/civici), da carta tecnica del Comune di Venezia e © OpenStreetMap contributors (ODbL)";
pub const FIE_ALLO_SCILIAR: &str =
    "Provincia autonoma di Bolzano – Alto Adige, numeri civici / Hausnummern";
pub const VILLESSE: &str =
    "Comune di Villesse / Regione FVG – Protezione civile, numeri civici (2021)";

/// The municipal dataset whose house numbers a municipality (by cadastral code) is served from.
pub fn municipal_house_numbers(cadastral: &str) -> Option<&'static str> {
    match cadastral {
        "A182" => Some(ALESSANDRIA),
        "A944" => Some(BOLOGNA),
        "F205" => Some(MILANO),
        "L736" => Some(VENEZIA),
        "D571" => Some(FIE_ALLO_SCILIAR),
        "M043" => Some(VILLESSE),
        _ => None,
    }
}
