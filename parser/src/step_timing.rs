//! Training speed apart from a whole run: the first steps of a config's
//! first epoch, timed after a few untimed ones (`lexlog parser
//! step-timing`). The steps are those `lexlog train` takes, with the same
//! data, model, optimizer and batches.

use crate::config::TrainConfig;
use crate::error::ParserError;
use crate::example::Example;
use crate::train::{epoch_batches, optimizer, start_run, total_steps, train_step, Prepared, Run};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;
use tch::Device;

/// How fast the timed steps went.
#[derive(Debug, Clone, Serialize)]
pub struct StepTiming {
    pub device: String,
    /// Steps taken before the clock starts.
    pub warmup_steps: usize,
    pub steps: usize,
    /// Training units (sentences, queries) in the timed steps.
    pub units: usize,
    pub seconds: f64,
    pub steps_per_second: f64,
    pub units_per_second: f64,
}

/// Takes `warmup` then `steps` training steps of `cfg` on `train_examples`
/// (the train split) and times the latter.
pub fn time_steps(cfg: &TrainConfig, train_examples: Vec<Example>, extra_vocab: &[String], tokenizer_dir: &Path, warmup: usize, steps: usize, device: Device) -> Result<StepTiming, ParserError> {
    let Run { data, vs, model, .. } = start_run(cfg, train_examples, extra_vocab, tokenizer_dir, None, device)?;
    let mut opt = optimizer(cfg, &vs)?;
    let total_steps = total_steps(cfg, &data);
    let epoch = epoch_batches(cfg, &data.train, 0);
    if warmup + steps > epoch.len() {
        return Err(ParserError::Config(format!("{} steps asked of an epoch of {}", warmup + steps, epoch.len())));
    }
    let mut units = 0;
    let mut started = Instant::now();
    for (step, chunk) in epoch.iter().take(warmup + steps).enumerate() {
        if step == warmup {
            started = Instant::now();
        }
        let batch: Vec<&Prepared> = chunk.iter().map(|&i| &data.train[i]).collect();
        train_step(cfg, &model, &mut opt, &batch, step, total_steps, device)?;
        if step >= warmup {
            units += batch.len();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    Ok(StepTiming {
        device: format!("{device:?}"),
        warmup_steps: warmup,
        steps,
        units,
        seconds,
        steps_per_second: steps as f64 / seconds.max(1e-9),
        units_per_second: units as f64 / seconds.max(1e-9),
    })
}
