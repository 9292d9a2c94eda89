//! The registers the tests run on, imported from the real `shared/data` once per test process, each
//! into a temporary folder of its own (removed once the register is open: the environment stays
//! mapped). Shared by the unit tests (`crate::test_register`) and the integration tests
//! (`#[path]`-included), so both spell the crate `recapito_core`.

use std::path::{Path, PathBuf};

use recapito_core::register::Register;

/// What of `shared/data` a test register holds.
pub struct Subset<'a> {
    /// Folders of `shared/data/it` linked whole (`comuni`, `esteri`, `civici`…).
    pub it_folders: &'a [&'a str],
    /// Regions (ISTAT codes) whose ANNCSU street file is linked.
    pub street_regions: &'a [&'a str],
    /// Whether `shared/data/contact` (names, roles) is linked.
    pub contact: bool,
}

/// Municipalities and foreign states: all the tax code and most entry points need.
pub const MUNICIPALITIES: Subset<'static> = Subset {
    it_folders: &["comuni", "esteri"],
    street_regions: &[],
    contact: false,
};

/// `../shared/data`, beside the repository.
pub fn shared_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

/// The register holding `subset` (all of `shared/data` when `None`), or `None` (with a note) when
/// `shared/data` is absent. `RECAPITO_KEEP_TEST_REGISTER` keeps the imported folder.
pub fn import(subset: Option<&Subset>) -> Option<Register> {
    let shared = shared_data();
    if !shared.join("it/comuni").exists() {
        eprintln!("skipping: {} is absent", shared.display());
        return None;
    }
    let base = tempfile::Builder::new()
        .prefix("recapito-test-register-")
        .tempdir()
        .expect("temp dir");
    let source = match subset {
        Some(subset) => {
            let source = base.path().join("source");
            link_subset(&shared, subset, &source).expect("link the subset of shared/data");
            source
        }
        None => shared,
    };
    let dir = base.path().join("data");
    recapito_core::import::run(&source, &dir).expect("import");
    let register = Register::open(&dir).expect("open");
    recapito_core::postal::Formats::open(&register).expect("postal formats");
    if std::env::var("RECAPITO_KEEP_TEST_REGISTER").is_ok() {
        eprintln!("register kept in {}", base.keep().join("data").display());
    }
    Some(register)
}

pub fn link_subset(shared: &Path, subset: &Subset, into: &Path) -> std::io::Result<()> {
    let it = shared.join("it");
    std::fs::create_dir_all(into.join("it"))?;
    if subset.contact && shared.join("contact").exists() {
        std::os::unix::fs::symlink(shared.join("contact"), into.join("contact"))?;
    }
    for folder in subset.it_folders {
        std::os::unix::fs::symlink(it.join(folder), into.join("it").join(folder))?;
    }
    if !subset.street_regions.is_empty() {
        std::fs::create_dir_all(into.join("it/anncsu_odonimi"))?;
    }
    for region in subset.street_regions {
        let name = format!("odonimi_{region}.csv.gz");
        std::os::unix::fs::symlink(
            it.join("anncsu_odonimi").join(&name),
            into.join("it/anncsu_odonimi").join(&name),
        )?;
    }
    Ok(())
}
