//! `lexlog train --config FILE --out DIR [--resume]`.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use lexlog_data::{Dataset, Split};
use lexlog_parser::config::TrainConfig;
use lexlog_parser::example::Example;
use lexlog_parser::source::minilm_dir;
use lexlog_parser::train::Resume;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct TrainArgs {
    /// A training configuration (JSON), e.g. parser/configs/base.json.
    #[arg(long)]
    config: PathBuf,
    /// Where checkpoints, config, vocabulary and metrics go.
    #[arg(long)]
    out: PathBuf,
    /// Continue a killed run in --out from its last finished epoch, as the
    /// run would have gone on; with nothing there to continue, start afresh.
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
    /// Hold fold I of K of the train split out besides the dev set
    /// (`I/K`, e.g. `0/4`; pairs share a fold, the folds the same for
    /// every seed): `eval-parser --held-out` then reads those cases, for
    /// comparing two recipes on train cases neither trained on.
    #[arg(long, value_parser = parse_fold)]
    fold: Option<(usize, usize)>,
}

/// The seed that deals the train split's folds, whatever the training seed.
pub const FOLD_SEED: u64 = 17;

fn parse_fold(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?}: a fold is I/K with 0 <= I < K, e.g. 0/4");
    let (i, k) = s.split_once('/').ok_or_else(bad)?;
    let (i, k): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, k.trim().parse().map_err(|_| bad())?);
    if k < 2 || i >= k {
        return Err(bad());
    }
    Ok((i, k))
}

/// The train-split case ids of fold `index` of `of` (pairs together).
pub fn fold_ids<'a>(train_ids: impl IntoIterator<Item = &'a str> + Clone, (index, of): (usize, usize)) -> Vec<String> {
    crate::cv::folds(train_ids, of, FOLD_SEED).into_iter().filter(|(_, f)| *f == index).map(|(id, _)| id).collect()
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
    if let Some(fold) = args.fold {
        for id in fold_ids(train.iter().map(|e| e.id.as_str()), fold) {
            if !cfg.held_out.contains(&id) {
                cfg.held_out.push(id);
            }
        }
    }
    let held = train.iter().filter(|e| cfg.held_out.contains(&e.id)).count();
    let device = lexlog_parser::device::best_device();
    eprintln!("training on {} train-split cases ({held} held out), device {device:?}", train.len() - held);
    match args.resume.then(|| lexlog_parser::train::resume_from(&args.out)) {
        Some(Resume::Exact) => eprintln!("resuming {} from its last finished epoch, as the run would have gone on", args.out.display()),
        Some(Resume::WeightsOnly) => eprintln!(
            "resuming {} from {} alone (written by an older lexlog): AdamW's moments and the dropout draws start afresh, so the weights come close to an unbroken run's, not the same",
            args.out.display(),
            lexlog_parser::train::LAST_WEIGHTS
        ),
        Some(Resume::Fresh) | None => {}
    }
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
    use super::{fold_ids, parse_fold, read_config};

    #[test]
    fn folds_of_train_cover_it_once_and_keep_pairs() {
        let ids: Vec<String> = (0..40).map(|i| format!("s{}_{}", i / 2, if i % 2 == 0 { "pos" } else { "neg" })).chain((0..20).map(|i| format!("tax_case_{i}"))).collect();
        let all: Vec<Vec<String>> = (0..4).map(|f| fold_ids(ids.iter().map(String::as_str), (f, 4))).collect();
        let mut seen: Vec<&String> = all.iter().flatten().collect();
        seen.sort();
        let mut want: Vec<&String> = ids.iter().collect();
        want.sort();
        assert_eq!(seen, want);
        for fold in &all {
            assert!((12..=18).contains(&fold.len()), "{}", fold.len());
            for id in fold.iter().filter_map(|id| id.strip_suffix("_pos")) {
                assert!(fold.contains(&format!("{id}_neg")), "{id}");
            }
        }
        assert_eq!(parse_fold("1/4"), Ok((1, 4)));
        for bad in ["4/4", "1", "a/4", "0/1"] {
            assert!(parse_fold(bad).is_err(), "{bad}");
        }
    }

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
