//! Bottom-up evaluation of a stratified program.
//!
//! Each stratum runs to a fixpoint by semi-naive evaluation: a relation's
//! tuples are appended in rounds, the tuples of the last round are its
//! *delta*, and a recursive rule is re-run once per recursive body atom
//! with that atom reading only the delta (every other atom reads the whole
//! relation), so each round derives only from what is new. Relations are
//! deduplicated vectors with hash indexes built lazily per set of bound
//! positions; tuples with open values in those positions (`_`, date
//! windows) sit in a side list that every lookup scans.
//!
//! Every run is bounded (rounds per stratum, tuples in all) and reports why
//! it stopped.

use crate::lang::Program;
use crate::program::*;
use crate::stratify::Stratum;
use crate::value::Val;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Most arguments a predicate may have.
pub const MAX_ARITY: usize = 16;

/// Bounds on one evaluation.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_rounds: usize,
    pub max_tuples: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_rounds: 10_000, max_tuples: 2_000_000 }
    }
}

/// Why an evaluation stopped.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StopReason {
    /// Every stratum reached its fixpoint.
    Saturated,
    /// A stratum needed more rounds than allowed.
    RoundLimit { stratum: usize },
    /// The database grew past the tuple limit.
    TupleLimit,
}

#[derive(Default, Debug, Clone)]
struct Index {
    built_upto: usize,
    map: HashMap<Vec<Val>, Vec<u32>>,
    /// Tuples with an open value at an indexed position.
    open: Vec<u32>,
}

/// A deduplicated relation of fixed arity, stored flat.
#[derive(Debug, Clone, Default)]
pub struct Relation {
    pub arity: usize,
    data: Vec<Val>,
    set: HashSet<Box<[Val]>>,
    indexes: HashMap<u64, Index>,
}

impl Relation {
    fn new(arity: usize) -> Self {
        Relation { arity, ..Default::default() }
    }

    pub fn with_arity(self, arity: usize) -> Self {
        Relation { arity, ..self }
    }

    pub fn len(&self) -> usize {
        // A nullary relation's one fact, if any, is in `set`.
        self.data.len().checked_div(self.arity).unwrap_or(self.set.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn tuple(&self, i: usize) -> &[Val] {
        &self.data[i * self.arity..(i + 1) * self.arity]
    }

    pub fn iter(&self) -> impl Iterator<Item = &[Val]> {
        (0..self.len()).map(|i| self.tuple(i))
    }

    /// Adds a tuple; false if it was there.
    pub fn insert(&mut self, t: &[Val]) -> bool {
        debug_assert_eq!(t.len(), self.arity);
        if self.set.contains(t) {
            return false;
        }
        self.set.insert(t.into());
        if self.arity == 0 {
            return true;
        }
        self.data.extend_from_slice(t);
        true
    }

    /// Tuple numbers that may match `key` at the positions of `mask`.
    fn candidates(&mut self, mask: u64, key: &[Val], range: &Range<usize>, out: &mut Vec<u32>) {
        out.clear();
        if mask == 0 || self.arity == 0 {
            out.extend((range.start as u32)..(range.end as u32));
            return;
        }
        let arity = self.arity;
        let n = self.len();
        let index = self.indexes.entry(mask).or_default();
        while index.built_upto < n {
            let i = index.built_upto;
            let t = &self.data[i * arity..(i + 1) * arity];
            let positions = (0..arity).filter(|p| mask & (1 << p) != 0);
            if positions.clone().any(|p| t[p].is_open()) {
                index.open.push(i as u32);
            } else {
                index.map.entry(positions.map(|p| t[p]).collect()).or_default().push(i as u32);
            }
            index.built_upto += 1;
        }
        let in_range = |&i: &u32| range.contains(&(i as usize));
        if let Some(hits) = index.map.get(key) {
            out.extend(hits.iter().copied().filter(in_range));
        }
        out.extend(index.open.iter().copied().filter(in_range));
    }
}

/// The relations of one evaluation, indexed by predicate.
#[derive(Debug, Clone)]
pub struct Database {
    pub relations: Vec<Relation>,
}

impl Database {
    pub fn new(program: &Program) -> Self {
        Database { relations: program.preds.iter().map(|p| Relation::new(p.arity)).collect() }
    }

    pub fn insert(&mut self, pred: PredId, t: &[Val]) -> bool {
        self.relations[pred].insert(t)
    }

    pub fn tuple_count(&self) -> usize {
        self.relations.iter().map(Relation::len).sum()
    }

    /// Whether some tuple of `pred` is compatible with `pattern` (`Any`
    /// matches all).
    pub fn matches(&self, pred: PredId, pattern: &[Val]) -> Vec<&[Val]> {
        self.relations[pred]
            .iter()
            .filter(|t| t.iter().zip(pattern).all(|(a, b)| a.compatible(*b)))
            .collect()
    }
}

/// Per-stratum statistics of a run.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct RunReport {
    pub rounds: usize,
    pub derived: usize,
    pub rule_firings: usize,
}

/// Evaluates the strata (only those in `relevant`, when given) over `db`.
pub fn run(
    program: &Program,
    strata: &[Stratum],
    relevant: Option<&HashSet<PredId>>,
    db: &mut Database,
    limits: Limits,
) -> (StopReason, RunReport) {
    let mut report = RunReport::default();
    for (s, stratum) in strata.iter().enumerate() {
        if stratum.rules.is_empty() || relevant.is_some_and(|r| !stratum.preds.iter().any(|p| r.contains(p))) {
            continue;
        }
        let in_stratum: HashSet<PredId> = stratum.preds.iter().copied().collect();
        // Round 0: every rule over whole relations.
        let mut marks: HashMap<PredId, usize> = stratum.preds.iter().map(|&p| (p, db.relations[p].len())).collect();
        let mut new = Vec::new();
        for &r in &stratum.rules {
            eval_rule(program, &program.rules[r], db, None, &mut new);
            report.rule_firings += 1;
        }
        report.derived += commit(db, &mut new);
        report.rounds += 1;
        if db.tuple_count() > limits.max_tuples {
            return (StopReason::TupleLimit, report);
        }
        if !stratum.recursive {
            continue;
        }
        let mut round = 1;
        loop {
            let deltas: HashMap<PredId, Range<usize>> = stratum
                .preds
                .iter()
                .map(|&p| (p, marks[&p]..db.relations[p].len()))
                .collect();
            if deltas.values().all(|r| r.is_empty()) {
                break;
            }
            if round >= limits.max_rounds {
                return (StopReason::RoundLimit { stratum: s }, report);
            }
            marks = stratum.preds.iter().map(|&p| (p, db.relations[p].len())).collect();
            for &r in &stratum.rules {
                let rule = &program.rules[r];
                for (i, lit) in rule.body.iter().enumerate() {
                    if let Literal::Pos(a) = lit {
                        if in_stratum.contains(&a.pred) && !deltas[&a.pred].is_empty() {
                            eval_rule(program, rule, db, Some((i, deltas[&a.pred].clone())), &mut new);
                            report.rule_firings += 1;
                        }
                    }
                }
            }
            report.derived += commit(db, &mut new);
            report.rounds += 1;
            round += 1;
            if db.tuple_count() > limits.max_tuples {
                return (StopReason::TupleLimit, report);
            }
        }
    }
    (StopReason::Saturated, report)
}

/// Naive evaluation, the reference for semi-naive: every round re-runs
/// every rule of the stratum over whole relations until nothing is new.
pub fn run_naive(program: &Program, strata: &[Stratum], db: &mut Database, limits: Limits) -> StopReason {
    for (s, stratum) in strata.iter().enumerate() {
        let mut rounds = 0;
        loop {
            let mut new = Vec::new();
            for &r in &stratum.rules {
                eval_rule(program, &program.rules[r], db, None, &mut new);
            }
            if commit(db, &mut new) == 0 {
                break;
            }
            rounds += 1;
            if rounds >= limits.max_rounds {
                return StopReason::RoundLimit { stratum: s };
            }
        }
    }
    StopReason::Saturated
}

fn commit(db: &mut Database, new: &mut Vec<(PredId, Box<[Val]>)>) -> usize {
    let n = new.drain(..).filter(|(p, t)| db.insert(*p, t)).count();
    n
}

/// Runs `rule`, with body literal `delta.0` reading only tuples `delta.1`,
/// and pushes the head tuples it derives.
fn eval_rule(
    program: &Program,
    rule: &Rule,
    db: &mut Database,
    delta: Option<(usize, Range<usize>)>,
    out: &mut Vec<(PredId, Box<[Val]>)>,
) {
    let mut env = vec![None; rule.nvars];
    let mut emit = |env: &[Option<Val>]| {
        let t: Box<[Val]> = instantiate(&rule.head, env).collect();
        out.push((rule.head.pred, t));
    };
    let _ = program;
    join(&rule.body, 0, db, &delta, &mut env, &mut emit);
}

/// The values of `atom`'s arguments under `env`: an unbound variable or a
/// wildcard is an open value.
pub(crate) fn instantiate<'a>(atom: &'a Atom, env: &'a [Option<Val>]) -> impl Iterator<Item = Val> + 'a {
    atom.args.iter().map(|a| match a {
        Arg::Var(v) => env[*v as usize].unwrap_or(Val::Any),
        Arg::Const(c) => *c,
        Arg::Wild => Val::Any,
    })
}

/// Solves `body[i..]` under `env`, calling `emit` on each solution.
pub(crate) fn join(
    body: &[Literal],
    i: usize,
    db: &mut Database,
    delta: &Option<(usize, Range<usize>)>,
    env: &mut Vec<Option<Val>>,
    emit: &mut dyn FnMut(&[Option<Val>]),
) {
    let Some(lit) = body.get(i) else {
        emit(env);
        return;
    };
    match lit {
        Literal::Pos(atom) => {
            let range = match delta {
                Some((d, r)) if *d == i => r.clone(),
                _ => 0..db.relations[atom.pred].len(),
            };
            let (mask, key) = lookup_key(atom, env);
            let mut cands = Vec::new();
            db.relations[atom.pred].candidates(mask, &key, &range, &mut cands);
            let arity = atom.args.len();
            let mut t = [Val::Any; MAX_ARITY];
            for c in cands {
                t[..arity].copy_from_slice(db.relations[atom.pred].tuple(c as usize));
                let mut set = [0u16; MAX_ARITY];
                let mut nset = 0;
                let mut ok = true;
                for (j, arg) in atom.args.iter().enumerate() {
                    match *arg {
                        Arg::Wild => {}
                        Arg::Const(k) => ok = t[j].compatible(k),
                        Arg::Var(v) => match env[v as usize] {
                            Some(x) => ok = t[j].compatible(x),
                            None => {
                                env[v as usize] = Some(t[j]);
                                set[nset] = v;
                                nset += 1;
                            }
                        },
                    }
                    if !ok {
                        break;
                    }
                }
                if ok {
                    join(body, i + 1, db, delta, env, emit);
                }
                for &v in &set[..nset] {
                    env[v as usize] = None;
                }
            }
        }
        Literal::Neg(atom) => {
            let (mask, key) = lookup_key(atom, env);
            let mut cands = Vec::new();
            let len = db.relations[atom.pred].len();
            db.relations[atom.pred].candidates(mask, &key, &(0..len), &mut cands);
            let rel = &db.relations[atom.pred];
            let found = cands.iter().any(|&c| {
                let t = rel.tuple(c as usize);
                atom.args.iter().enumerate().all(|(j, a)| match a {
                    Arg::Wild => true,
                    Arg::Const(k) => t[j].compatible(*k),
                    Arg::Var(v) => env[*v as usize].is_none_or(|x| t[j].compatible(x)),
                })
            });
            let found = found || (atom.args.is_empty() && !rel.set.is_empty());
            if !found {
                join(body, i + 1, db, delta, env, emit);
            }
        }
        Literal::Assign(v, e) => {
            if let Some(x) = eval(e, env).and_then(Num::into_val) {
                env[*v as usize] = Some(x);
                join(body, i + 1, db, delta, env, emit);
                env[*v as usize] = None;
            }
        }
        Literal::Test(op, a, b) => {
            if let (Some(x), Some(y)) = (eval(a, env), eval(b, env)) {
                if compare(*op, x, y) {
                    join(body, i + 1, db, delta, env, emit);
                }
            }
        }
        Literal::IsOpen { var, open } => {
            if env[*var as usize].is_none_or(|x| x == Val::Any) == *open {
                join(body, i + 1, db, delta, env, emit);
            }
        }
        Literal::Agg { op, value, body: inner, out } => {
            // One solution per combination of tuples (bag semantics, as
            // Prolog's aggregate_all), so equal amounts of two payments add.
            let mut solutions: Vec<Vec<Option<Val>>> = Vec::new();
            let mut inner_env = env.clone();
            join(inner, 0, db, &None, &mut inner_env, &mut |e| {
                solutions.push(e.to_vec());
            });
            let values: Vec<Num> = solutions
                .iter()
                .filter_map(|e| value.as_ref().map(|v| eval(v, e)).unwrap_or(Some(Num::Val(Val::Int(1)))))
                .collect();
            let result = match op {
                AggOp::Count => Some(Val::Int(solutions.len() as i64)),
                AggOp::Sum => values
                    .iter()
                    .try_fold(Num::Val(Val::Int(0)), |acc, x| {
                        eval(&Expr::Call(Func::Add, vec![num_expr(acc), num_expr(*x)]), &[])
                    })
                    .and_then(Num::into_val),
                AggOp::Max | AggOp::Min => values
                    .iter()
                    .copied()
                    .reduce(|a, b| {
                        let keep_a = compare(if *op == AggOp::Max { CmpOp::Ge } else { CmpOp::Le }, a, b);
                        if keep_a { a } else { b }
                    })
                    .and_then(Num::into_val),
            };
            if let Some(r) = result {
                env[*out as usize] = Some(r);
                join(body, i + 1, db, delta, env, emit);
                env[*out as usize] = None;
            }
        }
    }
}

fn num_expr(n: Num) -> Expr {
    match n {
        Num::Val(v) => Expr::Const(v),
        Num::Ratio(r) => Expr::Call(Func::Div, vec![Expr::Const(Val::Int(r.num as i64)), Expr::Const(Val::Int(r.den as i64))]),
    }
}

/// Positions of `atom` bound to ground values, and those values.
fn lookup_key(atom: &Atom, env: &[Option<Val>]) -> (u64, Vec<Val>) {
    let mut mask = 0u64;
    let mut key = Vec::new();
    for (j, a) in atom.args.iter().enumerate().take(64) {
        let v = match a {
            Arg::Const(c) => Some(*c),
            Arg::Var(v) => env[*v as usize],
            Arg::Wild => None,
        };
        if let Some(v) = v.filter(|v| !v.is_open()) {
            mask |= 1 << j;
            key.push(v);
        }
    }
    (mask, key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stratify::stratify;

    fn eval_src(src: &str, facts: &[(&str, Vec<Val>)]) -> (Program, Database) {
        let mut p = Program::default();
        p.add_source("t.lex", src).unwrap();
        for (name, t) in facts {
            p.pred(name, t.len());
        }
        let strata = stratify(&p).unwrap();
        let mut db = Database::new(&p);
        for (name, t) in facts {
            let id = p.find(name, t.len()).unwrap();
            db.insert(id, t);
        }
        let (stop, _) = run(&p, &strata, None, &mut db, Limits::default());
        assert_eq!(stop, StopReason::Saturated);
        (p, db)
    }

    fn rel(p: &Program, db: &Database, name: &str, arity: usize) -> Vec<Vec<Val>> {
        let mut v: Vec<Vec<Val>> = db.relations[p.find(name, arity).unwrap()].iter().map(|t| t.to_vec()).collect();
        v.sort();
        v
    }

    #[test]
    fn transitive_closure() {
        let i = Val::Int;
        let (p, db) = eval_src(
            "path(X,Y) :- edge(X,Y).\npath(X,Z) :- path(X,Y), edge(Y,Z).",
            &[("edge", vec![i(1), i(2)]), ("edge", vec![i(2), i(3)]), ("edge", vec![i(3), i(4)])],
        );
        assert_eq!(rel(&p, &db, "path", 2).len(), 6);
    }

    #[test]
    fn negation_and_aggregates() {
        let i = Val::Int;
        let (p, db) = eval_src(
            "big(P, S) :- person(P), aggregate_all(sum(A), pays(P, _, A), S), S > 10.\n\
             small(P) :- person(P), \\+ big(P, _).\n\
             n(N) :- aggregate_all(count, person(_), N).",
            &[("person", vec![i(1)]), ("person", vec![i(2)]), ("pays", vec![i(1), i(7), i(6)]), ("pays", vec![i(1), i(8), i(6)]), ("pays", vec![i(2), i(9), i(3)])],
        );
        assert_eq!(rel(&p, &db, "big", 2), vec![vec![i(1), i(12)]]);
        assert_eq!(rel(&p, &db, "small", 1), vec![vec![i(2)]]);
        assert_eq!(rel(&p, &db, "n", 1), vec![vec![i(2)]]);
    }

    #[test]
    fn open_facts_match_any_argument() {
        let i = Val::Int;
        let (p, db) = eval_src("r(X) :- q(X), s(X, 5).", &[("q", vec![i(1)]), ("q", vec![i(2)]), ("s", vec![Val::Any, i(5)])]);
        assert_eq!(rel(&p, &db, "r", 1).len(), 2);
    }

    #[test]
    fn var_and_nonvar_split_open_from_known_values() {
        let i = Val::Int;
        let facts = [("q", vec![i(1), i(7)]), ("q", vec![Val::Any, i(8)])];
        let (p, db) = eval_src("known(A) :- q(X, A), nonvar(X).\nopen(A) :- q(X, A), var(X).", &facts);
        assert_eq!(rel(&p, &db, "known", 1), vec![vec![i(7)]]);
        assert_eq!(rel(&p, &db, "open", 1), vec![vec![i(8)]]);
    }
}
