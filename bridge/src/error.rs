/// Errors of the bridge crate.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    #[error(transparent)]
    Solver(#[from] lexlog_solver::SolverError),
}
