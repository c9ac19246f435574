//! `lexlog solve --cases DIR` on a directory with an unreadable case file:
//! the file is named with its line, and the other cases are still solved.

use std::process::Command;

#[test]
fn an_unreadable_case_file_is_reported_and_the_others_solved() {
    let dir = std::env::temp_dir().join(format!("lexlog-solve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = lexlog_data::sara_dir().join("cases/s7703_b_3_pos.pl");
    std::fs::copy(&good, dir.join("s7703_b_3_pos.pl")).unwrap_or_else(|e| panic!("{}: {e}", good.display()));
    let broken = "% Text\n% Alice pays.\n\n% Question\n% Does it apply? Entailment\n\n% Facts\npayment_(p1.\n\n% Test\n:- s1(alice).\n";
    std::fs::write(dir.join("broken.pl"), broken).unwrap();

    let out = Command::new(env!("CARGO_BIN_EXE_lexlog")).args(["solve", "--json", "--cases"]).arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["cases"], 2);
    assert_eq!(report["correct"], 1);
    let error = report["unreadable"][0]["error"].as_str().unwrap();
    assert!(error.contains("broken.pl:8:"), "{error}");
}
