//! `lexlog explain CASE`: what the solver derived for a case.

use anyhow::{bail, Context, Result};
use lexlog_data::{statutes::StatuteNode, Dataset};
use lexlog_solver::Solver;

#[derive(clap::Args)]
pub struct ExplainArgs {
    case: String,
    /// Also print these relations, as name/arity (e.g. gross_income/3).
    #[arg(long, value_delimiter = ',')]
    dump: Vec<String>,
}

pub fn run(args: ExplainArgs) -> Result<()> {
    let data = Dataset::load_default().context("loading SARA")?;
    let Some(case) = data.case(&args.case) else {
        bail!("no case named {} in {}", args.case, data.dir.display());
    };
    let solver = Solver::new()?;
    let (outcome, loaded) = solver.solve_loaded(&case.id, &case.ir)?;
    println!("# {}: {:?} (gold {})", case.id, outcome.prediction, case.answer);
    println!("stopped: {:?}; {} rounds, {} tuples derived", outcome.stop, outcome.report.rounds, outcome.report.derived);
    println!("\n## Subsections that apply");
    let mut nodes = Vec::new();
    data.statutes.walk(&mut nodes);
    for node in nodes.iter().filter(|n| n.id.starts_with('s')) {
        for arity in 1..=11 {
            let rows = solver.relation(&loaded, &node.id, arity);
            for row in &rows {
                println!("{}({})  -- {}", node.id, row.join(", "), first_line(node));
            }
        }
    }
    for spec in &args.dump {
        let (name, arity) = spec.split_once('/').context("--dump takes name/arity")?;
        let arity: usize = arity.parse().context("arity")?;
        println!("\n## {name}/{arity}");
        for row in solver.relation(&loaded, name, arity) {
            println!("{name}({})", row.join(", "));
        }
    }
    Ok(())
}

fn first_line(node: &StatuteNode) -> String {
    let t = node.text.lines().next().unwrap_or_default();
    let t: String = t.chars().take(70).collect();
    t
}
