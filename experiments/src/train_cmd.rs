//! `lexlog train --config FILE --out DIR [--resume]`.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use lexlog_data::{Dataset, Split};
use lexlog_parser::config::TrainConfig;
use lexlog_parser::example::Example;
use lexlog_parser::source::minilm_dir;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct TrainArgs {
    /// A training configuration (JSON), e.g. parser/configs/base.json.
    #[arg(long)]
    config: PathBuf,
    /// Where checkpoints, config, vocabulary and metrics go.
    #[arg(long)]
    out: PathBuf,
    /// Continue from the last checkpoint in --out.
    #[arg(long)]
    resume: bool,
    /// Train with this seed instead of the config's (it also draws the dev
    /// set): for measuring how much a result owes to one seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Train this many epochs instead of the config's (the learning rate
    /// then decays over them), within the config's time budget.
    #[arg(long)]
    epochs: Option<usize>,
}

pub fn run(args: TrainArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.config).with_context(|| format!("reading {}", args.config.display()))?;
    let mut cfg: TrainConfig = serde_json::from_str(&text).with_context(|| format!("parsing {}", args.config.display()))?;
    if let Some(seed) = args.seed {
        cfg.seed = seed;
    }
    if let Some(epochs) = args.epochs {
        anyhow::ensure!(epochs > 0, "--epochs must be at least 1");
        cfg.epochs = epochs;
    }
    let data = Dataset::load_default().context("loading SARA")?;
    // The test split is never used for training, augmentation or selection.
    let train: Vec<Example> = data.cases_in(Some(Split::Train)).map(Example::from_case).collect();
    if let Some(id) = cfg.unknown_held_out(|id| train.iter().any(|e| e.id == id)) {
        anyhow::bail!("{}: held_out names {id}, which is no train-split case", args.config.display());
    }
    let held = train.iter().filter(|e| cfg.held_out.contains(&e.id)).count();
    let device = lexlog_parser::device::best_device();
    eprintln!("training on {} train-split cases ({held} held out), device {device:?}", train.len() - held);
    let bar = ProgressBar::new(1);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} steps {msg}").unwrap());
    let mut on_step = |p: &lexlog_parser::train::Progress| {
        bar.set_length(p.total_steps as u64);
        bar.set_position(p.step as u64);
        bar.set_message(format!("epoch {} loss {:.3} {:.1} ex/s", p.epoch + 1, p.loss, p.examples_per_second));
    };
    let metrics = lexlog_parser::train::train(
        &cfg,
        train,
        &crate::parser_cmd::statute_ids(&data),
        Some(crate::joint::query_signatures(&lexlog_solver::Solver::new()?)),
        &minilm_dir()?,
        &args.out,
        args.resume,
        device,
        &mut on_step,
    )?;
    bar.finish();
    println!("{}", serde_json::to_string_pretty(&metrics)?);
    Ok(())
}
