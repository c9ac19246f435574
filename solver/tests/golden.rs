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

#[test]
fn every_gold_tax_answer_is_explained_by_folded_arithmetic() {
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut bad = Vec::new();
    for case in data.cases.iter().filter(|c| matches!(c.answer, Answer::Dollars(_))) {
        let Some(lexlog_data::Query::Tax { person, year }) = &case.ir.query else { continue };
        let (outcome, loaded) = solver.solve_loaded(&case.id, &case.ir).unwrap();
        let Prediction::Dollars(d) = outcome.prediction else { continue };
        let ex = solver.explain_tax(&loaded, person, *year, d);
        if !ex.consistent {
            bad.push(format!("{}: folded {:?}, answer {d}\n{:#?}", case.id, ex.total, ex.steps));
        }
    }
    assert!(bad.is_empty(), "{} unexplained:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn gold_facts_are_consistent_save_for_known_slips() {
    // SARA's own slips, which the checks rightly report: one payment given
    // two amounts (s2_b_3_B_pos), one marriage two starts (tax_case_16, 41),
    // s63_c_3 stated with four arguments instead of three.
    let slips = ["s2_b_3_B_pos", "tax_case_16", "tax_case_41", "s63_c_1_neg", "s63_d_2_neg"];
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut found = Vec::new();
    for case in &data.cases {
        let findings = solver.check(&case.ir);
        if slips.contains(&case.id.as_str()) {
            assert!(!findings.is_empty(), "{}: the slip is not reported", case.id);
            continue;
        }
        for i in findings {
            found.push(format!("{}: {:?} {}", case.id, i.kind, i.detail));
        }
    }
    assert!(found.is_empty(), "{} findings:\n{}", found.len(), found.join("\n"));
}

/// Renames people consistently in a case file's text: every name as a word
/// or as a part of an atom (`alice_and_bob`).
fn rename_people(source: &str) -> String {
    let pairs = [("alice", "ursula"), ("bob", "victor"), ("charlie", "wendy"), ("dan", "xavier"), ("dorothy", "yolanda"), ("harold", "zeke")];
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let parts: Vec<String> = word
            .split('_')
            .map(|p| {
                let lower = p.to_lowercase();
                match pairs.iter().find(|(a, _)| *a == lower) {
                    Some((_, b)) if p.starts_with(|c: char| c.is_uppercase()) => {
                        let mut s = b.to_string();
                        s[..1].make_ascii_uppercase();
                        s
                    }
                    Some((_, b)) => b.to_string(),
                    None => p.to_string(),
                }
            })
            .collect();
        out.push_str(&parts.join("_"));
        word.clear();
    };
    for c in source.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[test]
fn answers_do_not_depend_on_names() {
    // Every case with its people renamed, under a new case id, must get the
    // same answer (cases the errata table corrects are left out: their
    // corrections are keyed to the original files).
    let data = Dataset::load_default().unwrap_or_else(|e| panic!("{e}"));
    let solver = Solver::new().unwrap();
    let mut differ = Vec::new();
    let mut renamed_cases = 0;
    for (i, case) in data.cases.iter().enumerate().filter(|(_, c)| c.corrections.is_empty()) {
        let source = std::fs::read_to_string(data.dir.join("cases").join(format!("{}.pl", case.id))).unwrap();
        let renamed = rename_people(&source);
        renamed_cases += (renamed != source) as usize;
        let id = format!("held_out_{i}");
        let perturbed = lexlog_data::sara::parse_case(&id, &id, &renamed).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let a = solver.solve(&case.id, &case.ir).map(|o| o.prediction).ok();
        let b = solver.solve(&id, &perturbed.ir).map(|o| o.prediction).ok();
        if a != b {
            differ.push(format!("{}: {a:?} vs renamed {b:?}", case.id));
        }
    }
    assert!(renamed_cases > 350, "only {renamed_cases} cases renamed");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
