//! What each predicate's arguments hold (names, years, amounts, dates),
//! inferred from the rules: base relations are typed by their roles, the
//! date functions type their arguments and results, and a rule's head
//! argument takes the types its variable has in the body. The parser's
//! decoder uses them to keep a query's arguments in their places.

use crate::lang::Program;
use crate::program::{AggOp, Arg, Expr, Func, Literal, PredId, Rule};
use crate::value::Val;
use lexlog_data::{ArgType, EventKind, Role};
use std::collections::HashMap;

fn of_val(v: &Val) -> ArgType {
    match v {
        Val::Sym(_) | Val::List(_) => ArgType::NAME,
        Val::Int(n) if (1800..2200).contains(n) => ArgType::INT,
        Val::Int(_) => ArgType::NUMBER,
        Val::Date(_) | Val::Window(..) => ArgType::DATE,
        Val::Any => ArgType::ANY,
    }
}

/// Narrows by a constraint; a constraint that would leave nothing is
/// ignored (the rules may compare across kinds).
fn narrow(t: ArgType, c: ArgType) -> ArgType {
    match t.intersect(c) {
        ArgType::NONE if c != ArgType::NONE => t,
        n => n,
    }
}

/// Argument types of every predicate, by id.
pub fn infer(program: &Program) -> Vec<Vec<ArgType>> {
    let mut types: Vec<Vec<ArgType>> = program.preds.iter().map(|p| vec![ArgType::NONE; p.arity]).collect();
    let mut seed = |name: &str, arity: usize, args: &[ArgType]| {
        if let Some(p) = program.find(name, arity) {
            types[p] = args.to_vec();
        }
    };
    for k in EventKind::ALL {
        seed(k.as_str(), 1, &[ArgType::EVENT]);
    }
    for r in Role::ALL {
        let value = match r {
            Role::Start | Role::End => ArgType::DATE,
            Role::Amount => ArgType::NUMBER,
            Role::Patient | Role::Purpose | Role::Reason | Role::Means => ArgType::NAME_OR_EVENT,
            _ => ArgType::NAME,
        };
        seed(r.as_str(), 2, &[ArgType::EVENT, value]);
    }
    seed("calendar_year", 1, &[ArgType::YEAR]);
    seed("event", 1, &[ArgType::EVENT]);
    seed("tax", 3, &[ArgType::NAME, ArgType::YEAR, ArgType::NUMBER]);
    let seeded: Vec<bool> = types.iter().map(|t| t.iter().any(|a| *a != ArgType::NONE)).collect();
    let mut types = propagate(program, types, &seeded, ArgType::NONE, ArgType::union, |rule, before| {
        let vars = var_types(&rule.body, rule.nvars, before);
        // An open argument (`_`, or a variable the body leaves untyped)
        // gives no evidence: the rule takes any value there, and the
        // others say what the place is for.
        rule.head
            .args
            .iter()
            .map(|a| match a {
                Arg::Var(v) => vars[*v as usize],
                Arg::Const(c) => of_val(c),
                Arg::Wild => ArgType::NONE,
            })
            .collect()
    });
    // No evidence at all: anything.
    for t in types.iter_mut().flatten() {
        if *t == ArgType::NONE {
            *t = ArgType::ANY;
        }
    }
    types
}

/// What is known of each predicate's places, carried from rule bodies to
/// heads until nothing changes: each round, a derived predicate's place
/// is the `union` over its rules of what `head` says that rule's head
/// gives it from the round before (`empty`: no evidence); a seeded
/// predicate keeps its seed.
pub(crate) fn propagate<T: Copy + PartialEq>(
    program: &Program,
    seed: Vec<Vec<T>>,
    seeded: &[bool],
    empty: T,
    union: impl Fn(T, T) -> T,
    head: impl Fn(&Rule, &[Vec<T>]) -> Vec<T>,
) -> Vec<Vec<T>> {
    let mut known = seed;
    for _ in 0..64 {
        let mut next: Vec<Vec<T>> = program.preds.iter().map(|p| vec![empty; p.arity]).collect();
        for rule in program.rules.iter().filter(|r| !seeded[r.head.pred]) {
            for (place, t) in next[rule.head.pred].iter_mut().zip(head(rule, &known)) {
                *place = union(*place, t);
            }
        }
        for (p, s) in seeded.iter().enumerate() {
            if *s {
                next[p] = known[p].clone();
            }
        }
        if next == known {
            break;
        }
        known = next;
    }
    known
}

/// The types a rule body gives its variables (NONE: no evidence).
fn var_types(body: &[Literal], nvars: usize, preds: &[Vec<ArgType>]) -> Vec<ArgType> {
    let mut vars = vec![ArgType::NONE; nvars];
    constrain(body, preds, &mut vars);
    vars
}

fn put(vars: &mut [ArgType], v: u16, t: ArgType) {
    let cur = &mut vars[v as usize];
    *cur = if *cur == ArgType::NONE { t } else { narrow(*cur, t) };
}

fn constrain(body: &[Literal], preds: &[Vec<ArgType>], vars: &mut [ArgType]) {
    let atom = |a: &crate::program::Atom, vars: &mut [ArgType]| {
        for (i, arg) in a.args.iter().enumerate() {
            let t = preds[a.pred].get(i).copied().unwrap_or(ArgType::NONE);
            if let (Arg::Var(v), true) = (arg, t != ArgType::NONE && t != ArgType::ANY) {
                put(vars, *v, t);
            }
        }
    };
    for lit in body {
        match lit {
            Literal::Pos(a) => atom(a, vars),
            // `\+ event(X)` says what X is not; a negated literal's
            // variables are bound, and typed, by the positive ones.
            Literal::Neg(_) => {}
            Literal::Assign(v, e) => {
                let t = expr_type(e, vars);
                if t != ArgType::NONE {
                    put(vars, *v, t);
                }
            }
            Literal::Test(_, a, b) => {
                // Compared with a constant of a kind: the same kind.
                for (x, y) in [(a, b), (b, a)] {
                    if let (Expr::Var(v), Expr::Const(c)) = (x, y) {
                        put(vars, *v, of_val(c));
                    }
                }
                expr_type(a, vars);
                expr_type(b, vars);
            }
            Literal::IsOpen { .. } => {}
            Literal::Agg { op, value, body, out } => {
                constrain(body, preds, vars);
                let t = match (op, value) {
                    (AggOp::Count, _) | (AggOp::Sum, _) => ArgType::NUMBER,
                    (_, Some(e)) => expr_type(e, vars),
                    (_, None) => ArgType::NONE,
                };
                if t != ArgType::NONE {
                    put(vars, *out, t);
                }
            }
        }
    }
}

/// The type of an expression's value; constrains the variables it reads.
fn expr_type(e: &Expr, vars: &mut [ArgType]) -> ArgType {
    match e {
        Expr::Var(v) => vars[*v as usize],
        Expr::Const(c) => of_val(c),
        Expr::Call(f, args) => {
            let want: &[ArgType] = match f {
                Func::FirstDay | Func::LastDay => &[ArgType::YEAR],
                Func::Year | Func::Week => &[ArgType::DATE],
                Func::Days => &[ArgType::DATE, ArgType::DATE],
                Func::AddDays | Func::AddYears => &[ArgType::DATE, ArgType::INT],
                Func::Date => &[ArgType::YEAR, ArgType::NUMBER, ArgType::NUMBER],
                _ => &[],
            };
            let mut arg_types = Vec::new();
            for (i, a) in args.iter().enumerate() {
                if let (Some(t), Expr::Var(v)) = (want.get(i), a) {
                    put(vars, *v, *t);
                }
                arg_types.push(expr_type(a, vars));
            }
            match f {
                Func::FirstDay | Func::LastDay | Func::AddDays | Func::AddYears | Func::Date => ArgType::DATE,
                Func::Year => ArgType::YEAR,
                Func::Days | Func::Week => ArgType::NUMBER,
                // Arithmetic keeps a year a year (`Y - 1`), else a number.
                _ => {
                    let any_year = arg_types.contains(&ArgType::YEAR);
                    if any_year { ArgType::INT } else { ArgType::NUMBER }
                }
            }
        }
    }
}

/// Argument types by predicate name and arity.
pub fn by_name(program: &Program) -> HashMap<(String, usize), Vec<ArgType>> {
    let types = infer(program);
    program.preds.iter().enumerate().map(|(p, info): (PredId, _)| ((info.name.clone(), info.arity), types[p].clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types_of(src: &str, name: &str, arity: usize) -> Vec<ArgType> {
        let mut p = Program::default();
        for r in Role::ALL {
            p.pred(r.as_str(), 2);
        }
        p.pred("calendar_year", 1);
        p.add_source("t.lex", src).unwrap();
        by_name(&p)[&(name.to_string(), arity)].clone()
    }

    #[test]
    fn types_flow_from_roles_and_date_functions_into_heads() {
        let src = "paid(P, A, Y) :- agent(E, P), amount(E, A), start(E, D), Y is year(D).\n\
                   yearly(P, Y, S) :- calendar_year(Y), paid(P, _, Y), aggregate_all(sum(A), paid(P, A, Y), S).\n\
                   opens(P, D) :- calendar_year(Y), agent(_, P), D is first_day(Y).\n\
                   fixed(2000).\n";
        assert_eq!(types_of(src, "paid", 3), vec![ArgType::NAME, ArgType::NUMBER, ArgType::YEAR]);
        assert_eq!(types_of(src, "yearly", 3), vec![ArgType::NAME, ArgType::YEAR, ArgType::NUMBER]);
        assert_eq!(types_of(src, "opens", 2), vec![ArgType::NAME, ArgType::DATE]);
        assert_eq!(types_of(src, "fixed", 1), vec![ArgType::INT], "a year-like constant may be either");
    }

    #[test]
    fn event_ids_are_told_from_names() {
        let src = "paid_by(E, P) :- payment(E), agent(E, P).\nfor_what(X) :- purpose(_, X).\n";
        let mut p = Program::default();
        for r in Role::ALL {
            p.pred(r.as_str(), 2);
        }
        p.pred("payment", 1);
        p.add_source("t.lex", src).unwrap();
        let types = by_name(&p);
        assert_eq!(types[&("paid_by".to_string(), 2)], vec![ArgType::EVENT, ArgType::NAME]);
        assert_eq!(types[&("for_what".to_string(), 1)], vec![ArgType::NAME_OR_EVENT], "a purpose may be either");
    }

    #[test]
    fn unconstrained_and_mixed_arguments_are_open() {
        let src = "either(X) :- agent(_, X).\neither(X) :- start(_, X).\nfree(X, _) :- agent(_, X).\n\
                   open(X, A) :- agent(E, X), amount(E, A).\nopen(_, 0).\n";
        assert_eq!(types_of(src, "either", 1), vec![ArgType::NAME.union(ArgType::DATE)]);
        assert_eq!(types_of(src, "free", 2), vec![ArgType::NAME, ArgType::ANY]);
        assert_eq!(types_of(src, "open", 2), vec![ArgType::NAME, ArgType::NUMBER], "`_` in one rule leaves the others' types");
    }
}
