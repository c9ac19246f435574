/// Errors of the solver crate.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    #[error(transparent)]
    Data(#[from] lexlog_data::DataError),
    #[error("{origin}: {message}")]
    Rule { origin: String, message: String },
    /// A negation or aggregate inside a recursive cycle.
    #[error("the rules cannot be stratified: {cycle} depends negatively on itself")]
    NotStratifiable { cycle: String },
    #[error("case {case}: {message}")]
    Case { case: String, message: String },
    #[error("case {case}: the query asks {pred}/{arity}, which no rule or fact defines")]
    UnknownQuery { case: String, pred: String, arity: usize },
}
