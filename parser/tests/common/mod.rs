//! Helpers the parser's tests share.

use lexlog_data::{Dataset, Split};
use lexlog_parser::config::TrainConfig;
use lexlog_parser::example::Example;

/// The eight train cases with the shortest targets.
pub fn eight_short_cases() -> Vec<Example> {
    let data = Dataset::load_default().unwrap();
    let mut ex: Vec<Example> = data.cases_in(Some(Split::Train)).map(Example::from_case).collect();
    ex.sort_by_key(|e| (e.target.len(), e.id.clone()));
    ex.truncate(8);
    ex
}

/// The `tiny` preset trained to overfit: no dev set, no augmentation.
pub fn tiny_config() -> TrainConfig {
    TrainConfig {
        preset: Some("tiny".into()),
        model: None,
        seed: 7,
        epochs: 400,
        batch_size: 8,
        learning_rate: 3e-3,
        encoder_learning_rate: 3e-3,
        freeze_embeddings: false,
        frozen_layers: 0,
        label_smoothing: 0.0,
        weight_decay: 0.0,
        warmup_steps: 20,
        clip_norm: 1.0,
        dev_fraction: 0.0,
        patience: 1000,
        augment: false,
        augment_years: false,
        augment_percentages: true,
        augment_since: false,
        augment_conjoin: false,
        augment_split_cost: false,
        augment_fresh: false,
        held_out: Vec::new(),
        recombine: 0,
        eval_every: 50,
        max_seconds: None,
        unit: Default::default(),
        select: Default::default(),
        dev_groups: Default::default(),
        schema_hint: false,
    }
}
