//! What a predicate's argument holds: the solver infers it from the
//! statute rules, the parser's decoder keeps query arguments to it.

use crate::ir::{Term, Value};
use std::fmt;

/// A set of value kinds, as bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArgType(u8);

impl ArgType {
    /// No evidence.
    pub const NONE: ArgType = ArgType(0);
    /// A person, thing, text or list.
    pub const NAME: ArgType = ArgType(1);
    pub const YEAR: ArgType = ArgType(2);
    /// An amount, count or percentage.
    pub const NUMBER: ArgType = ArgType(4);
    pub const DATE: ArgType = ArgType(8);
    /// An event's id (`e3`): what a section applies to when it judges a
    /// payment or an employment.
    pub const EVENT: ArgType = ArgType(16);
    /// A year or a number.
    pub const INT: ArgType = ArgType(2 | 4);
    /// A name or an event: a role's patient, purpose, reason or means.
    pub const NAME_OR_EVENT: ArgType = ArgType(1 | 16);
    pub const ANY: ArgType = ArgType(31);

    pub fn contains(self, other: ArgType) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn union(self, other: ArgType) -> ArgType {
        ArgType(self.0 | other.0)
    }

    pub fn intersect(self, other: ArgType) -> ArgType {
        ArgType(self.0 & other.0)
    }

    /// Whether a query argument may stand here: a value of one of the
    /// kinds (an integer as a year or a number), or anything open
    /// (`_`, a variable).
    pub fn admits(self, t: &Term) -> bool {
        match t {
            // An event id reads as a name: either will do.
            Term::Value(Value::Name(_)) => self.intersect(ArgType::NAME_OR_EVENT) != ArgType::NONE,
            Term::Value(Value::Text(_) | Value::List(_)) => self.contains(ArgType::NAME),
            Term::Value(Value::Date(_)) | Term::FirstDay(_) | Term::LastDay(_) => self.contains(ArgType::DATE),
            Term::Value(Value::Int(_)) => self.intersect(ArgType::INT) != ArgType::NONE,
            _ => true,
        }
    }
}

impl fmt::Debug for ArgType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [(ArgType::NAME, "name"), (ArgType::YEAR, "year"), (ArgType::NUMBER, "number"), (ArgType::DATE, "date"), (ArgType::EVENT, "event")];
        let parts: Vec<&str> = names.iter().filter(|(t, _)| self.contains(*t)).map(|(_, n)| *n).collect();
        if parts.is_empty() {
            write!(f, "none")
        } else {
            write!(f, "{}", parts.join("|"))
        }
    }
}
