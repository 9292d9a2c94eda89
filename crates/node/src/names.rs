//! The contact dictionaries (first-name genders, hypocoristics, titles, professions, legal forms,
//! role mailboxes, free-mail domains, phone lists), imported once by the core
//! (`register/import/names.rs`) and read by the TypeScript capabilities: enrichment, email, phone.
//! They live in the data dir beside the register, not in it, so they need no street register.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::*;
use napi::{Env, Task};
use napi_derive::napi;
use recapito_core::import::names;
use recapito_core::register::names::RoleMailboxes;
use recapito_core::to_json;

use crate::{guard, sync, Failure};

/// One data dir's dictionaries as loaded: the answer of `contactDictionaries` and the role list.
struct Loaded {
    json: Vec<u8>,
    roles: RoleMailboxes,
}

/// Loaded once per data dir for the process; an import of the dictionaries replaces the entry.
static LOADED: Mutex<Option<HashMap<PathBuf, Arc<Loaded>>>> = Mutex::new(None);

/// By the data dir as given: `/email` asks once per address, so no path resolution per call.
fn loaded(data_dir: &str) -> recapito_core::Result<Arc<Loaded>> {
    let key = PathBuf::from(data_dir);
    if let Some(hit) = LOADED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|m| m.get(&key))
    {
        return Ok(hit.clone());
    }
    let dictionaries = names::load_dictionaries(&key)?;
    let roles = match &dictionaries {
        Some(d) => RoleMailboxes::new(d.role_local_parts.iter().cloned()),
        // not imported: npm's list, which the core ships, still applies
        None => RoleMailboxes::npm(),
    };
    let entry = Arc::new(Loaded {
        json: to_json(&dictionaries)?,
        roles,
    });
    LOADED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, entry.clone());
    Ok(entry)
}

fn forget(data_dir: &Path) {
    if let Some(m) = LOADED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        m.remove(data_dir);
    }
}

fn read(data_dir: &str) -> recapito_core::Result<Vec<u8>> {
    Ok(loaded(data_dir)?.json.clone())
}

fn roles(data_dir: &str, local_parts: &[String]) -> recapito_core::Result<Vec<bool>> {
    let roles = &loaded(data_dir)?.roles;
    Ok(local_parts.iter().map(|l| roles.is_role(l)).collect())
}

fn import(source: &str, data_dir: &str) -> recapito_core::Result<Vec<u8>> {
    let data_dir = PathBuf::from(data_dir);
    let datasets = names::import_dictionaries(&PathBuf::from(source), &data_dir)?;
    forget(&data_dir);
    to_json(&datasets)
}

/// One call of these doors on the libuv pool; its arguments are moved into the work.
pub struct DictionaryTask<T: Send + 'static> {
    work: Option<Box<dyn FnOnce() -> recapito_core::Result<T> + Send>>,
}

impl<T: Send + 'static + ToNapiValue + TypeName> DictionaryTask<T> {
    fn spawn(work: impl FnOnce() -> recapito_core::Result<T> + Send + 'static) -> AsyncTask<Self> {
        AsyncTask::new(DictionaryTask {
            work: Some(Box::new(work)),
        })
    }
}

impl<T: Send + 'static + ToNapiValue + TypeName> Task for DictionaryTask<T> {
    type Output = std::result::Result<T, Failure>;
    type JsValue = T;

    fn compute(&mut self) -> Result<Self::Output> {
        let work = self.work.take();
        Ok(guard(|| match work {
            Some(work) => work().map_err(Failure::from),
            None => Err(Failure {
                code: recapito_core::ErrorCode::Internal,
                message: "a dictionaries task computed twice".into(),
            }),
        }))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<T> {
        output.map_err(|f| f.into_js(&env))
    }
}

/// The contact dictionaries imported into `dataDir`, null when none were.
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ContactDictionaries | null>>"
)]
pub fn contact_dictionaries(data_dir: String) -> AsyncTask<DictionaryTask<Buffer>> {
    DictionaryTask::spawn(move || read(&data_dir).map(Buffer::from))
}

/// `contactDictionaries` on the calling thread.
#[napi(
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').ContactDictionaries | null>"
)]
pub fn contact_dictionaries_sync(env: Env, data_dir: String) -> Result<Buffer> {
    sync(&env, || read(&data_dir)).map(Buffer::from)
}

/// Which local parts are role mailboxes (`info`, `info.milano`, `segreteria-roma`), by the rule and
/// list dedupe applies; one answer per local part, in order.
#[napi(ts_return_type = "Promise<boolean[]>")]
pub fn role_mailboxes(
    data_dir: String,
    local_parts: Vec<String>,
) -> AsyncTask<DictionaryTask<Vec<bool>>> {
    DictionaryTask::spawn(move || roles(&data_dir, &local_parts))
}

/// `roleMailboxes` on the calling thread.
#[napi]
pub fn role_mailboxes_sync(
    env: Env,
    data_dir: String,
    local_parts: Vec<String>,
) -> Result<Vec<bool>> {
    sync(&env, || roles(&data_dir, &local_parts))
}

/// Imports the contact dictionaries of `source` into `dataDir` alone, without a register (the
/// register import writes them too); resolves to what was read.
#[napi(
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').DatasetSummary[]>>"
)]
pub fn import_contact_dictionaries(
    source: String,
    data_dir: String,
) -> AsyncTask<DictionaryTask<Buffer>> {
    DictionaryTask::spawn(move || import(&source, &data_dir).map(Buffer::from))
}

/// `importContactDictionaries` on the calling thread.
#[napi(
    ts_return_type = "import('./core-types.js').Json<import('./core-types.js').DatasetSummary[]>"
)]
pub fn import_contact_dictionaries_sync(
    env: Env,
    source: String,
    data_dir: String,
) -> Result<Buffer> {
    sync(&env, || import(&source, &data_dir)).map(Buffer::from)
}
