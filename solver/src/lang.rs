//! The lexlog rule language: Prolog's clause syntax, read with
//! [`lexlog_data::prolog`], compiled to Datalog [`Rule`]s.
//!
//! ```text
//! % §7703(a)(2): legally separated under a decree of divorce or separate maintenance
//! not_married_by_decree(P, Y) :- legal_separation(E), agent(E, P), start(E, D), year(D) =< Y, year(Y).
//! ```
//!
//! Body literals: atoms, `\+ atom` (stratified negation), `var(X)` (X holds
//! an open value: an event without an end) and `nonvar(X)` (a known one),
//! `X is Expr` or
//! `X = Expr` (binds X, or tests when X is bound), comparisons (`<`, `=<`,
//! `>`, `>=`, `==`, `\==`, `=:=`), `aggregate_all(sum(E) | count | max(E) |
//! min(E), Goal, Out)`, and `;` (each alternative becomes a rule).
//! Expressions: integers, dates as `"2017-01-01"`, `+ - * /` over exact
//! rationals, and the functions of [`Func`]. Bodies run left to right; the
//! compiler rejects a literal that reads an unbound variable.

use crate::error::SolverError;
use crate::program::*;
use crate::value::{Symbols, Val};
use lexlog_data::prolog::{parse_clauses, PTerm};
use std::collections::HashMap;

/// A set of rules over named predicates.
#[derive(Debug, Clone, Default)]
pub struct Program {
    pub preds: Vec<PredInfo>,
    pub pred_index: HashMap<(String, usize), PredId>,
    pub rules: Vec<Rule>,
    pub symbols: Symbols,
}

impl Program {
    pub fn pred(&mut self, name: &str, arity: usize) -> PredId {
        if let Some(&p) = self.pred_index.get(&(name.to_string(), arity)) {
            return p;
        }
        let p = self.preds.len();
        self.preds.push(PredInfo { name: name.to_string(), arity });
        self.pred_index.insert((name.to_string(), arity), p);
        p
    }

    pub fn find(&self, name: &str, arity: usize) -> Option<PredId> {
        self.pred_index.get(&(name.to_string(), arity)).copied()
    }

    /// Compiles the clauses of `source` (named `file` in errors) into rules.
    pub fn add_source(&mut self, file: &str, source: &str) -> Result<(), SolverError> {
        let clauses = parse_clauses(source, file, 1)?;
        for clause in clauses {
            let origin = format!("{file}:{}", clause.line);
            let Some(head) = &clause.head else {
                return Err(SolverError::Rule { origin, message: "directives are not rules".into() });
            };
            let alternatives = match &clause.body {
                Some(b) => dnf(b).map_err(|message| SolverError::Rule { origin: origin.clone(), message })?,
                None => vec![vec![]],
            };
            for body in alternatives {
                let mut c = RuleCompiler { program: self, vars: HashMap::new(), bound: vec![], names: &clause.var_names, origin: &origin };
                let body = c.body(&body)?;
                let head = c.head(head)?;
                let nvars = c.bound.len();
                self.rules.push(Rule { head, body, nvars, origin: origin.clone() });
            }
        }
        Ok(())
    }
}

/// Disjunctive normal form of a body: alternatives of conjunctions.
fn dnf(t: &PTerm) -> Result<Vec<Vec<PTerm>>, String> {
    match t.functor() {
        Some((",", 2)) => {
            let (l, r) = (dnf(&t.args()[0])?, dnf(&t.args()[1])?);
            Ok(l.iter().flat_map(|a| r.iter().map(move |b| a.iter().chain(b).cloned().collect())).collect())
        }
        Some((";", 2)) => {
            let mut l = dnf(&t.args()[0])?;
            l.extend(dnf(&t.args()[1])?);
            Ok(l)
        }
        Some(("->", 2)) => Err("if-then-else is not supported in rules; use negation".into()),
        _ => Ok(vec![vec![t.clone()]]),
    }
}

struct RuleCompiler<'a> {
    program: &'a mut Program,
    /// Source variable number -> rule variable.
    vars: HashMap<u32, VarId>,
    /// Whether each rule variable is bound at this point.
    bound: Vec<bool>,
    names: &'a [String],
    origin: &'a str,
}

impl RuleCompiler<'_> {
    fn err(&self, message: impl Into<String>) -> SolverError {
        SolverError::Rule { origin: self.origin.to_string(), message: message.into() }
    }

    fn var(&mut self, v: u32) -> VarId {
        if let Some(&id) = self.vars.get(&v) {
            return id;
        }
        let id = self.bound.len() as VarId;
        self.bound.push(false);
        self.vars.insert(v, id);
        id
    }

    /// Forgets bindings made since `before` was taken (variable slots stay
    /// allocated, so ids are never reused).
    fn restore(&mut self, before: &[bool]) {
        for (i, b) in self.bound.iter_mut().enumerate() {
            *b = before.get(i).copied().unwrap_or(false);
        }
    }

    fn is_anonymous(&self, v: u32) -> bool {
        self.names[v as usize].starts_with('_')
    }

    fn is_bound(&self, v: u32) -> bool {
        self.vars.get(&v).is_some_and(|&id| self.bound[id as usize])
    }

    fn constant(&mut self, t: &PTerm) -> Result<Val, SolverError> {
        Ok(match t {
            PTerm::Int(i) => Val::Int(*i),
            PTerm::Atom(a) => Val::Sym(self.program.symbols.intern(a)),
            PTerm::Str(s) => match chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                Ok(d) if s.len() == 10 => Val::Date(d),
                _ => Val::Sym(self.program.symbols.intern(s)),
            },
            PTerm::List(items) => {
                let vals = items.iter().map(|i| self.constant(i)).collect::<Result<Vec<_>, _>>()?;
                self.program.symbols.list(vals)
            }
            other => return Err(self.err(format!("{other} is not a constant"))),
        })
    }

    /// An atom argument; binds its variable when `binds`.
    fn arg(&mut self, t: &PTerm, binds: bool) -> Result<Arg, SolverError> {
        match t {
            PTerm::Var(v) if self.is_anonymous(*v) && !self.vars.contains_key(v) => Ok(Arg::Wild),
            PTerm::Var(v) => {
                let id = self.var(*v);
                if binds {
                    self.bound[id as usize] = true;
                }
                Ok(Arg::Var(id))
            }
            other => Ok(Arg::Const(self.constant(other)?)),
        }
    }

    fn atom(&mut self, t: &PTerm, binds: bool) -> Result<Atom, SolverError> {
        let Some((name, arity)) = t.functor() else {
            return Err(self.err(format!("{t} is not an atom")));
        };
        if arity > crate::engine::MAX_ARITY {
            return Err(self.err(format!("{name}/{arity} has more than {} arguments", crate::engine::MAX_ARITY)));
        }
        let pred = self.program.pred(name, arity);
        let args = t.args().iter().map(|a| self.arg(a, binds)).collect::<Result<_, _>>()?;
        Ok(Atom { pred, args })
    }

    fn expr(&mut self, t: &PTerm) -> Result<Expr, SolverError> {
        match t {
            PTerm::Var(v) => {
                if !self.is_bound(*v) {
                    return Err(self.err(format!("variable {} is read before it is bound", self.names[*v as usize])));
                }
                Ok(Expr::Var(self.vars[v]))
            }
            PTerm::Compound(f, args) => {
                let func = Func::from_name(f, args.len()).ok_or_else(|| self.err(format!("unknown function {f}/{}", args.len())))?;
                let args = args.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?;
                Ok(Expr::Call(func, args))
            }
            other => Ok(Expr::Const(self.constant(other)?)),
        }
    }

    fn literal(&mut self, t: &PTerm) -> Result<Option<Literal>, SolverError> {
        let Some((name, arity)) = t.functor() else {
            return Err(self.err(format!("{t} is not a goal")));
        };
        let a = t.args();
        let cmp = |op| Some(op);
        let op = match (name, arity) {
            ("<", 2) => cmp(CmpOp::Lt),
            ("=<", 2) => cmp(CmpOp::Le),
            (">", 2) => cmp(CmpOp::Gt),
            (">=", 2) => cmp(CmpOp::Ge),
            ("==" | "=:=", 2) => cmp(CmpOp::Eq),
            ("\\==" | "=\\=" | "\\=", 2) => cmp(CmpOp::Ne),
            _ => None,
        };
        if let Some(op) = op {
            return Ok(Some(Literal::Test(op, self.expr(&a[0])?, self.expr(&a[1])?)));
        }
        Ok(Some(match (name, arity) {
            ("true", 0) => return Ok(None),
            ("var" | "nonvar", 1) => match &a[0] {
                PTerm::Var(v) if self.is_bound(*v) => Literal::IsOpen { var: self.vars[v], open: name == "var" },
                _ => return Err(self.err(format!("{name}/1 tests a variable bound earlier in the body"))),
            },
            ("is" | "=", 2) => match &a[0] {
                PTerm::Var(v) if !self.is_bound(*v) => {
                    let e = self.expr(&a[1])?;
                    let id = self.var(*v);
                    self.bound[id as usize] = true;
                    Literal::Assign(id, e)
                }
                _ => Literal::Test(CmpOp::Eq, self.expr(&a[0])?, self.expr(&a[1])?),
            },
            ("\\+", 1) => {
                let before = self.bound.clone();
                let atom = self.atom(&a[0], false)?;
                self.restore(&before);
                // Variables first seen in a negation stay local to it.
                let atom = Atom {
                    args: atom
                        .args
                        .into_iter()
                        .map(|x| match x {
                            Arg::Var(v) if !self.bound[v as usize] => Arg::Wild,
                            x => x,
                        })
                        .collect(),
                    ..atom
                };
                Literal::Neg(atom)
            }
            ("aggregate_all", 3) => {
                let (op, value) = match a[0].functor() {
                    Some(("count", 0)) => (AggOp::Count, None),
                    Some(("sum", 1)) => (AggOp::Sum, Some(&a[0].args()[0])),
                    Some(("max", 1)) => (AggOp::Max, Some(&a[0].args()[0])),
                    Some(("min", 1)) => (AggOp::Min, Some(&a[0].args()[0])),
                    _ => return Err(self.err(format!("unsupported aggregate {}", a[0]))),
                };
                let PTerm::Var(out) = &a[2] else {
                    return Err(self.err("an aggregate's result must be a variable"));
                };
                if self.is_bound(*out) {
                    return Err(self.err("an aggregate's result must be a fresh variable"));
                }
                let before = self.bound.clone();
                let goals = dnf(&a[1]).map_err(|m| self.err(m))?;
                let [goal] = goals.as_slice() else {
                    return Err(self.err("an aggregate's goal may not use ';'"));
                };
                let body = self.body(goal)?;
                let value = value.map(|v| self.expr(v)).transpose()?;
                self.restore(&before);
                let out = self.var(*out);
                self.bound[out as usize] = true;
                Literal::Agg { op, value, body, out }
            }
            _ => Literal::Pos(self.atom(t, true)?),
        }))
    }

    fn body(&mut self, goals: &[PTerm]) -> Result<Vec<Literal>, SolverError> {
        let mut out = Vec::new();
        for g in goals {
            if let Some(l) = self.literal(g)? {
                out.push(l);
            }
        }
        Ok(out)
    }

    fn head(&mut self, t: &PTerm) -> Result<Atom, SolverError> {
        let Some((name, arity)) = t.functor() else {
            return Err(self.err(format!("{t} is not a rule head")));
        };
        let pred = self.program.pred(name, arity);
        let mut args = Vec::new();
        for a in t.args() {
            args.push(match a {
                PTerm::Var(v) if self.is_bound(*v) => Arg::Var(self.vars[v]),
                // A head variable the body does not bind is an open argument.
                PTerm::Var(_) => Arg::Wild,
                other => Arg::Const(self.constant(other)?),
            });
        }
        Ok(Atom { pred, args })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbound_reads_are_rejected_with_the_line() {
        let mut p = Program::default();
        let err = p.add_source("r.lex", "a(X) :- b(X).\nc(Y) :- Y > 3.\n").unwrap_err();
        assert_eq!(err.to_string(), "r.lex:2: variable Y is read before it is bound");
    }

    #[test]
    fn disjunction_becomes_two_rules() {
        let mut p = Program::default();
        p.add_source("r.lex", "a(X) :- (b(X) ; c(X)), \\+ d(X).").unwrap();
        assert_eq!(p.rules.len(), 2);
        assert!(matches!(p.rules[0].body[1], Literal::Neg(_)));
    }
}
