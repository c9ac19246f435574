//! The neural half of lexlog: a tch seq2seq model from case text (and
//! question) to the IR's linear form.

pub mod device;
