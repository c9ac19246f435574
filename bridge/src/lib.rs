//! Joins the parser and the solver: each of a case's beams is read into the
//! IR, checked for consistency and solved (in parallel); beams are
//! reranked by a score that combines the model's log-probability with the
//! checks' findings; the answer is the best beam's, or a vote over the
//! consistent beams weighted by probability, or an abstention with its
//! reasons.

mod error;
pub mod names;
pub mod pipeline;

pub use error::BridgeError;
pub use pipeline::{Beam, Decision, PipelineConfig, Strategy};
