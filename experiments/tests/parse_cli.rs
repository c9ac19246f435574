//! `lexlog parse`: bad input is a clear error naming what is wrong, before
//! any decoding.

use std::process::Command;

fn parse(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lexlog")).arg("parse").args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn bad_input_is_named() {
    let question = "How much tax does Alice have to pay in 2017?";
    let (ok, err) = parse(&["--model", "no-such-model", "--text", "  \n", "--question", question]);
    assert!(!ok && err.contains("the case's text is empty"), "{err}");

    let (ok, err) = parse(&["--model", "no-such-model", "--text-file", "no-such-file.txt", "--question", question]);
    assert!(!ok && err.contains("reading the text from no-such-file.txt"), "{err}");

    let (ok, err) = parse(&["--model", "no-such-model", "--text", "Alice was paid $3000 in 2017.", "--question", " "]);
    assert!(!ok && err.contains("the question is empty"), "{err}");

    let (ok, err) = parse(&["--model", "no-such-model", "--text", "Alice was paid $3000 in 2017.", "--question", question]);
    assert!(!ok && err.contains("loading the model in no-such-model"), "{err}");
}
