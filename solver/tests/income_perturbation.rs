//! Tax on perturbed gold cases: more income of the taxpayer's own never
//! lowers the tax, and raises it by less than the income added (every
//! marginal rate, phase-outs included, is under 100 %).

use lexlog_data::{Answer, CaseIr, Dataset, EventKind, Fact, Query, Role, Term, Value};
use lexlog_solver::{Prediction, Solver};

const ADDED: i64 = 10_000;

/// The case with `ADDED` dollars more on every income event of `person`.
fn richer(ir: &CaseIr, person: &str) -> (CaseIr, usize) {
    let mut ir = ir.clone();
    let mut changed = 0;
    let own = |roles: &[(Role, Term)]| roles.iter().any(|(r, t)| *r == Role::Agent && *t == Term::name(person));
    for fact in &mut ir.facts {
        let Fact::Event(ev) = fact else { continue };
        if ev.kind != Some(EventKind::Income) || !own(&ev.roles) {
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

#[test]
fn more_income_raises_tax_by_less_than_itself() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let (mut checked, mut bad) = (0, Vec::new());
    for case in data.cases.iter().filter(|c| matches!(c.answer, Answer::Dollars(_))) {
        let Some(Query::Tax { person, .. }) = &case.ir.query else { continue };
        let (ir, changed) = richer(&case.ir, person);
        if changed == 0 {
            continue;
        }
        let before = solver.solve(&case.id, &case.ir).map(|o| o.prediction);
        let after = solver.solve(&case.id, &ir).map(|o| o.prediction);
        checked += 1;
        match (before, after) {
            (Ok(Prediction::Dollars(a)), Ok(Prediction::Dollars(b))) if (0..=ADDED * changed as i64).contains(&(b - a)) => {}
            (a, b) => bad.push(format!("{}: {a:?} then {b:?} with ${ADDED} more on {changed} income events", case.id)),
        }
    }
    assert!(checked > 50, "only {checked} tax cases have an income event of the taxpayer");
    assert!(bad.is_empty(), "{} of {checked}:\n{}", bad.len(), bad.join("\n"));
}
