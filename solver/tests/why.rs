//! Derivations (`Solver::why`): a query that holds is derived rule by rule
//! down to the case's facts; one that does not has none.

use lexlog_data::{linear, Answer, Dataset};
use lexlog_solver::{Derivation, Prediction, Solver, WhyNot};

fn nodes(d: &Derivation) -> Vec<&Derivation> {
    let mut out = vec![d];
    for p in &d.premises {
        out.extend(nodes(p));
    }
    out
}

fn why(solver: &Solver, case: &str, ir: &lexlog_data::CaseIr, depth: usize) -> (Prediction, Vec<Derivation>) {
    let (outcome, mut loaded) = solver.solve_loaded(case, ir).unwrap();
    let derivations = solver.why(case, &mut loaded, ir.query.as_ref().unwrap(), depth).unwrap();
    (outcome.prediction, derivations)
}

#[test]
fn a_spouses_blindness_is_derived_from_the_facts() {
    let solver = Solver::new().unwrap();
    let src = "marriage m1 agent=ann agent=ben start=1980-01-01\nblindness x1 agent=ben start=2010-01-01\ns151_b_applies ann ben 2016\nquery s63_f_2_B ann 2016\n";
    let (prediction, ds) = why(&solver, "unit", &linear::parse(src).unwrap(), 20);
    assert_eq!(prediction, Prediction::Entailment);
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].fact, "s63_f_2_B(ann, 2016)");
    assert!(ds[0].rule.as_deref().is_some_and(|r| r.starts_with("s63.lex:")), "{:?}", ds[0].rule);
    let all = nodes(&ds[0]);
    let given: Vec<&str> = all.iter().filter(|d| d.rule.is_none()).map(|d| d.fact.as_str()).collect();
    for fact in ["s151_b_applies(ann, ben, 2016)", "blindness(x1)", "agent(x1, ben)", "start(x1, 2010-01-01)"] {
        assert!(given.contains(&fact), "{fact} not among the given leaves {given:?}");
    }
    // The blindness is dated: its start is compared with the close of 2016.
    assert!(all.iter().any(|d| d.conditions.iter().any(|c| c == "2010-01-01 =< 2016-12-31")), "{ds:#?}");
    assert!(all.iter().all(|d| !d.cut));
}

#[test]
fn a_query_that_does_not_hold_has_no_derivation() {
    let solver = Solver::new().unwrap();
    let src = "marriage m1 agent=ann agent=ben start=1980-01-01\ns151_b_applies ann ben 2016\nquery s63_f_2_B ann 2016\n";
    let (prediction, ds) = why(&solver, "unit", &linear::parse(src).unwrap(), 20);
    assert_eq!(prediction, Prediction::Contradiction);
    assert!(ds.is_empty(), "{ds:#?}");
}

#[test]
fn a_shallow_derivation_is_cut_and_says_so() {
    let solver = Solver::new().unwrap();
    let src = "income i1 agent=ann amount=40000 start=2016-12-31\nquery tax ann 2016\n";
    let (_, ds) = why(&solver, "unit", &linear::parse(src).unwrap(), 1);
    assert_eq!(ds[0].fact, "tax(ann, 2016, 6927)");
    assert!(ds[0].premises.iter().all(|p| p.cut && p.premises.is_empty()), "{ds:#?}");
}

#[test]
fn every_gold_answer_that_holds_is_derived_to_the_facts() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut bad = Vec::new();
    for case in &data.cases {
        let (prediction, ds) = why(&solver, &case.id, &case.ir, 64);
        let holds = !matches!(case.answer, Answer::Contradiction);
        assert_eq!(holds, prediction != Prediction::Contradiction, "{}", case.id);
        if holds == ds.is_empty() || ds.iter().flat_map(nodes).any(|d| d.cut) {
            bad.push(case.id.clone());
        }
    }
    assert!(bad.is_empty(), "{} cases without a whole derivation: {bad:?}", bad.len());
}

fn failures(w: &WhyNot) -> Vec<String> {
    let mut out = Vec::new();
    for a in &w.attempts {
        out.push(a.fails.clone());
        if let Some(d) = &a.deeper {
            out.extend(failures(d));
        }
    }
    out
}

#[test]
fn a_failing_query_says_which_condition_fails() {
    let solver = Solver::new().unwrap();
    // Ann claims Ben, and the blindness is Ann's own, not his.
    let src = "marriage m1 agent=ann agent=ben start=1980-01-01\nblindness x1 agent=ann start=2010-01-01\ns151_b_applies ann ben 2016\nquery s63_f_2_B ann 2016\n";
    let ir = linear::parse(src).unwrap();
    let (_, mut loaded) = solver.solve_loaded("unit", &ir).unwrap();
    let w = solver.why_not("unit", &mut loaded, ir.query.as_ref().unwrap(), 4).unwrap().expect("it fails");
    assert_eq!(w.goal, "s63_f_2_B(ann, 2016)");
    let fails = failures(&w);
    assert!(fails.contains(&"blind_at_close(ben, 2016)".to_string()), "{w:#?}");
    assert!(fails.contains(&"agent(x1, ben)".to_string()), "{w:#?}");
    // The spouse exemption holds on the way.
    assert!(w.attempts[0].deeper.as_ref().unwrap().attempts[0].holds.contains(&"spouse_exemption_151(ann, ben, 2016)".to_string()), "{w:#?}");
}

#[test]
fn a_failure_is_the_goals_year_not_another() {
    let solver = Solver::new().unwrap();
    // Wages of $3,000 in 2016 make Ann an employer for 2016 and 2017, not 2019.
    let src = "service w1 agent=joe patient=ann start=2016-03-01 end=2016-11-30\npayment p1 agent=ann patient=joe purpose=w1 amount=3000 start=2016-11-30\nquery s3306_a_1_A ann 2019 _\n";
    let ir = linear::parse(src).unwrap();
    let (_, mut loaded) = solver.solve_loaded("unit", &ir).unwrap();
    let w = solver.why_not("unit", &mut loaded, ir.query.as_ref().unwrap(), 2).unwrap().expect("it fails");
    // The rule for the year before compares 2019 with 2016 + 1; it does not
    // stop at a wage test of some other year.
    assert!(w.attempts.iter().any(|a| a.fails == "2019 = 2017"), "{w:#?}");
}

#[test]
fn every_gold_case_that_fails_says_why_and_no_other() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut bad = Vec::new();
    for case in &data.cases {
        let (outcome, mut loaded) = solver.solve_loaded(&case.id, &case.ir).unwrap();
        let w = solver.why_not(&case.id, &mut loaded, case.ir.query.as_ref().unwrap(), 3).unwrap();
        let fails = outcome.prediction == Prediction::Contradiction;
        if fails != w.is_some() || w.is_some_and(|w| w.goal.is_empty() || failures(&w).iter().any(String::is_empty)) {
            bad.push(case.id.clone());
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}
