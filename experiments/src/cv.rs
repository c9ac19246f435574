//! K-fold cross-validation over all 376 cases (`lexlog eval --cv K`), for
//! figures comparable to work that reports all 100 tax cases. A case and
//! its pair (`…_pos` / `…_neg`) always share a fold; each fold's model is
//! trained on the other folds (its own dev set held out of them).

use crate::joint::{beams_for, evaluate, score, JointReport};
use anyhow::Result;
use lexlog_data::{Case, Dataset};
use lexlog_parser::config::TrainConfig;
use lexlog_parser::example::Example;
use lexlog_solver::Solver;
use std::collections::BTreeMap;
use std::path::Path;

/// The fold of every case id: pairs together, groups dealt round-robin
/// after a seeded shuffle.
pub fn folds<'a>(ids: impl IntoIterator<Item = &'a str> + Clone, k: usize, seed: u64) -> BTreeMap<String, usize> {
    let group = |id: &str| id.strip_suffix("_pos").or_else(|| id.strip_suffix("_neg")).unwrap_or(id).to_string();
    let mut groups: Vec<String> = ids.clone().into_iter().map(group).collect();
    groups.sort();
    groups.dedup();
    lexlog_parser::train::shuffle(&mut groups, seed);
    let fold_of: BTreeMap<String, usize> = groups.into_iter().enumerate().map(|(i, g)| (g, i % k.max(1))).collect();
    ids.into_iter().map(|id| (id.to_string(), fold_of[&group(id)])).collect()
}

pub fn run(data: &Dataset, k: usize, config: &Path, out: &Path, beam: usize) -> Result<Vec<JointReport>> {
    let cfg: TrainConfig = crate::train_cmd::read_config(config)?;
    let fold_of = folds(data.cases.iter().map(|c| c.id.as_str()), k, cfg.seed);
    let solver = Solver::new()?;
    let device = lexlog_parser::device::best_device();
    let mut reports = Vec::new();
    let (mut all_cases, mut all_decisions) = (Vec::new(), Vec::new());
    for fold in 0..k {
        let dir = out.join(format!("fold-{fold}"));
        let train: Vec<Example> = data.cases.iter().filter(|c| fold_of[&c.id] != fold).map(Example::from_case).collect();
        std::fs::create_dir_all(&dir)?;
        let ids: Vec<&String> = train.iter().map(|e| &e.id).collect();
        std::fs::write(dir.join("trained_on.json"), serde_json::to_string(&ids)?)?;
        if !dir.join("complete").is_file() {
            let mut quiet = |_: &lexlog_parser::train::Progress| {};
            // Resumes a killed fold, starts the others afresh.
            lexlog_parser::train::train(&cfg, train, &crate::parser_cmd::statute_ids(data), Some(&crate::joint::query_schema(&solver)), &lexlog_parser::source::minilm_dir()?, &dir, true, device, &mut quiet)?;
        }
        let held: Vec<&Case> = data.cases.iter().filter(|c| fold_of[&c.id] == fold).collect();
        let beams = beams_for(&held, &dir, beam, &format!("fold{fold}"), &solver)?;
        let bridge = crate::joint::fit_on_dev_cases(data, &dir, beam, &solver)?;
        let (report, decisions) = evaluate(&format!("fold {fold}"), "cv", &held, &beams, &solver, &bridge);
        reports.push(report);
        all_cases.extend(held);
        all_decisions.extend(decisions);
    }
    // Every case once, answered by the model that did not train on it.
    reports.push(score(&format!("all {k} folds"), "cv", &all_cases, &all_decisions));
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_share_a_fold_and_folds_are_balanced() {
        let data = Dataset::load_default().unwrap();
        let f = folds(data.cases.iter().map(|c| c.id.as_str()), 5, 17);
        for c in &data.cases {
            if let Some(base) = c.id.strip_suffix("_pos") {
                assert_eq!(f[&c.id], f[&format!("{base}_neg")], "{}", c.id);
            }
        }
        let mut sizes = [0usize; 5];
        for v in f.values() {
            sizes[*v] += 1;
        }
        assert!(sizes.iter().all(|&s| (60..=90).contains(&s)), "{sizes:?}");
    }
}
