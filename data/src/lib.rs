//! SARA loading (statutes, cases, splits) and the typed case IR shared by
//! the parser and the solver.

pub mod argtype;
pub mod dataset;
pub mod english;
pub mod errata;
mod error;
pub mod fold;
pub mod ground;
pub mod ir;
pub mod linear;
pub mod prolog;
pub mod sara;
pub mod stats;
pub mod statutes;
pub mod vocab;

pub use argtype::ArgType;
pub use dataset::{read_cases, read_each_case, sara_dir, Dataset, Split};
pub use error::{DataError, Result};
pub use ground::{expand, fact_set, ExpandError, GroundFact};
pub use ir::{Answer, Assertion, Case, CaseIr, CaseKind, Domain, Event, Fact, ForEach, Goal, Part, Predicate, Query, Term, Value, Var};
pub use vocab::{Aux, EventKind, Role, SectionId};
