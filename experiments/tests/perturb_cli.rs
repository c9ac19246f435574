//! `lexlog perturb --case`: each change of the answer is printed with the
//! values on either side, the years a query asks of among the slots.

use std::process::Command;

fn perturb(case: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_lexlog")).args(["perturb", "--case", case]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_year_a_query_asks_of_is_swept() {
    // Bob dies in September 2017: Alice is married for 2012 to 2017 (by
    // §7703(a)(1), as of his death in 2017) and not for 2018.
    let out = perturb("s7703_a_1_neg");
    let line = out.lines().find(|l| l.contains("query's s7703_a_1 argument 5")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("2017 | 2018: contradiction"), "{line}");
    assert!(line.contains("contradiction at 2010"), "{line}");
}

#[test]
fn an_amount_threshold_shows_as_the_change_of_answer() {
    // §3306(a)(1)(A): wages of $1,500 or more in a calendar quarter.
    let out = perturb("s3306_a_1_A_pos");
    assert!(out.contains("1499 | 1500: entailment"), "{out}");
}
