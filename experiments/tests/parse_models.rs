//! `lexlog parse` with the main job's flags: a model as its own ensemble
//! member, question asker (once or twice over) and bridge reads as the
//! model alone, and a missing member or asker is an error naming it.

mod common;

use std::process::Command;

fn lexlog(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lexlog")).args(args).output().unwrap()
}

#[test]
fn parse_reads_with_the_main_jobs_flags() {
    let dir = std::env::temp_dir().join(format!("lexlog-parse-models-{}", std::process::id()));
    let model = common::train_tiny(&dir, 5);
    let model = model.to_str().unwrap();

    let case = ["--text", "Alice and Bob got married on April 5th, 2012. Alice was paid $50000 in 2017.", "--question", "How much tax does Alice have to pay in 2017?", "--k", "2", "--json"];
    let parse = |flags: &[&str]| {
        let out = lexlog(&[&["parse", "--model", model], flags, &case[..]].concat());
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let beams = |json: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["beams"].as_array().unwrap().iter().map(|b| b["text"].as_str().unwrap().to_string()).collect()
    };
    let (ok, alone, err) = parse(&[]);
    assert!(ok, "{err}");
    let (ok, with_flags, err) = parse(&["--ensemble", model, "--query-model", model, "--bridge-model", model]);
    assert!(ok, "{err}");
    // The mean of one model's probabilities twice is that model's.
    assert_eq!(beams(&alone), beams(&with_flags));
    assert!(!beams(&alone).is_empty());
    // So is a question asked by the model twice over.
    let (ok, asked_twice, err) = parse(&["--query-model", model, "--query-model", model]);
    assert!(ok, "{err}");
    assert_eq!(beams(&alone), beams(&asked_twice));

    let (ok, _, err) = parse(&["--ensemble", "no-such-member"]);
    assert!(!ok && err.contains("no-such-member"), "{err}");
    let (ok, _, err) = parse(&["--query-model", "no-such-asker"]);
    assert!(!ok && err.contains("no-such-asker"), "{err}");
    let (ok, _, err) = parse(&["--query-model", model, "--query-model", "no-such-second-asker"]);
    assert!(!ok && err.contains("no-such-second-asker"), "{err}");
    let (ok, _, err) = parse(&["--bridge-model", "no-such-bridge"]);
    assert!(!ok && err.contains("no-such-bridge"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
