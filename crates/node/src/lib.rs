//! napi-rs layer only: the typed doors between TypeScript and `recapito-core`, one file per
//! capability. Each action is an async function (a `Task` on the libuv pool) with a `…Sync` twin
//! for job workers, which are already off the main thread. Requests and answers cross as one
//! JSON buffer each way (`Json<T>` in `index.d.ts`, `T` generated from the core's serde structs
//! into `core-types.d.ts`), except the contact's Sync door, which takes and gives JSON text (no
//! external Buffer made and finalised per call); failures carry a
//! stable `code` (`recapito_core::ErrorCode`).
#![deny(clippy::all)]

/// Doors for the benches alone (`sampleStreets`, `dedupeFiles`): `--features bench`.
#[cfg(feature = "bench")]
pub mod bench;
pub mod contact;
pub mod dedupe;
pub mod foreign;
pub mod municipalities;
pub mod names;
pub mod postal;
pub mod register;
pub mod streets;
pub mod tax_code;
pub mod text;

use std::sync::{Arc, RwLock};

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use recapito_core::register::Register;
use recapito_core::ErrorCode;

/// mimalloc for every Rust allocation of the addon (Node's own heap stays glibc's): perf showed
/// malloc/free at ~30 % of the contact door and ~25 % of the street search with glibc's allocator
/// (issue 14). Buffers handed to JavaScript are freed by their Rust finaliser, so with this allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

static REGISTER: RwLock<Option<Arc<Register>>> = RwLock::new(None);

/// The register opened by `openRegister`, or `data_missing`.
fn opened_register() -> recapito_core::Result<Arc<Register>> {
    REGISTER
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .ok_or_else(|| recapito_core::Error::RegisterMissing("(not opened)".into()))
}

/// A core failure on its way to JavaScript: a stable code and the message.
pub struct Failure {
    code: ErrorCode,
    message: String,
}

impl From<recapito_core::Error> for Failure {
    fn from(e: recapito_core::Error) -> Self {
        Failure {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

impl Failure {
    /// A JavaScript `Error` whose `code` property is the stable code (TypeScript reads that,
    /// never the message).
    fn into_js(self, env: &Env) -> Error {
        let thrown = env
            .create_error(Error::new(Status::GenericFailure, &self.message))
            .and_then(|mut error| {
                error.set_named_property("code", env.create_string(self.code.as_str())?)?;
                Ok(error.into_unknown())
            });
        match thrown {
            Ok(error) => Error::from(error),
            Err(e) => e,
        }
    }
}

/// A panic in the core becomes an `internal` failure, never an aborted process.
fn guard<T>(
    work: impl FnOnce() -> std::result::Result<T, Failure>,
) -> std::result::Result<T, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown".into());
        Err(Failure {
            code: ErrorCode::Internal,
            message: format!("internal error in core: {what}"),
        })
    })
}

/// Runs `work` on the calling thread; a failure is thrown with its code.
fn sync<T>(env: &Env, work: impl FnOnce() -> recapito_core::Result<T>) -> Result<T> {
    guard(|| work().map_err(Failure::from)).map_err(|f| f.into_js(env))
}

/// The work behind a door: JSON request bytes in, JSON answer bytes out.
type Work = fn(&[u8]) -> recapito_core::Result<Vec<u8>>;

/// One call of a door on the libuv pool.
pub struct Door {
    /// The caller's request buffer, read where it is (no copy: a dedupe request can be hundreds of
    /// MiB). It is held by a reference until the task is done; `src/native.ts` makes a fresh buffer
    /// for every call and does not touch it meanwhile. `None` for doors that take no request.
    input: Option<Buffer>,
    work: Work,
}

impl Door {
    /// The async form of a door with a request.
    fn spawn(input: Buffer, work: Work) -> AsyncTask<Door> {
        AsyncTask::new(Door {
            input: Some(input),
            work,
        })
    }

    /// The async form of a door without a request.
    fn spawn_bare(work: Work) -> AsyncTask<Door> {
        AsyncTask::new(Door { input: None, work })
    }

    /// The `…Sync` form, on the calling thread.
    fn call(env: &Env, input: &[u8], work: Work) -> Result<Buffer> {
        sync(env, || work(input)).map(Buffer::from)
    }
}

impl Task for Door {
    type Output = std::result::Result<Vec<u8>, Failure>;
    type JsValue = Buffer;

    fn compute(&mut self) -> Result<Self::Output> {
        let work = self.work;
        let input: &[u8] = self.input.as_deref().unwrap_or(&[]);
        Ok(guard(|| work(input).map_err(Failure::from)))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Buffer> {
        output.map(Buffer::from).map_err(|f| f.into_js(&env))
    }
}
