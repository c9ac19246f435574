//! `lexlog parse --model DIR --text T --question Q`: the joint pipeline on
//! a text of one's own: the parser's k beams, each read, checked and
//! solved, and the bridge's answer (fitted on the model's dev cases, as
//! `lexlog eval` does). `--ensemble`, `--query-model` and `--bridge-model`
//! as in `lexlog eval`, so that it reads as the main job does.

use anyhow::{ensure, Context, Result};
use lexlog_bridge::pipeline::Judged;
use lexlog_bridge::{Beam, PipelineConfig};
use lexlog_data::Dataset;
use lexlog_solver::Solver;
use serde::Serialize;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct ParseArgs {
    /// A model directory written by `lexlog train`.
    #[arg(long)]
    model: PathBuf,
    /// Another model (repeatable) decoding with --model as an ensemble: the
    /// mean of their probabilities at every step (`bash .ci/main` reads the
    /// facts with four seeds of the refit so).
    #[arg(long = "ensemble")]
    ensemble: Vec<PathBuf>,
    /// The question asked by this model (its query checkpoint, where it has
    /// one) instead of --model's, as in `lexlog eval` (repeated: together).
    #[arg(long)]
    query_model: Vec<PathBuf>,
    /// Fit the bridge on this model's dev cases instead of --model's (a
    /// refit has none), as in `lexlog eval`.
    #[arg(long)]
    bridge_model: Option<PathBuf>,
    /// The case's text.
    #[arg(long, conflicts_with = "text_file", required_unless_present = "text_file")]
    text: Option<String>,
    /// A file holding the case's text (`-`: standard input).
    #[arg(long)]
    text_file: Option<PathBuf>,
    /// The question: a statement to entail or contradict ("Section 2(a)
    /// applies to Alice in 2017.") or "How much tax does Alice have to pay
    /// in 2017?".
    #[arg(long)]
    question: String,
    /// Beam size.
    #[arg(long, default_value_t = 8)]
    k: usize,
    /// Decode people of names the parser never saw as they are, without
    /// SARA's names standing in for them.
    #[arg(long)]
    keep_names: bool,
    /// Complete a home's stated costs (yearly payments, a share and its
    /// rest), as in `lexlog eval` (`crate::home_costs`, `crate::shares`).
    #[arg(long)]
    share_rests: bool,
    /// Also explain the beam the answer follows: the subsections that
    /// apply, the tax arithmetic, the consistency findings.
    #[arg(long)]
    explain: bool,
    /// Everything as JSON: the answer, why, the bridge's weights, and each
    /// beam with its reading's answer, findings and score.
    #[arg(long)]
    json: bool,
}

/// `--json`: the answer, why, and every beam with its reading.
#[derive(Serialize)]
struct Parsed<'a> {
    answer: Option<lexlog_solver::Prediction>,
    reasons: &'a [String],
    agreement: f64,
    /// The beam (from 0) whose reading gives the answer.
    followed: Option<usize>,
    /// That beam's reading explained as `lexlog explain --json` does: the
    /// subsections that apply, why (or why not), the arithmetic, the
    /// findings.
    explanation: Option<crate::explain_cmd::Explanation>,
    bridge: &'a PipelineConfig,
    beams: Vec<ParsedBeam<'a>>,
}

#[derive(Serialize)]
struct ParsedBeam<'a> {
    text: &'a str,
    #[serde(flatten)]
    judged: &'a Judged,
}

/// The reading of beam `i` explained (`lexlog explain`'s [`gather`]).
///
/// [`gather`]: crate::explain_cmd::gather
fn followed_explained(data: &Dataset, solver: &Solver, beams: &[Beam], i: usize, question: &str) -> Result<crate::explain_cmd::Explanation> {
    let ir = lexlog_data::linear::parse(&beams[i].text).with_context(|| format!("beam {} reads no more", i + 1))?;
    crate::explain_cmd::gather(data, solver, &format!("beam {}", i + 1), &ir, question, None, &[], crate::explain_cmd::WHY_DEPTH)
}

fn read_text(args: &ParseArgs) -> Result<String> {
    let text = match (&args.text, &args.text_file) {
        (Some(t), _) => t.clone(),
        (None, Some(p)) if p.as_os_str() == "-" => std::io::read_to_string(std::io::stdin()).context("reading the text from standard input")?,
        (None, Some(p)) => std::fs::read_to_string(p).with_context(|| format!("reading the text from {}", p.display()))?,
        (None, None) => unreachable!("clap asks for --text or --text-file"),
    };
    ensure!(!text.trim().is_empty(), "the case's text is empty");
    Ok(text.trim().to_string())
}

pub fn run(args: ParseArgs) -> Result<()> {
    let text = read_text(&args)?;
    ensure!(!args.question.trim().is_empty(), "the question is empty");
    ensure!(args.k > 0, "--k must be at least 1");
    let data = Dataset::load_default().context("loading SARA (the bridge is fitted on the model's dev cases)")?;
    let solver = Solver::new()?;
    let models = crate::joint::load_models(&args.model, &args.ensemble)?;
    let models: Vec<_> = models.iter().collect();
    let asking = args.query_model.split_first().map(|(dir, more)| crate::joint::load_models(dir, more)).transpose()?;
    let askers = crate::joint::askers(asking.as_deref(), &models);
    let cfg = crate::joint::beam_config(args.k, &solver);
    let decoded = crate::joint::decode_case(&models, &askers, &text, args.question.trim(), &cfg, &crate::shifts::Reading { share_rests: args.share_rests, ..crate::shifts::Reading::once(!args.keep_names) })?;
    let beams: Vec<Beam> = decoded.into_iter().map(|b| Beam { text: b.text, logprob: b.logprob }).collect();
    let bridge = crate::joint::fit_on_dev(&data, args.bridge_model.as_ref().unwrap_or(&args.model), args.k, &solver)?;
    let decision = lexlog_bridge::pipeline::decide(&solver, &beams, &bridge);
    if args.json {
        let explanation = decision.followed.map(|i| followed_explained(&data, &solver, &beams, i, args.question.trim())).transpose()?;
        let beams = beams.iter().zip(&decision.beams).map(|(b, judged)| ParsedBeam { text: &b.text, judged }).collect();
        let parsed = Parsed { answer: decision.answer, reasons: &decision.reasons, agreement: decision.agreement, followed: decision.followed, explanation, bridge: &bridge, beams };
        println!("{}", serde_json::to_string_pretty(&parsed)?);
        return Ok(());
    }
    for (i, (b, j)) in beams.iter().zip(&decision.beams).enumerate() {
        let asks_nothing = lexlog_data::linear::parse(&b.text).is_ok_and(|ir| ir.query.is_none());
        let answer = match j.answer {
            Some(a) => format!("{a:?}"),
            None if asks_nothing => "no answer (no query search ended a beam: the reading states facts only)".to_string(),
            None => "no answer".to_string(),
        };
        let findings = if j.findings.is_empty() { String::new() } else { format!("; findings {:?}", j.findings) };
        println!("beam {} (log-prob {:.3}, score {:.3}): {answer}{findings}", i + 1, b.logprob, j.score);
        for line in b.text.lines() {
            println!("    {line}");
        }
    }
    let answer = decision.answer.map_or("abstains".to_string(), |a| format!("{a:?}"));
    println!(
        "answer: {answer} ({}; agreement {:.2}; bridge: {:?}, penalty {}, min agreement {})",
        decision.reasons.join("; "),
        decision.agreement,
        bridge.strategy,
        bridge.penalty,
        bridge.min_agreement
    );
    if args.explain {
        match decision.followed {
            Some(i) => {
                println!();
                crate::explain_cmd::print(&followed_explained(&data, &solver, &beams, i, args.question.trim())?);
            }
            None => println!("(nothing to explain: no beam gives the answer)"),
        }
    }
    Ok(())
}
