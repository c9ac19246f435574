//! One pipeline, configured: every ablation is a [`PipelineConfig`].

use lexlog_data::{linear, CaseIr};
use lexlog_solver::{InconsistencyKind, Prediction, Solver};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A parser hypothesis: its linear text and log-probability.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Beam {
    pub text: String,
    pub logprob: f64,
}

/// How the answer is chosen among beams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The first beam's answer, unchecked.
    TopOne,
    /// The best beam after reranking with the checks.
    Rerank,
    /// A probability-weighted vote over the consistent beams, abstaining
    /// below the agreement threshold.
    Vote,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PipelineConfig {
    pub strategy: Strategy,
    /// How many beams to use.
    pub k: usize,
    /// Checks that are switched off.
    pub disabled_checks: Vec<InconsistencyKind>,
    /// Score penalty per finding (added to the log-probability).
    pub penalty: f64,
    /// Drop beams with any finding instead of penalising them.
    pub drop_inconsistent: bool,
    /// Vote: abstain when the winning answer's share is below this.
    pub min_agreement: f64,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig { strategy: Strategy::Vote, k: 8, disabled_checks: vec![], penalty: 5.0, drop_inconsistent: false, min_agreement: 0.5 }
    }
}

/// A beam read, checked and solved.
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    pub logprob: f64,
    pub findings: Vec<InconsistencyKind>,
    pub answer: Option<Prediction>,
    pub score: f64,
}

/// What the pipeline concludes for a case.
#[derive(Debug, Clone, Serialize)]
pub struct Decision {
    /// `None`: abstained.
    pub answer: Option<Prediction>,
    /// Why it abstained, or which beam it followed.
    pub reasons: Vec<String>,
    /// The winning answer's share of the vote (1 for a single beam).
    pub agreement: f64,
    /// The beam whose reading gives the answer (in a vote, the best-scored
    /// voter for it); `None` where there is no answer.
    pub followed: Option<usize>,
    pub beams: Vec<Judged>,
}

/// Reads, checks and solves one beam.
pub fn judge(solver: &Solver, beam: &Beam, cfg: &PipelineConfig) -> Judged {
    let ir: Option<CaseIr> = linear::parse(&beam.text).ok();
    let Some(ir) = ir else {
        return Judged { logprob: beam.logprob, findings: vec![InconsistencyKind::WrongType], answer: None, score: f64::NEG_INFINITY };
    };
    let (findings, outcome) = solver.check_and_solve("beam", &ir);
    let findings: Vec<InconsistencyKind> = if cfg.strategy == Strategy::TopOne {
        vec![]
    } else {
        findings.into_iter().map(|i| i.kind).filter(|k| !cfg.disabled_checks.contains(k)).collect()
    };
    let answer = outcome.ok().map(|o| o.prediction);
    let score = beam.logprob - cfg.penalty * findings.len() as f64 - if answer.is_none() { 1e6 } else { 0.0 };
    Judged { logprob: beam.logprob, findings, answer, score }
}

/// Decides a case from its beams (best first).
pub fn decide(solver: &Solver, beams: &[Beam], cfg: &PipelineConfig) -> Decision {
    let beams = &beams[..beams.len().min(cfg.k.max(1))];
    let judged: Vec<Judged> = beams.par_iter().map(|b| judge(solver, b, cfg)).collect();
    let usable = |j: &&Judged| j.answer.is_some() && (!cfg.drop_inconsistent || j.findings.is_empty());
    match cfg.strategy {
        Strategy::TopOne => {
            let first = judged.first();
            let answer = first.and_then(|j| j.answer);
            let reasons = if answer.is_none() { vec!["the first beam gives no answer".into()] } else { vec!["first beam".into()] };
            Decision { answer, reasons, agreement: 1.0, followed: answer.map(|_| 0), beams: judged }
        }
        Strategy::Rerank => {
            let best = judged.iter().enumerate().filter(|(_, j)| usable(j)).max_by(|a, b| a.1.score.total_cmp(&b.1.score));
            let answer = best.and_then(|(_, j)| j.answer);
            let reasons = match best {
                Some((_, j)) if j.findings.is_empty() => vec!["best consistent beam".into()],
                Some((_, j)) => vec![format!("best beam, with {} finding(s)", j.findings.len())],
                None => vec!["no beam gives an answer".into()],
            };
            Decision { answer, reasons, agreement: 1.0, followed: best.map(|(i, _)| i), beams: judged }
        }
        Strategy::Vote => {
            // Consistent beams with an answer, with their places in the beam list.
            let voters: Vec<(usize, &Judged)> = judged.iter().enumerate().filter(|(_, j)| usable(j) && j.findings.is_empty()).collect();
            if voters.is_empty() {
                let mut reasons = vec!["no consistent beam".to_string()];
                for (i, j) in judged.iter().enumerate() {
                    reasons.push(format!("beam {i}: {:?}{}", j.findings, if j.answer.is_none() { ", no answer" } else { "" }));
                }
                return Decision { answer: None, reasons, agreement: 0.0, followed: None, beams: judged };
            }
            let top = voters.iter().map(|(_, j)| j.score).fold(f64::NEG_INFINITY, f64::max);
            // A BTreeMap, so that ties resolve the same way on every run.
            let mut weights: std::collections::BTreeMap<String, (f64, Prediction)> = Default::default();
            let mut total = 0.0;
            for (_, j) in &voters {
                let w = (j.score - top).exp();
                total += w;
                let a = j.answer.expect("voters have answers");
                weights.entry(format!("{a:?}")).or_insert((0.0, a)).0 += w;
            }
            let (share, answer) = weights.values().map(|(w, a)| (*w / total, *a)).max_by(|x, y| x.0.total_cmp(&y.0)).expect("one voter");
            if share < cfg.min_agreement {
                return Decision { answer: None, reasons: vec![format!("agreement {share:.2} below {:.2}", cfg.min_agreement)], agreement: share, followed: None, beams: judged };
            }
            // The best-scored voter for the answer.
            let followed = voters.iter().filter(|(_, j)| j.answer == Some(answer)).max_by(|a, b| a.1.score.total_cmp(&b.1.score)).map(|(i, _)| *i);
            Decision { answer: Some(answer), reasons: vec![format!("vote of {} consistent beam(s)", voters.len())], agreement: share, followed, beams: judged }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beam(text: &str, logprob: f64) -> Beam {
        Beam { text: text.into(), logprob }
    }

    #[test]
    fn rerank_prefers_a_consistent_beam() {
        let solver = Solver::new().unwrap();
        let bad = beam("income i1 agent=ann amount=10 amount=20 start=2016-12-31\nquery tax ann 2016\n", -1.0);
        let good = beam("income i1 agent=ann amount=40000 start=2016-12-31\nquery tax ann 2016\n", -2.0);
        let cfg = PipelineConfig { strategy: Strategy::Rerank, ..Default::default() };
        let d = decide(&solver, &[bad.clone(), good.clone()], &cfg);
        assert_eq!(d.answer, Some(Prediction::Dollars(6927)));
        assert_eq!(d.followed, Some(1), "the consistent second beam");
        let vote = decide(&solver, &[bad.clone(), good.clone()], &PipelineConfig::default());
        assert_eq!((vote.answer, vote.followed), (Some(Prediction::Dollars(6927)), Some(1)));
        let top = decide(&solver, &[bad, good], &PipelineConfig { strategy: Strategy::TopOne, ..Default::default() });
        assert_ne!(top.answer, Some(Prediction::Dollars(6927)));
    }

    #[test]
    fn no_consistent_beam_abstains_with_reasons() {
        let solver = Solver::new().unwrap();
        let d = decide(&solver, &[beam("not a linear form at all (", -1.0), beam("query tax zed 2016\n", -2.0)], &PipelineConfig::default());
        assert_eq!((d.answer, d.followed), (None, None));
        assert!(d.reasons.len() >= 2, "{:?}", d.reasons);
    }

    #[test]
    fn low_agreement_abstains() {
        let solver = Solver::new().unwrap();
        let a = beam("income i1 agent=ann amount=40000 start=2016-12-31\nquery tax ann 2016\n", -1.0);
        let b = beam("income i1 agent=ann amount=50000 start=2016-12-31\nquery tax ann 2016\n", -1.0);
        let d = decide(&solver, &[a, b], &PipelineConfig { min_agreement: 0.6, ..Default::default() });
        assert_eq!(d.answer, None);
        assert!((d.agreement - 0.5).abs() < 1e-9);
    }
}
