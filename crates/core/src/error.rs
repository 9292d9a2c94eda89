use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("register not found in {0}: run `recapito import` first")]
    RegisterMissing(String),
    #[error("source data missing: {0}")]
    SourceMissing(String),
    #[error("bad input: {0}")]
    BadInput(String),
    #[error("unknown operation: {0}")]
    UnknownOp(String),
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

pub type Result<T> = std::result::Result<T, Error>;
