//! What the CLI tests share: a tiny model trained by `lexlog train` in a
//! few seconds.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Trains a one-epoch `tiny` model with `seed` into `dir/model` (the
/// config beside it) and returns its directory.
pub fn train_tiny(dir: &Path, seed: u64) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let config = dir.join("tiny.json");
    let settings = format!(
        r#"{{"preset": "tiny", "seed": {seed}, "epochs": 1, "batch_size": 8, "learning_rate": 0.003,
        "encoder_learning_rate": 0.003, "weight_decay": 0.0, "warmup_steps": 5, "clip_norm": 1.0,
        "dev_fraction": 0.1, "patience": 1, "augment": false, "eval_every": 1, "unit": "marked_sentence"}}"#
    );
    std::fs::write(&config, settings).unwrap();
    let model = dir.join("model");
    let trained = Command::new(env!("CARGO_BIN_EXE_lexlog")).args(["train", "--config", config.to_str().unwrap(), "--out", model.to_str().unwrap()]).output().unwrap();
    assert!(trained.status.success(), "{}", String::from_utf8_lossy(&trained.stderr));
    model
}
