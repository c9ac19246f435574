//! `lexlog solve`: the solver on the gold facts of case files.

use anyhow::{Context, Result};
use lexlog_data::{read_each_case, sara_dir, Answer, Case, CaseKind, Dataset, Split};
use lexlog_solver::{Prediction, Solver};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// Directory of SARA-format case files (default: the dataset's cases).
    #[arg(long)]
    cases: Option<PathBuf>,
    /// Which split of the official split to run (ids not in it are skipped).
    #[arg(long, value_enum, default_value_t = SplitArg::All)]
    split: SplitArg,
    #[arg(long)]
    json: bool,
    /// Solve one case at a time on one thread (for per-case timings).
    #[arg(long)]
    serial: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum SplitArg {
    Train,
    Test,
    All,
}

#[derive(Serialize)]
pub struct CaseResult {
    pub case: String,
    pub kind: CaseKind,
    pub gold: Answer,
    pub predicted: Option<Prediction>,
    pub correct: bool,
    pub micros: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Serialize)]
struct Report {
    /// Case files, the unreadable ones included.
    cases: usize,
    correct: usize,
    wall_ms: u128,
    results: Vec<CaseResult>,
    /// Files that could not be read, each with its error (file and line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unreadable: Vec<Unreadable>,
}

#[derive(Serialize)]
struct Unreadable {
    error: String,
}

pub fn matches(gold: Answer, p: Prediction) -> bool {
    matches!(
        (gold, p),
        (Answer::Entailment, Prediction::Entailment) | (Answer::Contradiction, Prediction::Contradiction)
    ) || matches!((gold, p), (Answer::Dollars(a), Prediction::Dollars(b)) if a == b)
}

fn solve_case(solver: &Solver, case: &Case) -> CaseResult {
    let start = Instant::now();
    let outcome = solver.solve(&case.id, &case.ir);
    let micros = start.elapsed().as_micros();
    let (predicted, error) = match outcome {
        Ok(o) => (Some(o.prediction), None),
        Err(e) => (None, Some(e.to_string())),
    };
    CaseResult {
        case: case.id.clone(),
        kind: case.kind,
        gold: case.answer,
        correct: predicted.is_some_and(|p| matches(case.answer, p)),
        predicted,
        micros,
        error,
    }
}

/// The section a case tests: `s7703_b_3_pos` -> `s7703`, tax cases -> `tax`.
pub fn section_of(case: &Case) -> String {
    match case.kind {
        CaseKind::Tax => "tax".into(),
        CaseKind::Entailment => case.id.split('_').next().unwrap_or("?").to_string(),
    }
}

pub fn run(args: SolveArgs) -> Result<()> {
    let dir = args.cases.clone().unwrap_or_else(|| sara_dir().join("cases"));
    // One unreadable file is reported, and the others still solved.
    let (mut cases, mut unreadable) = (Vec::new(), Vec::new());
    for read in read_each_case(&dir).with_context(|| format!("reading cases from {}", dir.display()))? {
        match read {
            Ok(case) => cases.push(case),
            Err(e) => unreadable.push(Unreadable { error: e.to_string() }),
        }
    }
    if args.split != SplitArg::All {
        let split = if args.split == SplitArg::Train { Split::Train } else { Split::Test };
        let data = Dataset::load_default().context("loading the official split")?;
        cases.retain(|c| data.split_of(&c.id) == Some(split));
    }
    let solver = Solver::new()?;
    let start = Instant::now();
    let results: Vec<CaseResult> = if args.serial {
        cases.iter().map(|c| solve_case(&solver, c)).collect()
    } else {
        cases.par_iter().map(|c| solve_case(&solver, c)).collect()
    };
    let wall_ms = start.elapsed().as_millis();
    let correct = results.iter().filter(|r| r.correct).count();
    let total = results.len() + unreadable.len();
    if args.json {
        let report = Report { cases: total, correct, wall_ms, results, unreadable };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    let mut by_section: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (c, r) in cases.iter().zip(&results) {
        let e = by_section.entry(section_of(c)).or_default();
        e.0 += 1;
        e.1 += r.correct as usize;
    }
    println!("{:<8} {:>6} {:>8} {:>9}", "section", "cases", "correct", "accuracy");
    for (s, (n, k)) in &by_section {
        println!("{s:<8} {n:>6} {k:>8} {:>8.1}%", 100.0 * *k as f64 / *n as f64);
    }
    let mut micros: Vec<u128> = results.iter().map(|r| r.micros).collect();
    micros.sort_unstable();
    let p = |q: f64| micros.get((micros.len().saturating_sub(1) as f64 * q) as usize).copied().unwrap_or(0);
    println!(
        "{:<8} {:>6} {:>8} {:>8.1}%   wall {wall_ms} ms; per case p50 {} µs, p90 {} µs, max {} µs",
        "all",
        total,
        correct,
        100.0 * correct as f64 / total.max(1) as f64,
        p(0.5),
        p(0.9),
        p(1.0)
    );
    for r in results.iter().filter(|r| !r.correct) {
        let got = match (&r.predicted, &r.error) {
            (Some(p), _) => format!("{p:?}"),
            (None, Some(e)) => format!("error: {e}"),
            (None, None) => "nothing".into(),
        };
        println!("  wrong: {} (gold {}, got {got})", r.case, r.gold);
    }
    for u in &unreadable {
        println!("  unreadable: {}", u.error);
    }
    Ok(())
}
