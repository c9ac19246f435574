//! The neural half of lexlog: a tch seq2seq model from case text (and
//! question) to the IR's linear form, copying the values the text mentions.

pub mod device;
pub mod example;
pub mod mentions;
pub mod target;
