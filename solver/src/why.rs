//! Why a query holds: one derivation read back from the saturated
//! database, each derived tuple by an instance of a rule, down to the
//! facts the case gives.

use crate::engine::join;
use crate::program::{eval, AggOp, Arg, Atom, CmpOp, Literal, Num, PredId};
use crate::solve::{max_var, Loaded};
use crate::value::Val;
use crate::{Solver, SolverError};
use lexlog_data::Query;
use std::collections::HashMap;

/// A tuple and what derives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derivation {
    /// The tuple, as `pred(a, b, …)`.
    pub fact: String,
    /// `file:line` of the rule that derives it; `None` for a fact the case
    /// gives (or one cut off, see `cut`).
    pub rule: Option<String>,
    /// What the rule asks besides its premises, in words: absences,
    /// comparisons, aggregates.
    pub conditions: Vec<String>,
    /// The derivations of the rule's positive premises, in body order.
    pub premises: Vec<Derivation>,
    /// Left unexplained at the depth limit.
    pub cut: bool,
    /// Derived earlier in the same tree, where its premises are shown.
    pub repeated: bool,
}

/// The rule (`file:line`) of each tuple derived so far.
type Done = HashMap<(PredId, Vec<Val>), String>;

/// At most this many solutions of a rule body are tried for one tuple.
const WITNESSES: usize = 8;

impl Solver {
    /// A derivation of each positive goal of `query` in `loaded` (a
    /// database [`Solver::solve_loaded`] saturated), at most `depth` rules
    /// deep; empty when the query does not hold.
    pub fn why(&self, case: &str, loaded: &mut Loaded, query: &Query, depth: usize) -> Result<Vec<Derivation>, SolverError> {
        let (body, _) = self.query_body(case, loaded, query)?;
        let mut env = vec![None; max_var(&body) + 1];
        let mut first = None;
        join(&body, 0, &mut loaded.db, &None, &mut env, &mut |e| {
            if first.is_none() {
                first = Some(e.to_vec());
            }
        });
        let Some(env) = first else { return Ok(vec![]) };
        let mut out = Vec::new();
        let mut done = HashMap::new();
        for lit in &body {
            if let Literal::Pos(atom) = lit {
                if let Some(t) = stored(loaded, atom.pred, &instantiate(atom, &env), &[]) {
                    out.push(self.derive(loaded, atom.pred, &t, depth, &mut Vec::new(), &mut done));
                }
            }
        }
        Ok(out)
    }

    /// One derivation of the stored tuple `t` of `pred`; `stack` holds the
    /// tuples being derived above it, which may not derive it in turn, and
    /// `done` the rule of each tuple derived so far.
    fn derive(&self, loaded: &mut Loaded, pred: PredId, t: &[Val], depth: usize, stack: &mut Vec<(PredId, Vec<Val>)>, done: &mut Done) -> Derivation {
        let fact = self.show_tuple(loaded, pred, t);
        let leaf = |cut| Derivation { fact: fact.clone(), rule: None, conditions: vec![], premises: vec![], cut, repeated: false };
        if let Some(rule) = done.get(&(pred, t.to_vec())) {
            return Derivation { rule: Some(rule.clone()), repeated: true, ..leaf(false) };
        }
        let rules: Vec<usize> = (0..self.program.rules.len()).filter(|&r| self.program.rules[r].head.pred == pred).collect();
        if rules.is_empty() {
            return leaf(false);
        }
        if depth == 0 {
            return leaf(true);
        }
        stack.push((pred, t.to_vec()));
        for r in rules {
            let rule = &self.program.rules[r];
            let mut env = vec![None; rule.nvars];
            if !bind(&rule.head, t, &mut env) {
                continue;
            }
            let mut solutions = Vec::new();
            join(&rule.body, 0, &mut loaded.db, &None, &mut env, &mut |e| {
                if solutions.len() < WITNESSES {
                    solutions.push(e.to_vec());
                }
            });
            'solution: for sol in solutions {
                // An assignment in the body may rebind a head variable.
                if !instantiate(&rule.head, &sol).iter().zip(t).all(|(a, b)| a.compatible(*b)) {
                    continue;
                }
                let mut premises = Vec::new();
                let mut conditions = Vec::new();
                for lit in &rule.body {
                    match lit {
                        Literal::Pos(atom) => match stored(loaded, atom.pred, &instantiate(atom, &sol), stack) {
                            Some(p) => premises.push((atom.pred, p)),
                            None => continue 'solution,
                        },
                        Literal::Neg(atom) => conditions.push(format!("not {}", self.show_tuple(loaded, atom.pred, &instantiate(atom, &sol)))),
                        Literal::Test(op, a, b) => {
                            let side = |e| eval(e, &sol).map_or("?".to_string(), |n| show_num(loaded, n));
                            conditions.push(format!("{} {} {}", side(a), op_word(*op), side(b)));
                        }
                        Literal::Agg { op, out, .. } => {
                            let v = sol[*out as usize].map_or("?".to_string(), |v| loaded.symbols.show(v));
                            conditions.push(format!("{} of the matches: {v}", agg_word(*op)));
                        }
                        Literal::Assign(..) | Literal::IsOpen { .. } => {}
                    }
                }
                let premises = premises.into_iter().map(|(p, tp)| self.derive(loaded, p, &tp, depth - 1, stack, done)).collect();
                stack.pop();
                done.insert((pred, t.to_vec()), rule.origin.clone());
                return Derivation { fact, rule: Some(rule.origin.clone()), conditions, premises, cut: false, repeated: false };
            }
        }
        stack.pop();
        // No rule instance derives it: the case gives it, unless the case's
        // statements of `pred` (`stated_pred`) lack it.
        let name = &self.program.preds[pred].name;
        let stated = self.program.find(&format!("stated_{name}"), t.len());
        leaf(stated.is_some_and(|s| !loaded.db.relations[s].iter().any(|x| x == t)))
    }

    fn show_tuple(&self, loaded: &Loaded, pred: PredId, t: &[Val]) -> String {
        let args: Vec<String> = t.iter().map(|v| if *v == Val::Any { "_".into() } else { loaded.symbols.show(*v) }).collect();
        format!("{}({})", self.program.preds[pred].name, args.join(", "))
    }
}

/// Binds the head's variables to `t`; false where a constant or a repeated
/// variable disagrees with it.
fn bind(head: &Atom, t: &[Val], env: &mut [Option<Val>]) -> bool {
    head.args.iter().zip(t).all(|(a, v)| match *a {
        Arg::Wild => true,
        Arg::Const(c) => c.compatible(*v),
        Arg::Var(x) => match env[x as usize] {
            Some(old) => old.compatible(*v),
            None => {
                env[x as usize] = Some(*v);
                true
            }
        },
    })
}

fn instantiate(atom: &Atom, env: &[Option<Val>]) -> Vec<Val> {
    atom.args
        .iter()
        .map(|a| match *a {
            Arg::Var(v) => env[v as usize].unwrap_or(Val::Any),
            Arg::Const(c) => c,
            Arg::Wild => Val::Any,
        })
        .collect()
}

/// A stored tuple of `pred` matching `pattern`, not one on `stack`.
fn stored(loaded: &Loaded, pred: PredId, pattern: &[Val], stack: &[(PredId, Vec<Val>)]) -> Option<Vec<Val>> {
    loaded
        .db
        .matches(pred, pattern)
        .into_iter()
        .find(|t| !stack.iter().any(|(p, s)| *p == pred && s.as_slice() == *t))
        .map(<[Val]>::to_vec)
}

fn show_num(loaded: &Loaded, n: Num) -> String {
    match n {
        Num::Val(v) => loaded.symbols.show(v),
        Num::Ratio(r) if r.den == 1 => r.num.to_string(),
        Num::Ratio(r) => format!("{:.2}", r.num as f64 / r.den as f64),
    }
}

fn op_word(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Lt => "<",
        CmpOp::Le => "=<",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
        CmpOp::Eq => "=",
        CmpOp::Ne => "\\=",
    }
}

fn agg_word(op: AggOp) -> &'static str {
    match op {
        AggOp::Sum => "sum",
        AggOp::Count => "count",
        AggOp::Max => "max",
        AggOp::Min => "min",
    }
}
