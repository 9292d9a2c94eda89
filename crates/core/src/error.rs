use serde::de::DeserializeOwned;
use serde::Serialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("register not found in {0}: run `recapito import` first")]
    RegisterMissing(String),
    #[error("source data missing: {0}")]
    SourceMissing(String),
    #[error("bad input: {0}")]
    BadInput(String),
    #[error("not found: {0}")]
    NotFound(String),
    #[error("storage: {0}")]
    Storage(#[from] heed::Error),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("csv: {0}")]
    Csv(#[from] csv::Error),
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    #[error("zip: {0}")]
    Zip(#[from] zip::result::ZipError),
}

/// What kind of failure an error is, stable across releases: the Node binding puts it in the
/// `code` property of the error it throws, and TypeScript decides on it (never on the message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The caller's input cannot be read or is out of range: a 4xx for the client.
    BadInput,
    /// What the input names does not exist.
    NotFound,
    /// The register or a source file is absent: run the import.
    DataMissing,
    /// Storage, I/O or a bug: the service's fault.
    Internal,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadInput => "bad_input",
            ErrorCode::NotFound => "not_found",
            ErrorCode::DataMissing => "data_missing",
            ErrorCode::Internal => "internal",
        }
    }
}

impl Error {
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::BadInput(_) => ErrorCode::BadInput,
            Error::NotFound(_) => ErrorCode::NotFound,
            Error::RegisterMissing(_) | Error::SourceMissing(_) => ErrorCode::DataMissing,
            Error::Storage(_) | Error::Io(_) | Error::Csv(_) | Error::Json(_) | Error::Zip(_) => {
                ErrorCode::Internal
            }
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// A request read from JSON: what cannot be read is the caller's fault (`bad_input`).
pub fn from_json<T: DeserializeOwned>(input: &[u8]) -> Result<T> {
    serde_json::from_slice(input).map_err(|e| Error::BadInput(e.to_string()))
}

/// An answer written as JSON (the doors' bulk form: one buffer each way).
pub fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    Ok(serde_json::to_vec(value)?)
}
