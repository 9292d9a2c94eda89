//! Italy's register sources: ISTAT/ANPR municipalities and foreign states, ANNCSU streets and
//! addresses, and the municipal house-number open data. Each fills the country-neutral model
//! (`register::municipality`, `register::country`, `import::street_builder`).

pub mod alessandria;
pub mod anncsu;
pub mod anncsu_street_names;
pub mod bologna;
pub mod comuni;
pub mod esteri;
pub mod fie_allo_sciliar;
pub mod geonames;
pub mod house_number;
pub mod istat;
pub mod milano;
pub mod streets;
pub mod venezia;
pub mod villesse;
