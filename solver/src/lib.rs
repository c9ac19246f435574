//! The symbolic half of lexlog: a Datalog engine with stratified negation,
//! aggregates and date arithmetic, the statute rules written in the lexlog
//! rule language, and an e-graph for consistency and explained arithmetic.

pub mod check;
pub mod engine;
pub mod event_kinds;
mod error;
pub mod lang;
pub mod money;
pub mod places;
pub mod program;
pub mod signature;
pub mod solve;
pub mod stratify;
pub mod value;
pub mod why;

pub use check::{Inconsistency, InconsistencyKind};
pub use engine::{Database, Limits, StopReason};
pub use error::SolverError;
pub use lang::Program;
pub use lexlog_data::ArgType;
pub use solve::{Outcome, Prediction, Solver};
pub use why::{Attempt, Derivation, WhyNot};
