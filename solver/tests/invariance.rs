//! Perturbations of the gold cases that the statutes do not see must not
//! change the answer: every date and year moved back 28 years (which keeps
//! weekdays and leap years), where the years asked stay on the same side of
//! the 2018-2025 provisions (§63(c)(7), §68(f), §151(d)(5), the statutes'
//! only dated rules); and each relative's sex swapped (son and daughter,
//! father and mother, brother and sister), which no section distinguishes;
//! and every name (people, events, homes, employers) enciphered, which no
//! section reads.

use chrono::{Datelike, NaiveDate};
use lexlog_data::{ArgType, Assertion, CaseIr, Dataset, Domain, EventKind, Fact, Goal, Part, Query, Term, Value};
use lexlog_solver::Solver;
use std::collections::HashMap;

const SHIFT: i32 = -28;
type Types = HashMap<(String, usize), Vec<ArgType>>;

fn in_window(year: i64) -> bool {
    (2018..=2025).contains(&year)
}

fn shift_date(d: NaiveDate) -> NaiveDate {
    d.with_year(d.year() + SHIFT).expect("a 28-year shift keeps every day of 1929-2099")
}

/// Whether an integer argument at `i` (of a predicate with `arg_types`) is
/// a year: so typed by the
/// rules, or, where they allow a number too, one of the case's years (its
/// dates', and those of arguments of facts or query that only hold years):
/// a $2,000 exemption is no year in a case set in 2015.
fn is_year(arg_types: &[ArgType], i: usize, n: i64, date_years: &[i64]) -> bool {
    let t = arg_types.get(i).copied().unwrap_or(ArgType::ANY);
    t.contains(ArgType::YEAR) && (!t.contains(ArgType::NUMBER) || date_years.contains(&n))
}

fn date_years_of_value(v: &Value, out: &mut Vec<i64>) {
    match v {
        Value::Date(d) => out.push(d.year() as i64),
        Value::List(vs) => vs.iter().for_each(|v| date_years_of_value(v, out)),
        _ => {}
    }
}

fn date_years(facts: &[Fact], types: &Types, out: &mut Vec<i64>) {
    for f in facts {
        match f {
            Fact::Event(ev) => ev.roles.iter().for_each(|(_, t)| if let Term::Value(v) = t { date_years_of_value(v, out) }),
            Fact::Assert(a) => {
                let ts = types.get(&(a.pred.as_str().to_string(), a.args.len()));
                for (i, t) in a.args.iter().enumerate() {
                    match t {
                        Term::Value(Value::Int(n)) if ts.and_then(|ts| ts.get(i)).is_some_and(|t| t.contains(ArgType::YEAR) && !t.contains(ArgType::NUMBER)) => out.push(*n),
                        Term::Value(v) => date_years_of_value(v, out),
                        _ => {}
                    }
                }
            }
            Fact::ForEach(fe) => {
                match &fe.domain {
                    Domain::Range { from, to } if (1800..=2200).contains(from) => out.extend(*from..=*to),
                    Domain::List { values } => values.iter().for_each(|v| date_years_of_value(v, out)),
                    _ => {}
                }
                date_years(&fe.body, types, out);
            }
        }
    }
}

fn shift_value(v: &mut Value) {
    match v {
        Value::Date(d) => *d = shift_date(*d),
        Value::List(vs) => vs.iter_mut().for_each(shift_value),
        _ => {}
    }
}

fn shift_term(t: &mut Term) {
    match t {
        Term::Value(v) => shift_value(v),
        Term::Window { after, before } => {
            *after = shift_date(*after);
            *before = shift_date(*before);
        }
        _ => {}
    }
}

fn shift_assertion(a: &mut Assertion, types: &Types, dy: &[i64], years: &mut Vec<i64>) {
    let arg_types = types.get(&(a.pred.as_str().to_string(), a.args.len())).map_or(&[][..], Vec::as_slice);
    for (i, t) in a.args.iter_mut().enumerate() {
        match t {
            Term::Value(Value::Int(n)) if is_year(arg_types, i, *n, dy) => {
                years.push(*n);
                *n += SHIFT as i64;
            }
            other => shift_term(other),
        }
    }
}

fn shift_facts(facts: &mut [Fact], types: &Types, dy: &[i64]) {
    for f in facts {
        match f {
            Fact::Event(ev) => ev.roles.iter_mut().for_each(|(_, t)| shift_term(t)),
            Fact::Assert(a) => shift_assertion(a, types, dy, &mut Vec::new()),
            Fact::ForEach(fe) => {
                match &mut fe.domain {
                    Domain::Range { from, to } if (1800..=2200).contains(from) => {
                        *from += SHIFT as i64;
                        *to += SHIFT as i64;
                    }
                    Domain::List { values } => values.iter_mut().for_each(shift_value),
                    _ => {}
                }
                shift_facts(&mut fe.body, types, dy);
            }
        }
    }
}

/// The case 28 years earlier, with the years its query asks.
fn shifted(ir: &CaseIr, types: &Types) -> (CaseIr, Vec<i64>) {
    let mut ir = ir.clone();
    let mut asked = Vec::new();
    let mut dy = Vec::new();
    date_years(&ir.facts, types, &mut dy);
    // The years the query asks where only a year can stand.
    match &ir.query {
        Some(Query::Tax { year, .. }) => dy.push(*year),
        Some(Query::Holds { goals }) => {
            for g in goals {
                if let Goal::Holds(a) = g {
                    date_years(&[Fact::Assert(a.clone())], types, &mut dy);
                }
            }
        }
        None => {}
    }
    shift_facts(&mut ir.facts, types, &dy);
    match &mut ir.query {
        Some(Query::Tax { year, .. }) => {
            asked.push(*year);
            *year += SHIFT as i64;
        }
        Some(Query::Holds { goals }) => {
            for g in goals {
                match g {
                    Goal::Holds(a) => shift_assertion(a, types, &dy, &mut asked),
                    Goal::FirstDay { year, .. } => {
                        asked.push(*year);
                        *year += SHIFT as i64;
                    }
                    Goal::Before { left, right } => {
                        shift_term(left);
                        shift_term(right);
                    }
                    Goal::Unbound { .. } => {}
                }
            }
        }
        None => {}
    }
    (ir, asked)
}

fn swap_sex(kind: EventKind) -> EventKind {
    use EventKind::*;
    match kind {
        Son => Daughter,
        Daughter => Son,
        Father => Mother,
        Mother => Father,
        Brother => Sister,
        Sister => Brother,
        other => other,
    }
}

fn swap_facts(facts: &mut [Fact]) -> usize {
    let mut swapped = 0;
    for f in facts {
        match f {
            Fact::Event(ev) => {
                if let Some(k) = ev.kind {
                    swapped += (swap_sex(k) != k) as usize;
                    ev.kind = Some(swap_sex(k));
                }
            }
            Fact::ForEach(fe) => swapped += swap_facts(&mut fe.body),
            Fact::Assert(_) => {}
        }
    }
    swapped
}

/// Solves every case whose `perturb` gives a variant (`None`: left out),
/// and lists those whose answer moves: (cases perturbed, differences).
fn perturbed_answers(what: &str, perturb: impl Fn(&CaseIr) -> Option<CaseIr>) -> (usize, Vec<String>) {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let (mut checked, mut differ) = (0, Vec::new());
    for case in &data.cases {
        let Some(ir) = perturb(&case.ir) else { continue };
        checked += 1;
        let a = solver.solve(&case.id, &case.ir).map(|o| o.prediction).ok();
        let b = solver.solve(&case.id, &ir).map(|o| o.prediction).ok();
        if a != b {
            differ.push(format!("{}: {a:?}, {what} {b:?}", case.id));
        }
    }
    (checked, differ)
}

#[test]
fn answers_do_not_move_with_the_calendar() {
    let types = Solver::new().unwrap().argument_types();
    let (checked, differ) = perturbed_answers("28 years earlier", |ir| {
        let (ir, asked) = shifted(ir, &types);
        asked.iter().all(|&y| in_window(y) == in_window(y + SHIFT as i64)).then_some(ir)
    });
    assert_eq!(checked, 308, "cases shifted");
    assert!(differ.is_empty(), "{} of {checked} differ:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn answers_do_not_depend_on_a_relative_s_sex() {
    let (checked, differ) = perturbed_answers("swapped", |ir| {
        let mut ir = ir.clone();
        (swap_facts(&mut ir.facts) > 0).then_some(ir)
    });
    assert_eq!(checked, 112, "cases with a relative swapped");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// ROT13 on a name's letters: names built from parts (`alice_pays_{P}`)
/// stay equal to the names they are compared with, as the cipher of a
/// concatenation is the concatenation of the ciphers.
fn cipher(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            'a'..='z' => (b'a' + (c as u8 - b'a' + 13) % 26) as char,
            c => c,
        })
        .collect()
}

fn rename_value(v: &mut Value) {
    match v {
        Value::Name(n) => *n = cipher(n),
        Value::List(vs) => vs.iter_mut().for_each(rename_value),
        _ => {}
    }
}

fn rename_term(t: &mut Term) {
    match t {
        Term::Value(v) => rename_value(v),
        Term::Concat(parts) => parts.iter_mut().for_each(|p| {
            if let Part::Lit(s) = p {
                *s = cipher(s);
            }
        }),
        _ => {}
    }
}

fn renamed(ir: &CaseIr) -> CaseIr {
    let mut ir = ir.clone();
    ir.for_each_term_mut(&mut rename_term);
    ir
}

#[test]
fn answers_do_not_depend_on_what_anything_is_called() {
    let (checked, differ) = perturbed_answers("renamed", |ir| Some(renamed(ir)));
    assert_eq!(checked, 376, "cases renamed");
    assert!(differ.is_empty(), "{} of {checked} differ:\n{}", differ.len(), differ.join("\n"));
}

