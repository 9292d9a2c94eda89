//! napi-rs layer only: type conversion and task scheduling. The work is in `recapito-core`.
#![deny(clippy::all)]

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use napi_derive::napi;
use recapito_core::register::{import, Register};

static REGISTER: RwLock<Option<Arc<Register>>> = RwLock::new(None);

fn current_register() -> Option<Arc<Register>> {
    REGISTER.read().unwrap_or_else(|e| e.into_inner()).clone()
}

fn to_napi(e: recapito_core::Error) -> Error {
    let status = match e {
        recapito_core::Error::BadInput(_) | recapito_core::Error::UnknownOp(_) => {
            Status::InvalidArg
        }
        _ => Status::GenericFailure,
    };
    Error::new(status, e.to_string())
}

/// Opens the register under `dataDir` for the whole process (every worker thread shares it).
/// A second call for the same folder is a no-op unless `reopen` is true (after an import replaced it).
#[napi]
pub fn open_register(data_dir: String, reopen: Option<bool>) -> Result<()> {
    let wanted = recapito_core::register::store::register_dir(&PathBuf::from(&data_dir));
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
    let register = guard(|| Register::open(&PathBuf::from(&data_dir)).map_err(to_napi))?;
    *slot = Some(Arc::new(register));
    Ok(())
}

/// Whether a complete register exists under `dataDir`.
#[napi]
pub fn register_exists(data_dir: String) -> bool {
    recapito_core::register::store::exists(&PathBuf::from(data_dir))
}

pub struct ComputeTask {
    op: String,
    input: Vec<u8>,
}

impl Task for ComputeTask {
    type Output = Vec<u8>;
    type JsValue = Buffer;

    fn compute(&mut self) -> Result<Self::Output> {
        run_compute(&self.op, &self.input)
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(output.into())
    }
}

fn run_compute(op: &str, input: &[u8]) -> Result<Vec<u8>> {
    let register = current_register();
    guard(|| recapito_core::ops::compute(register.as_deref(), op, input).map_err(to_napi))
}

/// A panic in the core becomes a rejected promise, never an aborted process.
fn guard<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown".into());
        Err(Error::new(
            Status::GenericFailure,
            format!("internal error in core: {what}"),
        ))
    })
}

/// Runs one core operation on the libuv pool: JSON bytes in, JSON bytes out.
#[napi(ts_return_type = "Promise<Buffer>")]
pub fn compute(op: String, input: Buffer) -> AsyncTask<ComputeTask> {
    AsyncTask::new(ComputeTask {
        op,
        input: input.to_vec(),
    })
}

/// The same operation on the calling thread, for workers already off the main thread.
#[napi]
pub fn compute_sync(op: String, input: Buffer) -> Result<Buffer> {
    run_compute(&op, &input).map(Buffer::from)
}

pub struct ImportTask {
    source: String,
    data_dir: String,
}

impl Task for ImportTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> Result<Self::Output> {
        let summary = guard(|| {
            import::run(&PathBuf::from(&self.source), &PathBuf::from(&self.data_dir))
                .map_err(to_napi)
        })?;
        serde_json_string(&summary)
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(output)
    }
}

fn serde_json_string<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::new(Status::GenericFailure, e.to_string()))
}

/// Builds the register from open data in `source` into `dataDir`; resolves to the summary JSON.
#[napi(ts_return_type = "Promise<string>")]
pub fn import_register(source: String, data_dir: String) -> AsyncTask<ImportTask> {
    AsyncTask::new(ImportTask { source, data_dir })
}

#[napi(object)]
pub struct ImportProgress {
    pub stage: String,
    pub done: f64,
    pub total: f64,
}

/// Progress of the import running in this process.
#[napi]
pub fn import_progress() -> ImportProgress {
    let (stage, done, total) = import::PROGRESS.snapshot();
    ImportProgress {
        stage,
        done: done as f64,
        total: total as f64,
    }
}

/// The core's text folding, so that TypeScript compares names with the very same normaliser.
#[napi]
pub fn fold_text(text: String) -> String {
    recapito_core::normalize::fold(&text)
}

/// Foreign national registers: imported from `worldDir` (registers/<cc>/…, osm/…,
/// libpostal/dictionaries) on first use; a new folder replaces what was imported.
#[napi]
pub fn use_foreign_registers(world_dir: String) {
    recapito_core::foreign::use_dir(&PathBuf::from(world_dir));
}

/// What each imported foreign register puts in service, as JSON: country, register, date,
/// verification levels (house_number, street, postcode), coverage, source, attribution, counts.
/// The countries catalogue reads this.
#[napi]
pub fn foreign_registers() -> Result<String> {
    serde_json_string(&guard(|| Ok(recapito_core::foreign::registers()))?)
}

/// Imports the foreign registers of `worldDir` now; resolves to the summary JSON
/// (registers, missing files, elapsed_ms).
#[napi]
pub fn load_foreign_registers(world_dir: String) -> Result<String> {
    let summary = guard(|| Ok(recapito_core::foreign::load(&PathBuf::from(world_dir))))?;
    serde_json_string(&summary)
}
