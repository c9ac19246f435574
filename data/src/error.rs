use std::path::PathBuf;

/// Errors of the data crate. Every variant names where the problem is: a
/// file and line, or a case and fact.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("SARA dataset not found at {path} (set SARA_DIR to the folder holding cases/, statutes/ and splits/)")]
    MissingDataset { path: PathBuf },
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}:{line}: {message}")]
    Unsupported {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Case { file: String, message: String },
    #[error("linear form, line {line}: {message}")]
    Linear { line: usize, message: String },
    #[error("split {split}: {message}")]
    Split { split: String, message: String },
}

impl DataError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        DataError::Io {
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = DataError> = std::result::Result<T, E>;
