//! The solver never panics: on generated case IRs (well or badly typed) and
//! on arbitrary linear-form text, it answers or returns an error.

use lexlog_data::{linear, CaseIr, Domain, Event, EventKind, Fact, ForEach, Goal, Query, Role, Term, Value};
use lexlog_solver::Solver;
use proptest::prelude::*;
use std::sync::OnceLock;

fn solver() -> &'static Solver {
    static S: OnceLock<Solver> = OnceLock::new();
    S.get_or_init(|| Solver::new().unwrap())
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec!["ann", "ben", "cid", "flat", "\"cash\""]).prop_map(|s| Value::Name(s.into())),
        (-5i64..400_000).prop_map(Value::Int),
        (1990i32..2030, 1u32..=365).prop_map(|(y, d)| Value::Date(chrono::NaiveDate::from_yo_opt(y, d).unwrap())),
    ]
}

fn term() -> impl Strategy<Value = Term> {
    prop_oneof![4 => value().prop_map(Term::Value), 1 => Just(Term::Any)]
}

fn event() -> impl Strategy<Value = Fact> {
    (
        prop::option::of(prop::sample::select(EventKind::ALL.to_vec())),
        prop::sample::select(vec!["e1", "e2", "e3", "ann", "ben"]),
        prop::collection::vec((prop::sample::select(Role::ALL.to_vec()), term()), 0..5),
    )
        .prop_map(|(kind, id, roles)| Fact::Event(Event { kind, id: Term::name(id), roles }))
}

fn fact() -> impl Strategy<Value = Fact> {
    prop_oneof![
        4 => event(),
        1 => (2010i64..2020, 0i64..4, event()).prop_map(|(from, n, e)| Fact::ForEach(ForEach {
            var: "Y".into(),
            domain: Domain::Range { from, to: from + n },
            body: vec![e],
        })),
    ]
}

fn query() -> impl Strategy<Value = Query> {
    prop_oneof![
        (prop::sample::select(vec!["ann", "ben", "zed"]), 2010i64..2022).prop_map(|(p, y)| Query::Tax { person: p.into(), year: y }),
        (prop::sample::select(vec!["s1", "s2_b", "s7703", "s151_c", "s152_c_1", "s3306_a", "s63", "s9999_z"]), prop::collection::vec(term(), 0..6))
            .prop_map(|(p, args)| Query::Holds {
                goals: vec![Goal::Holds(lexlog_data::Assertion { pred: lexlog_data::Predicate::parse(p).unwrap(), args })]
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solver_never_panics_on_generated_cases(facts in prop::collection::vec(fact(), 0..10), q in prop::option::of(query())) {
        let ir = CaseIr { facts, query: q };
        let _ = solver().solve("generated", &ir);
    }

    #[test]
    fn solver_never_panics_on_text(text in "[a-z0-9_ =\n{}()\\[\\],.-]{0,120}") {
        if let Ok(ir) = linear::parse(&format!("{text}\nquery tax ann 2017\n")) {
            let _ = solver().solve("text", &ir);
        }
    }
}
