//! The subset of Prolog that SARA's case files are written in: facts, small
//! rules over `between/3`, `member/2`, `atom_concat/3`, `split_string/4`, date
//! helpers, and the test directive. [`syntax`] reads clauses with their line
//! numbers; [`eval`] enumerates what the clauses state.

pub mod eval;
pub mod syntax;
pub mod term;

pub use syntax::{parse_clauses, Clause};
pub use term::PTerm;
