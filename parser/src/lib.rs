//! The neural half of lexlog: a tch seq2seq model from case text (and
//! question) to the IR's linear form, copying the values the text mentions.

pub mod asked_names;
pub mod augment;
pub mod bert;
pub mod config;
pub mod conjoin;
pub mod decode;
pub mod device;
mod error;
pub mod eval;
pub mod example;
pub mod grammar;
pub mod mentions;
pub mod model;
pub mod optim;
pub mod people;
pub mod schema;
pub mod query_events;
pub mod sentences;
pub mod since;
pub mod split_cost;
pub mod source;
pub mod step_timing;
pub mod target;
pub mod train;

pub use error::ParserError;
