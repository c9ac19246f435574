//! Decoding on several CPU workers (`LEXLOG_DECODE_WORKERS`) gives every
//! case the beams one worker gives, in the cases' order.

mod common;

use std::path::Path;
use std::process::Command;

fn lexlog(args: &[&str], workers: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lexlog")).env("LEXLOG_DECODE_WORKERS", workers).args(args).output().unwrap()
}

/// Each saved case's id and its beams' texts, and the beams' log-probabilities.
fn read_beams(path: &Path) -> (Vec<(String, Vec<String>)>, Vec<f64>) {
    let mut cases = Vec::new();
    let mut logprobs = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let beams = v["beams"].as_array().unwrap();
        cases.push((v["case"].as_str().unwrap().to_string(), beams.iter().map(|b| b["text"].as_str().unwrap().to_string()).collect()));
        logprobs.extend(beams.iter().map(|b| b["logprob"].as_f64().unwrap()));
    }
    (cases, logprobs)
}

#[test]
fn three_workers_decode_as_one() {
    let dir = std::env::temp_dir().join(format!("lexlog-decode-workers-{}", std::process::id()));
    let model = common::train_tiny(&dir, 3);
    let model_arg = model.to_str().unwrap();

    let decode = |workers: &str| {
        let file = dir.join(format!("beams-{workers}.jsonl"));
        let args = ["eval-parser", "--split", "test", "--model", model_arg, "--k", "2", "--limit", "7", "--json", "--save-beams", file.to_str().unwrap()];
        let out = lexlog(&args, workers);
        assert!(out.status.success(), "{workers} workers: {}", String::from_utf8_lossy(&out.stderr));
        read_beams(&file)
    };
    let (one, one_lp) = decode("1");
    let (three, three_lp) = decode("3");
    assert_eq!(one.len(), 7);
    assert_eq!(one, three, "the same beams, case by case, in the same order");
    // One libtorch thread per worker sums in another order.
    assert!(one_lp.iter().zip(&three_lp).all(|(a, b)| (a - b).abs() < 1e-3), "{one_lp:?} against {three_lp:?}");

    let refused = lexlog(&["eval-parser", "--split", "test", "--model", model_arg, "--limit", "1"], "none");
    assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("LEXLOG_DECODE_WORKERS=\"none\" is no positive number"));
    std::fs::remove_dir_all(&dir).ok();
}
