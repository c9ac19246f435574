//! `lexlog variants`: copies of the test cases with new names and scaled
//! amounts, each answered by the solver on its own facts, which read back
//! through `lexlog solve --cases` like any case file.

use std::process::Command;

#[test]
fn the_copies_read_back_and_keep_no_old_name() {
    let dir = std::env::temp_dir().join(format!("lexlog-variants-cli-{}", std::process::id()));
    let lexlog = env!("CARGO_BIN_EXE_lexlog");
    let out = Command::new(lexlog).args(["variants", "--split", "test", "--out"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("118 of 120 cases written"), "{said}");

    let copy = std::fs::read_to_string(dir.join("tax_case_28_variant.pl")).unwrap();
    assert!(copy.contains("Nadia has paid wages of $49476 to Kofi"), "{copy}");
    // Only the note on where the copy comes from names Alice.
    let old: Vec<&str> = copy.lines().filter(|l| l.to_lowercase().contains("alice") || l.contains("53200")).collect();
    assert!(old.len() == 1 && old[0].starts_with("% lexlog variants: tax_case_28 with names alice->Nadia"), "{old:?}");

    let solved = Command::new(lexlog).args(["solve", "--json", "--cases"]).arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(solved.status.success(), "{}", String::from_utf8_lossy(&solved.stderr));
    let report: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(report["cases"], 118);
    assert_eq!(report["correct"], 118);
}

#[test]
fn years_move_in_the_text_the_facts_and_the_names_built_from_them() {
    let dir = std::env::temp_dir().join(format!("lexlog-variants-years-{}", std::process::id()));
    let lexlog = env!("CARGO_BIN_EXE_lexlog");
    // All 376 cases: among them tests over several lines whose answer
    // flips, and a tax ($1844) that looks like a year.
    let out = Command::new(lexlog).args(["variants", "--split", "all", "--years", "-4", "--out"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let copy = std::fs::read_to_string(dir.join("s7703_b_2_neg_variant.pl")).unwrap();
    for moved in ["since September 16th, 2013", "for the year 2014", "between(2013,2113,Year)", "(Year==2013)->(Start_day=\"2013-09-16\")", "s7703_b_2(nadia,nadia_s_house,_,2014)"] {
        assert!(copy.contains(moved), "{moved} not in {copy}");
    }
    let solved = Command::new(lexlog).args(["solve", "--json", "--cases"]).arg(&dir).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let report: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
    assert_eq!(report["cases"], 376);
    assert_eq!(report["correct"], 376);
}
