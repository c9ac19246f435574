//! `--resume` after a kill: lexlog's AdamW steps as tch's own, and a run
//! killed mid-epoch and resumed ends as the unbroken run. Apart from
//! `tiny.rs`: with dropout on, tests running beside these would draw from
//! the same default generator, so these take turns under one lock.

mod common;
use common::{eight_short_cases, tiny_config};
use lexlog_data::{Dataset, Split};
use lexlog_parser::config::{ModelConfig, TrainConfig};
use lexlog_parser::example::Example;
use lexlog_parser::model::Seq2Seq;
use lexlog_parser::source::{minilm_dir, SourceTokenizer};
use lexlog_parser::target::Vocab;
use lexlog_parser::train::{prepare, train};
use std::sync::Mutex;
use tch::{nn, Device};

static GENERATOR: Mutex<()> = Mutex::new(());

/// lexlog's AdamW, whose state `--resume` saves, steps as tch's
/// `nn::AdamW` (both libtorch's), to the bit: weight decay, two learning
/// rates, clipping and dropout included.
#[test]
fn adamw_steps_as_tchs_own_to_the_bit() {
    let _turn = GENERATOR.lock().unwrap_or_else(|e| e.into_inner());
    let run = |ours: bool| {
        tch::manual_seed(3);
        let tok = SourceTokenizer::from_dir(&minilm_dir().unwrap()).unwrap();
        let examples = eight_short_cases();
        let vocab = Vocab::build(examples.iter().map(|e| (e.target.as_slice(), e.mentions.as_slice())), &[]);
        let data = prepare(examples, &tok, &vocab).unwrap();
        let vs = nn::VarStore::new(Device::Cpu);
        let model = Seq2Seq::new(&ModelConfig { dropout: 0.1, ..ModelConfig::tiny() }, vocab.len() as i64, tok.cls(), tok.sep(), &vs.root());
        let mut theirs = nn::OptimizerConfig::build(nn::AdamW { wd: 0.01, ..Default::default() }, &vs, 1e-3).unwrap();
        let mut mine = lexlog_parser::optim::AdamW::new(&vs, 1e-3, 0.01).unwrap();
        for step in 0..8 {
            let (loss, _, _) = lexlog_parser::train::batch_loss(&model, &[&data[step], &data[(step + 3) % 8]], Device::Cpu, true);
            let lr = 1e-3 * (step + 1) as f64;
            if ours {
                mine.set_lr_group(0, lr / 4.0).unwrap();
                mine.set_lr_group(1, lr).unwrap();
                mine.backward_step_clip_norm(&loss, 0.5).unwrap();
            } else {
                theirs.set_lr_group(0, lr / 4.0);
                theirs.set_lr_group(1, lr);
                theirs.backward_step_clip_norm(&loss, 0.5);
            }
        }
        let mut weights: Vec<(String, Vec<f32>)> = vs.variables().into_iter().map(|(n, t)| (n, Vec::<f32>::try_from(t.flatten(0, -1)).unwrap())).collect();
        weights.sort_by(|a, b| a.0.cmp(&b.0));
        weights
    };
    let (mine, theirs) = (run(true), run(false));
    assert!(mine.iter().zip(&theirs).any(|(m, _)| m.1.iter().any(|&x| x != 0.0)));
    for ((name, m), (_, t)) in mine.iter().zip(&theirs) {
        assert!(m.iter().zip(t).all(|(a, b)| a.to_bits() == b.to_bits()), "{name} differs");
    }
    assert_eq!(mine.len(), theirs.len());
}

/// A run killed in the middle of its last epoch and resumed ends as the
/// run never killed: the same weights, query checkpoint and metrics, and it
/// stops early where that run did. AdamW's moments, the dropout generator
/// and early stopping's count of evaluations since the best come back with
/// the weights.
#[test]
fn a_run_killed_mid_epoch_resumes_to_the_unbroken_runs_weights() {
    let _turn = GENERATOR.lock().unwrap_or_else(|e| e.into_inner());
    let mut examples = Dataset::load_default().unwrap().cases_in(Some(Split::Train)).map(Example::from_case).collect::<Vec<_>>();
    examples.sort_by_key(|e| (e.target.len(), e.id.clone()));
    examples.truncate(24);
    let model = ModelConfig { dropout: 0.1, ..ModelConfig::tiny() };
    let cfg = TrainConfig { preset: None, model: Some(model), epochs: 30, batch_size: 4, learning_rate: 1e-2, weight_decay: 0.01, warmup_steps: 5, dev_fraction: 0.2, eval_every: 1, patience: 2, ..tiny_config() };
    let root = std::env::temp_dir().join(format!("lexlog-killed-{}", std::process::id()));
    let (whole, killed) = (root.join("whole"), root.join("killed"));
    let run = |out: &std::path::Path, resume: bool, on_step: &mut dyn FnMut(&lexlog_parser::train::Progress)| train(&cfg, examples.clone(), &[], None, &minilm_dir().unwrap(), out, resume, Device::Cpu, on_step);
    let unbroken = run(&whole, false, &mut |_| {}).unwrap();
    // It stops early, at the second evaluation after its best; killed two
    // steps before that end, the run has counted one.
    let steps_an_epoch = unbroken.step / unbroken.epoch;
    assert!(unbroken.epoch < cfg.epochs && unbroken.epoch == unbroken.best_epoch + 2 && steps_an_epoch > 2, "{unbroken:?}");
    let kill = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = run(&killed, false, &mut |p| assert!(p.step != unbroken.step - 2, "killed"));
    }));
    assert!(kill.is_err() && !killed.join("complete").exists());
    assert_eq!(lexlog_parser::train::resume_from(&killed), lexlog_parser::train::Resume::Exact);
    run(&killed, true, &mut |_| {}).unwrap();
    for file in ["model.safetensors", "last.safetensors"] {
        let bytes = |dir: &std::path::Path| std::fs::read(dir.join(file)).unwrap();
        assert!(bytes(&whole) == bytes(&killed), "{file} differs");
    }
    let untimed = |dir: &std::path::Path| {
        let m: lexlog_parser::train::Metrics = serde_json::from_str(&std::fs::read_to_string(dir.join("metrics.json")).unwrap()).unwrap();
        let history: Vec<_> = m.history.iter().map(|h| (h.epoch, h.train_loss, h.dev.dev_loss, h.dev.query_decoded)).collect();
        (m.epoch, m.step, m.best_epoch, m.best_query_epoch, m.train_loss, m.dev_loss, history)
    };
    assert_eq!(untimed(&whole), untimed(&killed));
    assert!(!killed.join(lexlog_parser::train::RESUME_STATE).exists(), "a finished run keeps no resume state");
    std::fs::remove_dir_all(&root).ok();
}
