//! `lexlog train --config FILE --out DIR [--resume]`.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use lexlog_data::{Dataset, Split};
use lexlog_parser::config::TrainConfig;
use lexlog_parser::example::Example;
use lexlog_parser::source::minilm_dir;
use std::path::{Path, PathBuf};

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

/// A training config from its file: a key the config does not have (a
/// misspelt `"epoch"`) or a preset that does not exist is an error naming
/// the file, not a default silently trained with.
pub fn read_config(path: &Path) -> Result<TrainConfig> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let cfg: TrainConfig = serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let given: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let known = serde_json::to_value(&cfg)?;
    if let (Some(given), Some(known)) = (given.as_object(), known.as_object()) {
        if let Some(key) = given.keys().find(|k| !known.contains_key(*k)) {
            let mut keys: Vec<&String> = known.keys().collect();
            keys.sort();
            anyhow::bail!("{}: unknown key {key:?}; a training config has {}", path.display(), keys.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", "));
        }
    }
    if cfg.model_config().is_none() {
        match &cfg.preset {
            Some(p) => anyhow::bail!("{}: no preset {p:?} (the presets are tiny and base)", path.display()),
            None => anyhow::bail!("{}: names no model (a preset or a model)", path.display()),
        }
    }
    Ok(cfg)
}

pub fn run(args: TrainArgs) -> Result<()> {
    let mut cfg = read_config(&args.config)?;
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
        Some(&crate::joint::query_schema(&lexlog_solver::Solver::new()?)),
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

#[cfg(test)]
mod tests {
    use super::read_config;

    #[test]
    fn committed_configs_read_and_misspelt_keys_do_not() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../parser/configs");
        let mut read = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                read_config(&path).unwrap_or_else(|e| panic!("{e:#}"));
                read += 1;
            }
        }
        assert!(read >= 5, "only {read} configs in {}", dir.display());
        let tmp = std::env::temp_dir().join(format!("lexlog-config-{}.json", std::process::id()));
        let main = std::fs::read_to_string(dir.join("main.json")).unwrap();
        for (text, says) in [
            (main.replacen('{', r#"{"epoch": 3,"#, 1), "unknown key \"epoch\""),
            (main.replacen(r#""preset": "base""#, r#""preset": "huge""#, 1), "no preset \"huge\""),
        ] {
            std::fs::write(&tmp, &text).unwrap();
            let err = format!("{:#}", read_config(&tmp).unwrap_err());
            assert!(err.starts_with(&tmp.display().to_string()) && err.contains(says), "{err}");
        }
        std::fs::remove_file(&tmp).unwrap();
    }
}
