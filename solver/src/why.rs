//! Why a query holds: one derivation read back from the saturated
//! database, each derived tuple by an instance of a rule, down to the
//! facts the case gives.

use crate::engine::join;
use crate::program::{eval, AggOp, Arg, Atom, CmpOp, Expr, Literal, Num, PredId};
use crate::solve::{max_var, Loaded};
use crate::value::Val;
use crate::{Solver, SolverError};
use lexlog_data::Query;
use std::collections::HashMap;

/// A tuple and what derives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
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
        let Some(env) = first_solution(&body, loaded, max_var(&body) + 1) else { return Ok(vec![]) };
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
    head.args.iter().zip(t).all(|(a, v)| bind_arg(a, *v, env))
}

fn bind_arg(a: &Arg, v: Val, env: &mut [Option<Val>]) -> bool {
    match *a {
        Arg::Wild => true,
        Arg::Const(c) => c.compatible(v),
        Arg::Var(x) => match env[x as usize] {
            Some(old) => old.compatible(v),
            None => {
                env[x as usize] = Some(v);
                true
            }
        },
    }
}

fn instantiate(atom: &Atom, env: &[Option<Val>]) -> Vec<Val> {
    crate::engine::instantiate(atom, env).collect()
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

/// Why a goal fails: each rule that could derive it, how far its body
/// holds, and the first condition that does not.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WhyNot {
    /// The goal, as `pred(a, _, …)`.
    pub goal: String,
    /// One attempt per rule for the goal's predicate; none for a fact the
    /// case does not give.
    pub attempts: Vec<Attempt>,
    /// Not followed further at the depth limit (the rules derive it).
    pub cut: bool,
}

/// A rule's body read against the database, up to its first failure.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Attempt {
    /// `file:line` of the rule.
    pub rule: String,
    /// The conditions that hold, in body order, with their values.
    pub holds: Vec<String>,
    /// The first condition that does not hold, in words.
    pub fails: String,
    /// Why that condition fails, when it is a goal the rules derive.
    pub deeper: Option<Box<WhyNot>>,
}

impl Solver {
    /// Why the first goal of `query` that fails does so, `depth` rules
    /// deep; `None` when the query holds.
    pub fn why_not(&self, case: &str, loaded: &mut Loaded, query: &Query, depth: usize) -> Result<Option<WhyNot>, SolverError> {
        let (body, _) = self.query_body(case, loaded, query)?;
        let nvars = max_var(&body) + 1;
        let Some(k) = first_failure(&body, loaded, nvars) else { return Ok(None) };
        let env = first_solution(&body[..k], loaded, nvars).unwrap_or_else(|| vec![None; nvars]);
        let Literal::Pos(atom) = &body[k] else {
            let goal = self.show_literal(loaded, &body[k], &env);
            return Ok(Some(WhyNot { goal, attempts: vec![], cut: false }));
        };
        Ok(Some(self.explain_failure(loaded, atom.pred, &instantiate(atom, &env), depth)))
    }

    fn explain_failure(&self, loaded: &mut Loaded, pred: PredId, pattern: &[Val], depth: usize) -> WhyNot {
        let goal = self.show_tuple(loaded, pred, pattern);
        let mut attempts = Vec::new();
        let derived = self.program.rules.iter().any(|r| r.head.pred == pred);
        if depth == 0 || !derived {
            return WhyNot { goal, attempts, cut: derived };
        }
        for r in (0..self.program.rules.len()).filter(|&r| self.program.rules[r].head.pred == pred) {
            let rule = &self.program.rules[r];
            let mut env = vec![None; rule.nvars];
            // The goal's open places leave the rule's variables unbound.
            let known: Vec<(&Arg, &Val)> = rule.head.args.iter().zip(pattern).filter(|(_, v)| **v != Val::Any).collect();
            if !known.iter().all(|&(a, v)| bind_arg(a, *v, &mut env)) {
                continue;
            }
            let body = goal_directed(&rule.body, &env);
            let Some(k) = first_failure_from(&body, loaded, &env) else { continue };
            let sol = first_solution_from(&body[..k], loaded, &env).unwrap_or(env);
            let holds = body[..k].iter().filter_map(|l| self.show_holding(loaded, l, &sol)).collect();
            let fails = self.show_literal(loaded, &body[k], &sol);
            let deeper = match &body[k] {
                Literal::Pos(a) if self.program.rules.iter().any(|x| x.head.pred == a.pred) => {
                    Some(Box::new(self.explain_failure(loaded, a.pred, &instantiate(a, &sol), depth - 1)))
                }
                _ => None,
            };
            attempts.push(Attempt { rule: rule.origin.clone(), holds, fails, deeper });
        }
        WhyNot { goal, attempts, cut: false }
    }

    /// A condition that holds, in words (assignments and open-value tests
    /// say nothing).
    fn show_holding(&self, loaded: &Loaded, lit: &Literal, env: &[Option<Val>]) -> Option<String> {
        match lit {
            Literal::Assign(..) | Literal::IsOpen { .. } => None,
            _ => Some(self.show_literal(loaded, lit, env)),
        }
    }

    fn show_literal(&self, loaded: &Loaded, lit: &Literal, env: &[Option<Val>]) -> String {
        match lit {
            Literal::Pos(a) => self.show_tuple(loaded, a.pred, &instantiate(a, env)),
            Literal::Neg(a) => format!("not {}", self.show_tuple(loaded, a.pred, &instantiate(a, env))),
            Literal::Test(op, a, b) => {
                let side = |e| eval(e, env).map_or("?".to_string(), |n| show_num(loaded, n));
                format!("{} {} {}", side(a), op_word(*op), side(b))
            }
            Literal::Agg { op, .. } => format!("a {} over what matches", agg_word(*op)),
            Literal::Assign(_, e) => format!("= {}", eval(e, env).map_or("? (undefined)".to_string(), |n| show_num(loaded, n))),
            Literal::IsOpen { open, .. } => (if *open { "an open value" } else { "a known value" }).to_string(),
        }
    }
}

/// `body` read from a goal whose known values are bound in `env`, where
/// the rules read it bottom-up: an assignment to a bound variable is a
/// test, asked as soon as its variables are bound (so that a failure is
/// the goal's, not that of some other year's tuple).
fn goal_directed(body: &[Literal], env: &[Option<Val>]) -> Vec<Literal> {
    let mut bound: Vec<bool> = env.iter().map(Option::is_some).collect();
    let is_test = |l: &Literal| matches!(l, Literal::Assign(v, _) if bound[*v as usize]);
    let mut waiting: Vec<Literal> = body
        .iter()
        .filter(|l| is_test(l))
        .map(|l| match l {
            Literal::Assign(v, e) => Literal::Test(CmpOp::Eq, Expr::Var(*v), e.clone()),
            _ => unreachable!("filtered to assignments"),
        })
        .collect();
    let rest: Vec<&Literal> = body.iter().filter(|l| !is_test(l)).collect();
    let mut out: Vec<Literal> = Vec::new();
    let flush = |out: &mut Vec<Literal>, waiting: &mut Vec<Literal>, bound: &[bool]| {
        let ready = |e: &Expr| expr_vars(e).iter().all(|&v| bound[v as usize]);
        let (now, later): (Vec<Literal>, Vec<Literal>) =
            waiting.drain(..).partition(|t| matches!(t, Literal::Test(_, a, b) if ready(a) && ready(b)));
        out.extend(now);
        *waiting = later;
    };
    flush(&mut out, &mut waiting, &bound);
    for lit in rest {
        out.push(lit.clone());
        match lit {
            Literal::Pos(a) => a.args.iter().for_each(|x| if let Arg::Var(v) = x { bound[*v as usize] = true }),
            Literal::Assign(v, _) | Literal::Agg { out: v, .. } => bound[*v as usize] = true,
            _ => {}
        }
        flush(&mut out, &mut waiting, &bound);
    }
    out.extend(waiting);
    out
}

fn expr_vars(e: &Expr) -> Vec<crate::program::VarId> {
    match e {
        Expr::Var(v) => vec![*v],
        Expr::Const(_) => vec![],
        Expr::Call(_, args) => args.iter().flat_map(expr_vars).collect(),
    }
}

/// The index of the first literal of `body` that no solution of the ones
/// before it satisfies; `None` when the whole body holds.
fn first_failure(body: &[Literal], loaded: &mut Loaded, nvars: usize) -> Option<usize> {
    first_failure_from(body, loaded, &vec![None; nvars])
}

fn first_failure_from(body: &[Literal], loaded: &mut Loaded, env: &[Option<Val>]) -> Option<usize> {
    (1..=body.len()).find(|&k| first_solution_from(&body[..k], loaded, env).is_none()).map(|k| k - 1)
}

fn first_solution(body: &[Literal], loaded: &mut Loaded, nvars: usize) -> Option<Vec<Option<Val>>> {
    first_solution_from(body, loaded, &vec![None; nvars])
}

fn first_solution_from(body: &[Literal], loaded: &mut Loaded, env: &[Option<Val>]) -> Option<Vec<Option<Val>>> {
    let mut env = env.to_vec();
    let mut first = None;
    join(body, 0, &mut loaded.db, &None, &mut env, &mut |e| {
        if first.is_none() {
            first = Some(e.to_vec());
        }
    });
    first
}
