//! The register: open it for the process, build it from open data, say what it holds.

use std::path::PathBuf;
use std::sync::Arc;

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use napi_derive::napi;
use recapito_core::import;
use recapito_core::register::{search, store, Register};
use recapito_core::to_json;

use crate::{guard, sync, Door, Failure, REGISTER};

/// Opens the register under `dataDir` for the whole process (every worker thread shares it).
/// A second call for the same folder is a no-op unless `reopen` is true (after an import replaced it).
#[napi]
pub fn open_register(env: Env, data_dir: String, reopen: Option<bool>) -> Result<()> {
    let wanted = store::register_dir(&PathBuf::from(&data_dir));
    // a data dir may link to a register built elsewhere: compare where they really are
    let wanted = std::fs::canonicalize(&wanted).unwrap_or(wanted);
    let mut slot = REGISTER.write().unwrap_or_else(|e| e.into_inner());
    if let Some(open) = slot.as_ref() {
        let open_dir = std::fs::canonicalize(&open.dir).unwrap_or_else(|_| open.dir.clone());
        if open_dir == wanted && !reopen.unwrap_or(false) {
            return Ok(());
        }
    }
    // the old environment must be closed before the same path can be opened again
    *slot = None;
    let register = sync(&env, || {
        let register = Register::open(&PathBuf::from(&data_dir))?;
        // the postal formats are built now, not on the first request, and a bad copy fails here
        recapito_core::postal::Formats::open(&register)?;
        Ok(register)
    })?;
    *slot = Some(Arc::new(register));
    Ok(())
}

/// Whether a complete register exists under `dataDir`.
#[napi]
pub fn register_exists(data_dir: String) -> bool {
    store::exists(&PathBuf::from(data_dir))
}

fn info(_: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&search::register_info(&*crate::opened_register()?))
}

/// What the open register holds: import summary, counts, attributions.
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').RegisterInfo>>"
)]
pub fn register_info() -> AsyncTask<Door> {
    Door::spawn_bare(info)
}

/// `registerInfo` on the calling thread.
#[napi(ts_return_type = "import('./core-types.js').Json<import('./core-types.js').RegisterInfo>")]
pub fn register_info_sync(env: Env) -> Result<Buffer> {
    Door::call(&env, &[], info)
}

pub struct ImportTask {
    source: String,
    data_dir: String,
}

impl Task for ImportTask {
    type Output = std::result::Result<Vec<u8>, Failure>;
    type JsValue = Buffer;

    fn compute(&mut self) -> Result<Self::Output> {
        let (source, data_dir) = (PathBuf::from(&self.source), PathBuf::from(&self.data_dir));
        Ok(guard(|| {
            import::run(&source, &data_dir)
                .and_then(|summary| to_json(&summary))
                .map_err(Failure::from)
        }))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Buffer> {
        output.map(Buffer::from).map_err(|f| f.into_js(&env))
    }
}

/// Builds the register from open data in `source` into `dataDir`; resolves to its summary.
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ImportSummary>>"
)]
pub fn import_register(source: String, data_dir: String) -> AsyncTask<ImportTask> {
    AsyncTask::new(ImportTask { source, data_dir })
}

#[napi(object)]
pub struct ImportProgress {
    pub stage: String,
    /// How far the stage is, in its unit (rows, municipalities, or bytes of a big file).
    pub done: f64,
    /// 0 when unknown.
    pub total: f64,
    /// Rows the stage has read.
    pub rows: f64,
}

/// Progress of the import running in this process.
#[napi]
pub fn import_progress() -> ImportProgress {
    let p = import::PROGRESS.snapshot();
    ImportProgress {
        stage: p.stage,
        done: p.done as f64,
        total: p.total as f64,
        rows: p.rows as f64,
    }
}
