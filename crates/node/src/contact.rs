//! Contacts: Italian addresses against the national register, foreign ones against the
//! imported national registers.

use napi::bindgen_prelude::*;
use napi::{Env, JsString, Task};
use napi_derive::napi;
use recapito_core::address::{self, ContactBatch, ContactResult};
use recapito_core::{foreign, from_json, to_json};

use crate::Door;

fn verify_batch(input: &[u8]) -> recapito_core::Result<Vec<ContactResult>> {
    let batch: ContactBatch = from_json(input)?;
    let register = crate::opened_register()?;
    Ok(address::verify_batch(
        &register,
        &batch.items,
        &batch.options,
    ))
}

fn verify(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    to_json(&verify_batch(input)?)
}

/// Verifies a batch of contacts with one set of options; one answer per item, in order.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<import('./core-types.js').Json<import('./core-types.js').ContactResult[]>>"
)]
pub fn verify_contacts(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, verify)
}

/// `verifyContacts` on the calling thread (benches, evaluations; until issue 14's turn batches, the
/// single contact of an HTTP call on the event loop). JSON text each way instead of buffers: for a
/// kilobyte of answer, making an external Buffer (and later finalising it) and decoding it to a
/// string in JavaScript cost more than one copy of the text.
#[napi(
    ts_args_type = "batch: string & { readonly __json?: import('./core-types.js').ContactBatch }",
    ts_return_type = "string & { readonly __json?: import('./core-types.js').ContactResult[] }"
)]
pub fn verify_contacts_sync(env: Env, batch: String) -> Result<String> {
    crate::sync(&env, || {
        Ok(serde_json::to_string(&verify_batch(batch.as_bytes())?)?)
    })
}

fn verify_answers(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    address::answer::write_answers(&verify_batch(input)?)
}

/// `verifyContacts` for single HTTP calls: each result as its answer's JSON text in parts, the
/// request language's texts left for TypeScript to put in (`address::answer`, `src/contact/answer.ts`).
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<string>"
)]
pub fn verify_contact_answers(batch: Buffer) -> AsyncTask<AnswersTask> {
    AsyncTask::new(AnswersTask { input: batch })
}

/// `verifyContactAnswers` for a synchronous HTTP batch: the same records as their UTF-8 bytes, for
/// `src/contact/answer-bytes.ts` to send as bytes with the request's texts written between their slices.
/// A foreign batch's text holds characters beyond Latin-1 (every postal-form message has a `’`): as a
/// string V8 decodes it into two bytes a character, and the batch's text is measured and encoded back
/// to UTF-8 on its way to the socket (issue 30: about 30 M instructions per foreign batch of 500).
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<Buffer>"
)]
pub fn verify_contact_answer_bytes(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, verify_answers)
}

/// `verifyContactAnswers` on the libuv pool. Unlike a `Door` it answers with a JavaScript string,
/// made from the core's UTF-8 in one copy when the task resolves: the answer is text for JavaScript
/// to cut, and a Buffer would cost an external buffer, its finaliser and a decode in JavaScript.
pub struct AnswersTask {
    /// Held until the task is done, read where it is (as `Door`'s input).
    input: Buffer,
}

impl Task for AnswersTask {
    type Output = std::result::Result<String, crate::Failure>;
    type JsValue = JsString;

    fn compute(&mut self) -> Result<Self::Output> {
        let input: &[u8] = &self.input;
        Ok(crate::guard(|| {
            answers_text(input).map_err(crate::Failure::from)
        }))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<JsString> {
        match output {
            Ok(text) => js_text(&env, text),
            Err(failure) => Err(failure.into_js(&env)),
        }
    }
}

/// The answers' text as a JavaScript string. The Italian records write every character beyond
/// Latin-1 as its `\uXXXX` escape (`address::answer::js_json`), so a batch's text is mostly Latin-1:
/// such a text is made from its Latin-1 bytes (V8 copies them) instead of from UTF-8, which V8
/// decodes character by character wherever a character is not ASCII (an `é`, a `ü`); a text with a
/// character beyond Latin-1 is made from its UTF-8 as before.
fn js_text(env: &Env, text: String) -> Result<JsString> {
    if text.is_ascii() {
        return env.create_string_latin1(text.as_bytes());
    }
    let mut latin1 = Vec::with_capacity(text.len());
    for c in text.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(b) => latin1.push(b),
            Err(_) => return env.create_string_from_std(text),
        }
    }
    env.create_string_latin1(&latin1)
}

fn answers_text(input: &[u8]) -> recapito_core::Result<String> {
    let answers = verify_answers(input)?;
    // serde_json's UTF-8 and ASCII field ends only; a failure would be a bug (guard: internal)
    Ok(String::from_utf8(answers).expect("contact answers are UTF-8"))
}

/// `verifyContactAnswers` on the calling thread, as text each way (as `verifyContactsSync`).
#[napi(
    ts_args_type = "batch: string & { readonly __json?: import('./core-types.js').ContactBatch }"
)]
pub fn verify_contact_answers_sync(env: Env, batch: String) -> Result<JsString> {
    let text = crate::sync(&env, || answers_text(batch.as_bytes()))?;
    js_text(&env, text)
}

fn verify_abroad(input: &[u8]) -> recapito_core::Result<Vec<u8>> {
    let batch: ContactBatch = from_json(input)?;
    to_json(&foreign::verify_batch(&batch.items))
}

/// Foreign contacts against the imported national registers alone (evaluations): `null` where
/// no register answers.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "Promise<import('./core-types.js').Json<(import('./core-types.js').ContactResult | null)[]>>"
)]
pub fn verify_foreign(batch: Buffer) -> AsyncTask<Door> {
    Door::spawn(batch, verify_abroad)
}

/// `verifyForeign` on the calling thread.
#[napi(
    ts_args_type = "batch: import('./core-types.js').Json<import('./core-types.js').ContactBatch>",
    ts_return_type = "import('./core-types.js').Json<(import('./core-types.js').ContactResult | null)[]>"
)]
pub fn verify_foreign_sync(env: Env, batch: Buffer) -> Result<Buffer> {
    Door::call(&env, &batch, verify_abroad)
}
