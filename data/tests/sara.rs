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
