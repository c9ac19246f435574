/// Errors of the parser crate.
#[derive(Debug, thiserror::Error)]
pub enum ParserError {
    #[error("the MiniLM files are missing: run `bash .ci/setup` (it sets LEXLOG_MINILM)")]
    MissingEncoder,
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error(transparent)]
    Torch(#[from] tch::TchError),
    #[error("{path}: {source}")]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error("{0}")]
    Config(String),
}
