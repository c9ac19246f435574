//! Training: AdamW with warm-up then linear decay, gradient clipping, a
//! seeded dev set held out of train, early stopping on dev loss, and
//! checkpoints written atomically (weights as safetensors, config,
//! vocabulary, metrics), and after each epoch the state `--resume`
//! continues from exactly ([`RESUME_STATE`]). Sentence units also
//! keep the checkpoint their dev query units choose ([`QUERY_WEIGHTS`]).

use crate::config::{DevGroups, ModelConfig, TrainConfig, Unit};
use crate::decode::{beam_search, BeamConfig};
use crate::error::ParserError;
use crate::example::Example;
use crate::grammar::{Part, Signatures};
use crate::model::Seq2Seq;
use crate::optim::{self, AdamW};
use crate::schema::QuerySchema;
use crate::sentences::QUERY_UNIT;
use crate::source::{Source, SourceTokenizer};
use crate::target::{Action, Vocab, BOS, PAD};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tch::nn;
use tch::{Device, Kind, Tensor};

/// An example ready for the model.
pub struct Prepared {
    pub example: Example,
    pub source: Source,
    /// Action indices (vocabulary ids, then vocab size + mention), ending
    /// with `</s>`.
    pub actions: Vec<i64>,
}

pub fn prepare(examples: Vec<Example>, tok: &SourceTokenizer, vocab: &Vocab) -> Result<Vec<Prepared>, ParserError> {
    let v = vocab.len() as i64;
    examples
        .into_iter()
        .map(|example| {
            let source = tok.encode(&example.source, &example.mentions, example.focus)?;
            let actions = vocab
                .encode(&example.target, &example.mentions)
                .into_iter()
                .map(|a| match a {
                    Action::Vocab(i) => i as i64,
                    Action::Copy(j) => v + j as i64,
                })
                .collect();
            Ok(Prepared { example, source, actions })
        })
        .collect()
}

/// Teacher-forced loss of a batch, and (correct, total) next-action counts.
pub fn batch_loss(model: &Seq2Seq, batch: &[&Prepared], device: Device, train: bool) -> (Tensor, i64, i64) {
    smoothed_batch_loss(model, batch, device, train, 0.0)
}

/// [`batch_loss`] with `smoothing` of each gold action's mass spread over
/// the step's possible actions (the vocabulary and the case's mentions).
pub fn smoothed_batch_loss(model: &Seq2Seq, batch: &[&Prepared], device: Device, train: bool, smoothing: f64) -> (Tensor, i64, i64) {
    let sources: Vec<&Source> = batch.iter().map(|p| &p.source).collect();
    let enc = model.encode(&sources, device, train);
    let t = batch.iter().map(|p| p.actions.len()).max().unwrap_or(1).min(model.cfg.max_target as usize);
    let mut prev = Vec::new();
    let mut gold = Vec::new();
    for p in batch {
        let acts = &p.actions[..p.actions.len().min(t)];
        let mut input = vec![BOS as i64];
        input.extend_from_slice(&acts[..acts.len() - 1]);
        input.resize(t, PAD as i64);
        let mut out = acts.to_vec();
        out.resize(t, -100);
        prev.extend(input);
        gold.extend(out);
    }
    let b = batch.len() as i64;
    let prev = Tensor::from_slice(&prev).view([b, t as i64]).to(device);
    let gold = Tensor::from_slice(&gold).view([b, t as i64]).to(device);
    let logp = model.decode(&enc, &prev, train);
    let width = logp.size()[2];
    // Padding positions hold -100, which the loss ignores.
    let nll = logp.view([-1, width]).nll_loss(&gold.view([-1]));
    let valid = gold.ne(-100);
    let loss = if smoothing > 0.0 {
        // The mean over possible actions of their negative log-probability,
        // over the positions that have a gold action.
        let possible = Tensor::cat(&[Tensor::ones([b, model.vocab_size], (Kind::Float, device)), enc.mention_mask.to_kind(Kind::Float)], 1).unsqueeze(1);
        let uniform = -(&logp * &possible).sum_dim_intlist(-1, false, Kind::Float) / possible.sum_dim_intlist(-1, false, Kind::Float);
        let positions = valid.to_kind(Kind::Float);
        let smooth = (uniform * &positions).sum(Kind::Float) / positions.sum(Kind::Float).clamp_min(1.0);
        nll * (1.0 - smoothing) + smooth * smoothing
    } else {
        nll
    };
    let pred = logp.argmax(-1, false);
    let correct = (pred.eq_tensor(&gold).logical_and(&valid)).sum(Kind::Int64).int64_value(&[]);
    let total = valid.sum(Kind::Int64).int64_value(&[]);
    (loss, correct, total)
}

/// What a checkpoint directory holds besides the weights.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckpointMeta {
    pub train: TrainConfig,
    pub model: ModelConfig,
    pub vocab: Vec<String>,
}

impl CheckpointMeta {
    /// The `config.json` of a checkpoint directory.
    pub fn read(dir: &Path) -> Result<CheckpointMeta, ParserError> {
        read_json(&dir.join("config.json"))
    }
}

/// A JSON file of a checkpoint; a malformed one is an error naming the
/// file (serde's message gives the line).
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ParserError> {
    let text = std::fs::read_to_string(path).map_err(|source| ParserError::Io { path: path.to_path_buf(), source })?;
    serde_json::from_str(&text).map_err(|e| ParserError::Config(format!("{}: {e}", path.display())))
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Metrics {
    pub epoch: usize,
    pub step: usize,
    pub train_loss: f64,
    pub dev_loss: f64,
    pub dev_accuracy: f64,
    pub best_dev_loss: f64,
    /// The dev accuracy of the kept checkpoint.
    #[serde(default)]
    pub best_dev_accuracy: f64,
    pub best_epoch: usize,
    pub examples_per_second: f64,
    pub seconds: f64,
    pub seconds_to_best: f64,
    pub device: String,
    pub train_cases: usize,
    pub dev_cases: usize,
    /// The epoch kept as the query checkpoint (`query.safetensors`; its
    /// scores are in `history`), 0 for none.
    #[serde(default)]
    pub best_query_epoch: usize,
    /// Every evaluated epoch's dev scores, in order.
    #[serde(default)]
    pub history: Vec<EpochScores>,
}

/// Dev scores after one epoch.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EpochScores {
    pub epoch: usize,
    pub seconds: f64,
    /// Of which the dev evaluation (teacher-forced units, decoded queries).
    #[serde(default)]
    pub eval_seconds: f64,
    pub train_loss: f64,
    #[serde(flatten)]
    pub dev: DevScores,
}

/// Dev scores: teacher-forced over all units, and over the query units
/// (ids ending `#query`) apart, which ask what the facts do not, also as
/// decoded.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct DevScores {
    pub dev_loss: f64,
    pub dev_accuracy: f64,
    pub query_units: usize,
    /// Query units whose top beam (k = 8, the grammar's constraints) is
    /// the gold query.
    #[serde(default)]
    pub query_decoded: usize,
    /// Query units whose every gold action is ranked first.
    pub query_exact: usize,
    pub query_accuracy: f64,
}

impl DevScores {
    /// How the query checkpoint is chosen: most dev queries decoded right,
    /// then most query units whole under teacher forcing, then query
    /// accuracy.
    pub fn query_score(&self) -> (usize, usize, f64) {
        (self.query_decoded, self.query_exact, self.query_accuracy)
    }
}

/// Where a run keeps the checkpoint chosen on its dev query units alone.
pub const QUERY_WEIGHTS: &str = "query.safetensors";

/// What `--resume` continues from, written after each epoch and removed
/// when the run finishes: the weights, AdamW's step counts and moments,
/// the dropout generators' states and the metrics so far, in one file so
/// that a kill leaves all of one epoch or all of the one before.
pub const RESUME_STATE: &str = "resume.safetensors";

/// The weights after the last finished epoch (what runs by older lexlog
/// resume from, approximately).
pub const LAST_WEIGHTS: &str = "last.safetensors";

/// How a run in `out` would resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Nothing to resume: the run starts afresh.
    Fresh,
    /// From [`RESUME_STATE`]: exactly as the run would have gone on.
    Exact,
    /// From [`LAST_WEIGHTS`] alone (a run by an older lexlog): AdamW's
    /// moments and the dropout draws start afresh.
    WeightsOnly,
}

pub fn resume_from(out: &Path) -> Resume {
    if out.join(RESUME_STATE).is_file() {
        Resume::Exact
    } else if out.join(LAST_WEIGHTS).is_file() {
        Resume::WeightsOnly
    } else {
        Resume::Fresh
    }
}

/// Writes the resume state atomically.
fn save_resume_state(vs: &nn::VarStore, opt: &AdamW, device: Device, metrics: &Metrics, path: &Path) -> Result<(), ParserError> {
    let mut named: Vec<(String, Tensor)> = vs.variables().into_iter().map(|(name, t)| (name, t.to_device(Device::Cpu))).collect();
    named.extend(opt.state()?);
    named.extend(optim::generator_state(device)?);
    named.push((RESUME_METRICS.to_string(), Tensor::from_slice(&serde_json::to_vec(metrics)?)));
    save_atomic(path, |tmp| Tensor::write_safetensors(&named, tmp))
}

const RESUME_METRICS: &str = "resume.metrics";

/// The resume state's tensors by name, and its metrics.
fn read_resume_state(path: &Path) -> Result<(std::collections::HashMap<String, Tensor>, Metrics), ParserError> {
    let named: std::collections::HashMap<String, Tensor> = Tensor::read_safetensors(path)?.into_iter().collect();
    let bytes = named.get(RESUME_METRICS).map(Vec::<u8>::try_from).transpose()?;
    let bytes = bytes.ok_or_else(|| ParserError::Config(format!("{}: no {RESUME_METRICS} in it; remove it to resume from {LAST_WEIGHTS}", path.display())))?;
    let metrics = serde_json::from_slice(&bytes).map_err(|e| ParserError::Config(format!("{}: {RESUME_METRICS}: {e}", path.display())))?;
    Ok((named, metrics))
}

/// Writes `bytes` to `path` atomically (a temporary file, then rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ParserError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|source| ParserError::Io { path: tmp.clone(), source })?;
    std::fs::rename(&tmp, path).map_err(|source| ParserError::Io { path: path.to_path_buf(), source })
}

fn save_weights(vs: &nn::VarStore, path: &Path) -> Result<(), ParserError> {
    save_atomic(path, |tmp| vs.save(tmp))
}

/// Writes the safetensors file `path` atomically: `write` fills a
/// temporary file beside it, which then replaces `path`.
fn save_atomic(path: &Path, write: impl FnOnce(&Path) -> Result<(), tch::TchError>) -> Result<(), ParserError> {
    let tmp = path.with_file_name(format!("{}.tmp.safetensors", path.file_stem().and_then(|s| s.to_str()).unwrap_or("w")));
    write(&tmp)?;
    std::fs::rename(&tmp, path).map_err(|source| ParserError::Io { path: path.to_path_buf(), source })
}

/// The examples but those `held_out` names.
pub fn without_held_out(examples: Vec<Example>, held_out: &[String]) -> Vec<Example> {
    examples.into_iter().filter(|e| !held_out.contains(&e.id)).collect()
}

/// Splits train examples into (train, dev) by a seeded shuffle, drawing
/// whole `groups` until the dev set holds `fraction` of the cases.
pub fn split_dev(mut examples: Vec<Example>, fraction: f64, seed: u64, groups: DevGroups) -> (Vec<Example>, Vec<Example>) {
    examples.sort_by(|a, b| a.id.cmp(&b.id));
    let group_of = |id: &str| match groups {
        DevGroups::Case => id.to_string(),
        DevGroups::Pair => id.strip_suffix("_pos").or_else(|| id.strip_suffix("_neg")).unwrap_or(id).to_string(),
    };
    let mut names: Vec<String> = examples.iter().map(|e| group_of(&e.id)).collect();
    names.sort();
    names.dedup();
    let mut order: Vec<usize> = (0..names.len()).collect();
    shuffle(&mut order, seed);
    let n_dev = ((examples.len() as f64) * fraction).round() as usize;
    let mut dev_groups = std::collections::HashSet::new();
    let mut held = 0;
    for &g in &order {
        if held >= n_dev {
            break;
        }
        held += examples.iter().filter(|e| group_of(&e.id) == names[g]).count();
        dev_groups.insert(names[g].clone());
    }
    examples.into_iter().partition(|e| !dev_groups.contains(&group_of(&e.id)))
}

/// One epoch's batches of `data` indices, shuffled by `seed`. With
/// `shared`, the units of one source (a case's marked sentences, which
/// follow each other in `data`) stay in one batch, so the case is encoded
/// once; batches then take whole cases until they hold `size` units.
pub fn batches(data: &[Prepared], size: usize, seed: u64, shared: bool) -> Vec<Vec<usize>> {
    let size = size.max(1);
    if !shared {
        let mut order: Vec<usize> = (0..data.len()).collect();
        shuffle(&mut order, seed);
        return order.chunks(size).map(<[usize]>::to_vec).collect();
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in data.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if data[g[0]].source.ids == p.source.ids => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    shuffle(&mut groups, seed);
    let mut out: Vec<Vec<usize>> = Vec::new();
    for g in groups {
        match out.last_mut() {
            Some(b) if b.len() < size => b.extend(g),
            _ => out.push(g),
        }
    }
    out
}

/// Fisher-Yates with a small seeded generator (splitmix64).
pub fn shuffle<T>(xs: &mut [T], seed: u64) {
    let mut state = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..xs.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        xs.swap(i, j);
    }
}

/// A progress report after each step.
pub struct Progress {
    pub epoch: usize,
    pub step: usize,
    pub total_steps: usize,
    pub loss: f64,
    pub examples_per_second: f64,
}

/// Loads weights written by `VarStore::save`; a file stored in half
/// precision loads too (the model computes in float32).
pub fn load_weights(vs: &mut nn::VarStore, path: &Path) -> Result<(), ParserError> {
    check_shapes(vs, path)?;
    vs.load(path)?;
    vs.float();
    Ok(())
}

/// Every variable of `vs` is in the safetensors file at `path`, with the
/// same shape: a checkpoint from other parser code (a vocabulary or a set
/// of mention kinds of another size) is refused by name, before libtorch
/// would fail on it.
fn check_shapes(vs: &nn::VarStore, path: &Path) -> Result<(), ParserError> {
    let io = |source| ParserError::Io { path: path.to_path_buf(), source };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut len = [0u8; 8];
    std::io::Read::read_exact(&mut file, &mut len).map_err(io)?;
    let mut header = vec![0u8; u64::from_le_bytes(len).min(1 << 26) as usize];
    std::io::Read::read_exact(&mut file, &mut header).map_err(io)?;
    let header: std::collections::HashMap<String, serde_json::Value> = serde_json::from_slice(&header)?;
    for (name, var) in vs.variables() {
        let stored = header.get(&name).and_then(|t| t.get("shape")).and_then(|s| serde_json::from_value::<Vec<i64>>(s.clone()).ok());
        match stored {
            Some(shape) if shape == var.size() => {}
            Some(shape) => {
                return Err(ParserError::Config(format!(
                    "{}: {name} has shape {shape:?} where this parser's model has {:?}: the checkpoint comes from other parser code; retrain it",
                    path.display(),
                    var.size()
                )))
            }
            None => return Err(ParserError::Config(format!("{}: no tensor {name}: the checkpoint comes from other parser code; retrain it", path.display()))),
        }
    }
    Ok(())
}

/// The encoder's parts `cfg` keeps at their pretrained weights: no
/// gradient, so no update (AdamW skips them) and no backward pass below the
/// lowest layer that learns.
fn freeze(vs: &nn::VarStore, cfg: &TrainConfig) {
    let frozen = |name: &str| {
        (cfg.freeze_embeddings && name.starts_with("embeddings."))
            || name.strip_prefix("encoder.layer.").and_then(|r| r.split('.').next()).and_then(|i| i.parse::<usize>().ok()).is_some_and(|i| i < cfg.frozen_layers)
    };
    for (name, var) in vs.variables() {
        if frozen(&name) {
            let _ = var.set_requires_grad(false);
        }
    }
}

/// What a run trains and selects on: its units (augmented, then split
/// into sentence units as the config says), its dev units, the action
/// vocabulary built from the train units, and the source tokenizer.
pub struct RunData {
    pub train: Vec<Prepared>,
    pub dev: Vec<Prepared>,
    pub vocab: Vocab,
    pub tok: SourceTokenizer,
    /// With `augment_fresh`, the units of epochs 1, 2, …: their copies
    /// drawn anew; empty otherwise.
    pub later: Vec<Vec<Prepared>>,
}

impl RunData {
    /// The units epoch `epoch` (from 0) trains on.
    pub fn epoch_units(&self, epoch: usize) -> &[Prepared] {
        epoch.checked_sub(1).and_then(|e| self.later.get(e)).unwrap_or(&self.train)
    }
}

/// The units `cfg` trains on, from the train split's `train_examples`
/// (the dev set drawn by the config's seed; held-out cases left out).
/// With `cfg.schema_hint`, each query unit's source also reads `schema`'s
/// places for the section its question cites.
pub fn run_data(cfg: &TrainConfig, train_examples: Vec<Example>, extra_vocab: &[String], tokenizer_dir: &Path, schema: Option<&QuerySchema>) -> Result<RunData, ParserError> {
    let (train_set, dev_set) = split_dev(without_held_out(train_examples, &cfg.held_out), cfg.dev_fraction, cfg.seed, cfg.dev_groups);
    let moves = crate::augment::Moves { years: cfg.augment_years, percentages: cfg.augment_percentages };
    let fresh = cfg.augment && cfg.augment_fresh;
    if fresh && cfg.recombine > 0 {
        return Err(ParserError::Config("augment_fresh draws copies only, not recombinations".into()));
    }
    let originals = if fresh { train_set.clone() } else { Vec::new() };
    let mut train_set = if cfg.augment { crate::augment::augment(train_set, cfg.seed, moves) } else { train_set };
    let since = if cfg.augment_since { crate::since::since_units(&train_set, cfg.unit, cfg.seed) } else { Vec::new() };
    let conjoined = if cfg.augment_conjoin { crate::conjoin::conjoined_units(&train_set, cfg.unit, cfg.seed) } else { Vec::new() };
    let split_cost = if cfg.augment_split_cost { crate::split_cost::split_cost_units(&train_set, cfg.unit, cfg.seed) } else { Vec::new() };
    if cfg.recombine > 0 {
        let combined = crate::augment::recombine(&train_set, cfg.recombine, cfg.seed);
        train_set.extend(combined);
    }
    // Sentence units after the dev split: a case's sentences stay together.
    let (mut train_set, mut dev_set) = (crate::sentences::units_for(&train_set, cfg.unit), crate::sentences::units_for(&dev_set, cfg.unit));
    let hint = |units: &mut Vec<Example>| -> Result<(), ParserError> {
        if cfg.schema_hint {
            let schema = schema.ok_or_else(|| ParserError::Config("schema_hint needs the solver's query schema".into()))?;
            if cfg.unit != Unit::MarkedSentence {
                return Err(ParserError::Config("schema_hint needs marked_sentence units".into()));
            }
            for e in units.iter_mut().filter(|e| e.id.ends_with(QUERY_UNIT)) {
                e.source = schema.hinted(&e.source, &e.mentions);
            }
        }
        Ok(())
    };
    hint(&mut train_set)?;
    hint(&mut dev_set)?;
    let extras: Vec<Example> = since.into_iter().chain(conjoined).chain(split_cost).collect();
    // Later epochs: the originals with copies drawn anew, and the same extras.
    let mut later = Vec::new();
    for epoch in 1..if fresh { cfg.epochs } else { 0 } {
        let copies = crate::augment::augment(originals.clone(), cfg.seed.wrapping_add(epoch as u64), moves);
        let mut units = crate::sentences::units_for(&copies, cfg.unit);
        hint(&mut units)?;
        units.extend(extras.iter().cloned());
        later.push(units);
    }
    train_set.extend(extras);
    let vocab = Vocab::build(train_set.iter().chain(later.iter().flatten()).map(|e| (e.target.as_slice(), e.mentions.as_slice())), extra_vocab);
    let tok = SourceTokenizer::from_dir(tokenizer_dir)?;
    let train = prepare(train_set, &tok, &vocab)?;
    let dev = prepare(dev_set, &tok, &vocab)?;
    let later = later.into_iter().map(|units| prepare(units, &tok, &vocab)).collect::<Result<_, _>>()?;
    Ok(RunData { train, dev, vocab, tok, later })
}

/// A model of `model_cfg` for `vocab`, its encoder loaded from
/// `tokenizer_dir`'s `model.safetensors` where the config is pretrained.
pub fn new_model(model_cfg: &ModelConfig, vocab: &Vocab, tok: &SourceTokenizer, tokenizer_dir: &Path, device: Device) -> Result<(nn::VarStore, Seq2Seq), ParserError> {
    let mut vs = nn::VarStore::new(device);
    let root = vs.root();
    let model = Seq2Seq::new(model_cfg, vocab.len() as i64, tok.cls(), tok.sep(), &root);
    if model_cfg.pretrained {
        let missing = vs.load_partial(tokenizer_dir.join("model.safetensors"))?;
        // A file stored in half precision loads as such; the model computes in float32.
        vs.float();
        if let Some(m) = missing.iter().find(|m| !m.starts_with("decoder.")) {
            return Err(ParserError::Config(format!("the encoder weights lack {m}")));
        }
    }
    Ok((vs, model))
}

/// A run before its first step: the config's model, seeded, on the
/// units it trains on, with the encoder parts the config freezes frozen.
pub struct Run {
    pub model_cfg: ModelConfig,
    pub data: RunData,
    pub vs: nn::VarStore,
    pub model: Seq2Seq,
}

/// Seeds torch with the config's seed, then builds the run's data and model
/// in that order (the draws a run's results depend on).
pub fn start_run(cfg: &TrainConfig, train_examples: Vec<Example>, extra_vocab: &[String], tokenizer_dir: &Path, schema: Option<&QuerySchema>, device: Device) -> Result<Run, ParserError> {
    let model_cfg = cfg.model_config().ok_or_else(|| ParserError::Config("the config names no model (preset or model)".into()))?;
    tch::manual_seed(cfg.seed as i64);
    let data = run_data(cfg, train_examples, extra_vocab, tokenizer_dir, schema)?;
    let (vs, model) = new_model(&model_cfg, &data.vocab, &data.tok, tokenizer_dir, device)?;
    freeze(&vs, cfg);
    Ok(Run { model_cfg, data, vs, model })
}

/// The run's optimizer over `vs`.
pub fn optimizer(cfg: &TrainConfig, vs: &nn::VarStore) -> Result<AdamW, ParserError> {
    AdamW::new(vs, cfg.learning_rate, cfg.weight_decay)
}

/// Epoch `epoch`'s batches of the train units `data`, as `cfg` draws them
/// (a marked case's units in one batch).
pub fn epoch_batches(cfg: &TrainConfig, data: &[Prepared], epoch: usize) -> Vec<Vec<usize>> {
    batches(data, cfg.batch_size, cfg.seed.wrapping_add(epoch as u64), cfg.unit == Unit::MarkedSentence)
}

/// The steps of the whole run, over which the learning rate decays.
pub fn total_steps(cfg: &TrainConfig, data: &RunData) -> usize {
    (0..cfg.epochs).map(|e| epoch_batches(cfg, data.epoch_units(e), e).len()).sum::<usize>().max(1)
}

/// The learning rate of the decoder at `step` of `total_steps`: linear
/// warm-up, then linear decay to a floor of 5 %.
pub fn learning_rate(cfg: &TrainConfig, step: usize, total_steps: usize) -> f64 {
    if step < cfg.warmup_steps {
        cfg.learning_rate * (step + 1) as f64 / cfg.warmup_steps as f64
    } else {
        cfg.learning_rate * (1.0 - (step - cfg.warmup_steps) as f64 / (total_steps.saturating_sub(cfg.warmup_steps)).max(1) as f64).max(0.05)
    }
}

/// One optimizer step on `batch` at `step` of `total_steps`; returns the loss.
pub fn train_step(cfg: &TrainConfig, model: &Seq2Seq, opt: &mut AdamW, batch: &[&Prepared], step: usize, total_steps: usize, device: Device) -> Result<f64, ParserError> {
    let lr = learning_rate(cfg, step, total_steps);
    opt.set_lr_group(0, lr * cfg.encoder_learning_rate / cfg.learning_rate)?;
    opt.set_lr_group(1, lr)?;
    let (loss, _, _) = smoothed_batch_loss(model, batch, device, true, cfg.label_smoothing);
    opt.backward_step_clip_norm(&loss, cfg.clip_norm)?;
    Ok(loss.double_value(&[]))
}

/// Trains a model into `out`; returns its final metrics. `schema`'s
/// signatures (the solver's query predicates) constrain the dev queries
/// decoded to choose the query checkpoint, as they do at test.
#[allow(clippy::too_many_arguments)]
pub fn train(
    cfg: &TrainConfig,
    train_examples: Vec<Example>,
    extra_vocab: &[String],
    schema: Option<&QuerySchema>,
    tokenizer_dir: &Path,
    out: &Path,
    resume: bool,
    device: Device,
    on_step: &mut dyn FnMut(&Progress),
) -> Result<Metrics, ParserError> {
    let Run { model_cfg, data, mut vs, model } = start_run(cfg, train_examples, extra_vocab, tokenizer_dir, schema, device)?;
    let (dev_data, vocab) = (&data.dev, &data.vocab);
    let signatures = schema.map(|s| s.signatures.clone());
    std::fs::create_dir_all(out).map_err(|source| ParserError::Io { path: out.to_path_buf(), source })?;
    let meta = CheckpointMeta { train: cfg.clone(), model: model_cfg.clone(), vocab: vocab.tokens.clone() };
    // A resumed run goes on with the config it started with.
    let resuming = if resume { resume_from(out) } else { Resume::Fresh };
    if resuming != Resume::Fresh {
        let before = CheckpointMeta::read(out)?;
        if before.train != meta.train || before.model != meta.model {
            return Err(ParserError::Config(format!("{} was started with another training config (seed {}); resume it with that one", out.join("config.json").display(), before.train.seed)));
        }
    }
    write_atomic(&out.join("config.json"), serde_json::to_string_pretty(&meta)?.as_bytes())?;

    let mut metrics = Metrics { best_dev_loss: f64::INFINITY, device: format!("{device:?}"), train_cases: data.train.len(), dev_cases: dev_data.len(), ..Default::default() };
    let mut saved = None;
    match resuming {
        Resume::Fresh => {}
        Resume::Exact => {
            let path = out.join(RESUME_STATE);
            load_weights(&mut vs, &path)?;
            let (named, m) = read_resume_state(&path)?;
            (saved, metrics) = (Some(named), m);
        }
        Resume::WeightsOnly => {
            load_weights(&mut vs, &out.join(LAST_WEIGHTS))?;
            metrics = read_json(&out.join("metrics.json"))?;
        }
    }
    if resuming != Resume::Fresh {
        freeze(&vs, cfg);
    }
    let start_epoch = metrics.epoch;

    let mut opt = optimizer(cfg, &vs)?;
    if let Some(named) = &saved {
        let find = |name: &str| named.get(name).map(|t| t.shallow_clone());
        opt.restore(find)?;
        optim::restore_generators(device, find)?;
    }
    let total_steps = total_steps(cfg, &data);
    let started = Instant::now();
    // Evaluations since the best, as the run had counted them; a run killed
    // after it stopped early or ran out of time trains no further.
    let mut stale = metrics.history.iter().filter(|h| h.epoch > metrics.best_epoch).count();
    let stopped = resuming != Resume::Fresh && (stale >= cfg.patience.max(1) || cfg.max_seconds.is_some_and(|m| metrics.seconds >= m as f64));
    let end_epoch = if stopped { start_epoch } else { cfg.epochs };
    let mut step = metrics.step;
    for epoch in start_epoch..end_epoch {
        let mut epoch_loss = 0.0;
        let mut seen = 0;
        let epoch_start = Instant::now();
        let train_data = data.epoch_units(epoch);
        for chunk in &epoch_batches(cfg, train_data, epoch) {
            let batch: Vec<&Prepared> = chunk.iter().map(|&i| &train_data[i]).collect();
            let l = train_step(cfg, &model, &mut opt, &batch, step, total_steps, device)?;
            epoch_loss += l * batch.len() as f64;
            step += 1;
            seen += batch.len();
            on_step(&Progress {
                epoch,
                step,
                total_steps,
                loss: l,
                examples_per_second: seen as f64 / epoch_start.elapsed().as_secs_f64().max(1e-9),
            });
        }
        let epoch_secs = epoch_start.elapsed().as_secs_f64();
        metrics.examples_per_second = train_data.len() as f64 / epoch_secs.max(1e-9);
        metrics.train_loss = epoch_loss / train_data.len().max(1) as f64;
        metrics.epoch = epoch + 1;
        metrics.step = step;
        if (epoch + 1) % cfg.eval_every.max(1) == 0 || epoch + 1 == cfg.epochs {
            // Without a dev set (tests, a refit on all of train), the train
            // loss selects, whatever `select` says.
            let eval_start = Instant::now();
            let mut scores = if dev_data.is_empty() { DevScores { dev_loss: metrics.train_loss, ..Default::default() } } else { evaluate(&model, dev_data, device) };
            scores.query_decoded = decoded_queries(&model, dev_data, vocab, signatures.clone(), device);
            let eval_seconds = eval_start.elapsed().as_secs_f64();
            let (dev_loss, dev_acc) = (scores.dev_loss, scores.dev_accuracy);
            metrics.dev_loss = dev_loss;
            metrics.dev_accuracy = dev_acc;
            let better = if dev_data.is_empty() || cfg.select == crate::config::Select::DevLoss {
                dev_loss < metrics.best_dev_loss
            } else {
                metrics.best_epoch == 0 || dev_acc > metrics.best_dev_accuracy
            };
            if better {
                metrics.best_dev_loss = dev_loss;
                metrics.best_dev_accuracy = dev_acc;
                metrics.best_epoch = epoch + 1;
                metrics.seconds_to_best = metrics.seconds + started.elapsed().as_secs_f64();
                save_weights(&vs, &out.join("model.safetensors"))?;
                stale = 0;
            } else {
                stale += 1;
            }
            // The query apart (the earliest of equal scores).
            let kept = metrics.history.iter().find(|h| h.epoch == metrics.best_query_epoch);
            if scores.query_units > 0 && kept.is_none_or(|h| scores.query_score() > h.dev.query_score()) {
                metrics.best_query_epoch = epoch + 1;
                save_weights(&vs, &out.join(QUERY_WEIGHTS))?;
            }
            metrics.history.push(EpochScores { epoch: epoch + 1, seconds: metrics.seconds + started.elapsed().as_secs_f64(), eval_seconds, train_loss: metrics.train_loss, dev: scores });
        }
        let mut snapshot = metrics.clone();
        snapshot.seconds += started.elapsed().as_secs_f64();
        // The resume state first: a kill before it leaves the epoch before
        // whole, one after it this one.
        save_resume_state(&vs, &opt, device, &snapshot, &out.join(RESUME_STATE))?;
        save_weights(&vs, &out.join(LAST_WEIGHTS))?;
        write_atomic(&out.join("metrics.json"), serde_json::to_string_pretty(&snapshot)?.as_bytes())?;
        if stale >= cfg.patience.max(1) {
            break;
        }
        if cfg.max_seconds.is_some_and(|m| snapshot.seconds >= m as f64) {
            break;
        }
    }
    metrics.seconds += started.elapsed().as_secs_f64();
    if !out.join("model.safetensors").is_file() {
        save_weights(&vs, &out.join("model.safetensors"))?;
    }
    write_atomic(&out.join("metrics.json"), serde_json::to_string_pretty(&metrics)?.as_bytes())?;
    // Marks a finished run (a killed one lacks it, and resumes).
    write_atomic(&out.join("complete"), b"")?;
    // A finished run has nothing to resume; its state is thrice the weights.
    let state = out.join(RESUME_STATE);
    if state.is_file() {
        std::fs::remove_file(&state).map_err(|source| ParserError::Io { path: state, source })?;
    }
    Ok(metrics)
}

/// Mean teacher-forced loss and next-action accuracy over `data`, and the
/// same over its query units apart.
pub fn evaluate(model: &Seq2Seq, data: &[Prepared], device: Device) -> DevScores {
    if data.is_empty() {
        return DevScores::default();
    }
    let mut loss = 0.0;
    let (mut correct, mut total) = (0, 0);
    let (mut q_correct, mut q_total) = (0, 0);
    let mut s = DevScores::default();
    tch::no_grad(|| {
        for p in data {
            let (l, c, t) = batch_loss(model, &[p], device, false);
            loss += l.double_value(&[]);
            correct += c;
            total += t;
            if p.example.id.ends_with(QUERY_UNIT) {
                s.query_units += 1;
                s.query_exact += usize::from(c == t);
                q_correct += c;
                q_total += t;
            }
        }
    });
    s.dev_loss = loss / data.len() as f64;
    s.dev_accuracy = correct as f64 / total.max(1) as f64;
    s.query_accuracy = q_correct as f64 / q_total.max(1) as f64;
    s
}

/// How many query units of `data` the model decodes to their gold query
/// (top beam of a grammar-constrained search, as `lexlog eval-parser`).
pub fn decoded_queries(model: &Seq2Seq, data: &[Prepared], vocab: &Vocab, signatures: Option<Arc<Signatures>>, device: Device) -> usize {
    let cfg = BeamConfig { part: Part::Query, signatures, ..Default::default() };
    let right = |p: &&Prepared| {
        let gold = p.example.ir().and_then(|ir| ir.query);
        let enc = model.encode(&[&p.source], device, false);
        let beams = beam_search(model, &enc, vocab, &p.example.mentions, cfg.clone());
        gold.is_some() && beams.first().is_some_and(|b| b.ir.query == gold)
    };
    tch::no_grad(|| data.iter().filter(|p| p.example.id.ends_with(QUERY_UNIT)).filter(right).count())
}

/// A trained model loaded from its checkpoint directory.
pub struct Trained {
    pub model: Seq2Seq,
    /// The checkpoint chosen on dev query units ([`QUERY_WEIGHTS`]), where
    /// the run saved one: it asks the query, `model` states the facts.
    pub query_model: Option<Seq2Seq>,
    pub vocab: Vocab,
    pub tokenizer: SourceTokenizer,
    pub meta: CheckpointMeta,
    pub device: Device,
    _vs: Vec<nn::VarStore>,
}

impl Trained {
    pub fn load(dir: &Path, tokenizer_dir: &Path, device: Device) -> Result<Trained, ParserError> {
        let meta = CheckpointMeta::read(dir)?;
        let vocab = Vocab::from_tokens(meta.vocab.clone());
        let tokenizer = SourceTokenizer::from_dir(tokenizer_dir)?;
        let weights = |file: &Path| -> Result<(Seq2Seq, nn::VarStore), ParserError> {
            let mut vs = nn::VarStore::new(device);
            let model = Seq2Seq::new(&meta.model, vocab.len() as i64, tokenizer.cls(), tokenizer.sep(), &vs.root());
            load_weights(&mut vs, file)?;
            Ok((model, vs))
        };
        let (model, vs) = weights(&dir.join("model.safetensors"))?;
        let mut stores = vec![vs];
        let query_file = dir.join(QUERY_WEIGHTS);
        let query_model = match query_file.is_file() {
            true => {
                let (m, vs) = weights(&query_file)?;
                stores.push(vs);
                Some(m)
            }
            false => None,
        };
        Ok(Trained { model, query_model, vocab, tokenizer, meta, device, _vs: stores })
    }

    /// The model that decodes `part`: the query checkpoint for the query,
    /// where there is one.
    pub fn model_for(&self, part: Part) -> &Seq2Seq {
        match (part, &self.query_model) {
            (Part::Query, Some(q)) => q,
            _ => &self.model,
        }
    }

    /// Teacher-forced scores of an example's gold actions: for each, its
    /// text, its log-probability, and the action the model ranks first
    /// there with its log-probability.
    pub fn score(&self, example: &Example) -> Result<Vec<ScoredAction>, ParserError> {
        let prepared = prepare(vec![example.clone()], &self.tokenizer, &self.vocab)?;
        let p = &prepared[0];
        let enc = tch::no_grad(|| self.model.encode(&[&p.source], self.device, false));
        let mut prev = vec![BOS as i64];
        prev.extend_from_slice(&p.actions[..p.actions.len() - 1]);
        let t = prev.len() as i64;
        let logp = tch::no_grad(|| self.model.decode(&enc, &Tensor::from_slice(&prev).view([1, t]).to(self.device), false));
        let logp = logp.squeeze_dim(0).to_kind(Kind::Double).to_device(Device::Cpu);
        let (best_lp, best) = logp.max_dim(-1, false);
        let text = |a: i64| {
            let v = self.vocab.len() as i64;
            let action = if a < v { Action::Vocab(a as u32) } else { Action::Copy((a - v) as u32) };
            match action {
                Action::Vocab(i) => self.vocab.tokens.get(i as usize).cloned().unwrap_or_default(),
                Action::Copy(i) => example.mentions.get(i as usize).map_or(String::new(), |m| format!("{}@{:?}", lexlog_data::linear::value_text(&m.value), m.kind)),
            }
        };
        Ok(p.actions
            .iter()
            .enumerate()
            .map(|(i, &a)| ScoredAction {
                gold: text(a),
                logprob: logp.double_value(&[i as i64, a]),
                best: text(best.int64_value(&[i as i64])),
                best_logprob: best_lp.double_value(&[i as i64]),
            })
            .collect())
    }
}

/// One gold action under teacher forcing, and the model's first choice.
#[derive(Debug, Clone)]
pub struct ScoredAction {
    pub gold: String,
    pub logprob: f64,
    pub best: String,
    pub best_logprob: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_malformed_checkpoint_config_names_its_file() {
        let dir = std::env::temp_dir().join(format!("lexlog-meta-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.json"), "{\"train\": 3,\n").unwrap();
        let err = CheckpointMeta::read(&dir).unwrap_err().to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(err.contains("config.json") && err.contains("line 1"), "{err}");
    }

    #[test]
    fn a_pair_goes_to_dev_or_train_whole() {
        let ids = ["a_pos", "a_neg", "b_pos", "b_neg", "c", "d_pos", "d_neg", "e", "f", "g_pos", "g_neg", "h"];
        let examples: Vec<Example> = ids
            .iter()
            .map(|id| Example { id: id.to_string(), source: String::new(), mentions: Vec::new(), target: Vec::new(), focus: None })
            .collect();
        for seed in 0..20 {
            let (train, dev) = split_dev(examples.clone(), 0.25, seed, DevGroups::Pair);
            assert_eq!(train.len() + dev.len(), ids.len());
            assert!(dev.len() >= 3, "{} dev cases", dev.len());
            for e in &dev {
                if let Some(g) = e.id.strip_suffix("_pos") {
                    assert!(dev.iter().any(|d| d.id == format!("{g}_neg")), "seed {seed}: {} without its twin", e.id);
                }
            }
            // Single cases: the split the models trained so far have.
            let (_, dev) = split_dev(examples.clone(), 0.25, seed, DevGroups::Case);
            assert_eq!(dev.len(), 3);
        }
    }

    #[test]
    fn held_out_cases_are_neither_trained_on_nor_dev() {
        let ids = ["a_pos", "a_neg", "b_pos", "b_neg", "c", "d", "e", "f"];
        let examples: Vec<Example> = ids
            .iter()
            .map(|id| Example { id: id.to_string(), source: String::new(), mentions: Vec::new(), target: Vec::new(), focus: None })
            .collect();
        let held_out = vec!["b_pos".to_string(), "b_neg".to_string(), "e".to_string()];
        for seed in 0..10 {
            let (train, dev) = split_dev(without_held_out(examples.clone(), &held_out), 0.25, seed, DevGroups::Pair);
            assert_eq!(train.len() + dev.len(), ids.len() - held_out.len());
            assert!(train.iter().chain(&dev).all(|e| !held_out.contains(&e.id)), "seed {seed}");
        }
    }

    #[test]
    fn a_checkpoint_of_other_shapes_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("lexlog-shapes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.safetensors");
        let saved = nn::VarStore::new(Device::Cpu);
        let _ = saved.root().zeros("kind", &[24, 4]);
        saved.save(&path).unwrap();
        let mut same = nn::VarStore::new(Device::Cpu);
        let _ = same.root().zeros("kind", &[24, 4]);
        assert!(load_weights(&mut same, &path).is_ok());
        let mut wider = nn::VarStore::new(Device::Cpu);
        let _ = wider.root().zeros("kind", &[28, 4]);
        let err = load_weights(&mut wider, &path).unwrap_err().to_string();
        assert!(err.contains("kind has shape [24, 4] where this parser's model has [28, 4]"), "{err}");
        let mut other = nn::VarStore::new(Device::Cpu);
        let _ = other.root().zeros("bias", &[4]);
        assert!(load_weights(&mut other, &path).unwrap_err().to_string().contains("no tensor bias"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
