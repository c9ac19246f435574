//! `lexlog eval --split test --model DIR [--json]`: the joint evaluation,
//! text -> parser -> bridge -> answer (the README's main job).

use crate::joint::{evaluate, fit_on_dev, table};
use anyhow::{Context, Result};
use lexlog_data::{Dataset, Split};
use lexlog_solver::Solver;
use std::path::PathBuf;

/// What every evaluation of a trained model takes.
#[derive(clap::Args)]
pub struct ModelArgs {
    #[arg(long, value_enum, default_value_t = crate::solve_cmd::SplitArg::Test)]
    pub split: crate::solve_cmd::SplitArg,
    /// A model directory written by `lexlog train` (with `eval --cv`: the
    /// folder for the fold models).
    #[arg(long)]
    pub model: PathBuf,
    /// Beam size.
    #[arg(long, default_value_t = 8)]
    pub k: usize,
    #[arg(long)]
    pub json: bool,
    /// Another model (repeatable) decoding with --model as an ensemble: the
    /// mean of their probabilities at every step. The bridge is still
    /// fitted on --model's own dev cases, with its own beams.
    #[arg(long = "ensemble")]
    pub ensemble: Vec<PathBuf>,
    /// Decode people of names the parser never saw as they are, without
    /// SARA's names standing in for them (`lexlog_bridge::names`).
    #[arg(long)]
    pub keep_names: bool,
    /// Also read each case with every year moved by each of these
    /// (comma-separated multiples of 4, e.g. `--year-shifts=-4,4`), and
    /// keep the reading whose facts the others agree with most
    /// (`crate::shifts`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub year_shifts: Vec<i64>,
    /// Another model (repeatable) that reads each case on its own, as
    /// --model does (the question asked by --query-model where given, else
    /// by itself); of their readings and --model's, the one whose facts the
    /// others agree with most is kept (`crate::vote`). E.g. the same recipe
    /// trained with other seeds.
    #[arg(long = "vote")]
    pub vote: Vec<PathBuf>,
    /// Complete what a reading leaves out of a home's stated costs: where
    /// a sentence says X furnished them from one year to another and the
    /// reading has X pay nothing, X's yearly payments
    /// (`crate::home_costs`); where it states a share ("40% of the
    /// costs"), the payer's payments of the whole (amount 1) given that
    /// share where the reading has the payer pay it nowhere, and beside
    /// the payer's payments the rest's, paid by whom the sentence says
    /// pays the remaining share, else by `someone` (`crate::shares`).
    #[arg(long)]
    pub share_rests: bool,
}

impl ModelArgs {
    /// How each case's text is read.
    pub fn reading(&self, solver: &Solver) -> Result<crate::shifts::Reading> {
        if let Some(y) = self.year_shifts.iter().find(|&&y| y == 0 || y % 4 != 0) {
            anyhow::bail!("--year-shifts {y}: a shift is a multiple of 4 other than 0 (so February 29th stays a date)");
        }
        // Only moved years need the solver's argument types.
        let types = if self.year_shifts.is_empty() { Default::default() } else { std::sync::Arc::new(solver.argument_types()) };
        Ok(crate::shifts::Reading { stand_ins: !self.keep_names, year_shifts: self.year_shifts.clone(), types, voters: self.vote.clone(), share_rests: self.share_rests })
    }
}

#[derive(clap::Args)]
pub struct EvalArgs {
    #[command(flatten)]
    common: ModelArgs,
    /// Evaluate the case files of this directory (SARA's format) instead of
    /// a split, e.g. held-out perturbed cases.
    #[arg(long)]
    cases: Option<PathBuf>,
    /// K-fold cross-validation over all 376 cases (pairs kept together):
    /// trains a model per fold with --config into --model/fold-N.
    #[arg(long)]
    cv: Option<usize>,
    /// Print every case's decision and its reasons.
    #[arg(long)]
    verbose: bool,
    /// Fit the bridge on this model's dev cases, with its beams, instead of
    /// --model's: for a model trained on all of train, its dev-held-out
    /// sibling (same config and seed).
    #[arg(long)]
    bridge_model: Option<PathBuf>,
    /// The question asked by this model (its query checkpoint, where it has
    /// one) instead of --model's, as `eval-parser --query-model`: e.g. a
    /// refit's facts with the main recipe's query, the bridge fitted with
    /// --bridge-model (`experiments/results/refit-query/`). Repeated, the
    /// models ask it together.
    #[arg(long)]
    query_model: Vec<PathBuf>,
    /// Training configuration for --cv.
    #[arg(long, default_value = "parser/configs/main.json")]
    config: PathBuf,
}

pub fn split_cases(data: &Dataset, split: crate::solve_cmd::SplitArg) -> (Vec<&lexlog_data::Case>, &'static str) {
    let (s, name) = match split {
        crate::solve_cmd::SplitArg::Train => (Some(Split::Train), "train"),
        crate::solve_cmd::SplitArg::Test => (Some(Split::Test), "test"),
        crate::solve_cmd::SplitArg::All => (None, "all"),
    };
    (data.cases_in(s).collect(), name)
}

pub fn run(args: EvalArgs) -> Result<()> {
    let ModelArgs { split: split_arg, model, k, json, ensemble, .. } = &args.common;
    let (model, k, json) = (model.clone(), *k, *json);
    let data = Dataset::load_default().context("loading SARA")?;
    if let Some(folds) = args.cv {
        anyhow::ensure!(ensemble.is_empty(), "--cv trains its own models; it takes no --ensemble");
        anyhow::ensure!(args.bridge_model.is_none(), "--cv fits each fold's bridge on its own dev cases; it takes no --bridge-model");
        anyhow::ensure!(args.query_model.is_empty(), "--cv trains its own models; it takes no --query-model");
        anyhow::ensure!(args.common.year_shifts.is_empty(), "--cv reads each case once; it takes no --year-shifts");
        anyhow::ensure!(args.common.vote.is_empty(), "--cv trains its own models; it takes no --vote");
        let reports = crate::cv::run(&data, folds, &args.config, &model, k)?;
        if json {
            println!("{}", serde_json::to_string_pretty(&reports)?);
        } else {
            print!("{}", table(&reports));
        }
        return Ok(());
    }
    let own: Vec<lexlog_data::Case>;
    let (cases, split): (Vec<&lexlog_data::Case>, String) = match &args.cases {
        Some(dir) => {
            own = lexlog_data::read_cases(dir).with_context(|| format!("reading {}", dir.display()))?;
            // The beam cache is keyed by the cases' ids, texts and questions
            // (FNV-1a): a variant that changes only the question decodes anew.
            let h = crate::joint::fnv1a(own.iter().flat_map(|c| c.id.bytes().chain(c.text.bytes()).chain([0]).chain(c.question.bytes()).chain([0])));
            let tag = format!("dir-{h:016x}");
            (own.iter().collect(), tag)
        }
        None => {
            let (c, s) = split_cases(&data, *split_arg);
            (c, s.to_string())
        }
    };
    let split = split.as_str();
    let solver = Solver::new()?;
    let beams = crate::joint::ensemble_beams_for(&cases, &model, ensemble, &args.query_model, k, split, &args.common.reading(&solver)?, &solver)?;
    // The bridge's weights are fitted on dev cases only.
    let cfg = fit_on_dev(&data, args.bridge_model.as_ref().unwrap_or(&model), k, &solver)?;
    eprintln!("bridge: {:?}, penalty {}, min agreement {}", cfg.strategy, cfg.penalty, cfg.min_agreement);
    let (report, decisions) = evaluate("lexlog (parser + solver-checked bridge)", split, &cases, &beams, &solver, &cfg);
    if args.verbose {
        for (c, d) in cases.iter().zip(&decisions) {
            eprintln!("{}: gold {}, answer {:?}; {}", c.id, c.answer, d.answer, d.reasons.join("; "));
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", table(std::slice::from_ref(&report)));
        println!("\nby section (correct / cases):");
        for (s, (n, k)) in &report.by_section {
            println!("  {s:<8} {k:>3} / {n}");
        }
        // Train asks some subsections; the official split holds the others out.
        let asked = crate::parser_cmd::asked_predicates(data.cases_in(Some(lexlog_data::Split::Train)));
        let mut by_asked = [(0, 0); 2];
        for (c, d) in cases.iter().zip(&decisions) {
            let seen = crate::parser_cmd::asks_only(c, &asked);
            by_asked[usize::from(seen)].0 += 1;
            by_asked[usize::from(seen)].1 += usize::from(crate::joint::correct(c.answer, d.answer));
        }
        println!("by query predicate (correct / cases): asked in train {} / {}, never asked in train {} / {}", by_asked[1].1, by_asked[1].0, by_asked[0].1, by_asked[0].0);
    }
    Ok(())
}
