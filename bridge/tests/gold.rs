//! The pipeline on gold facts: every case's gold IR, as its only beam,
//! gets the gold answer under every strategy.

use lexlog_bridge::pipeline::{decide, Beam, PipelineConfig, Strategy};
use lexlog_data::{linear, Answer, Dataset};
use lexlog_solver::{Prediction, Solver};

#[test]
fn gold_facts_through_the_pipeline_are_all_correct() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    for strategy in [Strategy::TopOne, Strategy::Rerank] {
        let cfg = PipelineConfig { strategy, k: 1, ..Default::default() };
        let mut wrong = Vec::new();
        for case in &data.cases {
            let beam = Beam { text: linear::print(&case.ir), logprob: 0.0 };
            let d = decide(&solver, &[beam], &cfg);
            let ok = matches!(
                (case.answer, d.answer),
                (Answer::Entailment, Some(Prediction::Entailment)) | (Answer::Contradiction, Some(Prediction::Contradiction))
            ) || matches!((case.answer, d.answer), (Answer::Dollars(a), Some(Prediction::Dollars(b))) if a == b);
            if !ok {
                wrong.push(format!("{}: {:?} {:?}", case.id, d.answer, d.reasons));
            }
        }
        assert!(wrong.is_empty(), "{strategy:?}: {}", wrong.join("\n"));
    }
}
