//! Tests over the SARA dataset, read from `SARA_DIR` (or its default).

use lexlog_data::{fact_set, linear, CaseKind, Dataset, Split};
use std::sync::OnceLock;

fn dataset() -> &'static Dataset {
    static DATA: OnceLock<Dataset> = OnceLock::new();
    DATA.get_or_init(|| Dataset::load_default().unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn all_cases_load_with_the_official_split() {
    let d = dataset();
    assert_eq!(d.cases.len(), 376);
    let count = |split, kind| d.cases_in(split).filter(|c| c.kind == kind).count();
    assert_eq!(count(Some(Split::Train), CaseKind::Entailment), 176);
    assert_eq!(count(Some(Split::Train), CaseKind::Tax), 80);
    assert_eq!(count(Some(Split::Test), CaseKind::Entailment), 100);
    assert_eq!(count(Some(Split::Test), CaseKind::Tax), 20);
}

#[test]
fn linear_form_round_trips_on_every_gold_case() {
    for case in &dataset().cases {
        for ir in [case.ir.clone(), linear::canonical_ids(&case.ir)] {
            let text = linear::print(&ir);
            let back = linear::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.id));
            assert_eq!(back, ir, "{}:\n{text}", case.id);
        }
    }
}

#[test]
fn canonical_ids_keep_the_meaning() {
    for case in &dataset().cases {
        let canon = linear::canonical_ids(&case.ir);
        let a = fact_set(&case.ir.facts).unwrap();
        let b = fact_set(&canon.facts).unwrap();
        assert_eq!(a.len(), b.len(), "{}", case.id);
    }
}

#[test]
fn a_corrupted_case_file_is_rejected_with_file_and_line() {
    let original = dataset().dir.join("cases/s151_a_pos.pl");
    let source = std::fs::read_to_string(&original).unwrap();
    let dir = std::env::temp_dir().join(format!("lexlog-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s151_a_pos.pl");
    let cases = [
        ("amount_(alice_makes_money,100000).", "amount_(alice_makes_money,100000"),
        ("agent_(alice_makes_money,alice).", "agnt_(alice_makes_money,alice)."),
        ("start_(alice_makes_money,\"2015-01-01\").", "start_(alice_makes_money,\"2015-01-01)."),
        // A day no calendar has is an error, not a text.
        ("start_(alice_makes_money,\"2015-01-01\").", "start_(alice_makes_money,\"2015-13-01\")."),
    ];
    for (good, bad) in cases {
        let line = source.lines().position(|l| l == good).expect("fact present") + 1;
        std::fs::write(&path, source.replacen(good, bad, 1)).unwrap();
        let err = lexlog_data::sara::read_case_file(&path).unwrap_err().to_string();
        let want = format!("{}:{}:", path.display(), line);
        let near = format!("{}:{}:", path.display(), line + 1);
        assert!(err.starts_with(&want) || err.starts_with(&near), "{bad}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_erratum_applies_to_its_case() {
    let applied: Vec<&String> = dataset().cases.iter().flat_map(|c| &c.corrections).collect();
    assert_eq!(applied.len(), lexlog_data::errata::ERRATA.len(), "{applied:?}");
}
