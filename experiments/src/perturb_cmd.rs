//! `lexlog perturb`: the solver on perturbed gold facts. Each amount and
//! each date of a case is moved alone over a sweep of values, and every
//! change of the answer is listed with the values on either side, to be
//! read against the statute's thresholds ($1,500, half a year, 65 years…).
//! A change away from any threshold is a rule to look at.

use anyhow::{Context, Result};
use chrono::{Duration, NaiveDate};
use lexlog_data::{linear, ArgType, Case, CaseIr, CaseKind, Dataset, Fact, Goal, Query, Role, Term, Value};
use lexlog_solver::{Prediction, Solver};
use rayon::prelude::*;
use std::collections::HashMap;

#[derive(clap::Args)]
pub struct PerturbArgs {
    /// Only these cases (repeatable); by default every entailment case.
    #[arg(long = "case")]
    cases: Vec<String>,
    /// Tax cases too (their answer moves with most amounts).
    #[arg(long)]
    tax: bool,
    /// Print every slot's sweep, not only the slots whose answer changes.
    #[arg(long)]
    all: bool,
}

/// The amounts of the statutes (and one either side of each), tried for
/// every amount besides its own neighbours.
const THRESHOLDS: [i64; 20] = [0, 1, 250, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000, 4400, 7000, 12_000, 18_000, 20_000, 150_000, 250_000, 275_000, 300_000];
/// Days a date is moved by: a week, half a year, a year, two, eight.
const OFFSETS: [i64; 32] = [
    -3000, -1500, -800, -731, -730, -400, -366, -365, -200, -184, -183, -182, -100, -30, -7, -1, 1, 7, 30, 100, 182, 183, 184, 200, 365, 366, 400, 730, 731, 800, 1500, 3000,
];

/// Years a year is moved by.
const YEARS: [i64; 12] = [-8, -4, -3, -2, -1, 1, 2, 3, 4, 8, 20, 100];

/// What a movable value is, which picks its sweep.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Amount,
    Date,
    Year,
}

/// One movable value of a case's facts or query, in the order `walk` visits them.
struct Slot {
    label: String,
    kind: Kind,
    original: Value,
}

/// A year-like number where the rules read years.
fn is_year_slot(t: ArgType, term: &Term) -> bool {
    matches!(term, Term::Value(Value::Int(n)) if t.contains(ArgType::YEAR) && (1900..=2100).contains(n))
}

/// Every amount (an event's `amount`, a stated predicate's number), every
/// date (an event's `start` or `end`, a stated date) and every year of a
/// stated predicate, with `visit` given a mutable reference to each in a
/// fixed order.
fn walk(facts: &mut [Fact], types: &HashMap<(String, usize), Vec<ArgType>>, visit: &mut dyn FnMut(&mut Term, String, Kind)) {
    for fact in facts {
        match fact {
            Fact::Event(ev) => {
                let id = linear::term_text(&ev.id);
                for (role, term) in &mut ev.roles {
                    let kind = match (*role, &*term) {
                        (Role::Amount, Term::Value(Value::Int(_))) => Some(Kind::Amount),
                        (Role::Start | Role::End, Term::Value(Value::Date(_))) => Some(Kind::Date),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        visit(term, format!("{role} of {id}"), kind);
                    }
                }
            }
            Fact::Assert(a) => {
                let name = a.pred.as_str().to_string();
                let arg_types = types.get(&(name.clone(), a.args.len())).map_or(&[][..], Vec::as_slice);
                for (i, term) in a.args.iter_mut().enumerate() {
                    let t = arg_types.get(i).copied().unwrap_or(ArgType::ANY);
                    let kind = match &*term {
                        _ if is_year_slot(t, term) => Some(Kind::Year),
                        Term::Value(Value::Int(_)) if t.contains(ArgType::NUMBER) => Some(Kind::Amount),
                        Term::Value(Value::Date(_)) => Some(Kind::Date),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        visit(term, format!("{name} argument {}", i + 1), kind);
                    }
                }
            }
            Fact::ForEach(fe) => walk(&mut fe.body, types, visit),
        }
    }
}

/// The years a query asks of (a year argument of one of its goals).
fn walk_query(query: &mut Option<Query>, types: &HashMap<(String, usize), Vec<ArgType>>, visit: &mut dyn FnMut(&mut Term, String, Kind)) {
    let Some(Query::Holds { goals }) = query else { return };
    for goal in goals {
        if let Goal::Holds(a) = goal {
            let name = a.pred.as_str().to_string();
            let arg_types = types.get(&(name.clone(), a.args.len())).map_or(&[][..], Vec::as_slice);
            for (i, term) in a.args.iter_mut().enumerate() {
                if is_year_slot(arg_types.get(i).copied().unwrap_or(ArgType::ANY), term) {
                    visit(term, format!("query's {name} argument {}", i + 1), Kind::Year);
                }
            }
        }
    }
}

/// Every slot of the facts, then of the query.
fn walk_case(ir: &mut CaseIr, types: &HashMap<(String, usize), Vec<ArgType>>, visit: &mut dyn FnMut(&mut Term, String, Kind)) {
    walk(&mut ir.facts, types, visit);
    walk_query(&mut ir.query, types, visit);
}

fn slots(case: &Case, types: &HashMap<(String, usize), Vec<ArgType>>) -> Vec<Slot> {
    let mut ir = case.ir.clone();
    let mut out = Vec::new();
    walk_case(&mut ir, types, &mut |t, label, kind| {
        if let Term::Value(v) = t {
            out.push(Slot { label, kind, original: v.clone() });
        }
    });
    out
}

/// The values a slot is swept over, with their labels, in increasing order.
fn sweep(kind: Kind, original: &Value) -> Vec<(String, Value)> {
    match original {
        Value::Int(n) if kind == Kind::Year => {
            let mut ys: Vec<i64> = YEARS.iter().map(|d| n + d).chain([*n]).collect();
            ys.sort_unstable();
            ys.into_iter().map(|y| (y.to_string(), Value::Int(y))).collect()
        }
        Value::Int(n) => {
            let mut vs: Vec<i64> = THRESHOLDS.iter().flat_map(|t| [t - 1, *t, t + 1]).chain([n / 2, n - 1, n + 1, 2 * n, 10 * n]).filter(|v| *v >= 0).collect();
            vs.sort_unstable();
            vs.dedup();
            vs.into_iter().map(|v| (v.to_string(), Value::Int(v))).collect()
        }
        Value::Date(d) => OFFSETS.iter().filter_map(|o| d.checked_add_signed(Duration::days(*o)).map(|x: NaiveDate| (format!("{o:+}d"), Value::Date(x)))).collect(),
        _ => Vec::new(),
    }
}

fn show(p: &Result<Prediction, String>) -> String {
    match p {
        Ok(Prediction::Entailment) => "entailment".into(),
        Ok(Prediction::Contradiction) => "contradiction".into(),
        Ok(Prediction::Dollars(d)) => format!("${d}"),
        Err(_) => "error".into(),
    }
}

/// The case with slot `index` set to `value`.
fn with_value(case: &Case, types: &HashMap<(String, usize), Vec<ArgType>>, index: usize, value: &Value) -> CaseIr {
    let mut ir = case.ir.clone();
    let mut i = 0;
    walk_case(&mut ir, types, &mut |t, _, _| {
        if i == index {
            *t = Term::Value(value.clone());
        }
        i += 1;
    });
    ir
}

pub fn run(args: PerturbArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let solver = Solver::new()?;
    let types = solver.argument_types();
    let cases: Vec<&Case> = if args.cases.is_empty() {
        data.cases.iter().filter(|c| args.tax || c.kind == CaseKind::Entailment).collect()
    } else {
        args.cases.iter().map(|id| data.case(id).with_context(|| format!("no case {id}"))).collect::<Result<_>>()?
    };
    let reports: Vec<(String, usize, usize)> = cases
        .par_iter()
        .map(|case| {
            let mut text = String::new();
            let mut changing = 0;
            let all_slots = slots(case, &types);
            for (index, slot) in all_slots.iter().enumerate() {
                let answers: Vec<(String, String)> = sweep(slot.kind, &slot.original)
                    .into_iter()
                    .map(|(label, v)| (label, show(&solver.solve(&case.id, &with_value(case, &types, index, &v)).map(|o| o.prediction).map_err(|e| e.to_string()))))
                    .collect();
                let changes: Vec<String> = answers.windows(2).filter(|w| w[0].1 != w[1].1).map(|w| format!("{} | {}: {}", w[0].0, w[1].0, w[1].1)).collect();
                if changes.is_empty() && !args.all {
                    continue;
                }
                changing += !changes.is_empty() as usize;
                let original = linear::value_text(&slot.original);
                let first = answers.first().map_or("", |a| a.1.as_str());
                text += &format!("{} · {} ({original}): {first} at {}; {}\n", case.id, slot.label, answers.first().map_or("", |a| a.0.as_str()), if changes.is_empty() { "no change".into() } else { changes.join("; ") });
            }
            (text, all_slots.len(), changing)
        })
        .collect();
    let (mut total, mut changing) = (0, 0);
    for (text, n, c) in &reports {
        print!("{text}");
        total += n;
        changing += c;
    }
    println!("{} cases, {total} amounts, dates and years moved one at a time; the answer changes along {changing} of them", cases.len());
    Ok(())
}
