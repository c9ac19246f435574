//! `lexlog ablate`: every configuration of one pipeline on one split —
//! gold facts, parser top-1, + rerank, + vote/abstain, beam sizes, each
//! consistency check off in turn, and other trained models (random
//! encoder, no augmentation) — as a Markdown table, JSON and SVG plots.

use crate::joint::{beams_for, evaluate, gold_beams, table, JointReport};
use anyhow::{Context, Result};
use lexlog_bridge::pipeline::{Beam, PipelineConfig, Strategy};
use lexlog_data::Dataset;
use lexlog_solver::{InconsistencyKind, Solver};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct AblateArgs {
    #[arg(long, value_enum, default_value_t = crate::solve_cmd::SplitArg::Test)]
    split: crate::solve_cmd::SplitArg,
    /// The main model.
    #[arg(long)]
    model: PathBuf,
    /// Other models to compare, as name=DIR (e.g. random-encoder=runs/random).
    #[arg(long = "variant")]
    variants: Vec<String>,
    /// Where the table, JSON and plots go.
    #[arg(long, default_value = "ablation")]
    out: PathBuf,
}

fn truncate(beams: &BTreeMap<String, Vec<Beam>>, k: usize) -> BTreeMap<String, Vec<Beam>> {
    beams.iter().map(|(c, b)| (c.clone(), b.iter().take(k).cloned().collect())).collect()
}

pub fn run(args: AblateArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let (cases, split) = crate::eval_cmd::split_cases(&data, args.split);
    let solver = Solver::new()?;
    std::fs::create_dir_all(&args.out)?;
    let kmax = 16;
    let beams = beams_for(&cases, &args.model, kmax, split, &solver)?;
    let mut rows: Vec<JointReport> = Vec::new();
    let fitted = crate::joint::fit_on_dev(&data, &args.model, 8, &solver)?;
    let base = PipelineConfig { strategy: Strategy::Vote, k: 8, ..fitted.clone() };
    let mut run = |name: &str, beams: &BTreeMap<String, Vec<Beam>>, cfg: &PipelineConfig| {
        rows.push(evaluate(name, split, &cases, beams, &solver, cfg).0);
    };
    run("gold-facts", &gold_beams(&cases), &PipelineConfig { strategy: Strategy::TopOne, k: 1, ..base.clone() });
    run("parser top-1", &beams, &PipelineConfig { strategy: Strategy::TopOne, k: 1, ..base.clone() });
    run("+ rerank (k=8)", &beams, &PipelineConfig { strategy: Strategy::Rerank, k: 8, ..base.clone() });
    run("+ vote/abstain (k=8)", &beams, &PipelineConfig { strategy: Strategy::Vote, k: 8, ..base.clone() });
    run("fitted on dev (k=8)", &beams, &fitted);
    for k in [1, 4, 8, 16] {
        run(&format!("vote, beam {k}"), &truncate(&beams, k), &PipelineConfig { k, ..base.clone() });
    }
    for check in InconsistencyKind::ALL {
        run(&format!("vote (k=8), without {check:?}"), &beams, &PipelineConfig { disabled_checks: vec![check], ..base.clone() });
    }
    for v in &args.variants {
        let (name, dir) = v.split_once('=').context("--variant takes name=DIR")?;
        let vb = beams_for(&cases, &PathBuf::from(dir), 8, split, &solver)?;
        run(&format!("{name}: top-1"), &vb, &PipelineConfig { strategy: Strategy::TopOne, k: 1, ..base.clone() });
        run(&format!("{name}: vote (k=8)"), &vb, &base);
    }
    let md = table(&rows);
    std::fs::write(args.out.join("ablation.md"), &md)?;
    std::fs::write(args.out.join("ablation.json"), serde_json::to_string_pretty(&rows)?)?;
    plot_beam_sizes(&rows, &args.out.join("accuracy_vs_beam.svg"))?;
    plot_coverage(&rows, &args.out.join("coverage_vs_accuracy.svg"))?;
    print!("{md}");
    println!("\nwrote {}", args.out.display());
    Ok(())
}

fn plot_beam_sizes(rows: &[JointReport], path: &std::path::Path) -> Result<()> {
    let points: Vec<(f64, f64, f64)> = [1, 4, 8, 16]
        .iter()
        .filter_map(|k| rows.iter().find(|r| r.name == format!("vote, beam {k}")).map(|r| (*k as f64, r.entailment.accuracy, r.tax.accuracy)))
        .collect();
    let root = SVGBackend::new(path, (640, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Accuracy vs beam size (vote over checked beams)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0f64..17.0, 0.0f64..1.0)?;
    chart.configure_mesh().x_desc("beam size k").y_desc("accuracy").draw()?;
    chart.draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), &BLUE))?.label("entailment").legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLUE));
    chart.draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.2)), &RED))?.label("tax (within δ)").legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RED));
    chart.configure_series_labels().border_style(BLACK).background_style(WHITE).draw()?;
    root.present()?;
    Ok(())
}

fn plot_coverage(rows: &[JointReport], path: &std::path::Path) -> Result<()> {
    let root = SVGBackend::new(path, (640, 420)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Coverage vs accuracy (answers ordered by agreement)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0f64..1.0, 0.0f64..1.0)?;
    chart.configure_mesh().x_desc("coverage").y_desc("accuracy of answered cases").draw()?;
    for (name, color) in [("+ vote/abstain (k=8)", BLUE), ("+ rerank (k=8)", RED), ("parser top-1", GREEN)] {
        if let Some(r) = rows.iter().find(|r| r.name == name) {
            chart
                .draw_series(LineSeries::new(r.coverage_accuracy.iter().copied(), &color))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
        }
    }
    chart.configure_series_labels().border_style(BLACK).background_style(WHITE).draw()?;
    root.present()?;
    Ok(())
}
