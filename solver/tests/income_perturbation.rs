//! Tax on perturbed gold cases: more income of the taxpayer's own never
//! lowers the tax and raises it by less than the income added (every
//! marginal rate, phase-outs included, is under 100 %); a larger itemized
//! deduction never raises it and lowers it by less than the deduction
//! added (the standard deduction may still be the larger).

use lexlog_data::{Answer, CaseIr, Dataset, EventKind, Fact, Query, Role, Term, Value};
use lexlog_solver::{Prediction, Solver};

const ADDED: i64 = 10_000;

/// The case with `ADDED` dollars more on every `kind` event of `person`,
/// and how many it changed.
fn with_more(ir: &CaseIr, person: &str, kind: EventKind) -> (CaseIr, i64) {
    let mut ir = ir.clone();
    let mut changed = 0;
    let own = |roles: &[(Role, Term)]| roles.iter().any(|(r, t)| *r == Role::Agent && *t == Term::name(person));
    for fact in &mut ir.facts {
        let Fact::Event(ev) = fact else { continue };
        if ev.kind != Some(kind) || !own(&ev.roles) {
            continue;
        }
        for (r, t) in &mut ev.roles {
            if let (Role::Amount, Term::Value(Value::Int(n))) = (*r, &*t) {
                *t = Term::Value(Value::Int(n + ADDED));
                changed += 1;
            }
        }
    }
    (ir, changed)
}

/// Over every gold tax case with a `kind` event of its taxpayer: the cases
/// checked, those whose tax changed, and those whose change of tax (after
/// minus before; `allowed` is also given the dollars added) is not allowed.
fn check(kind: EventKind, allowed: impl Fn(i64, i64) -> bool) -> (usize, usize, Vec<String>) {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let (mut checked, mut moved, mut bad) = (0, 0, Vec::new());
    for case in data.cases.iter().filter(|c| matches!(c.answer, Answer::Dollars(_))) {
        let Some(Query::Tax { person, .. }) = &case.ir.query else { continue };
        let (ir, changed) = with_more(&case.ir, person, kind);
        if changed == 0 {
            continue;
        }
        checked += 1;
        let before = solver.solve(&case.id, &case.ir).map(|o| o.prediction);
        let after = solver.solve(&case.id, &ir).map(|o| o.prediction);
        match (before, after) {
            (Ok(Prediction::Dollars(a)), Ok(Prediction::Dollars(b))) if allowed(b - a, ADDED * changed) => moved += usize::from(a != b),
            (a, b) => bad.push(format!("{}: {a:?} then {b:?} with ${ADDED} more on {changed} {kind:?} events", case.id)),
        }
    }
    (checked, moved, bad)
}

#[test]
fn more_income_raises_tax_by_less_than_itself() {
    let (checked, moved, bad) = check(EventKind::Income, |change, added| (0..added).contains(&change));
    assert!(checked > 50 && moved > 50, "only {checked} tax cases have an income of the taxpayer's, {moved} of them a change of tax");
    assert!(bad.is_empty(), "{} of {checked}:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn a_larger_deduction_lowers_tax_by_less_than_itself() {
    let (checked, moved, bad) = check(EventKind::Deduction, |change, added| (-added + 1..=0).contains(&change));
    assert!(checked >= 10 && moved >= 5, "only {checked} tax cases have a deduction of the taxpayer's, {moved} of them a change of tax");
    assert!(bad.is_empty(), "{} of {checked}:\n{}", bad.len(), bad.join("\n"));
}
