//! The typed case IR: what the parser produces and the solver consumes.
//!
//! A case's facts are neo-Davidsonian: an [`Event`] has a type, an id and
//! roles; an [`Assertion`] states a section (or auxiliary) predicate
//! directly; a [`ForEach`] replicates facts over a range of years, a list of
//! people or dates, so that "each of her 87 employees was paid $5207" stays
//! one group instead of 174 facts. [`crate::expand`] turns the IR into ground
//! facts.

use crate::vocab::{Aux, EventKind, Role, SectionId};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// A ground value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// An entity or event name (a Prolog atom): `alice`, `alice_s_house`.
    Name(String),
    /// Free text (a Prolog string that is not a date): `"agricultural labor"`.
    Text(String),
    /// An integer; money is in whole dollars.
    Int(i64),
    Date(NaiveDate),
    List(Vec<Value>),
}

impl Value {
    pub fn name(s: impl Into<String>) -> Value {
        Value::Name(s.into())
    }

    /// The text a value contributes when it is spliced into a name.
    pub fn splice_text(&self) -> String {
        match self {
            Value::Name(s) | Value::Text(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::Date(d) => d.format("%Y-%m-%d").to_string(),
            Value::List(items) => items
                .iter()
                .map(Value::splice_text)
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// A variable bound by a [`ForEach`] or, in a query, by the solver.
pub type Var = String;

/// A possibly non-ground term.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Term {
    Value(Value),
    /// `_`: an argument left open (any value, or none).
    Any,
    Var(Var),
    /// A name built from parts, e.g. `bob_maintains_household_{Y}`.
    Concat(Vec<Part>),
    /// January 1st of the year bound to the variable.
    FirstDay(Var),
    /// December 31st of the year bound to the variable.
    LastDay(Var),
    /// Any date strictly between the two bounds, or no date at all.
    Window { after: NaiveDate, before: NaiveDate },
}

impl Term {
    pub fn name(s: impl Into<String>) -> Term {
        Term::Value(Value::Name(s.into()))
    }
    pub fn int(i: i64) -> Term {
        Term::Value(Value::Int(i))
    }
    pub fn date(d: NaiveDate) -> Term {
        Term::Value(Value::Date(d))
    }
    pub fn as_value(&self) -> Option<&Value> {
        match self {
            Term::Value(v) => Some(v),
            _ => None,
        }
    }
    pub fn is_ground(&self) -> bool {
        matches!(self, Term::Value(_) | Term::Any | Term::Window { .. })
    }
}

/// A piece of a [`Term::Concat`] name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Part {
    Lit(String),
    Var(Var),
}

/// `kind id role=value ...`: one event (or entity) with its roles. A role
/// may repeat (a marriage has two agents). `kind: None` adds roles to an
/// event typed elsewhere; `id: Term::Any` gives a role to every event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub kind: Option<EventKind>,
    pub id: Term,
    pub roles: Vec<(Role, Term)>,
}

impl Event {
    pub fn role(&self, role: Role) -> impl Iterator<Item = &Term> {
        self.roles.iter().filter(move |(r, _)| *r == role).map(|(_, t)| t)
    }
}

/// The predicate of an assertion or query goal.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Predicate {
    Section(SectionId),
    Aux(Aux),
}

impl Predicate {
    pub fn parse(name: &str) -> Option<Predicate> {
        Aux::from_name(name)
            .map(Predicate::Aux)
            .or_else(|| SectionId::parse(name).map(Predicate::Section))
    }
    pub fn as_str(&self) -> &str {
        match self {
            Predicate::Section(s) => s.as_str(),
            Predicate::Aux(a) => a.as_str(),
        }
    }
}

/// A predicate stated directly: "Alice is married under section 7703 for
/// 2017" is `s7703(alice, _, 2017)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assertion {
    pub pred: Predicate,
    pub args: Vec<Term>,
}

/// The values a [`ForEach`] variable ranges over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Domain {
    /// The integers `from..=to`.
    Range { from: i64, to: i64 },
    List { values: Vec<Value> },
}

impl Domain {
    pub fn values(&self) -> Vec<Value> {
        match self {
            Domain::Range { from, to } => (*from..=*to).map(Value::Int).collect(),
            Domain::List { values } => values.clone(),
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Domain::Range { from, to } => (to - from + 1).max(0) as usize,
            Domain::List { values } => values.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The body facts, once for each value of `var`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForEach {
    pub var: Var,
    pub domain: Domain,
    pub body: Vec<Fact>,
}

/// One line (or group) of a case's facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Fact {
    Event(Event),
    Assert(Assertion),
    ForEach(ForEach),
}

/// One conjunct of a query.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Goal {
    /// The predicate holds for the arguments (variables are existential).
    Holds(Assertion),
    /// The variable is left unbound by the goals before it (an open end).
    Unbound { var: Var },
    /// `var` is January 1st of `year`.
    FirstDay { year: i64, var: Var },
    /// The first date is strictly before the second.
    Before { left: Term, right: Term },
}

/// What a case asks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Query {
    /// Does the conjunction hold? (Entailment cases.)
    Holds { goals: Vec<Goal> },
    /// How much tax does `person` owe for `year`? (Tax cases.)
    Tax { person: String, year: i64 },
}

/// The facts and query of one case: what the parser predicts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CaseIr {
    pub facts: Vec<Fact>,
    pub query: Option<Query>,
}

impl CaseIr {
    /// Calls `f` on every term of the facts and the query: event ids, roles,
    /// arguments, the values a list ranges over, the person a tax query
    /// names. A value or name `f` replaces with a non-value is left as it was.
    pub fn for_each_term_mut(&mut self, f: &mut dyn FnMut(&mut Term)) {
        fn as_term(v: &mut Value, f: &mut dyn FnMut(&mut Term)) {
            let mut t = Term::Value(v.clone());
            f(&mut t);
            if let Term::Value(new) = t {
                *v = new;
            }
        }
        fn facts(fs: &mut [Fact], f: &mut dyn FnMut(&mut Term)) {
            for fact in fs {
                match fact {
                    Fact::Event(ev) => {
                        f(&mut ev.id);
                        ev.roles.iter_mut().for_each(|(_, t)| f(t));
                    }
                    Fact::Assert(a) => a.args.iter_mut().for_each(&mut *f),
                    Fact::ForEach(fe) => {
                        if let Domain::List { values } = &mut fe.domain {
                            values.iter_mut().for_each(|v| as_term(v, f));
                        }
                        facts(&mut fe.body, f);
                    }
                }
            }
        }
        facts(&mut self.facts, f);
        match &mut self.query {
            Some(Query::Tax { person, .. }) => {
                let mut v = Value::Name(person.clone());
                as_term(&mut v, f);
                if let Value::Name(n) = v {
                    *person = n;
                }
            }
            Some(Query::Holds { goals }) => {
                for g in goals {
                    match g {
                        Goal::Holds(a) => a.args.iter_mut().for_each(&mut *f),
                        Goal::Before { left, right } => {
                            f(left);
                            f(right);
                        }
                        Goal::Unbound { .. } | Goal::FirstDay { .. } => {}
                    }
                }
            }
            None => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    Entailment,
    Tax,
}

/// A gold answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Answer {
    Entailment,
    Contradiction,
    /// Tax owed, in dollars.
    Dollars(i64),
}

impl std::fmt::Display for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Answer::Entailment => f.write_str("Entailment"),
            Answer::Contradiction => f.write_str("Contradiction"),
            Answer::Dollars(d) => write!(f, "${d}"),
        }
    }
}

/// A SARA case: text, question, gold answer and gold IR.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    pub id: String,
    pub kind: CaseKind,
    pub text: String,
    pub question: String,
    pub answer: Answer,
    pub ir: CaseIr,
    /// Size of the facts and test in SARA's Prolog, for comparisons.
    pub prolog_facts: String,
    /// Errata applied while reading this case (see [`crate::errata`]).
    pub corrections: Vec<String>,
}
