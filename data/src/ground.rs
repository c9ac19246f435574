//! Ground facts: the IR with every [`ForEach`] unrolled and every variable
//! substituted. This is what the solver loads.

use crate::ir::{Assertion, Event, Fact, Part, Term, Value, Var};
use crate::vocab::{EventKind, Role};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One ground fact. Terms are [`Term::Value`], [`Term::Any`] or
/// [`Term::Window`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GroundFact {
    Type { kind: EventKind, id: Term },
    Role { event: Term, role: Role, value: Term },
    Assert { pred: crate::ir::Predicate, args: Vec<Term> },
}

/// Why the IR could not be unrolled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpandError {
    #[error("variable {0} is not bound by an enclosing `for`")]
    UnboundVar(Var),
    #[error("variable {var} is {value:?}, not a year")]
    NotAYear { var: Var, value: Value },
    #[error("the facts unroll to more than {0} ground facts")]
    TooLarge(usize),
}

/// The most ground facts one case may unroll to.
pub const MAX_GROUND_FACTS: usize = 1_000_000;

/// Unrolls `facts` into ground facts, in order.
pub fn expand(facts: &[Fact]) -> Result<Vec<GroundFact>, ExpandError> {
    let mut out = Vec::new();
    let mut env = HashMap::new();
    expand_into(facts, &mut env, &mut out)?;
    Ok(out)
}

fn expand_into(
    facts: &[Fact],
    env: &mut HashMap<Var, Value>,
    out: &mut Vec<GroundFact>,
) -> Result<(), ExpandError> {
    for fact in facts {
        match fact {
            Fact::Event(Event { kind, id, roles }) => {
                let id = instantiate(id, env)?;
                if let Some(kind) = kind {
                    out.push(GroundFact::Type { kind: *kind, id: id.clone() });
                }
                for (role, value) in roles {
                    out.push(GroundFact::Role {
                        event: id.clone(),
                        role: *role,
                        value: instantiate(value, env)?,
                    });
                }
            }
            Fact::Assert(Assertion { pred, args }) => out.push(GroundFact::Assert {
                pred: pred.clone(),
                args: args.iter().map(|a| instantiate(a, env)).collect::<Result<_, _>>()?,
            }),
            Fact::ForEach(group) => {
                let saved = env.get(&group.var).cloned();
                for value in group.domain.values() {
                    env.insert(group.var.clone(), value);
                    expand_into(&group.body, env, out)?;
                }
                match saved {
                    Some(v) => env.insert(group.var.clone(), v),
                    None => env.remove(&group.var),
                };
            }
        }
        if out.len() > MAX_GROUND_FACTS {
            return Err(ExpandError::TooLarge(MAX_GROUND_FACTS));
        }
    }
    Ok(())
}

/// `term` with the variables of `env` substituted.
pub fn instantiate(term: &Term, env: &HashMap<Var, Value>) -> Result<Term, ExpandError> {
    let lookup = |v: &Var| env.get(v).ok_or_else(|| ExpandError::UnboundVar(v.clone()));
    let year_day = |v: &Var, month: u32, day: u32| -> Result<Term, ExpandError> {
        let value = lookup(v)?;
        let not_year = || ExpandError::NotAYear { var: v.clone(), value: value.clone() };
        let Value::Int(year) = value else {
            return Err(not_year());
        };
        let year = i32::try_from(*year).map_err(|_| not_year())?;
        NaiveDate::from_ymd_opt(year, month, day)
            .map(Term::date)
            .ok_or_else(not_year)
    };
    Ok(match term {
        Term::Var(v) => Term::Value(lookup(v)?.clone()),
        Term::Concat(parts) => {
            let mut name = String::new();
            for part in parts {
                match part {
                    Part::Lit(s) => name.push_str(s),
                    Part::Var(v) => name.push_str(&lookup(v)?.splice_text()),
                }
            }
            Term::name(name)
        }
        Term::FirstDay(v) => year_day(v, 1, 1)?,
        Term::LastDay(v) => year_day(v, 12, 31)?,
        Term::Value(_) | Term::Any | Term::Window { .. } => term.clone(),
    })
}

/// The facts as a sorted set, for comparing two IRs by meaning.
pub fn fact_set(facts: &[Fact]) -> Result<Vec<GroundFact>, ExpandError> {
    let mut g = expand(facts)?;
    g.sort();
    g.dedup();
    Ok(g)
}
