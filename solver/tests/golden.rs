//! Golden test: the solver on the gold facts of every SARA case must give
//! the gold answer.

use lexlog_data::{Answer, Dataset};
use lexlog_solver::{Prediction, Solver};

#[test]
fn every_gold_case_is_answered_correctly() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut wrong = Vec::new();
    for case in &data.cases {
        let got = solver.solve(&case.id, &case.ir).map(|o| o.prediction);
        let ok = matches!(
            (case.answer, &got),
            (Answer::Entailment, Ok(Prediction::Entailment)) | (Answer::Contradiction, Ok(Prediction::Contradiction))
        ) || matches!((case.answer, &got), (Answer::Dollars(a), Ok(Prediction::Dollars(b))) if a == *b);
        if !ok {
            wrong.push(format!("{}: gold {}, got {:?}", case.id, case.answer, got));
        }
    }
    assert_eq!(data.cases.len(), 376);
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}
